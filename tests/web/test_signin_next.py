"""Signing in brings you back to where you were: a page that sends people to sign in passes
its path (`/signin?next=/games/12`), the form keeps it, the emailed link carries it, and the
link's POST lands there. Only a path of this site is kept: anything else (another site, "//",
"/\\", encoded slashes, schemes, control characters, very long) is dropped without a word and
the player lands on /me, so no link of ours redirects anywhere else. The link stays one-time and
its GET changes nothing, whatever `next` says."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.present.signin import NEXT_MAX, local_path
from pbem.store.models import OutboxEmail
from tests.web.support import csrf_of, newest, start_game
from tests.web.test_create import form_data
from tests.web.test_new_game_waits_pages import OPEN_TWO, confirm_by_link, the_game
from tests.web.test_signin import sign_in

_FULL_LINK = re.compile(r"https?://[^/\s]+(/signin/[A-Za-z0-9_-]+(?:\?next=\S+)?)")
_NEXT_FIELD = re.compile(r'<input type="hidden" name="next" value="([^"]*)">')

LOCAL = ["/", "/me", "/lobby", "/games/12", "/games/12/summary#rematch", "/lobby?x=1&y=2",
         "/games/12/rematch", "/" + "a" * (NEXT_MAX - 1)]
HOSTILE = ["https://evil.example/", "http:/evil.example", "//evil.example", "///evil.example",
           "/\\evil.example", "\\\\evil.example", "%2F%2Fevil.example", "/%2F%2Fevil.example",
           "/%5Cevil.example", "javascript:alert(1)", "JaVaScRiPt:alert(1)",
           "data:text/html,x", "/games/1\r\nSet-Cookie: planted=1", "/games/1\nLocation: //evil",
           "/\t/evil.example", "/\x00/evil.example", "/games/\x7f", " /games/1", "/games/ 1",
           "/gämes", "/\u2028/evil.example", "games/12", "", "/" + "a" * NEXT_MAX]


def full_link(mail: OutboxEmail) -> str:
    """The sign-in link's path and query, as the email gives it."""
    found = _FULL_LINK.search(mail.body_text)
    assert found, mail.body_text
    return found.group(1)


def ask_with(client: FlaskClient, address: str, next_value: str | None) -> str:
    """Ask for a link from /signin?next=..., as the form sends it; the answer's text."""
    query = "" if next_value is None else f"?next={quote(next_value, safe='')}"
    form = client.get(f"/signin{query}").get_data(as_text=True)
    data = {"csrf_token": csrf_of(form), "address": address}
    data.update(("next", unescape(kept)) for kept in _NEXT_FIELD.findall(form))
    answer = client.post("/signin", data=data)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_data(as_text=True)


def confirm_link(client: FlaskClient, link: str) -> tuple[str, str]:
    """Open the emailed link and press its button: (the Location, the page's next field)."""
    page = client.get(link).get_data(as_text=True)
    fields = _NEXT_FIELD.findall(page)
    data = {"csrf_token": csrf_of(page), **({"next": unescape(fields[0])} if fields else {})}
    done = client.post(link, data=data)
    assert done.status_code == 303, done.get_data(as_text=True)
    return done.headers["Location"], unescape(fields[0]) if fields else ""


@pytest.mark.parametrize("path", LOCAL)
def test_a_path_of_this_site_is_a_place_to_come_back_to(path: str) -> None:
    assert local_path(path) == path


@pytest.mark.parametrize("value", [*HOSTILE, None])
def test_anything_but_a_path_of_this_site_is_ignored(value: str | None) -> None:
    assert local_path(value) is None


def test_signing_in_from_a_page_lands_back_on_it(app: Flask, client: FlaskClient) -> None:
    """The whole way: the form keeps `next`, the email carries it, the button lands there."""
    game_id = start_game(app)
    form = client.get(f"/signin?next=/games/{game_id}").get_data(as_text=True)
    assert _NEXT_FIELD.findall(form) == [f"/games/{game_id}"]
    assert "brings you back to the page you were on" in form
    ask_with(client, "you@example.com", f"/games/{game_id}")
    mail = newest(app, "signin")
    link = full_link(mail)
    assert link.endswith(f"?next=/games/{game_id}")
    assert f"?next=/games/{game_id}" in (mail.body_html or "")
    assert client.get("/me").status_code == 303  # opening the link signed nobody in
    location, kept = confirm_link(client, link)
    assert kept == f"/games/{game_id}" and location == f"/games/{game_id}"
    assert client.get("/me").status_code == 200  # signed in
    assert client.get(location).status_code == 200


