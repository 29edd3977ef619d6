"""The whole variants played only by email, on SQLite and PostgreSQL: every move of a whole
game (target 1: it ends after a hand or two) is a reply to the newest turn email addressed to the
player to move, delivered through the SMTP or LMTP receiver or `deliver()`, and each move is
one the email offers."""

from __future__ import annotations

import random
from dataclasses import replace

from sqlalchemy import Engine

from pbem.engine import BidMade, CardPlayed, Event, HandDealt, SuitNamed
from pbem.mailin.process import deliver
from tests.mailin.support import emails, inbox
from tests.mailin.variant_support import (
    Send,
    address,
    events,
    play_game_by_email,
    variant_game,
)


def test_domino_hearts_is_played_to_the_end_by_email_through_smtp(engine: Engine,
                                                                    by_smtp: Send) -> None:
    game = variant_game(engine, "domino-two", options={"target": 1})
    end = play_game_by_email(engine, game, by_smtp)
    assert end.game_over and sum(end.sheet[0].points) == 13
    assert not emails(engine, address(0), "error") and not emails(engine, address(1), "error")


def test_cancellation_hearts_is_played_to_the_end_by_email(engine: Engine) -> None:
    """Every hand's deal is seeded (the first by the game's creation, the next ones by the
    replies' deliveries), so the game is the same at every run: it ends, and a player plays
    both copies of a card."""
    seeded = replace(inbox(engine), rng=random.Random(3))

    def by_deliver(raw: bytes, _recipient: str) -> int:
        return deliver(seeded, raw).id

    game = variant_game(engine, "cancellation-seven", options={"target": 1})
    end = play_game_by_email(engine, game, by_deliver)
    assert end.game_over
    assert all(not emails(engine, address(s), "error") for s in range(end.seats))
    assert _both_copies_played(events(engine, game))  # "QS" twice: one copy, then the other


def _both_copies_played(made: list[Event]) -> bool:
    """Did a player play both copies of a card in one hand?"""
    seen: set[tuple[int, str]] = set()
    for event in made:
        if isinstance(event, HandDealt):
            seen.clear()
        elif isinstance(event, CardPlayed):
            if (event.seat, str(event.card)) in seen:
                return True
            seen.add((event.seat, str(event.card)))
    return False


def test_auction_hearts_is_played_to_the_end_by_email_through_lmtp(engine: Engine,
                                                                   by_lmtp: Send) -> None:
    game = variant_game(engine, "auction", options={"target": 1})
    end = play_game_by_email(engine, game, by_lmtp)
    assert end.game_over and end.sheet
    assert sum(end.chips) + end.pot == 0
    made = events(engine, game)
    assert any(isinstance(e, BidMade) and e.chips for e in made)
    assert any(isinstance(e, SuitNamed) for e in made)
    assert all(not emails(engine, address(s), "error") for s in range(end.seats))
