"""Chance, outside the pure engine: seeded shuffles, the deal and the draw for first dealer."""

from __future__ import annotations

import random

from pbem.engine import (
    ALL_CARDS,
    Card,
    FirstDealer,
    GameCreated,
    HandDealt,
    Rules,
    dealer_from_draw,
)


def system_rng() -> random.Random:
    """The generator real games use; tests pass a seeded random.Random instead."""
    return random.SystemRandom()


def shuffled_deck(rules: Rules, rng: random.Random) -> tuple[Card, ...]:
    deck = [c for c in ALL_CARDS if c not in rules.removed]
    rng.shuffle(deck)
    return tuple(deck)


def deal(rules: Rules, rng: random.Random) -> HandDealt:
    return HandDealt(shuffled_deck(rules, rng))


def create_game(rules: Rules, rng: random.Random) -> GameCreated:
    """The creation event, with a first dealer chosen at random or by drawing cards."""
    if rules.first_dealer is FirstDealer.DRAW:
        draw = tuple(rng.sample(ALL_CARDS, rules.players))
        return GameCreated(rules, rules.players, dealer_from_draw(draw), draw)
    return GameCreated(rules, rules.players, rng.randrange(rules.players))