def test_a_path_with_a_query_and_a_fragment_comes_back_whole(app: Flask,
                                                             client: FlaskClient) -> None:
    start_game(app)
    ask_with(client, "you@example.com", "/lobby?x=1&y=2#rematch")
    link = full_link(newest(app, "signin"))
    assert "?next=/lobby%3Fx%3D1%26y%3D2%23rematch" in link  # one value, not three parameters
    assert confirm_link(client, link) == ("/lobby?x=1&y=2#rematch", "/lobby?x=1&y=2#rematch")


def test_without_next_the_player_lands_on_their_games(app: Flask, client: FlaskClient) -> None:
    start_game(app)
    ask_with(client, "you@example.com", None)
    link = full_link(newest(app, "signin"))
    assert "next" not in link
    assert confirm_link(client, link) == ("/me", "")


@pytest.mark.parametrize("value", HOSTILE)
def test_a_hostile_next_is_dropped_from_the_form_and_the_email(
        app: Flask, client: FlaskClient, value: str) -> None:
    start_game(app)
    form = client.get(f"/signin?next={quote(value, safe='')}").get_data(as_text=True)
    assert _NEXT_FIELD.findall(form) == [] and "evil" not in form
    posted = client.post("/signin", data={"csrf_token": csrf_of(form),
                                          "address": "you@example.com", "next": value})
    assert posted.status_code == 200 and "evil" not in posted.get_data(as_text=True)
    mail = newest(app, "signin")
    assert "next" not in full_link(mail) and "evil" not in (mail.body_html or "")
    assert "evil" not in mail.body_text


@pytest.mark.parametrize("value", HOSTILE)
def test_a_hostile_next_on_the_link_lands_on_my_games(app: Flask, client: FlaskClient,
                                                      value: str) -> None:
    """Put on the link by hand, or posted with its button: the redirect is /me all the same."""
    start_game(app)
    ask_with(client, "you@example.com", None)
    link = full_link(newest(app, "signin"))
    tampered = f"{link}?next={quote(value, safe='')}"
    page = client.get(tampered).get_data(as_text=True)
    assert _NEXT_FIELD.findall(page) == [] and "evil" not in page
    done = client.post(tampered, data={"csrf_token": csrf_of(page), "next": value})
    assert done.status_code == 303 and done.headers["Location"] == "/me"
    assert client.get("/me").status_code == 200


def test_raw_encoded_slashes_in_the_query_are_not_a_way_out(app: Flask,
                                                          client: FlaskClient) -> None:
    """`?next=%2F%2Fevil` reaches the app as "//evil" (one decoding), which is refused."""
    start_game(app)
    form = client.get("/signin?next=%2F%2Fevil.example").get_data(as_text=True)
    assert _NEXT_FIELD.findall(form) == []
    ask_with(client, "you@example.com", None)
    link = full_link(newest(app, "signin"))
    page = client.get(f"{link}?next=%2F%2Fevil.example").get_data(as_text=True)
    assert _NEXT_FIELD.findall(page) == []
    done = client.post(f"{link}?next=%2F%2Fevil.example",
                       data={"csrf_token": csrf_of(page), "next": "%2F%2Fevil.example"})
    assert done.headers["Location"] == "/me"


def test_next_changes_nothing_but_where_the_player_lands(app: Flask,
                                                         client: FlaskClient) -> None:
    """The link is still one-time and its GET still changes nothing, `next` or not; a bad name
    sends the form back with `next` kept and the link unused."""
    start_game(app)
    ask_with(client, "you@example.com", "/lobby")
    link = full_link(newest(app, "signin"))
    for _ in range(3):  # a mail scanner, then the player
        page = client.get(link)
        assert page.status_code == 200
    assert client.get("/me").status_code == 303
    token = csrf_of(page.get_data(as_text=True))
    bad = client.post(link, data={"csrf_token": token, "name": "x" * 201, "next": "/lobby"})
    assert bad.status_code == 422 and _NEXT_FIELD.findall(bad.get_data(as_text=True)) == \
        ["/lobby"]
    assert client.post(link, data={"csrf_token": token, "next": "/lobby"}).headers[
        "Location"] == "/lobby"
    other = app.test_client()
    other_page = other.get("/signin").get_data(as_text=True)
    used = other.post(link, data={"csrf_token": csrf_of(other_page), "next": "/lobby"})
    assert used.status_code == 410 and "has been used already" in used.get_data(as_text=True)
    assert signin_hrefs(used.get_data(as_text=True)) == ["/signin?next=/lobby"]  # a new one
    opened = other.get(link).get_data(as_text=True)
    assert "has been used already" in opened and signin_hrefs(opened) == ["/signin?next=/lobby"]


