"""Chance, recorded as events: shuffled deals and the first dealer (SystemRandom unless seeded)."""

from __future__ import annotations

import random

from pbem.engine import ALL_CARDS, Card, FirstDealer, GameState, HandDealt, Rules, dealer_from_draw


def make_rng(seed: int | None = None) -> random.Random:
    """A fresh generator: unpredictable by default, reproducible with a seed (tests, demos)."""
    return random.SystemRandom() if seed is None else random.Random(seed)


def deck(rules: Rules) -> list[Card]:
    removed = set(rules.removed)
    return [card for card in ALL_CARDS if card not in removed]


def shuffled_deck(rules: Rules, rng: random.Random) -> tuple[Card, ...]:
    cards = deck(rules)
    rng.shuffle(cards)
    return tuple(cards)


def deal(state: GameState, rng: random.Random) -> HandDealt:
    """The next hand's deal (the engine is in Phase.DEAL)."""
    return HandDealt(shuffled_deck(state.rules, rng))


def first_dealer(rules: Rules, rng: random.Random) -> tuple[int, tuple[Card, ...]]:
    """(first dealer, dealer_draw): a random seat, or the high card of a draw of one card each."""
    if rules.first_dealer is FirstDealer.DRAW:
        draw = tuple(rng.sample(ALL_CARDS, rules.players))
        return dealer_from_draw(draw), draw
    return rng.randrange(rules.players), ()
