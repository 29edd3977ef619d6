"""The pass page (pick N cards, POST passes them) and invitation links (accept / decline)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from pbem import service
from pbem.app import db_engine
from pbem.engine import CardsPassed
from pbem.store.db import transaction
from pbem.store.models import Seat
from tests.web.support import (
    csrf_of,
    events,
    links,
    newest,
    pass_cards,
    played_before,
    snapshot,
    state,
)


def _pass_path(app: Flask) -> str:
    (path,) = links(newest(app, "pass").body_text)
    return path


def test_pass_page_offers_every_card_as_a_checkbox(app: Flask, client: FlaskClient,
                                                   game_id: int) -> None:
    before = snapshot(app, game_id)
    page = client.get(_pass_path(app))
    client.head(_pass_path(app))
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert len(re.findall(r'type="checkbox" id="card-\w+" name="cards"', html)) == 13
    assert "Pass 3 cards to Robot 2" in html
    assert snapshot(app, game_id) == before


def test_pass_page_also_answers_on_p(app: Flask, client: FlaskClient, game_id: int) -> None:
    token = _pass_path(app).removeprefix("/t/")
    assert client.get(f"/p/{token}").status_code == 200
    assert pass_cards(client, f"/p/{token}").status_code == 200
    assert any(isinstance(e, CardsPassed) and e.seat == 0 for e in events(app, game_id))


def test_passing_the_wrong_number_of_cards_changes_nothing(app: Flask, client: FlaskClient,
                                                           game_id: int) -> None:
    hand = [str(c) for c in state(app, game_id).hand(0)]
    before = snapshot(app, game_id)
    response = pass_cards(client, _pass_path(app), hand[:2])
    assert response.status_code == 422
    assert "Pick exactly 3 cards" in response.get_data(as_text=True)
    assert snapshot(app, game_id) == before


def test_passing_cards_not_in_hand_is_refused(app: Flask, client: FlaskClient,
                                              game_id: int) -> None:
    mine = set(map(str, state(app, game_id).hand(0)))
    others = [c for c in ("2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C") if c not in mine][:3]
    before = snapshot(app, game_id)
    response = pass_cards(client, _pass_path(app), others)
    assert response.status_code == 409
    assert snapshot(app, game_id)[0] == before[0]  # no event
    assert pass_cards(client, _pass_path(app)).status_code == 200  # the link still works


def test_pass_posts_once_then_says_already_passed(app: Flask, client: FlaskClient,
                                                  game_id: int) -> None:
    path = _pass_path(app)
    hand = [str(c) for c in state(app, game_id).hand(0)]
    csrf = csrf_of(client.get(path).get_data(as_text=True))
    first = client.post(path, data={"csrf_token": csrf, "cards": hand[:3]})
    assert "Cards passed" in first.get_data(as_text=True)
    passed = [e for e in events(app, game_id) if isinstance(e, CardsPassed) and e.seat == 0]
    assert [sorted(map(str, e.cards)) for e in passed] == [sorted(hand[:3])]
    before = snapshot(app, game_id)
    again = client.post(path, data={"csrf_token": csrf, "cards": hand[3:6]})
    assert "Already passed" in again.get_data(as_text=True)
    assert "Already passed" in client.get(path).get_data(as_text=True)
    assert snapshot(app, game_id) == before


def _invited_game(app: Flask) -> tuple[int, str]:
    """A game waiting for Bob's answer, and the path of his invitation link (creating the game
    sent the invitation). Bob signed in here before: his invitation names who invites him."""
    played_before(app, "bob@example.com")
    with app.app_context():
        out = service.create_game(
            service.Context(engine=db_engine(app)), name="Invite", players=[
                service.Invitee("ann@example.com", "Ann", accepted=True),
                service.Invitee("bob@example.com", "Bob <b>")], bot_seats=(2, 3),
                robot_strength="easy")
    invite = newest(app, "invite")
    assert invite.to_addr == "bob@example.com" and "Ann invites you" in invite.body_text
    accept = [p for p in links(invite.body_text) if p.endswith("a=accept")]
    return out.game_id, accept[0]


def _seat_status(app: Flask, game_id: int, seat_no: int) -> str:
    with transaction(db_engine(app), read_only=True) as session:
        seat = session.get(Seat, _seat_id(session, game_id, seat_no))
        assert seat is not None
        return seat.invite_status


def _seat_id(session: Session, game_id: int, seat_no: int) -> int:
    seat = session.exec(select(Seat).where(Seat.game_id == game_id,
                                           Seat.seat_no == seat_no)).one()
    return int(seat.id)


def test_invite_link_get_shows_the_choice_and_post_accepts(app: Flask,
                                                           client: FlaskClient) -> None:
    game_id, path = _invited_game(app)
    page = client.get(path)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'value="accept"' in html and 'value="decline"' not in html
    assert "Bob &lt;b&gt;" in html
    assert _seat_status(app, game_id, 1) == "invited"
    response = client.post(path, data={"csrf_token": csrf_of(html), "answer": "accept"})
    assert response.status_code == 200
    assert _seat_status(app, game_id, 1) == "accepted"
    again = client.post(path, data={"csrf_token": csrf_of(html), "answer": "decline"})
    assert "already answered" in again.get_data(as_text=True)
    assert _seat_status(app, game_id, 1) == "accepted"


def test_invite_decline(app: Flask, client: FlaskClient) -> None:
    game_id, path = _invited_game(app)
    decline = path.replace("a=accept", "a=decline")
    html = client.get(decline).get_data(as_text=True)
    assert 'value="decline"' in html
    client.post(decline, data={"csrf_token": csrf_of(html), "answer": "decline"})
    assert _seat_status(app, game_id, 1) == "declined"