def test_signed_in_already_the_form_offers_the_way_back(app: Flask,
                                                        client: FlaskClient) -> None:
    start_game(app)
    sign_in(app, client)
    html = client.get("/signin?next=/lobby").get_data(as_text=True)
    assert 'href="/lobby">Go back to the page you were on</a>' in html
    hostile = client.get("/signin?next=//evil.example").get_data(as_text=True)
    assert "Go back" not in hostile and "evil" not in hostile


# --- every page that sends people to sign in says where they were ----------------------------

def signin_hrefs(html: str) -> list[str]:
    """The page's own ways to sign in (not the site header's plain "Sign in")."""
    html = re.sub(r'<nav aria-label="[^"]*" id="site-nav">.*?</nav>', "", html, flags=re.S)
    return [unescape(h) for h in re.findall(r'href="(/signin[^"]*)"', html)]


def test_the_lobby_sends_people_to_sign_in_and_back(app: Flask, client: FlaskClient) -> None:
    html = client.get("/lobby").get_data(as_text=True)
    assert signin_hrefs(html) == ["/signin?next=/lobby"] * 2


def test_the_rematch_page_and_its_button_send_people_to_sign_in_and_back(
        app: Flask, client: FlaskClient) -> None:
    game_id = start_game(app)
    back = f"/signin?next=/games/{game_id}/rematch"
    html = client.get(f"/games/{game_id}/rematch").get_data(as_text=True)
    assert signin_hrefs(html) == [back] and "it brings you back here" in html
    token = csrf_of(client.get("/signin").get_data(as_text=True))  # a form of ours, signed out
    pressed = client.post(f"/games/{game_id}/rematch", data={"csrf_token": token})
    assert pressed.status_code == 303 and pressed.headers["Location"] == back
    form = client.get(pressed.headers["Location"]).get_data(as_text=True)
    assert "the link brings you back here" in form  # the flashed sentence, shown at last
    assert _NEXT_FIELD.findall(form) == [f"/games/{game_id}/rematch"]


def test_deleting_the_account_signed_out_asks_to_sign_in_and_comes_back(
        app: Flask, client: FlaskClient) -> None:
    start_game(app)
    asked = client.get("/me/delete")
    assert asked.status_code == 303
    form = client.get(asked.headers["Location"]).get_data(as_text=True)
    assert _NEXT_FIELD.findall(form) == ["/me/delete"]


def test_the_organiser_signs_in_from_the_confirmed_page_and_lands_on_the_game(
        app: Flask, client: FlaskClient) -> None:
    """The round trip the organiser makes: confirm the game (not signed in), follow "sign
    in", read the link from the email, press the button, land on the game's page with the
    start-now button; the confirmed page's own address (a token) is never the way back."""
    client.post("/new", data=form_data(client, **OPEN_TWO, open_wait="never"))
    game, _ = the_game(app)
    confirmed = confirm_by_link(app, client)
    (href,) = signin_hrefs(confirmed)
    assert href == f"/signin?next=/games/{game.id}"
    form = client.get(href).get_data(as_text=True)
    data = {"csrf_token": csrf_of(form), "address": "ann@example.com",
            "next": _NEXT_FIELD.findall(form)[0]}
    assert client.post("/signin", data=data).status_code == 200
    location, _ = confirm_link(client, full_link(newest(app, "signin")))
    assert location == f"/games/{game.id}"
    page = unescape(client.get(location).get_data(as_text=True))
    assert "Start now with robots in the open seats" in page


def test_the_game_page_offers_its_organiser_the_way_to_sign_in_and_back(
        app: Flask, client: FlaskClient) -> None:
    client.post("/new", data=form_data(client, **OPEN_TWO, open_wait="never"))
    game, _ = the_game(app)
    confirm_by_link(app, client)
    html = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert signin_hrefs(html) == [f"/signin?next=/games/{game.id}"]
    sign_in(app, client, "ann@example.com")
    assert signin_hrefs(client.get(f"/games/{game.id}").get_data(as_text=True)) == []
