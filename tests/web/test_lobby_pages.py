"""The lobby's pages (issue 19): /new can leave seats open; the lobby lists a table once its
organiser is in (rules in words, pace, seats free, who plays), never an address; a signed-in
player joins with one button, or asks for quick play; the full table's loser is told so."""

from __future__ import annotations

from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import col, select

from pbem import service
from pbem.app import db_engine
from pbem.present.service_words import explain
from pbem.service import lobby
from pbem.service.errors import Said
from pbem.store.db import transaction
from pbem.store.models import Game, Seat
from tests.web.support import csrf_of, newest
from tests.web.test_create import form_data
from tests.web.test_signin import sign_in
from tests.web.test_signin_next import ask_with, confirm_link, full_link


def lobby_html(client: FlaskClient) -> str:
    return unescape(client.get("/lobby").get_data(as_text=True))


def test_a_game_made_with_open_seats_is_listed_once_confirmed_and_joined_by_a_click(
        app: Flask, client: FlaskClient) -> None:
    made = client.post("/new", data=form_data(client, p2_email="", p2_name="", p2_open="on",
                                              p3_open="on", p3_computer=None, p4_computer="on",
                                              move_hours="24"))
    assert made.status_code == 303
    with transaction(db_engine(app), read_only=True) as session:
        game = session.exec(select(Game)).one()
        seats = session.exec(select(Seat).order_by(col(Seat.seat_no))).all()
    assert [(s.invite_status, s.is_bot) for s in seats] == [
        ("invited", False), ("open", False), ("open", False), ("accepted", True)]
    assert "No table is looking for players" in lobby_html(client)  # not confirmed yet
    service.accept_invite(service.Context(engine=db_engine(app)), game.id or 0, 0)
    html = lobby_html(client)
    assert "<bdi>Hearts</bdi>: Standard Hearts (Black Lady)" in html and "1 day per move" in html
    assert "2 of 4 seats free" in html and "Playing: <bdi>Ann</bdi>" in html
    assert "4 players, 13 cards each." in html and "ann@example.com" not in html
    assert "sign in" in html and "Join Hearts" not in html  # not signed in: no button
    service.create_game(service.Context(engine=db_engine(app)), name="Other",
                        players=[service.Invitee("bob@example.com", "Bob", accepted=True)],
                        bot_seats=[1, 2, 3])  # Bob exists, so he can sign in
    sign_in(app, client, "bob@example.com")
    html = client.get("/lobby").get_data(as_text=True)
    joined = client.post(f"/lobby/{game.id}/join", data={"csrf_token": csrf_of(html)},
                         follow_redirects=True)
    assert "You have a seat. The game starts when every seat is taken" in unescape(
        joined.get_data(as_text=True))
    assert "Hearts" in joined.get_data(as_text=True)  # /me lists it
    assert "You sit at this table" in lobby_html(client)


def test_quick_play_from_the_lobby_and_a_full_table_says_so(app: Flask,
                                                            client: FlaskClient) -> None:
    ctx = service.Context(engine=db_engine(app))
    for email, name in (("ann@example.com", "Ann"), ("bob@example.com", "Bob")):
        service.create_game(ctx, name="Solo", players=[service.Invitee(email, name, True)],
                            bot_seats=[1, 2, 3])
    sign_in(app, client, "ann@example.com")
    html = client.get("/lobby").get_data(as_text=True)
    asked = client.post("/lobby/quick", data={"csrf_token": csrf_of(html), "preset": "standard",
                                              "pace": "24", "wait": "0"},
                        follow_redirects=True)
    assert "You have a seat" in unescape(asked.get_data(as_text=True))
    (table,) = lobby.open_tables(ctx)
    assert table.quick and table.free == 3
    bad = client.post("/lobby/quick", data={"csrf_token": csrf_of(html), "preset": "standard",
                                            "pace": "7", "wait": "0"}, follow_redirects=True)
    assert "Choose one of the paces and waits offered" in bad.get_data(as_text=True)
    again = client.post("/lobby/quick", data={"csrf_token": csrf_of(html), "preset": "club",
                                              "pace": "24", "wait": "0"}, follow_redirects=True)
    assert explain(Said(lobby.ONE_QUICK_TABLE)) in unescape(again.get_data(as_text=True))
    assert len(lobby.open_tables(ctx)) == 1
    assert lobby.top_up_tables(ctx) == [table.game_id]  # the worker's job: robots fill it
    other = app.test_client()
    sign_in(app, other, "bob@example.com")
    page = other.get("/lobby").get_data(as_text=True)
    full = other.post(f"/lobby/{table.game_id}/join", data={"csrf_token": csrf_of(page)},
                      follow_redirects=True)
    assert explain(Said(lobby.TABLE_FULL)) in unescape(full.get_data(as_text=True))


