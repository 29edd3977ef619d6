"""Small words every presenter uses: counts of chips and cards, suits, cards, who and verbs."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.engine import Card, Suit, list_in_words


def chips_words(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def cards_count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def suit_title(suit: Suit) -> str:
    """`♠ Spades`."""
    return f"{suit.symbol} {suit.plural.capitalize()}"


def card_words(cards: Sequence[Card], codes: bool = True) -> str:
    """`7♣ (7C) and 2♣ (2C)`; without `codes`, `7♣ and 2♣`."""
    return list_in_words([f"{c.symbol} ({c})" if codes else c.symbol for c in cards])


def who(seat: int, you: int | None, names: Sequence[str]) -> str:
    """`you` for the reader's own seat, else the player's name."""
    return "you" if seat == you else names[seat]


def verb(seat: int, you: int | None, word: str = "take") -> str:
    """`take` for you, `takes` for anyone else."""
    return word if seat == you else f"{word}s"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]
