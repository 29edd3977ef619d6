"""Small words every presenter uses: counts of chips and cards, suits, cards, lists, dates and
"you", in the reader's language (issue 34)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from babel.lists import format_list

from pbem.engine import Card, Suit, list_in_words
from pbem.present.i18n import (
    DEFAULT,
    _,
    current,
    format_date,
    format_time,
    label,
    ngettext,
    pgettext,
)
from pbem.zones import deadline_text, player_zone


def chips_words(n: int) -> str:
    return ngettext("%(num)d chip", "%(num)d chips", n)


def cards_count(n: int) -> str:
    return ngettext("%(num)d card", "%(num)d cards", n)


# The suits' names as titles and in sentences (the names the reply reader knows; "suit":
# "Hearts" is the game's name too).
SUIT_TITLES: dict[str, Callable[[], str]] = {
    "C": lambda: pgettext("suit", "Clubs"), "D": lambda: pgettext("suit", "Diamonds"),
    "H": lambda: pgettext("suit", "Hearts"), "S": lambda: pgettext("suit", "Spades")}
SUIT_PLURALS: dict[str, Callable[[], str]] = {
    "C": lambda: pgettext("suit", "clubs"), "D": lambda: pgettext("suit", "diamonds"),
    "H": lambda: pgettext("suit", "hearts"), "S": lambda: pgettext("suit", "spades")}


def suit_title(suit: Suit) -> str:
    """`♠ Spades`."""
    return f"{suit.symbol} {SUIT_TITLES[suit.letter]()}"


def suit_plural(suit: Suit) -> str:
    """`spades`, in the reader's language."""
    return SUIT_PLURALS[suit.letter]()


def list_words(items: Sequence[str], conjunction: str = "and") -> str:
    """`a, b and c` (or `a, b or c`) as the reader's language lists things."""
    language, worded = current(), [str(label(item)) for item in items]
    if language == DEFAULT or len(worded) <= 1:
        return list_in_words(worded, conjunction)
    return format_list(worded, style="or" if conjunction == "or" else "standard",
                       locale=language)


def deadline_words(deadline: datetime | None, time_zone: str | None) -> str | None:
    """`Saturday 1 March 2025, 13:00 CET (Europe/Paris)` in the reader's zone and language."""
    if deadline is None:
        return None
    if current() == DEFAULT:
        return deadline_text(deadline, time_zone)
    zone = player_zone(time_zone)
    local = (deadline if deadline.tzinfo else deadline.replace(tzinfo=UTC)).astimezone(zone)
    return _("%(date)s, %(time)s (%(zone)s)", date=format_date(local, zone, "full"),
             time=format_time(local, zone), zone=zone.key)


def card_words(cards: Sequence[Card], codes: bool = True) -> str:
    """`7♣ (7C) and 2♣ (2C)`; without `codes`, `7♣ and 2♣`."""
    return list_words([f"{c.symbol} ({c})" if codes else c.symbol for c in cards])


def who(seat: int, you: int | None, names: Sequence[str]) -> str:
    """`you` for the reader's own seat, else the player's name."""
    return _("you") if seat == you else names[seat]

# No `verb` ("take" / "takes") nor sentence pieces glued together here: a sentence that says
# "you" or a name is one message per case (other languages conjugate differently).
