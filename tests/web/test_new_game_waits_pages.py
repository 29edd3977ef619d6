"""/new asks how long open seats wait for people (a day unless changed; counted from the
organiser's confirmation), and the game's page lets its organiser, signed in, start it now
with robots in the seats not taken; anyone else signed in is refused in words (403), and
someone signed out is sent to sign in and back to the page. The page the organiser lands on
once they confirm says when robots take the open seats, and offers the way to start now (the
form if signed in, else the game's page); an invitee who accepts is told when robots take
them too, and offered nothing more. A game whose every seat is invited is no exception: a
declined seat waits as long as the organiser chose, then robots take it."""

from __future__ import annotations

from datetime import timedelta
from html import unescape

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import col, select

from pbem import service
from pbem.app import db_engine
from pbem.store.db import transaction
from pbem.store.models import Game, Player, Seat
from pbem.store.types import utcnow
from pbem.zones import deadline_text
from tests.web.support import csrf_of
from tests.web.test_create import form_data
from tests.web.test_invitations import _answer, _answer_links
from tests.web.test_signin import sign_in

OPEN_TWO = {"p2_email": "", "p2_name": "", "p2_open": "on", "p3_computer": None,
            "p3_open": "on"}  # Ann organises, seats 2 and 3 open, seat 4 a computer


def the_game(app: Flask) -> tuple[Game, list[Seat]]:
    with transaction(db_engine(app), read_only=True) as session:
        game = session.exec(select(Game).order_by(col(Game.id).desc())).first()
        assert game is not None
        seats = session.exec(select(Seat).where(Seat.game_id == game.id)
                             .order_by(col(Seat.seat_no))).all()
        return game, list(seats)


def confirm(app: Flask, game_id: int) -> None:
    service.accept_invite(service.Context(engine=db_engine(app)), game_id, 0)


def open_seat_and_cy(app: Flask, client: FlaskClient, open_wait: str) -> int:
    """Ann's game, confirmed: seat 2 open for `open_wait`, Cy invited to seat 3 (no answer
    yet), seat 4 a computer. Its id."""
    client.post("/new", data=form_data(client, p2_email="", p2_name="", p2_open="on",
                                       p3_computer=None, p3_email="cy@example.com",
                                       p3_name="Cy", open_wait=open_wait))
    game, _ = the_game(app)
    confirm(app, game.id or 0)
    return game.id or 0


def page(client: FlaskClient, game_id: int) -> str:
    return unescape(client.get(f"/games/{game_id}").get_data(as_text=True))


def test_the_form_offers_waits_for_open_seats_a_day_by_default(app: Flask,
                                                                client: FlaskClient) -> None:
    html = client.get("/new").get_data(as_text=True)
    assert '<option value="1440" selected>1 day</option>' in html
    for value in ("60", "240", "4320", "never"):
        assert f'<option value="{value}">' in html
    refused = client.post("/new", data=form_data(client, **OPEN_TWO, open_wait="7"))
    assert refused.status_code == 422
    assert "Choose how long the seats nobody takes wait for people." in refused.get_data(
        as_text=True)
    never = client.post("/new", data=form_data(client, **OPEN_TWO, open_wait="never"))
    assert never.status_code == 303
    game, _ = the_game(app)
    assert (game.fill_wait_minutes, game.fill_by) == (None, None)


def test_the_wait_chosen_starts_when_the_organiser_confirms(app: Flask,
                                                            client: FlaskClient) -> None:
    made = client.post("/new", data=form_data(client, **OPEN_TWO, open_wait="240"))
    assert made.status_code == 303
    game, seats = the_game(app)
    assert (game.fill_wait_minutes, game.fill_by) == (240, None)  # not confirmed yet
    assert game.organiser_id is not None and game.organiser_id == seats[0].player_id
    before = utcnow()
    confirm(app, game.id or 0)
    game, _ = the_game(app)
    assert game.fill_by is not None
    assert before + timedelta(hours=4) <= game.fill_by <= utcnow() + timedelta(hours=4)
    html = page(client, game.id or 0)
    assert "Robots take the seats still open on" in html
    assert "Start now" not in html and "The organiser, signed in, can start" in html


