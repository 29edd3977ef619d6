"""A game's life before it starts, as its pages show it: the organiser confirms it or cancels
it ("Cancel it" cancels the game: nobody is invited, it leaves /me and the lobby, its page
says so); nobody else sees it on /me before it is confirmed; an invited player answers from
their private page as from the invitation email; the created page says only what is true."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

from pbem import service
from pbem.app import db_engine
from pbem.store.db import transaction
from pbem.store.models import Game, Seat
from tests.web.support import csrf_of, links, outbox
from tests.web.test_create import form_data, games
from tests.web.test_signin import sign_in


def _confirm_links(app: Flask) -> dict[str, str]:
    (mail,) = [m for m in outbox(app, "invite") if m.to_addr == "ann@example.com"]
    return {a: next(p for p in links(mail.body_text) if p.endswith(f"a={a}"))
            for a in ("accept", "decline")}


def _new_game(app: Flask, client: FlaskClient, **changes: str | None) -> Game:
    assert client.post("/new", data=form_data(client, **changes)).status_code == 303
    (game,) = games(app)
    return game


def _status(app: Flask, game_id: int) -> str:
    with transaction(db_engine(app), read_only=True) as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game.status


def test_cancel_it_cancels_the_unconfirmed_game(app: Flask, client: FlaskClient) -> None:
    game = _new_game(app, client, p3_open="on", p3_computer=None)
    cancel = _confirm_links(app)["decline"]
    page = client.get(cancel).get_data(as_text=True)
    assert "Cancel the game" in page and "nobody else has been told" in page
    done = client.post(cancel, data={"csrf_token": csrf_of(page), "answer": "decline"})
    text = done.get_data(as_text=True)
    assert done.status_code == 200 and "Cancelled:" in text and "is off" in text
    assert "your answer is recorded" not in text
    assert _status(app, game.id) == "cancelled"
    assert {m.to_addr for m in outbox(app)} == {"ann@example.com"}  # nobody else heard
    public = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "cancelled by its organiser" in public and "start the game now" not in public
    assert f"/games/{game.id}" not in client.get("/lobby").get_data(as_text=True)
    assert client.get(cancel).status_code == 200  # the link says so again, changes nothing
    sign_in(app, client, "ann@example.com")
    assert f"/games/{game.id}" not in client.get("/me").get_data(as_text=True)
    start = client.post(f"/games/{game.id}/start-now",
                        data={"csrf_token": csrf_of(client.get("/me").get_data(as_text=True))})
    assert start.status_code in (403, 409) and _status(app, game.id) == "cancelled"


def test_an_unconfirmed_game_is_nowhere_for_its_invitees(app: Flask,
                                                          client: FlaskClient) -> None:
    game = _new_game(app, client)
    public = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "awaits its organiser's confirmation" in public
    assert "invited, no answer yet" not in public and "Waiting for everyone" not in public
    sign_in(app, client, "bob@example.com")
    me = client.get("/me").get_data(as_text=True)
    assert f"/games/{game.id}" not in me
    opened = client.post(f"/me/seat/{game.id}", data={"csrf_token": csrf_of(me)})
    assert opened.status_code == 303 and "/s/" not in opened.location


def test_an_invitee_answers_from_their_private_page(app: Flask, client: FlaskClient) -> None:
    game = _new_game(app, client)
    service.accept_invite(service.Context(engine=db_engine(app)), game.id, 0)  # confirmed
    sign_in(app, client, "bob@example.com")
    me = client.get("/me").get_data(as_text=True)
    assert f"/games/{game.id}" in me and "waiting for you to accept" in me
    opened = client.post(f"/me/seat/{game.id}", data={"csrf_token": csrf_of(me)})
    page = client.get(opened.location).get_data(as_text=True)
    assert "Ann invites you" in page and "Accept and play" in page and "Decline" in page
    action = re.search(r'action="(/s/[^"]+/invite)"', page)
    assert action is not None
    assert client.get(action.group(1)).status_code == 405  # only a POST answers
    refused = client.post(action.group(1), data={"answer": "accept"})
    assert refused.status_code == 400  # no CSRF token: nothing done
    answered = client.post(action.group(1), data={"csrf_token": csrf_of(page),
                                                  "answer": "accept"})
    assert answered.status_code == 303
    after = client.get(answered.location).get_data(as_text=True)
    assert "You accepted" in after and "Accept and play" not in after
    with transaction(db_engine(app), read_only=True) as session:
        seat = session.exec(select(Seat).where(Seat.game_id == game.id,
                                               Seat.seat_no == 1)).one()
    assert seat.invite_status == "accepted"


def test_an_invitee_declines_from_their_private_page(app: Flask, client: FlaskClient) -> None:
    game = _new_game(app, client)
    service.accept_invite(service.Context(engine=db_engine(app)), game.id, 0)
    sign_in(app, client, "bob@example.com")
    me = client.get("/me").get_data(as_text=True)
    page_at = client.post(f"/me/seat/{game.id}", data={"csrf_token": csrf_of(me)}).location
    page = client.get(page_at).get_data(as_text=True)
    action = re.search(r'action="(/s/[^"]+/invite)"', page)
    assert action is not None
    client.post(action.group(1), data={"csrf_token": csrf_of(page), "answer": "decline"})
    assert "You declined" in client.get(page_at).get_data(as_text=True)
    assert f"/games/{game.id}" not in client.get("/me").get_data(as_text=True)
    assert [m.to_addr for m in outbox(app, "invite_declined")] == ["ann@example.com"]


def test_the_created_page_says_what_is_true_now(app: Flask, client: FlaskClient) -> None:
    game = _new_game(app, client, p2_email="", p2_name="", p2_open="on")
    page = client.get(f"/games/{game.id}/created").get_data(as_text=True)
    assert "We emailed <bdi>Ann</bdi> to confirm it" in page  # the name isolated (bidi)
    assert "open seat is listed in the" in page
    assert "nobody else (only computer players)" not in page
    service.accept_invite(service.Context(engine=db_engine(app)), game.id, 0)
    after = client.get(f"/games/{game.id}/created")
    assert after.status_code == 303 and after.location.endswith(f"/games/{game.id}")


def test_the_created_page_of_a_game_only_against_robots(app: Flask,
                                                        client: FlaskClient) -> None:
    game = _new_game(app, client, p2_email="", p2_name="", p2_computer="on")
    page = client.get(f"/games/{game.id}/created").get_data(as_text=True)
    assert "the game starts at once: the other seats are computer players" in page
