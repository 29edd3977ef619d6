"""From the private view: nudge the player everyone waits for, set and clear away dates,
resume a paused game, take a held seat back, leave the game (asked first). POSTs with CSRF
only; GET shows the forms and changes nothing."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

from pbem import service
from pbem.app import db_engine
from pbem.store.db import transaction
from pbem.store.models import Away, Game, Seat
from tests.web.support import csrf_of, newest, outbox, seat_path


def _two_people(app: Flask) -> int:
    """Ann and Bob with two robots; Ann passes at once, so everyone waits for Bob."""
    with app.app_context():
        ctx = service.Context(engine=db_engine(app), rng=service.make_rng(5))
        players = [service.Invitee("ann@example.org", "Ann", accepted=True),
                   service.Invitee("bob@example.org", "Bob", accepted=True)]
        return service.create_game(ctx, name="Two", players=players,
                                   bot_seats=(2, 3), robot_strength="easy").game_id


def _ann_path(app: Flask) -> str:
    pass_mails = [m for m in outbox(app) if m.kind == "pass" and m.to_addr == "ann@example.org"]
    return seat_path(pass_mails[-1].body_text)


def _pass(app: Flask, client: FlaskClient, path: str) -> None:
    import re

    html = client.get(path).get_data(as_text=True)
    cards = re.findall(r'name="cards" value="(\w+)"', html)[:3]
    seq = re.search(r'name="turn" value="(\d+)"', html)
    response = client.post(f"{path}/pass", data={"csrf_token": csrf_of(html), "cards": cards,
                                                 "turn": seq.group(1) if seq else ""})
    assert response.status_code == 303


def test_a_waiting_player_nudges_the_one_everyone_waits_for_once(
        app: Flask, client: FlaskClient) -> None:
    _two_people(app)
    path = _ann_path(app)
    _pass(app, client, path)
    html = client.get(path).get_data(as_text=True)
    assert "Nudge Bob" in html
    before = len(outbox(app))
    first = client.post(f"{path}/nudge", data={"csrf_token": csrf_of(html)})
    assert first.status_code == 303
    assert "friendly nudge" in client.get(path).get_data(as_text=True)
    assert newest(app, "nudge").to_addr == "bob@example.org"
    again = client.post(f"{path}/nudge", data={"csrf_token": csrf_of(html)})
    assert again.status_code == 303
    assert len([m for m in outbox(app)[before:] if m.kind == "nudge"]) == 1
    assert client.post(f"{path}/nudge").status_code == 400  # no CSRF token


def test_away_dates_are_set_and_cleared_from_the_private_view(
        app: Flask, client: FlaskClient) -> None:
    _two_people(app)
    path = _ann_path(app)
    html = client.get(path).get_data(as_text=True)
    assert "Tell the game I" in html
    bad = client.post(f"{path}/away", data={"csrf_token": csrf_of(html), "start": "soon",
                                            "end": ""})
    assert bad.status_code == 303 and "Give both away dates" in client.get(path).get_data(
        as_text=True)
    done = client.post(f"{path}/away", data={"csrf_token": csrf_of(html),
                                             "start": "2030-12-20", "end": "2030-12-28"})
    assert done.status_code == 303
    page = client.get(path).get_data(as_text=True)
    assert "20 December 2030" in page and "28 December 2030" in page
    with transaction(db_engine(app), read_only=True) as session:
        assert len(session.exec(select(Away)).all()) == 1
    client.post(f"{path}/away/clear", data={"csrf_token": csrf_of(html)})
    with transaction(db_engine(app), read_only=True) as session:
        assert session.exec(select(Away)).all() == []


def test_a_paused_game_can_be_resumed_from_the_private_view(
        app: Flask, client: FlaskClient) -> None:
    game_id = _two_people(app)
    with transaction(db_engine(app)) as session:
        game = session.get(Game, game_id)
        assert game is not None
        game.status = "paused"
    path = _ann_path(app)
    html = client.get(path).get_data(as_text=True)
    assert "Resume the game" in html and html.count("paused") == 1  # said once, with why
    assert "anyone at the table can resume it" in html
    assert client.post(f"{path}/resume", data={"csrf_token": csrf_of(html)}).status_code == 303
    with transaction(db_engine(app), read_only=True) as session:
        game = session.get(Game, game_id)
        assert game is not None and game.status == "active"
    again = client.post(f"{path}/resume", data={"csrf_token": csrf_of(html)},
                        follow_redirects=True).get_data(as_text=True)
    assert "This game is not paused: it goes on already." in again  # a second tab, say


def test_leaving_is_asked_first_then_a_robot_plays_and_the_others_are_told(
        app: Flask, client: FlaskClient) -> None:
    game_id = _two_people(app)
    path = _ann_path(app)
    html = client.get(path).get_data(as_text=True)
    assert f'href="{path}/leave"' in html and "Leave this game" in html
    before = len(outbox(app)), _seat_of(app, game_id, 0)
    ask = client.get(f"{path}/leave")  # GET only asks
    assert ask.status_code == 200 and client.head(f"{path}/leave").status_code == 200
    page = ask.get_data(as_text=True)
    assert "a robot plays your seat from now on" in page
    assert "no longer counts for your rating" in page
    assert client.post(f"{path}/leave").status_code == 400  # no CSRF token
    assert (len(outbox(app)), _seat_of(app, game_id, 0)) == before
    done = client.post(f"{path}/leave", data={"csrf_token": csrf_of(page)})
    assert done.status_code == 303 and done.headers["Location"].endswith(path)
    seat = _seat_of(app, game_id, 0)
    assert seat.is_bot and seat.player_id is not None  # the record keeps who sat there
    (told,) = outbox(app, "player_left")  # Bob, the other person; not Ann, not the robots
    assert told.to_addr == "bob@example.org"
    assert "Ann left \"Two\"" in told.body_text and "A robot plays seat 1" in told.body_text
    left = client.get(path)
    assert left.status_code == 410
    assert "You left this game on " in left.get_data(as_text=True)
    again = client.post(f"{path}/leave", data={"csrf_token": csrf_of(page)})
    assert again.status_code == 410 and len(outbox(app, "player_left")) == 1
    assert "Robot 1" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_finished_game_has_nothing_to_leave(app: Flask, client: FlaskClient) -> None:
    game_id = _two_people(app)
    path = _ann_path(app)
    with transaction(db_engine(app)) as session:
        game = session.get(Game, game_id)
        assert game is not None
        game.status = "finished"
        session.add(game)
    assert "Leave this game" not in client.get(path).get_data(as_text=True)
    page = client.get(f"{path}/leave").get_data(as_text=True)
    main = page.split("<footer", 1)[0]  # the footer's language switch has its own form
    assert "nothing to leave" in page and 'name="csrf_token"' not in main


def _seat_of(app: Flask, game_id: int, seat_no: int) -> Seat:
    with transaction(db_engine(app), read_only=True) as session:
        return session.exec(select(Seat).where(Seat.game_id == game_id,
                                               Seat.seat_no == seat_no)).one()
