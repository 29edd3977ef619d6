"""What every response carries for safety (CSP, frame and referrer policies, HSTS in
production), the session cookie's flags, and the per-client rate limit on POSTs and /new."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer
from werkzeug.exceptions import TooManyRequests

if TYPE_CHECKING:
    from flask_limiter import Limiter

# The pages run no script at all; their CSS is one inline <style> block and a few style=
# attributes (colour swatches), hence 'unsafe-inline' for styles only. Forms post to this site.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HSTS = "max-age=31536000; includeSubDomains"
# Paths outside the per-client limit: the webhook (one mail provider posts everyone's mail,
# and it is signed) and what monitoring polls.
UNLIMITED_PATHS = ("/inbound", "/healthz", "/metrics")


def init_security(app: Flask) -> None:
    production = app.config["PBEM_ENV"] == "production"
    # Flask's defaults are HttpOnly, no SameSite, not Secure: Lax keeps the cookie off
    # cross-site posts; Secure once the site is on https (production requires it).
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.config["SESSION_COOKIE_SECURE"] = bool(app.config.get("SESSION_COOKIE_SECURE")) \
        or production
    app.session_interface = KeptSerializerSessions()
    # A signed-in session lasts this long from signing in (its row too: pbem.service.sessions).
    from pbem.service.sessions import LIFETIME

    app.config["PERMANENT_SESSION_LIFETIME"] = LIFETIME

    @app.after_request
    def security_headers(response: Response) -> Response:
        headers = response.headers
        headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        headers.setdefault("X-Frame-Options", "DENY")  # frame-ancestors for old browsers
        # Private and one-time links are bearer tokens: never send them on in a Referer.
        headers.setdefault("Referrer-Policy", "no-referrer")
        headers.setdefault("X-Content-Type-Options", "nosniff")
        if production:
            headers.setdefault("Strict-Transport-Security", HSTS)
        return response

    if app.config.get("PROXIES"):
        from werkzeug.middleware.proxy_fix import ProxyFix

        count = int(app.config["PROXIES"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count)  # type: ignore[method-assign]
    init_rate_limit(app)


class KeptSerializerSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, the same cookie, with the signing serializer made once
    per set of keys (secret key and fallbacks), not anew at each open and each save: a move,
    which opens the session (its CSRF token) and saves it (its flashed message), made two."""

    def __init__(self) -> None:
        self._kept: tuple[tuple[object, ...], URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, *(app.config["SECRET_KEY_FALLBACKS"] or ()))
        kept = self._kept
        if kept is None or kept[0] != keys:
            kept = self._kept = (keys, super().get_signing_serializer(app))
        return kept[1]


def rate_limited(path: str, method: str) -> bool:
    """Whether a request counts against its client's limit: every POST, and /new."""
    if path.startswith(UNLIMITED_PATHS):
        return False
    return method == "POST" or path == "/new"


# The move buttons (the private page's and the email links'): a game's hottest requests. With
# the database as the shared store they are counted in each web process's memory instead, so
# a move costs no counter writes (on SQLite, two more turns of the writer lock); see below.
MOVE_ENDPOINTS = frozenset({
    "play.seat_play", "play.seat_pass", "play.seat_moon", "play.seat_bid", "play.seat_suit",
    "play.seat_end", "play.link_action", "play.pass_action"})


def is_move() -> bool:
    return request.endpoint in MOVE_ENDPOINTS


def shared_storage(app: Flask) -> str:
    """The store every worker shares (PBEM_RATELIMIT_STORAGE_URL): `redis://...`, or pbem's
    database (the default, also named `database`)."""
    from pbem.ratelimit_store import DATABASE

    configured = str(app.config.get("RATELIMIT_STORAGE_URL") or "")
    return DATABASE if configured in ("", "database") else configured


def init_rate_limit(app: Flask) -> None:
    """Flask-Limiter, per client address: RATELIMIT over every limited request (see
    `rate_limited`), counted in the shared store, so every gunicorn worker sees the same count.

    One exception, when that store is pbem's database (the default): moves (MOVE_ENDPOINTS)
    count in a bucket of their own in each web process's memory (`MoveLimit`), i.e. up to one
    RATELIMIT per gunicorn worker. What emails people (/new, sign-in, invitations...) keeps the
    shared count. With Redis as the store everything counts there, in one bucket."""
    if app.testing and "RATELIMIT_ENABLED" not in app.config:
        # The suite posts far more than a person would; tests of the limit turn it on.
        app.config["RATELIMIT_ENABLED"] = False
    from pbem.ratelimit_store import DATABASE

    storage = shared_storage(app)
    apart = storage == DATABASE

    def shared_exempt() -> bool:
        return not rate_limited(request.path, request.method) or (apart and is_move())

    app.extensions["pbem.limiter"] = _limiter(app, storage, shared_exempt)
    if apart and app.config.get("RATELIMIT_ENABLED", True):
        app.before_request(MoveLimit(str(app.config["RATELIMIT"])).check)


