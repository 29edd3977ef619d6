"""Link codes: what a one-time "card" token names besides a card, and the choices they offer.

A card link's code is the card itself (`QS`). The moon choice's two links are `moondown` and
`moonup`; a bid link is `bid:5` (bid 5 chips) or `bid:pass`, and naming the suit to avoid is
`suit:S`. Every code fits the token's 8 characters. Emails make the links, the web reads them
back (`read_choice`), and both word them the same way (`choice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.engine import Suit
from pbem.present.i18n import _
from pbem.present.words import chips_words, suit_title

MOON_DOWN, MOON_UP = "moondown", "moonup"
BID_PASS = "bid:pass"
MAX_LINK_BID = 9999  # a bid link's chips fit the token's 8 characters
BID_LINKS = 5  # bid links in an email: the smallest legal bid and the next few


def bid_code(chips: int | None) -> str:
    """The link code of a bid (None: pass)."""
    if chips is None:
        return BID_PASS
    if not 0 < chips <= MAX_LINK_BID:
        raise ValueError(f"no link for a bid of {chips}")
    return f"bid:{chips}"


def suit_code(suit: Suit) -> str:
    """The link code for naming `suit` as the suit to avoid."""
    return f"suit:{suit.letter}"


def read_choice(code: str | None) -> tuple[str, int | Suit | None] | None:
    """A link code read back: ("bid", chips or None for a pass), ("suit", Suit), or None when
    the code is no bid or suit choice (a card or a moon choice)."""
    kind, _sep, value = (code or "").partition(":")
    if kind == "bid" and value == "pass":
        return "bid", None
    if kind == "bid" and value.isascii() and value.isdigit() and len(value) <= 6 \
            and 0 < int(value) <= MAX_LINK_BID:
        return "bid", int(value)
    if kind == "suit" and len(value) == 1 and value in "CDHS":
        return "suit", Suit("CDHS".index(value))
    return None


def high_bid(bids: Sequence[int]) -> int:
    """The highest bid so far (0: none; passes are 0, seats yet to bid -1)."""
    return max([0, *bids])


def bid_codes(high: int) -> list[str]:
    """The codes a bid email links: pass, then the smallest legal bids."""
    top = min(high + BID_LINKS, MAX_LINK_BID)
    return [BID_PASS, *(bid_code(chips) for chips in range(high + 1, top + 1))]


SUIT_CODES = [suit_code(suit) for suit in Suit]


@dataclass(frozen=True)
class Choice:
    """One bid or suit choice as an email or page offers it: a link and the words to reply."""

    code: str              # the link code: "bid:5", "bid:pass", "suit:S"
    label: str             # "Bid 5 chips", "Pass", "♠ Spades"
    reply: str             # what to reply instead: "bid 5", "pass", "avoid spades"
    url: str | None = None
    red: bool = False


def choice(code: str, url: str | None = None) -> Choice:
    read = read_choice(code)
    if read is None:
        raise ValueError(f"{code!r} is no bid or suit choice")
    _kind, value = read
    if isinstance(value, Suit):
        return Choice(code, suit_title(value), f"avoid {value.plural}", url, value.is_red)
    if value is None:
        return Choice(code, _("Pass"), "pass", url)
    return Choice(code, _("Bid %(chips)s", chips=chips_words(int(value))), f"bid {value}", url)


def suit_choices() -> tuple[Choice, ...]:
    """The four suit choices, worded in the reader's language."""
    return tuple(choice(code) for code in SUIT_CODES)
