"""Taking over an open seat from the /join/<token> link the other players were given."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update
from sqlmodel import col, select

from pbem import service
from pbem.app import db_engine
from pbem.present.links import seat_link as private_link
from pbem.store.db import transaction
from pbem.store.models import Deadline, Seat, Token
from tests.web.support import _CSRF as CSRF
from tests.web.support import outbox


def _open_seat_link(app: Flask) -> tuple[int, str]:
    """A game of two people and two robots whose seat 0 is open for a newcomer."""
    with app.app_context():
        ctx = service.Context(engine=db_engine(app), rng=service.make_rng(3))
        players = [service.Invitee("ann@example.org", "Ann", accepted=True),
                   service.Invitee("bob@example.org", "Bob", accepted=True)]
        game_id = service.create_game(ctx, name="Open", players=players, bot_seats=(2, 3),
                                      deadline_policy={"on_timeout": "open_seat"}).game_id
        with transaction(db_engine(app)) as session:  # Ann's time to pass runs out
            (due,) = session.exec(select(Deadline).where(Deadline.game_id == game_id,
                                                         Deadline.seat_no == 0)).all()
            session.execute(update(Deadline).where(col(Deadline.id) == due.id).values(
                due_at=ctx.clock() - timedelta(hours=1),
                grace_until=ctx.clock() - timedelta(hours=1)))
        service.timeout_move(ctx, game_id, 0, due.turn_seq)
    (bobs,) = [e for e in outbox(app, "timeout") if e.to_addr == "bob@example.org"]
    return game_id, bobs.body_text.split("/join/")[1].split()[0]


def _private_path(app: Flask, game_id: int, seat_no: int = 0) -> str:
    with app.app_context(), transaction(db_engine(app)) as session:
        seat = session.exec(select(Seat).where(Seat.game_id == game_id,
                                               Seat.seat_no == seat_no)).one()
        assert seat.player_id is not None
        return "/s/" + private_link(session, game_id, seat_no, seat.player_id)


def _tokens(app: Flask) -> list[tuple[int | None, object]]:
    with transaction(db_engine(app), read_only=True) as session:
        return [(t.id, t.used_at) for t in session.exec(select(Token))]


def test_get_and_head_show_the_form_and_change_nothing(app: Flask, client: FlaskClient) -> None:
    game_id, raw = _open_seat_link(app)
    before = _tokens(app)
    page = client.get(f"/join/{raw}")
    assert page.status_code == 200 and "Take over seat 1" in page.get_data(as_text=True)
    assert client.head(f"/join/{raw}").status_code == 200
    assert _tokens(app) == before


def _ask(client: FlaskClient, raw: str, email: str) -> str:
    """Post an address on the join page; the page's text."""
    csrf = CSRF.search(client.get(f"/join/{raw}").get_data(as_text=True))
    assert csrf
    done = client.post(f"/join/{raw}", data={"csrf_token": csrf.group(1), "email": email})
    assert done.status_code == 200
    return done.get_data(as_text=True)


def _confirmation_link(app: Flask, email: str) -> str:
    (mail,) = [e for e in outbox(app, "join_confirm") if e.to_addr == email]
    return "/join/confirm/" + mail.body_text.split("/join/confirm/")[1].split()[0]


def _seat(app: Flask, game_id: int, seat_no: int = 0) -> Seat:
    with transaction(db_engine(app), read_only=True) as session:
        return session.exec(select(Seat).where(Seat.game_id == game_id,
                                               Seat.seat_no == seat_no)).one()


def test_a_newcomer_confirms_by_mail_takes_the_seat_and_lands_on_their_own_view(
        app: Flask, client: FlaskClient) -> None:
    game_id, raw = _open_seat_link(app)
    before = _seat(app, game_id)
    anns = _private_path(app, game_id)
    page = _ask(client, raw, "eve@example.org")
    assert "Check your email" in page and "/s/" not in page
    assert _seat(app, game_id) == before  # nothing yet
    link = _confirmation_link(app, "eve@example.org")
    form = client.get(link).get_data(as_text=True)
    csrf = CSRF.search(form)
    assert csrf and "Take over seat 1" in form
    done = client.post(link, data={"csrf_token": csrf.group(1), "name": "Eve"})
    assert done.status_code == 303 and done.headers["Location"].startswith("/s/")
    view = client.get(done.headers["Location"]).get_data(as_text=True)
    assert "Eve" in view
    seat = _seat(app, game_id)
    assert not seat.is_bot and seat.player_id not in (None, before.player_id)
    assert client.post(link, data={"csrf_token": csrf.group(1), "name": "Eve"}
                       ).status_code == 404  # used up
    assert client.get(f"/join/{raw}").status_code == 404  # and so is the join link
    (told,) = outbox(app, "seat_taken_over")  # Ann, who had the seat, is told
    assert told.to_addr == "ann@example.org"
    assert "a new player, Eve, took over seat 1" in told.body_text
    assert "no longer in this game" in told.body_text and "/me" in told.body_text
    old = client.get(anns)  # her old link says what happened, not "Link not found"
    html = old.get_data(as_text=True)
    assert old.status_code == 410 and "Someone else took over this seat on " in html
    assert "Link not found" not in html and "/me" in html


def test_a_player_who_comes_back_closes_the_open_seat(app: Flask, client: FlaskClient) -> None:
    game_id, raw = _open_seat_link(app)
    _ask(client, raw, "eve@example.org")
    link = _confirmation_link(app, "eve@example.org")
    anns = _private_path(app, game_id)
    page = client.get(anns).get_data(as_text=True)
    assert "A robot is playing your seat since " in page
    assert "because you missed 1 deadline." in page and "Take my seat back" in page
    assert "(a robot is playing for you)" in page
    assert "(a robot is playing for Ann)" in client.get(f"/games/{game_id}").get_data(
        as_text=True)
    csrf = CSRF.search(page)
    assert csrf
    assert client.post(f"{anns}/back", data={}).status_code == 400  # no CSRF: nothing
    assert _seat(app, game_id).bot_holding
    back = client.post(f"{anns}/back", data={"csrf_token": csrf.group(1)},
                       follow_redirects=True).get_data(as_text=True)
    assert "your seat is yours again" in back and "Take my seat back" not in back
    assert not _seat(app, game_id).bot_holding
    assert client.get(f"/join/{raw}").status_code == 404  # the seat is no longer open
    came_back = client.get(link)
    assert came_back.status_code == 409 and "came back" in came_back.get_data(as_text=True)


def test_bad_input_keeps_the_link_and_says_why(app: Flask, client: FlaskClient) -> None:
    _, raw = _open_seat_link(app)
    csrf = CSRF.search(client.get(f"/join/{raw}").get_data(as_text=True))
    assert csrf
    no_csrf = client.post(f"/join/{raw}", data={"email": "eve@example.org"})
    assert no_csrf.status_code == 400
    bad = client.post(f"/join/{raw}", data={"csrf_token": csrf.group(1),
                                            "email": "<b>not an address</b>"})
    html = bad.get_data(as_text=True)
    assert bad.status_code == 400 and "look like an email address" in html
    assert "<b>not" not in html and "&lt;b&gt;not" in html
    assert client.get(f"/join/{raw}").status_code == 200  # still usable
    assert not outbox(app, "join_confirm")


def test_a_forged_link_is_a_404(client: FlaskClient) -> None:
    assert client.get("/join/forged").status_code == 404
    assert client.post("/join/forged", data={"name": "x", "email": "x@example.org"}
                       ).status_code == 404
    assert client.get("/join/confirm/forged").status_code == 404
