"""Every page's safety headers, the session cookie's flags, and the per-client rate limit on
POSTs and /new (counted in the database, so every gunicorn worker shares it)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable

import pytest
from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature, URLSafeTimedSerializer

from pbem.logs import incoming_request_id
from pbem.security import CONTENT_SECURITY_POLICY, KeptSerializerSessions
from tests.settings import PRODUCTION_SAFE


def test_pages_carry_csp_frame_referrer_and_nosniff_headers(app: Flask) -> None:
    for path in ("/", "/new", "/s/not-a-token"):
        headers = app.test_client().get(path).headers
        assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert "script-src" not in headers["Content-Security-Policy"]  # default-src 'none'
        assert headers["Referrer-Policy"] == "no-referrer"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert "Strict-Transport-Security" not in headers  # development: plain http
        assert headers["X-Request-ID"]


def _session_cookie(app: Flask) -> str:
    response = app.test_client().get("/new")  # the form's CSRF token lives in the session
    cookies = [v for k, v in response.headers.items() if k == "Set-Cookie"]
    assert cookies, "the form page set no session cookie"
    return cookies[0]


def test_the_session_cookie_is_httponly_and_samesite_lax(app: Flask) -> None:
    cookie = _session_cookie(app)
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # development runs on plain http


def test_production_adds_secure_cookies_and_hsts(make_app: Callable[..., Flask]) -> None:
    app = make_app(**PRODUCTION_SAFE)
    assert "Secure" in _session_cookie(app)
    hsts = app.test_client().get("/").headers["Strict-Transport-Security"]
    assert hsts.startswith("max-age=31536000")


def test_a_request_id_from_the_proxy_is_kept_when_plain(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/", headers={"X-Request-ID": "abc-123"}).headers["X-Request-ID"] \
        == "abc-123"
    odd = client.get("/", headers={"X-Request-ID": "a b\x01"}).headers["X-Request-ID"]
    assert odd != "a b\x01" and len(odd) == 32


def test_session_cookies_are_flasks_own_and_follow_a_new_secret_key(app: Flask) -> None:
    kept = app.session_interface
    assert isinstance(kept, KeptSerializerSessions)
    signed = _serializer(kept, app).dumps({"csrf_token": "abc"})
    assert _serializer(SecureCookieSessionInterface(), app).loads(signed) == {"csrf_token": "abc"}
    old_key, app.secret_key = app.secret_key, "a new secret key"
    with pytest.raises(BadSignature):
        _serializer(kept, app).loads(signed)
    app.config["SECRET_KEY_FALLBACKS"] = [old_key]
    assert _serializer(kept, app).loads(signed) == {"csrf_token": "abc"}


def _serializer(sessions: SecureCookieSessionInterface, app: Flask) -> URLSafeTimedSerializer:
    serializer = sessions.get_signing_serializer(app)
    assert serializer is not None
    return serializer


def test_new_request_ids_differ_in_each_forked_worker() -> None:
    """gunicorn forks its workers from a preloaded master: each must make ids of its own."""
    context = multiprocessing.get_context("fork")
    with context.Pool(2) as pool:
        ids = pool.map(_new_ids, range(4))
    made = [i for batch in ids for i in batch] + _new_ids(0)
    assert len(set(made)) == len(made)
    assert all(len(i) == 32 and int(i, 16) >= 0 for i in made)


def _new_ids(_n: int) -> list[str]:
    return [incoming_request_id(None) for _ in range(3)]


def _limited_app(make_app: Callable[..., Flask], db_url: str) -> Flask:
    return make_app(DATABASE_URL=db_url, RATELIMIT="3 per minute", RATELIMIT_ENABLED=True)


def test_a_client_is_limited_on_posts_and_new_with_a_friendly_answer(
    make_app: Callable[..., Flask], db_url: str
) -> None:
    client = _limited_app(make_app, db_url).test_client()
    answers = [client.post("/new", data={}).status_code for _ in range(3)]
    assert 429 not in answers
    refused = client.post("/new", data={})
    assert refused.status_code == 429
    assert "Too many requests" in refused.get_data(as_text=True)
    assert refused.headers["Retry-After"]
    assert client.get("/new").status_code == 429  # /new is limited on GET too
    assert client.get("/").status_code == 200  # other pages are not
    other = client.post("/new", data={}, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code != 429  # another client has its own count


def test_every_worker_sharing_the_database_shares_the_count(
    make_app: Callable[..., Flask], db_url: str
) -> None:
    """Two apps on one database stand for two gunicorn workers: the count is shared."""
    first, second = (_limited_app(make_app, db_url).test_client() for _ in range(2))
    assert first.post("/new", data={}).status_code != 429
    assert second.post("/new", data={}).status_code != 429
    assert first.post("/new", data={}).status_code != 429
    assert second.post("/new", data={}).status_code == 429


def test_the_signed_webhook_is_not_limited(make_app: Callable[..., Flask], db_url: str) -> None:
    client = _limited_app(make_app, db_url).test_client()
    answers = [client.post("/inbound", data=b"x").status_code for _ in range(5)]
    assert 429 not in answers
