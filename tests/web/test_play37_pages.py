"""Issue 37, on the pages: "End the game now" against robots is asked first (GET shows what
it does and changes nothing; only the confirmation's POST, with CSRF, ends the game); the
time left beside whoever is to move, written by the server in the reader's zone and
language (game page, private page, /me); a header with the site's navigation on every
page. On SQLite."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

from pbem.app import db_engine
from pbem.present import i18n
from pbem.store.db import transaction
from pbem.store.models import Deadline, Player
from pbem.web.play.public import time_left
from tests.web.support import csrf_of, newest, seat_path, snapshot, start_game, state
from tests.web.test_signin import sign_in

_TIME = re.compile(r'<time class="due" datetime="([^"]+)">([^<]+)</time>')


def _you(app: Flask) -> str:
    return seat_path(newest(app, "pass").body_text)


def _due(app: Flask, game: int, seat: int = 0) -> datetime:
    with transaction(db_engine(app), read_only=True) as session:
        return session.exec(select(Deadline.due_at).where(
            Deadline.game_id == game, Deadline.seat_no == seat,
            Deadline.status == "pending")).one()


def _zone(app: Flask, zone: str) -> None:
    with transaction(db_engine(app)) as session:
        player = session.exec(select(Player).where(Player.email == "you@example.com")).one()
        player.time_zone = zone
        session.add(player)


def test_ending_a_game_against_robots_is_asked_first(app: Flask, client: FlaskClient) -> None:
    game = start_game(app)
    you = _you(app)
    html = client.get(you).get_data(as_text=True)
    assert f'href="{you}/end/confirm"' in html and "End the game now" in html
    assert 'name="vote" value="end"' not in html  # no one-tap end on the private page
    before = snapshot(app, game)
    ask = client.get(f"{you}/end/confirm")
    page = ask.get_data(as_text=True)
    assert ask.status_code == 200 and "End “Demo” now?" in page
    assert "before any hand is finished: there will be no scores and no winner" in page
    assert f'action="{you}/end"' in page and 'name="vote" value="end"' in page
    assert client.head(f"{you}/end/confirm").status_code == 200
    assert snapshot(app, game) == before and not state(app, game).game_over  # GET: nothing
    refused = client.post(f"{you}/end", data={"vote": "end"})  # no CSRF
    assert refused.status_code == 400 and snapshot(app, game) == before
    done = client.post(f"{you}/end", data={"csrf_token": csrf_of(page), "vote": "end"})
    assert done.status_code == 303 and state(app, game).ended_by_agreement
    after = client.get(f"{you}/end/confirm").get_data(as_text=True)
    assert "There is nothing to end here just now." in after
    assert 'name="vote"' not in after


def test_the_confirmation_page_is_in_the_readers_language(
        app: Flask, client: FlaskClient) -> None:
    start_game(app)
    you = _you(app)
    page = client.get(f"{you}/end/confirm",
                      headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert 'lang="de"' in page and "End the game now" not in page


def test_time_left_beside_whoever_is_to_move_in_the_readers_zone(
        app: Flask, client: FlaskClient) -> None:
    game = start_game(app)
    you = _you(app)
    _zone(app, "America/New_York")
    due = _due(app, game)
    html = client.get(you).get_data(as_text=True)
    shown = _TIME.findall(html)
    assert shown, "the private page shows the time left"
    iso, text = shown[0]
    assert datetime.fromisoformat(iso) == due.replace(microsecond=0)
    with app.test_request_context():
        expected = time_left(due, "America/New_York")["text"]
    assert text.startswith("due in ") and text.split(", ")[-1] == expected.split(", ")[-1]
    new_york = due.astimezone(ZoneInfo("America/New_York"))
    assert new_york.strftime("%H:%M") in text and new_york.strftime("%A") in text
    assert re.search(r'id="time-left".*?Your move, <time', html, re.S)
    # the public page: beside the name, in UTC for a reader not signed in
    public = client.get(f"/games/{game}").get_data(as_text=True)
    assert re.search(r"<bdi>You</bdi> to move, <time class=\"due\"", public)
    utc = due.astimezone(UTC)
    assert f"{utc:%A} {utc:%H:%M}" in _TIME.findall(public)[0][1]
    # /me, signed in: in the player's zone
    sign_in(app, client, "you@example.com")
    me = client.get("/me").get_data(as_text=True)
    (mine,) = _TIME.findall(me)
    assert f"{new_york:%A} {new_york:%H:%M}" in mine[1] and mine[1].startswith("due in ")
    # signed in, the public page is in the reader's zone too
    public = client.get(f"/games/{game}").get_data(as_text=True)
    assert f"{new_york:%A} {new_york:%H:%M}" in _TIME.findall(public)[0][1]


def test_time_left_in_the_readers_language(app: Flask) -> None:
    due = datetime(2026, 12, 22, 17, 0, tzinfo=UTC)  # a Tuesday
    now = datetime(2026, 12, 22, 14, 0, tzinfo=UTC)
    with app.test_request_context():
        assert time_left(due, "UTC", now) == {
            "iso": "2026-12-22T17:00:00+00:00", "text": "due in 3 hours, Tuesday 17:00"}
        assert time_left(due, "Europe/Berlin", now)["text"] == "due in 3 hours, Tuesday 18:00"
        with i18n.using("de"):
            german = time_left(due, "Europe/Berlin", now)["text"]
        assert "3 Stunden" in german and "Dienstag" in german and "18:00" in german
        late = time_left(due, "UTC", datetime(2026, 12, 23, tzinfo=UTC))["text"]
        assert late == "overdue since Tuesday 17:00"


def test_every_page_has_the_site_navigation(app: Flask, client: FlaskClient) -> None:
    game = start_game(app)
    you = _you(app)
    for path in ("/", "/lobby", "/signin", f"/games/{game}", you, f"{you}/end/confirm",
                 f"{you}/leave"):
        html = client.get(path).get_data(as_text=True)
        nav = re.search(r'<nav aria-label="Site" id="site-nav">(.*?)</nav>', html, re.S)
        assert nav, path
        for href, word in (("/", "Home"), ("/me", "My games"), ("/lobby", "Lobby"),
                           ("/new", "New game"), ("/signin", "Sign in")):
            assert f'<a href="{href}">{word}</a>' in nav.group(1), (path, word)
    sign_in(app, client, "you@example.com")
    html = client.get("/lobby").get_data(as_text=True)
    nav = re.search(r'<nav aria-label="Site" id="site-nav">(.*?)</nav>', html, re.S)
    assert nav and 'action="/signout"' in nav.group(1) and "Sign in</a>" not in nav.group(1)
    out = client.post("/signout", data={"csrf_token": csrf_of(nav.group(1))})
    assert out.status_code == 200 and "Sign in</a>" in out.get_data(as_text=True)
