"""Every error answer is a page of the site (templates/web/error.html, in its layout) saying in
words what went wrong and what to do, with the status code kept: an expired form (CSRF), a
request that can't be read (400), a page that isn't there (404; "no such game" for a game's
number), a form's address opened as a page (405), too many requests (429: how long to wait),
and a failure of ours (500). Blueprints may still answer with pages of their own (the play
pages' "Link not found").

Ids in URLs: `<int:...>` is `IdConverter` in every route, ASCII digits up to MAX_ID (ids are
INTEGER columns, 32-bit on PostgreSQL); a larger number matches no route, so a 404, and never
reaches the database (SQLite can't bind an int past 2**63: OverflowError, a 500)."""

from __future__ import annotations

import math
import time
from typing import Any

from flask import Flask, current_app, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.routing import IntegerConverter, Map

from pbem.present.i18n import _, lazy, ngettext

MAX_ID = 2**31 - 1  # the largest INTEGER on PostgreSQL; the ids' columns are INTEGER


def at_most(n: int) -> str:
    """A regular expression for the whole numbers from 0 to `n`, no leading zeros: a larger
    number then matches no route at all (a 404; a converter's ValidationError would answer
    405 where the same path has a rule for another method)."""
    digits = str(n)
    parts = ["0"] + ([f"[1-9][0-9]{{0,{len(digits) - 2}}}"] if len(digits) > 1 else [])
    for i, digit in enumerate(digits):
        low = 1 if i == 0 else 0
        if int(digit) > low:
            parts.append(f"{digits[:i]}[{low}-{int(digit) - 1}][0-9]{{{len(digits) - i - 1}}}")
    return "(?:" + "|".join([*parts, digits]) + ")"


class IdConverter(IntegerConverter):
    """Flask's `int` converter with ASCII digits only, at most MAX_ID: larger is no route."""

    regex = at_most(MAX_ID)

    def __init__(self, url_map: Map, fixed_digits: int = 0, min: int | None = None,
                 max: int | None = MAX_ID, signed: bool = False) -> None:
        super().__init__(url_map, fixed_digits, min, max, signed)


def init_error_pages(app: Flask) -> None:
    """Before the blueprints: their `<int:...>` rules take the converter when added."""
    app.url_map.converters["int"] = IdConverter
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(InternalServerError, server_error)


# The words of each client error answered with the site's page: (title, text).
_CLIENT_ERRORS = {
    400: (lazy("Please try again"),
          lazy("That request could not be read, so nothing was done.")),
    403: (lazy("Not allowed"), lazy("That is not yours to do (or you are no longer signed in), "
                                    "so nothing was done.")),
    405: (lazy("Not a page to open"), lazy("This address is for a form's button, not a page to "
                                           "open, so nothing was done.")),
    413: (lazy("Too much at once"), lazy("That request was too large, so nothing was done.")),
}


def http_error(error: HTTPException) -> ResponseReturnValue:
    if error.response is not None or (error.code or 500) < 400:  # a response of its own
        return error
    if isinstance(error, CSRFError):
        return expired_form()
    code = error.code or 500
    if code >= 500:
        return server_error(error)
    if code == 429:
        return too_many(error)
    return client_error(error, code)


def client_error(error: HTTPException, code: int) -> ResponseReturnValue:
    """A 4xx other than 429 and an expired form, in words (405 keeps its Allow header)."""
    title, text = _not_found() if code == 404 else _CLIENT_ERRORS.get(
        code, (error.name, _("That request could not be answered, so nothing was done.")))
    headers: dict[str, str] = {}
    valid_methods = getattr(error, "valid_methods", None)
    if code == 405 and valid_methods:
        headers["Allow"] = ", ".join(valid_methods)
    return page(code, str(title), str(text), back=_form_page()), code, headers


def expired_form() -> ResponseReturnValue:
    """A form whose security check (CSRF) failed: nearly always a page left open for long,
    or a session lost since (cookies cleared, the browser restarted)."""
    return page(400, _("This form has expired"), _(
        "Nothing was done: the form's security check failed. That happens when the page was "
        "open for a long time, or when the browser's cookies were cleared (or the browser "
        "restarted) since it was shown. Reload the page and try again."),
        back=_form_page(), back_words=_("Reload the page")), 400


