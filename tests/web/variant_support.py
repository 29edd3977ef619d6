"""Helpers for the whole variants' web tests: games of humans only, their links and pages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from pbem import service
from pbem.app import db_engine
from pbem.engine import Card, GameState, Phase, Suit, legal_cards
from pbem.present.codes import bid_code, suit_code
from pbem.present.links import seat_link
from pbem.present.tokens import new_token
from pbem.store.db import transaction
from pbem.store.models import Game, Seat
from tests import helpers
from tests.web.support import CraftedDeal, csrf_of, state

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")


def players(count: int, names: Sequence[str] = NAMES) -> list[service.Invitee]:
    return [service.Invitee(f"player{n}@example.com", name, accepted=True)
            for n, name in enumerate(names[:count])]


def variant_game(app: Flask, preset: str, *, seed: int = 5, deck: Sequence[Card] | None = None,
                 options: dict[str, Any] | None = None, names: Sequence[str] = NAMES) -> int:
    """A game of `preset` whose every seat is a human who has accepted: it starts at once.
    (`deck`: the first deal, in HandDealt order.)"""
    rules = service.make_rules(preset, options)
    rng = CraftedDeal(seed, deck) if deck is not None else service.make_rng(seed)
    with app.app_context():
        ctx = service.Context(engine=db_engine(app), rng=rng)
        out = service.create_game(ctx, name=f"“{preset}” <test>", preset=preset,
                                  options=options, players=players(rules.players, names))
    return out.game_id


def ctx(app: Flask) -> service.Context:
    return service.Context(engine=db_engine(app))


def one_time_link(app: Flask, game_id: int, seat: int, code: str) -> str:
    """A one-time link as the turn emails make them: a "card" token of this turn."""
    with transaction(db_engine(app)) as session:
        game = session.get(Game, game_id)
        assert game is not None
        raw = new_token(session, "card", game_id=game_id, seat_no=seat,
                        player_id=_player(session, game_id, seat), turn_seq=game.last_seq,
                        card=code)
    return f"/t/{raw}"


def _player(session: Session, game_id: int, seat: int) -> int:
    row = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.seat_no == seat)).one()
    assert row.player_id is not None
    return row.player_id


def bid_link(app: Flask, game_id: int, seat: int, chips: int | None) -> str:
    return one_time_link(app, game_id, seat, bid_code(chips))


def suit_link(app: Flask, game_id: int, seat: int, suit: Suit) -> str:
    return one_time_link(app, game_id, seat, suit_code(suit))


def seat_page(app: Flask, game_id: int, seat: int) -> str:
    """The path of `seat`'s private view."""
    with app.app_context(), transaction(db_engine(app)) as session:
        raw = seat_link(session, game_id, seat, _player(session, game_id, seat))
    return f"/s/{raw}"


def to_move(app: Flask, game_id: int) -> int:
    (seat,) = state(app, game_id).to_move
    return seat


def play_first_legal(app: Flask, game_id: int) -> GameState:
    """The player to move plays their first legal card (through the service)."""
    return helpers.play_first_legal(ctx(app), game_id)


def fresh_csrf(app: Flask, client: FlaskClient, game_id: int) -> str:
    """A CSRF token of this client's session (from a player's private view, which has forms)."""
    return csrf_of(client.get(seat_page(app, game_id, 0)).get_data(as_text=True))


def step(app: Flask, game_id: int) -> GameState:
    """The player to move makes a simple move: bids 1 chip if nobody has bid yet (else passes),
    names spades, or plays their first legal card."""
    now = state(app, game_id)
    seat = to_move(app, game_id)
    if now.phase is Phase.BID:
        service.bid(ctx(app), game_id, seat, None if max(0, *now.bids) else 1)
    elif now.phase is Phase.NAME_SUIT:
        service.name_suit(ctx(app), game_id, seat, Suit.SPADES)
    else:
        service.play_card(ctx(app), game_id, seat, legal_cards(now, seat)[0])
    return state(app, game_id)


def play_to_the_end(app: Flask, game_id: int) -> GameState:
    for _ in range(5000):
        if state(app, game_id).game_over:
            break
        step(app, game_id)
    now = state(app, game_id)
    assert now.game_over
    return now
