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
    deck_cards,
)


def make_rng(seed: int | None = None) -> random.Random:
    """A fresh generator: unpredictable by default, reproducible with a seed (tests, demos)."""
    return random.SystemRandom() if seed is None else random.Random(seed)


def shuffled_deck(rules: Rules, rng: random.Random) -> tuple[Card, ...]:
    deck = list(deck_cards(rules))  # both decks for Cancellation Hearts
    rng.shuffle(deck)
    return tuple(deck)


def deal(rules: Rules, rng: random.Random) -> HandDealt:
    """The next hand's deal: the whole shuffled deck, recorded as an event."""
    return HandDealt(shuffled_deck(rules, rng))


def first_dealer(rules: Rules, rng: random.Random) -> tuple[int, tuple[Card, ...]]:
    """(first dealer, dealer_draw): a random seat, or the high card of a draw of one card each."""
    if rules.first_dealer is FirstDealer.DRAW:
        draw = tuple(rng.sample(ALL_CARDS, rules.players))
        return dealer_from_draw(draw), draw
    return rng.randrange(rules.players), ()


def create_game(rules: Rules, rng: random.Random) -> GameCreated:
    """The creation event, with the first dealer chosen at random or by drawing cards."""
    dealer, draw = first_dealer(rules, rng)
    return GameCreated(rules, rules.players, dealer, draw)
