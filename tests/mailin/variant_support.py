"""Helpers for the whole variants by email: games of humans only (any number of seats), each
player's answer to the newest email addressed to them, and whole games played by replies."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Engine

from pbem import service
from pbem.engine import Event, GameState, Phase, Suit, legal_cards
from pbem.mailin.process import deliver
from pbem.mailin.receive import Stored
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.store.models import InboundMail
from tests.mailin.support import emails, inbox, latest_token, reply, seq_of, state_of

Send = Callable[[bytes, str], int]  # (raw message, recipient) → the stored message's id
TURN_KIND = {Phase.PLAY: "turn", Phase.BID: "bid", Phase.NAME_SUIT: "name_suit"}
MOVES = 400  # more than any of these games needs

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


def choose(state: GameState, seat: int, rng: random.Random) -> tuple[str, str]:
    """A legal reply for the seat to move, and what the email must show for it."""
    if state.phase is Phase.BID:
        high = max((0, *state.bids))
        if rng.random() < 0.5:
            return "pass", "“pass”"
        return f"bid {high + 1}", f"“bid {high + 1}”"
    if state.phase is Phase.NAME_SUIT:
        suit = rng.choice(list(Suit))
        text = rng.choice([f"avoid {suit.plural}", f"Avoid {suit.symbol}", suit.plural])
        return text, f"“avoid {suit.plural}”"
    card = rng.choice(legal_cards(state, seat))
    return rng.choice([str(card), f"play {card}", f"{card.symbol}"]), f"({card})"


def play_game_by_email(engine: Engine, game: int, send: Send, seed: int = 1) -> GameState:
    """Every player to move answers the newest turn email addressed to them with a legal move
    that email offers, until the game is over."""
    rng = random.Random(seed)
    for _ in range(MOVES):
        state = state_of(engine, game)
        if state.game_over:
            return state
        seat = state.turn
        kind = TURN_KIND[state.phase]
        text, shown = choose(state, seat, rng)
        assert shown in emails(engine, address(seat), kind)[-1].body_text, (kind, text)
        token = latest_token(engine, address(seat), kind)
        seq = seq_of(engine, game)
        mail_id = send(reply(token, f"{text}\n\nThanks, {NAMES[seat]}",
                             sender=f"{NAMES[seat]} <{address(seat)}>"),
                       f"play+{token}@pbem.test")
        assert seq_of(engine, game) > seq, reason(engine, mail_id)
    raise AssertionError(f"the game did not end in {MOVES} replies")


def reason(engine: Engine, mail_id: int) -> str:
    """What processing the stored message `mail_id` came to."""
    with transaction(engine, read_only=True) as session:
        found = session.get(InboundMail, mail_id)
        return (found.reason or "") if found is not None else "(no such message)"