def test_the_organiser_starts_now_from_the_game_page_and_nobody_else_can(
        app: Flask, client: FlaskClient) -> None:
    game_id = open_seat_and_cy(app, client, "never")
    assert "No robots take the open seats by time" in page(client, game_id)
    cy_link = _answer_links(app, "cy@example.com")["accept"]
    other = app.test_client()  # Cy, invited, has not answered: not the organiser either
    sign_in(app, other, "cy@example.com")
    html = page(other, game_id)
    assert "Start now" not in html
    refused = other.post(f"/games/{game_id}/start-now", data={"csrf_token": csrf_of(
        other.get("/me").get_data(as_text=True))})
    assert refused.status_code == 403
    assert "Only the organiser of this game" in unescape(refused.get_data(as_text=True))
    stranger = app.test_client()  # not signed in at all: to sign in, and back to the page
    token = csrf_of(stranger.get("/signin").get_data(as_text=True))
    answer = stranger.post(f"/games/{game_id}/start-now", data={"csrf_token": token})
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/signin?next=/games/{game_id}"
    assert other.post(f"/games/{game_id}/start-now").status_code == 400  # no CSRF token
    assert the_game(app)[0].status == "inviting"

    sign_in(app, client, "ann@example.com")
    html = page(client, game_id)
    assert "Start now with robots in the seats not taken" in html
    started = client.post(f"/games/{game_id}/start-now", data={"csrf_token": csrf_of(html)},
                          follow_redirects=True)
    assert started.status_code == 200
    assert "The game has started: robots took the seats not taken" in unescape(
        started.get_data(as_text=True))
    game, seats = the_game(app)
    assert game.status == "active" and [s.is_bot for s in seats] == [False, True, True, True]
    closed = unescape(other.get(cy_link).get_data(as_text=True))
    assert "This invitation is closed" in closed  # Cy's seat went to a robot
    again = client.post(f"/games/{game_id}/start-now", data={"csrf_token": csrf_of(html)})
    assert again.status_code == 409 and "already started" in again.get_data(as_text=True)


def test_start_now_posted_after_the_session_ended_goes_to_sign_in_and_back(
        app: Flask, client: FlaskClient) -> None:
    """Not a 403: /signin?next=/games/<id> (the form's page) with the reason, and the game
    not started (the emailed link's way back there: tests/web/test_signin_next.py)."""
    game_id = open_seat_and_cy(app, client, "never")
    sign_in(app, client, "ann@example.com")
    html = page(client, game_id)
    with client.session_transaction() as session:  # the session ends while the page is open
        session.pop("player_id")
    answer = client.post(f"/games/{game_id}/start-now", data={"csrf_token": csrf_of(html)})
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/signin?next=/games/{game_id}"
    signin = unescape(client.get(answer.headers["Location"]).get_data(as_text=True))
    assert "Sign in again to start the game now: the link we email you brings you back to " \
           "where you were." in signin
    assert f'<input type="hidden" name="next" value="/games/{game_id}">' in signin
    gone = app.test_client().post(f"/games/{game_id}/start-now")  # no session cookie at all
    assert gone.status_code == 303
    assert gone.headers["Location"] == f"/signin?next=/games/{game_id}"
    game, seats = the_game(app)
    assert game.status == "inviting"
    assert [(s.is_bot, s.invite_status) for s in seats] == [
        (False, "accepted"), (False, "open"), (False, "invited"), (True, "accepted")]


def confirm_by_link(app: Flask, client: FlaskClient, address: str = "ann@example.com") -> str:
    """Accept the newest invitation to `address` from its page, as a browser would: the page
    landed on after the answer."""
    return unescape(_answer(client, _answer_links(app, address)["accept"], "accept"))


def test_the_confirmed_page_says_when_robots_take_the_open_seats_and_links_to_start_now(
        app: Flask, client: FlaskClient) -> None:
    client.post("/new", data=form_data(client, **OPEN_TWO, open_wait="240"))
    game, _ = the_game(app)
    html = confirm_by_link(app, client)
    assert "Thanks, your answer is recorded." in html
    fill_by = deadline_text(the_game(app)[0].fill_by, None)
    assert f"Robots take the seats still open on {fill_by}." in html
    assert "You can also start the game now, with robots in the seats not taken" in html
    assert f'href="/signin?next=/games/{game.id}">sign in</a>' in html  # and back to the game
    assert f'href="/games/{game.id}">the game\'s page</a>' in html
    assert "start-now" not in html  # not signed in: no form, only the way to it
    lands_again = unescape(client.get(_answer_links(app, "ann@example.com")["accept"])
                           .get_data(as_text=True))
    assert "You have already answered" in lands_again and fill_by in lands_again


def test_the_organiser_signed_in_can_start_now_from_the_confirmed_page(
        app: Flask, client: FlaskClient) -> None:
    client.post("/new", data=form_data(client, **OPEN_TWO, open_wait="never"))
    game, _ = the_game(app)
    sign_in(app, client, "ann@example.com")
    html = confirm_by_link(app, client)
    assert "No robots take the open seats by time: they wait for people." in html
    assert f'<form method="post" action="/games/{game.id}/start-now">' in html
    assert "Start now with robots in the open seats" in html
    started = client.post(f"/games/{game.id}/start-now", data={"csrf_token": csrf_of(html)})
    assert started.status_code == 303
    game, seats = the_game(app)
    assert game.status == "active" and [s.is_bot for s in seats] == [False, True, True, True]


