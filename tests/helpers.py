"""Helpers shared by the tests of every area: moves on an engine state, games through the service.

Imported as `tests.helpers` (pytest's pythonpath is the repository root). Area helpers that need
a Flask app, an SMTP server or a mail store stay in their area's support modules.
"""

from __future__ import annotations

import random

from sqlalchemy import Engine

from pbem import service
from pbem.dealing import create_game
from pbem.engine import (
    Asked,
    Card,
    GameState,
    Phase,
    PlayCard,
    apply,
    asked,
    decide,
    forced_events,
    legal_cards,
    parse_card,
    preset,
    start,
)
from pbem.playout import random_event
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import Game

# --- the engine: a fold over decided events ---------------------------------------------


def card(text: str) -> Card:
    """A card by its code (`QS`, `QS'` for the second deck's copy) or as people type it."""
    try:
        return Card.from_code(text)
    except KeyError:
        return parse_card(text)


def play(state: GameState, *cards: str) -> GameState:
    """Play the cards in turn order, each through `decide` (which must accept it) and `apply`.

    A Domino Hearts draw that is due before a play is made first, as the engine forces it."""
    for text in cards:
        if state.phase is Phase.DRAW:
            state = apply(state, forced_events(state)[0])
        seat = state.turn
        (event,) = decide(state, PlayCard(seat, card(text)))
        state = apply(state, event)
    return state


def state_at(phase: Phase, preset_name: str = "standard", seed: int = 1) -> GameState:
    """The first state of a seeded random game of `preset_name` in `phase`."""
    rng = random.Random(seed)
    state = start(create_game(preset(preset_name), rng))
    while state.phase is not phase:
        assert not state.game_over, f"no {phase} in this game"
        state = apply(state, random_event(state, rng))
    return state


def asked_at(phase: Phase, preset_name: str = "standard", *, to_move: bool = True) -> Asked:
    """What a seat is asked in the first `phase` of a seeded random game of `preset_name`: a
    seat the game waits for (`to_move`), or one it doesn't."""
    state = state_at(phase, preset_name)
    if not to_move and len(state.to_move) == state.seats:  # everyone passes at once
        state = apply(state, random_event(state, random.Random(0)))
    seat = next((s for s in range(state.seats) if (s in state.to_move) == to_move), 0)
    return asked(state, seat)


# --- games through the service ----------------------------------------------------------


def humans(count: int = 4, domain: str = "example.org") -> list[service.Invitee]:
    """`count` players who have all accepted, so a game with them starts at once."""
    return [service.Invitee(f"p{n}@{domain}", f"Player {n}", accepted=True)
            for n in range(count)]


def service_game(ctx: service.Context, preset: str = "standard", *, name: str = "g",
                 players: int = 4) -> int:
    """A game of `preset` between humans who have all accepted: it is dealt at once."""
    return service.create_game(ctx, name=name, preset=preset,
                               players=humans(players)).game_id


def state_of(engine: Engine, game_id: int) -> GameState:
    """The game's state now, replayed from its stored events."""
    with transaction(engine, read_only=True) as session:
        return load_state(session, game_id).state


def bid_in_turn(ctx: service.Context, game_id: int, *bids: int | None) -> None:
    """Auction Hearts: each bid (None: a pass) made by the seat to move, through the service."""
    for chips in bids:
        (seat,) = state_of(ctx.engine, game_id).to_move
        service.bid(ctx, game_id, seat, chips)


def play_first_legal(ctx: service.Context, game_id: int) -> GameState:
    """The seat to move plays its first legal card through the service; the state after it."""
    state = state_of(ctx.engine, game_id)
    seat = state.to_move[0]
    service.play_card(ctx, game_id, seat, str(legal_cards(state, seat)[0]))
    return state_of(ctx.engine, game_id)


def game_row(engine: Engine, name: str = "test") -> int:
    """A bare game row (no events, no seats), for tests of the store's own statements."""
    with transaction(engine) as s:
        game = Game(name=name, preset="standard", engine_version="1")
        s.add(game)
        s.flush()
        assert game.id is not None
        return game.id
