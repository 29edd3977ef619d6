"""Helpers for the whole variants by email: games of humans only (any number of seats), and
each player's answer to the newest email addressed to them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Engine

from pbem import service
from pbem.engine import Event, GameState
from pbem.mailin.process import deliver
from pbem.mailin.receive import Stored
from pbem.store.db import transaction
from pbem.store.events import load_events
from tests.mailin.support import emails, inbox, latest_token, reply, state_of

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")


def address(seat: int) -> str:
    return f"{NAMES[seat].lower()}@example.org"


def variant_game(engine: Engine, preset: str, seed: int = 7,
                 options: Mapping[str, Any] | None = None) -> int:
    """A game of `preset` with a human in every seat (Ann in seat 0, Bob in 1...), dealt."""
    rules = service.make_rules(preset, options)
    ctx = service.Context(engine=engine, rng=service.make_rng(seed))
    players = [service.Invitee(email=address(s), name=NAMES[s], accepted=True)
               for s in range(rules.players)]
    return service.create_game(ctx, name="Variant night", preset=preset, options=options,
                               players=players).game_id


def answer(engine: Engine, seat: int, text: str, kind: str | None = None) -> Stored:
    """The player of `seat` answers the newest email addressed to them (of `kind`)."""
    me = address(seat)
    return deliver(inbox(engine), reply(latest_token(engine, me, kind), text,
                                        sender=f"{NAMES[seat]} <{me}>"))


def newest(engine: Engine, seat: int, kind: str) -> str:
    """The text of the newest email of `kind` to `seat`'s player."""
    found = emails(engine, address(seat), kind)
    assert found, f"no {kind} email to {NAMES[seat]}"
    return found[-1].body_text


def events(engine: Engine, game: int) -> list[Event]:
    with transaction(engine, read_only=True) as session:
        return load_events(session, game)


def bid_through_service(engine: Engine, game: int, bids: list[int | None]) -> GameState:
    """The next seats bid `bids` in turn (None: pass) through the service."""
    ctx = service.Context(engine=engine)
    for chips in bids:
        service.bid(ctx, game, state_of(engine, game).turn, chips)
    return state_of(engine, game)