class TooManyMoves(TooManyRequests):
    def __init__(self, retry_after: int) -> None:
        super().__init__()
        self.retry_after = retry_after


class MoveLimit:
    """The moves' count when the shared store is the database: per client address, fixed
    windows of RATELIMIT, in this process's memory (pbem.ratelimit_store.ProcessStorage).

    A before_request hook of a few dictionary operations: Flask-Limiter's per-request work
    (resolving limits, scopes, exemptions, headers) cost a move more than the count itself,
    on the hottest request there is (issue 15). Every limit is counted, as Flask-Limiter
    does; a refusal says when the longest window that refused ends (Retry-After)."""

    def __init__(self, limits_text: str) -> None:
        from limits import parse_many
        from limits.strategies import FixedWindowRateLimiter

        from pbem.ratelimit_store import ProcessStorage

        self.limits = parse_many(limits_text)
        self.storage = ProcessStorage()
        self.counter = FixedWindowRateLimiter(self.storage)

    def check(self) -> None:
        if not is_move() or request.method != "POST":
            return
        client = request.remote_addr or "127.0.0.1"
        refused = [limit for limit in self.limits
                   if not self.counter.hit(limit, "pbem-move", client)]
        if refused:
            ends = max(self.storage.get_expiry(limit.key_for("pbem-move", client))
                       for limit in refused)
            raise TooManyMoves(retry_after=max(1, math.ceil(ends - time.time())))


def _limiter(app: Flask, storage: str, exempt: Callable[[], bool]) -> Limiter:
    from flask_limiter import Limiter
    from flask_limiter.util import get_remote_address

    from pbem.ratelimit_store import storage_options

    limiter = Limiter(
        key_func=get_remote_address, app=app, storage_uri=storage,
        storage_options=storage_options(app, storage),
        application_limits=[str(app.config["RATELIMIT"])],
        headers_enabled=True, strategy="fixed-window", key_prefix="pbem",
    )
    # A request filter, not application_limits_exempt_when: an exempt request (a move, when
    # MoveLimit counts it) leaves before the limiter resolves any limit.
    limiter.request_filter(exempt)
    _skip_when_exempt(app, limiter, exempt)
    return limiter


def _skip_when_exempt(app: Flask, limiter: Limiter, exempt: Callable[[], bool]) -> None:
    """Flask-Limiter's before_request hook, called only for requests `exempt` does not let
    off. For one it lets off, the hook counts nothing (its filter answers the same) but still
    looks up the view, its exemption scopes and meta limits and sets up its per-request
    context: ~2.5% of a move's web CPU (py-spy, issue 15). The views it limits by decorator
    (STRICT_LIMITS) check their limit in the decorator, as before."""
    check = getattr(limiter, "_check_request_limit", None)  # Flask-Limiter's own hook
    hooks = app.before_request_funcs.get(None, [])
    if check is None or check not in hooks:  # disabled (no hook), or a version without it:
        return  # its hook stays as it is

    def check_unless_exempt() -> None:
        if not exempt():
            check()

    hooks[hooks.index(check)] = check_unless_exempt


# Views that email someone (an address typed by whoever posts), limited more strictly than
# the app-wide bucket, per client. The mailbox's own share, from every client and account
# together, is pbem.mail.strangers'.
MAILING = "5 per minute; 20 per hour"
STRICT_LIMITS = {"accounts.signin_ask": MAILING, "accounts.my_address": MAILING,
                 "addresses.add": MAILING, "takeover.join": MAILING,
                 "create.create_game": "5 per minute; 20 per hour"}


def limit_strictly(app: Flask) -> None:
    """Add STRICT_LIMITS to their views' POSTs (after the blueprints are registered)."""
    limiter = app.extensions["pbem.limiter"]
    for endpoint, limit in STRICT_LIMITS.items():
        view = app.view_functions.get(endpoint)
        if view is not None:  # the limit is checked by the wrapper, so it replaces the view
            app.view_functions[endpoint] = limiter.limit(limit, methods=["POST"])(view)