def too_many(error: HTTPException) -> ResponseReturnValue:
    """429, from Flask-Limiter (its limit in the error; the window's end in its request
    state) or from the moves' own count (pbem.security.TooManyMoves: `retry_after`)."""
    seconds: int | None = getattr(error, "retry_after", None)
    limit = getattr(getattr(error, "limit", None), "limit", None)  # limits' RateLimitItem
    if seconds is None:
        limiter = current_app.extensions.get("pbem.limiter")
        current = getattr(limiter, "current_limit", None)
        if current is not None:
            seconds = int(current.reset_at - time.time())  # as Flask-Limiter's Retry-After
        elif limit is not None:
            seconds = int(limit.get_expiry())
    seconds = max(1, seconds or 60)
    if limit:
        text = _("Too many requests from your address just now (at most %(limit)s from one "
                 "address). Nothing was lost: wait %(wait)s, then try again.",
                 limit=_limit_words(limit), wait=_wait_words(seconds))
    else:
        text = _("Too many requests from your address just now. Nothing was lost: wait "
                 "%(wait)s, then try again.", wait=_wait_words(seconds))
    return page(429, _("Please wait a moment"), text, back=_form_page()), 429, \
        {"Retry-After": str(seconds)}


def server_error(error: Exception) -> ResponseReturnValue:
    """500 (an exception of ours, logged by Flask before this), or another 5xx raised."""
    code = getattr(error, "code", None) or 500
    text = _("Something went wrong on our side, and what you asked may not have been done. "
             "It has been logged. Please try again in a little while; if it keeps happening, "
             "the links in your newest Hearts email still work.")
    try:
        return page(code, _("Sorry, something went wrong"), text), code
    except Exception:  # noqa: BLE001 - the page itself failed: say it in plain text
        return f"{_('Sorry, something went wrong')}. {text}\n", code, {
            "Content-Type": "text/plain; charset=utf-8"}


def page(code: int, title: str, text: str, *, back: str | None = None,
         back_words: str | None = None) -> str:
    return render_template("web/error.html", code=code, title=title, text=text, back=back,
                           back_words=back_words or _("Back to the page"), links=_links())


def _not_found() -> tuple[str, str]:
    game_id = (request.view_args or {}).get("game_id")
    if isinstance(game_id, int):
        return _("No such game"), _("There is no game number %(game)s here. If a link brought "
                                    "you here, check it is complete; your games are listed in "
                                    "My games.", game=game_id)
    return _("Page not found"), _("There is no page at this address. If you typed it or "
                                  "copied it from an email, check it is complete.")


def _form_page() -> str | None:
    """The page a form posted here was on, as far as its address tells (there is no Referer:
    Referrer-Policy no-referrer): this address if it is also a page, else the nearest one
    above it (/s/<token>/away: /s/<token>). None for a page that was opened (GET)."""
    if request.method in ("GET", "HEAD"):
        return None
    try:
        adapter = current_app.url_map.bind_to_environ(request.environ)
    except Exception:  # noqa: BLE001 - no back link rather than an error page that fails
        return None
    path = request.path
    while path not in ("", "/"):
        try:
            adapter.match(path, method="GET")
            return request.script_root + path
        except HTTPException:
            path = path.rsplit("/", 1)[0]
    return None


def _links() -> list[tuple[str, str]]:
    """Where to go from an error page: the pages every visitor has."""
    endpoints = (("play.index", _("Hearts home")), ("lobby.lobby_page", _("The lobby")),
                 ("accounts.me", _("My games")))
    return [(url_for(e), words) for e, words in endpoints if e in current_app.view_functions]


def _wait_words(seconds: int) -> str:
    if seconds < 90:
        return ngettext("%(num)d second", "%(num)d seconds", seconds)
    if seconds < 3600:
        minutes = math.ceil(seconds / 60)
        return ngettext("%(num)d minute", "%(num)d minutes", minutes)
    hours = math.ceil(seconds / 3600)
    return ngettext("about %(num)d hour", "about %(num)d hours", hours)


def _limit_words(limit: Any) -> str:
    """A limits RateLimitItem in words: "3 requests a minute", "20 requests every 2 hours"."""
    unit, n, every = str(limit.GRANULARITY.name), int(limit.amount), int(limit.multiples)
    if every == 1:
        once = {"second": ngettext("%(num)d request a second", "%(num)d requests a second", n),
                "minute": ngettext("%(num)d request a minute", "%(num)d requests a minute", n),
                "hour": ngettext("%(num)d request an hour", "%(num)d requests an hour", n),
                "day": ngettext("%(num)d request a day", "%(num)d requests a day", n)}
        if unit in once:
            return once[unit]
    spans = {"second": ngettext("%(num)d second", "%(num)d seconds", every),
             "minute": ngettext("%(num)d minute", "%(num)d minutes", every),
             "hour": ngettext("%(num)d hour", "%(num)d hours", every),
             "day": ngettext("%(num)d day", "%(num)d days", every)}
    return _("%(requests)s every %(span)s",
             requests=ngettext("%(num)d request", "%(num)d requests", n),
             span=spans.get(unit, f"{every} {unit}s"))
