"""The private seat view /s/<token>: the player's own hand and moves, from the link in their
emails. GET and HEAD change nothing; moves POST with CSRF; forged or foreign links are 404."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update
from sqlmodel import col

from pbem import service
from pbem.app import db_engine
from pbem.engine import CardPlayed, CardsPassed, MoonChosen, Phase, legal_cards
from pbem.present.links import seat_link
from pbem.store.db import transaction
from pbem.store.models import Token
from tests.web.support import (
    HUMAN,
    MOON_PASS,
    MOON_PLAYS,
    count_tokens,
    csrf_of,
    events,
    moon_game,
    newest,
    outbox,
    seat_path,
    snapshot,
    state,
)

_SEQ = re.compile(r'name="turn" value="(\d+)"')


def page_form(client: FlaskClient, path: str) -> tuple[str, dict[str, str]]:
    html = client.get(path).get_data(as_text=True)
    seq = _SEQ.search(html)
    return html, {"csrf_token": csrf_of(html), "turn": seq.group(1) if seq else ""}


def pass_from_page(app: Flask, client: FlaskClient, game_id: int) -> str:
    """Pass the first three cards from the private view; return its path."""
    path = seat_path(newest(app, "pass").body_text)
    html, form = page_form(client, path)
    cards = re.findall(r'name="cards" value="(\w+)"', html)[:3]
    response = client.post(f"{path}/pass", data={**form, "cards": cards})
    assert response.status_code == 303
    return path


def test_emails_link_to_the_private_view_one_link_per_seat(app: Flask, client: FlaskClient,
                                                           game_id: int) -> None:
    path = seat_path(newest(app, "pass").body_text)
    assert seat_path(newest(app, "game_started").body_text) == path
    pass_from_page(app, client, game_id)
    assert seat_path(newest(app, "turn").body_text) == path  # the same link, reused
    assert f"/games/{game_id}" not in newest(app, "turn").body_text


def test_get_and_head_change_nothing(app: Flask, client: FlaskClient, game_id: int) -> None:
    path = seat_path(newest(app, "pass").body_text)
    before = snapshot(app, game_id), count_tokens(app)
    assert client.get(path).status_code == 200
    assert client.head(path).status_code == 200
    client.get(path)
    assert (snapshot(app, game_id), count_tokens(app)) == before


def test_pass_phase_shows_the_hand_and_the_pass_form(app: Flask, client: FlaskClient,
                                                     game_id: int) -> None:
    html = client.get(seat_path(newest(app, "pass").body_text)).get_data(as_text=True)
    hand = state(app, game_id).hand(0)
    for card in hand:
        assert f'name="cards" value="{card}"' in html
    assert "Pass these 3 cards" in html and 'aria-label="Play' not in html


def test_passing_from_the_private_view(app: Flask, client: FlaskClient, game_id: int) -> None:
    path = pass_from_page(app, client, game_id)
    assert any(isinstance(e, CardsPassed) and e.seat == 0 for e in events(app, game_id))
    html = client.get(path).get_data(as_text=True)
    assert "Your cards are passed." in html  # the flashed message, once
    assert "Your cards are passed." not in client.get(path).get_data(as_text=True)


def test_wrong_number_of_cards_to_pass_is_refused(app: Flask, client: FlaskClient,
                                                  game_id: int) -> None:
    path = seat_path(newest(app, "pass").body_text)
    html, form = page_form(client, path)
    before = snapshot(app, game_id)
    response = client.post(f"{path}/pass", data={**form, "cards": ["2C"]})
    assert response.status_code == 422
    assert "Pick exactly 3 cards" in response.get_data(as_text=True)
    assert snapshot(app, game_id) == before


def test_legal_cards_are_buttons_and_play(app: Flask, client: FlaskClient,
                                          game_id: int) -> None:
    path = pass_from_page(app, client, game_id)
    now = state(app, game_id)
    html, form = page_form(client, path)
    legal = [str(c) for c in legal_cards(now, 0)]
    assert re.findall(r'name="card" value="(\w+)"', html) == legal
    for card in now.hand(0):  # a legal card's button is named as it shows: "Play 4♣"
        shown = f'aria-label="Play {card.symbol}"' if str(card) in legal else f'aria-label="{card}'
        assert shown in html
    response = client.post(f"{path}/play", data={**form, "card": legal[0]})
    assert response.status_code == 303
    mine = [e for e in events(app, game_id) if isinstance(e, CardPlayed) and e.seat == 0]
    assert [str(e.card) for e in mine] == [legal[0]]
    assert "You played" in client.get(path).get_data(as_text=True)


def test_a_page_out_of_date_plays_nothing(app: Flask, client: FlaskClient,
                                          game_id: int) -> None:
    path = pass_from_page(app, client, game_id)
    _html, form = page_form(client, path)
    card = str(legal_cards(state(app, game_id), 0)[0])
    client.post(f"{path}/play", data={**form, "card": card})
    before = snapshot(app, game_id)
    other = str(legal_cards(state(app, game_id), 0)[0])
    again = client.post(f"{path}/play", data={**form, "card": other})  # the old page's seq
    assert again.status_code == 409
    assert "moved on" in again.get_data(as_text=True)
    assert snapshot(app, game_id) == before


def test_an_illegal_card_is_explained_and_the_turn_stays_open(app: Flask, client: FlaskClient,
                                                              game_id: int) -> None:
    path = pass_from_page(app, client, game_id)
    now = state(app, game_id)
    illegal = [c for c in now.hand(0) if c not in legal_cards(now, 0)]
    _html, form = page_form(client, path)
    before = snapshot(app, game_id)
    refused = client.post(f"{path}/play", data={**form, "card": str(illegal[0])})
    assert refused.status_code == 409
    assert 'role="alert"' in refused.get_data(as_text=True)
    assert snapshot(app, game_id) == before
    ok = client.post(f"{path}/play", data={**form, "card": str(legal_cards(now, 0)[0])})
    assert ok.status_code == 303


def test_posts_without_csrf_are_refused(app: Flask, client: FlaskClient, game_id: int) -> None:
    path = seat_path(newest(app, "pass").body_text)
    before = snapshot(app, game_id)
    for action, data in (("pass", {"cards": ["2C", "3C", "4C"]}), ("play", {"card": "2C"}),
                         ("moon", {"choice": "moondown"})):
        assert client.post(f"{path}/{action}", data=data).status_code == 400
    assert snapshot(app, game_id) == before


def test_forged_and_foreign_tokens_are_not_found(app: Flask, client: FlaskClient,
                                                 game_id: int) -> None:
    path = seat_path(newest(app, "pass").body_text)
    _html, form = page_form(client, path)
    assert client.get("/s/forged-token-1234567890").status_code == 404
    assert client.post("/s/forged-token-1234567890/play",
                       data={**form, "card": "2C"}).status_code == 404
    invite_like = newest(app, "pass").body_text  # a one-time pass link is not a seat link
    one_time = re.search(r"/[tp]/([A-Za-z0-9_-]+)", invite_like)
    assert one_time and client.get(f"/s/{one_time.group(1)}").status_code == 404


def test_a_seat_given_to_someone_else_closes_the_old_link(app: Flask, client: FlaskClient,
                                                          game_id: int) -> None:
    path = seat_path(newest(app, "pass").body_text)
    with app.app_context():
        service.replace_seat(service.Context(engine=db_engine(app)), game_id, 0,
                             service.Invitee("new@example.com", "New", accepted=True))
    closed = client.get(path)  # what became of the seat, not "Link not found"
    assert closed.status_code == 410
    assert "Someone else took over this seat on " in closed.get_data(as_text=True)


def test_a_move_posted_to_a_closed_expired_or_one_time_link_is_not_found(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    """The POSTs find the link without the page (`find_seat`): the same 404s as the page."""
    path = seat_path(newest(app, "pass").body_text)
    html, form = page_form(client, path)
    cards = re.findall(r'name="cards" value="(\w+)"', html)[:3]
    one_time = re.search(r"/[tp]/([A-Za-z0-9_-]+)", newest(app, "pass").body_text)
    assert one_time
    assert client.post(f"/s/{one_time.group(1)}/pass",
                       data={**form, "cards": cards}).status_code == 404
    with transaction(db_engine(app)) as session:  # the link expires
        session.execute(update(Token).where(col(Token.purpose) == "seat")
                        .values(expires_at=datetime.now(UTC) - timedelta(days=1)))
    before = snapshot(app, game_id)
    assert client.post(f"{path}/pass", data={**form, "cards": cards}).status_code == 404
    with transaction(db_engine(app)) as session:  # alive again, but the seat goes to another
        session.execute(update(Token).where(col(Token.purpose) == "seat")
                        .values(expires_at=datetime.now(UTC) + timedelta(days=1)))
    with app.app_context():
        service.replace_seat(service.Context(engine=db_engine(app)), game_id, 0,
                             service.Invitee("new@example.com", "New", accepted=True))
    before = snapshot(app, game_id)  # the old player told, their link closed: then nothing
    assert client.post(f"{path}/pass", data={**form, "cards": cards}).status_code == 410
    assert client.post(f"{path}/end", data={**form, "vote": "end"}).status_code == 410
    assert snapshot(app, game_id) == before


def test_seat_link_reuses_its_token(app: Flask, game_id: int) -> None:
    engine = db_engine(app)
    with transaction(engine) as session:
        first = seat_link(session, game_id, 0, 1, secret="k")
    with transaction(engine) as session:
        again = seat_link(session, game_id, 0, 1, secret="k")
        other_key = seat_link(session, game_id, 0, 1, secret="another key")
        other_seat = seat_link(session, game_id, 1, 1, secret="k")
    assert first == again
    assert len({first, other_key, other_seat}) == 3


def test_the_moon_choice_from_the_private_view(app: Flask, client: FlaskClient) -> None:
    game_id, seat = moon_game(app)
    with app.app_context():
        ctx = service.Context(engine=db_engine(app))
        service.pass_cards(ctx, game_id, seat, MOON_PASS)
        for code in MOON_PLAYS:
            service.play_card(ctx, game_id, seat, code)
    assert state(app, game_id).phase is Phase.MOON_CHOICE
    path = seat_path(newest(app, "moon_choice").body_text)
    html, form = page_form(client, path)
    assert 'value="moondown"' in html and 'value="moonup"' in html
    assert client.post(f"{path}/moon", data={**form, "choice": "sideways"}).status_code == 400
    assert client.post(f"{path}/moon", data={**form, "choice": "moondown"}).status_code == 303
    assert MoonChosen(seat, True) in events(app, game_id)
    assert HUMAN.email in {r.to_addr for r in outbox(app)}


def test_a_private_view_shows_no_other_hand(app: Flask, client: FlaskClient,
                                            game_id: int) -> None:
    path = pass_from_page(app, client, game_id)
    now = state(app, game_id)
    html = client.get(path).get_data(as_text=True)
    for seat in range(1, now.seats):
        for card in now.hand(seat):
            assert f'aria-label="{card}' not in html and f'value="{card}"' not in html


def test_the_private_view_says_who_passed_the_cards_received(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    path = pass_from_page(app, client, game_id)
    now = state(app, game_id)
    source = now.pass_source(0)  # hand 1 passes left: the cards come from the right
    assert source != 0 and now.received_cards(0)
    html = client.get(path).get_data(as_text=True)
    received = re.search(r"You received (.*?)</p>", html)
    assert received and received.group(1).endswith(f" from <bdi>Robot {source + 1}</bdi>.")