def test_an_open_seat_with_an_address_is_refused_in_words(app: Flask,
                                                          client: FlaskClient) -> None:
    refused = client.post("/new", data=form_data(client, p2_open="on"))
    assert refused.status_code == 422 and "an open seat waits for someone from the lobby" in \
        refused.get_data(as_text=True)


def solo_player(app: Flask, email: str, name: str) -> int:
    """A player who can sign in (they play a game against robots); their id."""
    out = service.create_game(service.Context(engine=db_engine(app)), name="Solo",
                              players=[service.Invitee(email, name, True)], bot_seats=[1, 2, 3])
    with transaction(db_engine(app), read_only=True) as session:
        return session.exec(select(Seat.player_id).where(Seat.game_id == out.game_id,
                                                         Seat.seat_no == 0)).one() or 0


def expire_the_session(client: FlaskClient) -> None:
    """The player's session ended while the page was open (the form's CSRF token is still
    good: the session cookie is there, without a player)."""
    with client.session_transaction() as session:
        session.pop("player_id")


QUICK = {"preset": "standard", "pace": "24", "wait": "0"}


@pytest.mark.parametrize(("path", "data", "sentence"), [
    ("/lobby/{game_id}/join", {}, "Sign in again to take a seat at a table"),
    ("/lobby/quick", QUICK, "Sign in again to find a table")])
def test_a_lobby_form_posted_after_the_session_ended_goes_to_sign_in_and_back(
        app: Flask, client: FlaskClient, path: str, data: dict[str, str], sentence: str) -> None:
    """Not a bare 403: /signin?next=/lobby with the reason, and nothing done; the emailed
    link then brings the player back to the lobby."""
    ctx = service.Context(engine=db_engine(app))
    ann, _bob = (solo_player(app, email, name) for email, name in (
        ("ann@example.com", "Ann"), ("bob@example.com", "Bob")))
    game_id = lobby.open_table(ctx, ann, name="Friday", preset="standard")
    sign_in(app, client, "bob@example.com")
    form = client.get("/lobby").get_data(as_text=True)
    expire_the_session(client)
    url = path.format(game_id=game_id)
    answer = client.post(url, data={"csrf_token": csrf_of(form), **data})
    assert answer.status_code == 303 and answer.headers["Location"] == "/signin?next=/lobby"
    signin = unescape(client.get(answer.headers["Location"]).get_data(as_text=True))
    assert f"{sentence}: the link we email you brings you back to where you were." in signin
    assert '<input type="hidden" name="next" value="/lobby">' in signin
    assert [t.free for t in lobby.open_tables(ctx)] == [3]  # no seat taken, no table opened
    gone = app.test_client()  # the session cookie itself is gone: no CSRF token to check
    answer = gone.post(url, data=data)
    assert answer.status_code == 303 and answer.headers["Location"] == "/signin?next=/lobby"
    ask_with(client, "bob@example.com", "/lobby")
    assert confirm_link(client, full_link(newest(app, "signin")))[0] == "/lobby"


def test_a_signed_in_player_still_needs_the_forms_csrf_token(app: Flask,
                                                               client: FlaskClient) -> None:
    solo_player(app, "bob@example.com", "Bob")
    sign_in(app, client, "bob@example.com")
    assert client.post("/lobby/quick", data=QUICK).status_code == 400
    assert lobby.open_tables(service.Context(engine=db_engine(app))) == []


@pytest.mark.parametrize("pace", ["²⁴", "２４", "①", "24²"])
def test_quick_play_with_digits_that_are_not_ascii_is_refused_in_words(
        app: Flask, client: FlaskClient, pace: str) -> None:
    """str.isdigit() says yes to "²" and "①", which int() cannot read (a 500 before)."""
    ctx = service.Context(engine=db_engine(app))
    service.create_game(ctx, name="Solo", players=[service.Invitee("ann@example.com", "Ann",
                                                                   True)], bot_seats=[1, 2, 3])
    sign_in(app, client, "ann@example.com")
    html = client.get("/lobby").get_data(as_text=True)
    for field in ("pace", "wait"):
        data = {"csrf_token": csrf_of(html), "preset": "standard", "pace": "24", "wait": "0",
                field: pace}
        bad = client.post("/lobby/quick", data=data, follow_redirects=True)
        assert bad.status_code == 200
        assert "Choose one of the paces and waits offered" in bad.get_data(as_text=True)
    assert lobby.open_tables(ctx) == []