def test_the_confirmed_page_of_a_game_without_open_seats_says_nothing_of_robots(
        app: Flask, client: FlaskClient) -> None:
    client.post("/new", data=form_data(client, p2_email="bob@example.com", p3_computer="on"))
    html = confirm_by_link(app, client)
    assert "Thanks, your answer is recorded." in html
    assert "Robots take" not in html and "start the game now" not in html


def set_time_zone(app: Flask, address: str, zone: str) -> None:
    with transaction(db_engine(app)) as session:
        player = session.exec(select(Player).where(Player.email == address)).one()
        player.time_zone = zone


def test_an_invited_player_accepting_is_told_when_robots_come_but_not_offered_to_start(
        app: Flask, client: FlaskClient) -> None:
    """The same sentence as the game's page, in the invitee's time zone; no start-now form or
    way to it, even in a browser where the organiser is signed in."""
    open_seat_and_cy(app, client, "60")
    set_time_zone(app, "cy@example.com", "Asia/Tokyo")
    fill_by = deadline_text(the_game(app)[0].fill_by, "Asia/Tokyo")
    assert fill_by is not None and "Asia/Tokyo" in fill_by
    cy_link = _answer_links(app, "cy@example.com")["accept"]
    html = confirm_by_link(app, app.test_client(), "cy@example.com")
    assert "Thanks, your answer is recorded." in html
    assert f"Robots take the seats still open on {fill_by}." in html
    assert "start the game now" not in html and "start-now" not in html
    sign_in(app, client, "ann@example.com")  # the organiser's browser opens Cy's link
    again = unescape(client.get(cy_link).get_data(as_text=True))
    assert "You have already answered" in again
    assert f"Robots take the seats still open on {fill_by}." in again
    assert "Start now" not in again and "start the game now" not in again


def test_an_invitee_declining_or_in_a_game_without_open_seats_hears_nothing_of_robots(
        app: Flask, client: FlaskClient) -> None:
    open_seat_and_cy(app, client, "60")
    declined = unescape(_answer(app.test_client(), _answer_links(app, "cy@example.com")[
        "decline"], "decline"))
    assert "Thanks, your answer is recorded." in declined and "Robots take" not in declined

    client.post("/new", data=form_data(client, p2_email="bob@example.com", p3_computer="on"))
    confirm(app, the_game(app)[0].id or 0)  # seat 3 invited (Cy's default), seat 4 a computer
    html = confirm_by_link(app, app.test_client(), "bob@example.com")
    assert "Thanks, your answer is recorded." in html and "Robots take" not in html


def invitations_only(app: Flask, client: FlaskClient, open_wait: str,
                     domain: str = "example.com") -> int:
    """Ann's game, confirmed: Bob, Cy and Di (at `domain`) invited to seats 2-4 (no open
    seat, no robot), the seats nobody takes waiting `open_wait`; Bob has declined. Its id."""
    client.post("/new", data=form_data(client, p2_email=f"bob@{domain}",
                                       p3_computer=None, p3_email=f"cy@{domain}",
                                       p3_name="Cy", p4_computer=None,
                                       p4_email=f"di@{domain}", p4_name="Di",
                                       open_wait=open_wait))
    game_id = the_game(app)[0].id or 0
    confirm(app, game_id)
    _answer(app.test_client(), _answer_links(app, f"bob@{domain}")["decline"], "decline")
    return game_id


def test_the_form_says_the_wait_is_for_open_and_declined_seats(client: FlaskClient) -> None:
    html = unescape(client.get("/new").get_data(as_text=True))
    assert '<label for="open_wait">Seats nobody takes wait for people for</label>' in html
    assert ("open seats, and those of invited players who decline; counted from when you "
            "confirm the game; then robots take them (an invitation nobody has answered still "
            "waits).") in html


def test_a_game_of_invitations_only_says_when_robots_take_a_declined_seat(
        app: Flask, client: FlaskClient) -> None:
    game_id = invitations_only(app, client, "60")
    game, seats = the_game(app)
    assert [s.invite_status for s in seats] == ["accepted", "declined", "invited", "invited"]
    assert game.fill_wait_minutes == 60 and game.fill_by is not None
    html = page(client, game_id)
    assert f"Robots take the declined seat on {deadline_text(game.fill_by, None)}." in html

    never = invitations_only(app, client, "never", "example.net")
    assert the_game(app)[0].fill_by is None
    assert ("No robots take the declined seat by time: the game waits until its organiser "
            "starts it.") in page(client, never)
