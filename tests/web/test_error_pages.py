"""Every error answer is a page of the site, in its layout, saying in words what happened and
what to do, with its status code: an expired form (the session lost: cookies cleared, a
browser restart), 400, 404, 405, 429 (how long to wait) and 500; and ids in URLs past the
database's INTEGER are a 404 on every `<int:...>` route, never a 500 (browser QA findings 8
and 15)."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from html import unescape
from pathlib import Path

import pytest
from flask import Flask, abort
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from pbem.app import create_app
from pbem.web.errors import MAX_ID, IdConverter
from tests.conftest import base_config
from tests.web.support import csrf_of, outbox
from tests.web.test_addresses import confirm_link
from tests.web.test_seat_actions import _ann_path, _two_people

LAYOUT = '<header class="site">'


def _id_rules() -> list[tuple[str, str, str]]:
    """(rule, its id argument, a method) for every route with an int argument: read from the
    app itself, so a route added later is covered too."""
    with tempfile.TemporaryDirectory() as folder:
        cfg = base_config(Path(folder), f"sqlite:///{folder}/x.sqlite3")
        app = create_app({**cfg, "PBEM_ENV": "development"})  # the dev mail catcher's too
        found = []
        for rule in app.url_map.iter_rules():
            ints = [name for name, conv in rule._converters.items()
                    if isinstance(conv, IdConverter)]
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                found += [(rule.rule, name, method) for name in ints]
        return found


ID_RULES = _id_rules()


def test_the_id_routes_found_include_those_the_qa_pass_named() -> None:
    named = {(rule, method) for rule, _name, method in ID_RULES}
    assert {("/games/<int:game_id>", "GET"), ("/games/<int:game_id>/summary", "GET"),
            ("/games/<int:game_id>/created", "GET"), ("/g/<int:game_id>", "GET"),
            ("/lobby/<int:game_id>/join", "POST"), ("/games/<int:game_id>/start-now", "POST"),
            ("/games/<int:game_id>/rematch", "POST"), ("/me/seat/<int:game_id>", "POST")
            } <= named


@pytest.fixture
def db_app(make_app: Callable[..., Flask], db_url: str) -> Flask:
    return make_app(DATABASE_URL=db_url, PROPAGATE_EXCEPTIONS=False)


@pytest.mark.parametrize(("rule", "name", "method"), ID_RULES)
def test_an_id_past_the_database_integer_is_a_404_on_every_id_route(
        db_app: Flask, rule: str, name: str, method: str) -> None:
    client = db_app.test_client()
    for huge in (MAX_ID + 1, 2**63, 99999999999999999999999, "9" * 5000, "١٢"):
        url = rule.replace(f"<int:{name}>", str(huge))
        response = client.open(url, method=method)
        assert response.status_code == 404, (url, method)
        assert LAYOUT in response.get_data(as_text=True)
    largest = client.open(rule.replace(f"<int:{name}>", str(MAX_ID)), method=method)
    assert largest.status_code < 500  # a number the column holds: looked up, not there


@pytest.mark.parametrize("url", ["/games/abc", "/nothing/here", "/games/-1"])
def test_an_unknown_address_is_the_sites_not_found_page(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 404 and LAYOUT in html
    assert "There is no page at this address" in html and 'href="/lobby"' in html


@pytest.mark.parametrize("url", ["/games/999", "/games/999/created", "/games/999/summary",
                                 "/g/999"])
def test_a_game_that_does_not_exist_is_named(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 404 and LAYOUT in html
    assert "No such game" in html and "There is no game number 999 here." in html


def test_a_private_link_that_leads_nowhere_keeps_its_own_page(client: FlaskClient) -> None:
    response = client.get("/s/nosuchtoken")
    assert response.status_code == 404 and "Link not found" in response.get_data(as_text=True)


def _expired(response: TestResponse, back: str | None) -> None:
    assert response.status_code == 400
    html = unescape(response.get_data(as_text=True))
    assert LAYOUT in html and "This form has expired" in html
    assert "Reload the page and try again." in html
    assert "CSRF" not in html and "Bad Request" not in html
    if back is not None:
        assert f'<a class="button" href="{back}">Reload the page</a>' in html


def test_every_form_of_the_private_page_says_it_expired_when_the_session_is_lost(
        app: Flask, client: FlaskClient) -> None:
    """The QA pass: clear the cookies (a browser restart) with the page open, then press a
    button. Each form says the page has expired and links back to the private page."""
    _two_people(app)
    path = _ann_path(app)
    client.get(path)
    for action in ("away", "nudge", "resume", "address", "away/clear", "end", "play", "pass"):
        lost = app.test_client()  # no cookie: the session is gone
        response = lost.post(f"{path}/{action}", data={"csrf_token": "stale", "turn": "1"})
        if response.status_code == 404:
            continue  # no such form in this version
        _expired(response, path)


def test_the_address_confirmation_link_says_it_expired(app: Flask, client: FlaskClient) -> None:
    _two_people(app)
    path = _ann_path(app)
    html = client.get(path).get_data(as_text=True)
    client.post(f"{path}/address", data={"csrf_token": csrf_of(html),
                                         "address": "ann@phone.example"})
    link = confirm_link(app, "ann@phone.example")
    _expired(app.test_client().post(link, data={"csrf_token": "stale"}), link)


@pytest.mark.parametrize(("url", "back"), [("/lobby/quick", "/lobby"), ("/me/away", "/me"),
                                           ("/games/1/start-now", None)])
def test_other_forms_say_it_expired_too(app: Flask, url: str, back: str | None) -> None:
    from tests.web.test_signin import sign_in

    client = app.test_client()
    sign_in(app, client, "ann@example.com")
    response = client.post(url, data={"csrf_token": "stale"})
    _expired(response, back)


def test_a_request_that_cannot_be_read_is_the_sites_page(client: FlaskClient) -> None:
    html = client.get("/new").get_data(as_text=True)
    response = client.post("/new", data={"csrf_token": csrf_of(html), "preset": "nope"})
    text = unescape(response.get_data(as_text=True))
    assert response.status_code == 400 and LAYOUT in text
    assert "That request could not be read, so nothing was done." in text
    assert '<a class="button" href="/new">Back to the page</a>' in text


def test_a_form_address_opened_as_a_page_is_a_405_page(client: FlaskClient) -> None:
    response = client.get("/lobby/quick")
    text = unescape(response.get_data(as_text=True))
    assert response.status_code == 405 and "POST" in response.headers["Allow"]
    assert LAYOUT in text and "This address is for a form's button" in text


def test_a_failure_of_ours_is_a_500_page(make_app: Callable[..., Flask]) -> None:
    app = make_app(PROPAGATE_EXCEPTIONS=False)

    def boom() -> str:
        raise RuntimeError("a bug")

    def unavailable() -> str:
        abort(503)

    app.add_url_rule("/test-boom", view_func=boom, methods=["GET", "POST"])
    app.add_url_rule("/test-unavailable", view_func=unavailable)
    for method in ("GET", "POST"):
        response = app.test_client().open("/test-boom", method=method)
        text = unescape(response.get_data(as_text=True))
        assert response.status_code == 500 and LAYOUT in text
        assert "Sorry, something went wrong" in text and "a bug" not in text
    response = app.test_client().get("/test-unavailable")
    assert response.status_code == 503 and LAYOUT in response.get_data(as_text=True)


def test_too_many_requests_says_how_long_to_wait(make_app: Callable[..., Flask]) -> None:
    client = make_app(RATELIMIT="2 per minute", RATELIMIT_ENABLED=True).test_client()
    for _ in range(2):
        client.post("/new", data={})
    refused = client.post("/new", data={})
    text = unescape(refused.get_data(as_text=True))
    assert refused.status_code == 429 and LAYOUT in text
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 60
    said = re.search(r"at most 2 requests a minute from one address\)\. Nothing was lost: "
                     r"wait (\d+) seconds?, then try again\.", text)
    assert said, text
    assert int(said[1]) == wait


def test_the_moves_own_limit_says_how_long_to_wait_too(app: Flask) -> None:
    from pbem.security import TooManyMoves
    from pbem.web.errors import http_error

    with app.test_request_context("/s/x/play", method="POST"):
        body, code, headers = http_error(TooManyMoves(125))  # type: ignore[misc]
    assert code == 429 and headers == {"Retry-After": "125"}
    assert "wait 3 minutes, then try again" in unescape(str(body))


def test_error_pages_send_nothing(app: Flask, client: FlaskClient) -> None:
    before = len(outbox(app))
    client.get("/nothing")
    client.post("/lobby/quick")
    assert len(outbox(app)) == before


def test_the_id_pattern_takes_exactly_the_numbers_up_to_its_bound() -> None:
    from pbem.web.errors import at_most

    for bound in (0, 7, 10, 99, 100, 305, 1000):
        pattern = re.compile(at_most(bound))
        assert [n for n in range(3000) if pattern.fullmatch(str(n))] == list(range(bound + 1))
    pattern = re.compile(at_most(MAX_ID))
    for n in (MAX_ID - 1, MAX_ID, MAX_ID + 1, 1_999_999_999, 2_000_000_000, 2_147_483_639,
              2_147_483_650, 9_999_999_999, 10**10):
        assert bool(pattern.fullmatch(str(n))) is (n <= MAX_ID), n
    assert not pattern.fullmatch("007") and not pattern.fullmatch("١٢")


def test_the_favicon_is_a_small_cached_icon(client: FlaskClient) -> None:
    """Browsers ask for /favicon.ico on every page: a 404 each time before."""
    response = client.get("/favicon.ico")
    body = response.get_data()
    assert response.status_code == 200 and response.mimetype == "image/x-icon"
    assert body[:6] == b"\0\0\1\0\1\0" and body[22:30] == b"\x89PNG\r\n\x1a\n"
    assert response.cache_control.max_age == 7 * 24 * 3600 and response.cache_control.public
    assert "img-src 'self'" in response.headers["Content-Security-Policy"]
    assert len(body) < 1024
