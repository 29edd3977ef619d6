"""Cards: immutable values with a canonical two-character form, a forgiving parser, and bitmasks."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from operator import attrgetter
from typing import Any, Final

from pbem.engine.errors import UnreadableInput
from pbem.engine.values import python_class


class Suit(IntEnum):
    """The four suits; the value is the suit's place in a hand's sort order and in the bitmask."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def plural(self) -> str:
        return ("clubs", "diamonds", "hearts", "spades")[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


RANK_LETTERS = "23456789TJQKA"
RANK_WORDS = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)
CARDS_PER_SUIT: Final = 13
DECK_SIZE: Final = 52
DOUBLE_DECK_SIZE: Final = 104  # Cancellation Hearts: the second copy of a card has index + 52


@python_class  # interned, made with object.__setattr__
class Card:
    """One card of a standard deck. Interned: `Card(rank, suit)` always returns the same object.

    Cancellation Hearts plays two decks: the second copy of a card is its own interned Card with
    `copy` 1 and index + 52. `str()` is the same for both copies (``QS``); `code` tells them apart
    in events and JSON (``QS`` and ``QS'``)."""

    __slots__ = ("bit", "code", "copy", "index", "order", "rank", "suit")
    bit: int  # 1 << index: the card in a bitmask
    index: int
    rank: int
    suit: Suit
    copy: int
    code: str
    order: int

    def __new__(cls, rank: int, suit: Suit) -> Card:
        if not 2 <= rank <= 14:
            raise ValueError(f"rank must be 2..14, not {rank}")
        return ALL_CARDS[suit * CARDS_PER_SUIT + rank - 2]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        base = index % DECK_SIZE
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "bit", 1 << index)
        object.__setattr__(card, "rank", base % CARDS_PER_SUIT + 2)
        object.__setattr__(card, "suit", Suit(base // CARDS_PER_SUIT))
        object.__setattr__(card, "copy", index // DECK_SIZE)
        object.__setattr__(card, "order", base * 2 + index // DECK_SIZE)
        text = RANK_LETTERS[base % CARDS_PER_SUIT] + "CDHS"[base // CARDS_PER_SUIT]
        object.__setattr__(card, "code", text + "'" * (index // DECK_SIZE))
        return card

    @staticmethod
    def of(rank: int, suit: Suit) -> Card:
        return Card(rank, suit)

    @staticmethod
    def from_index(index: int) -> Card:
        return _BY_INDEX[index]

    @staticmethod
    def from_code(code: str) -> Card:
        """The card of a canonical code (``QS``, or ``QS'`` for the second deck's copy)."""
        return BY_CODE[code]

    @property
    def twin(self) -> Card:
        """The other deck's copy of this card (Cancellation Hearts)."""
        return _BY_INDEX[(self.index + DECK_SIZE) % DOUBLE_DECK_SIZE]

    @staticmethod
    def parse(text: str) -> Card:
        return parse_card(text)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (card_at, (self.index,))  # (a module function: it pickles compiled too)

    @property
    def rank_letter(self) -> str:
        return RANK_LETTERS[self.rank - 2]

    @property
    def symbol(self) -> str:
        """Human form with the suit symbol and a real ten: ``Q♠``, ``10♥``."""
        rank = "10" if self.rank == 10 else self.rank_letter
        return f"{rank}{self.suit.symbol}"

    @property
    def name(self) -> str:
        return f"{RANK_WORDS[self.rank - 2]} of {self.suit.plural}"

    @property
    def is_red(self) -> bool:
        return self.suit.is_red

    def __str__(self) -> str:
        return self.rank_letter + self.suit.letter

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.order < other.order

    def __le__(self, other: Card) -> bool:
        return self.order <= other.order

    def __gt__(self, other: Card) -> bool:
        return self.order > other.order

    def __ge__(self, other: Card) -> bool:
        return self.order >= other.order


_BY_INDEX: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(DOUBLE_DECK_SIZE))
ALL_CARDS: Final[tuple[Card, ...]] = _BY_INDEX[:DECK_SIZE]
DOUBLE_DECK: Final[tuple[Card, ...]] = _BY_INDEX  # both copies: indices 0..103
BY_CODE: Final[dict[str, Card]] = {c.code: c for c in _BY_INDEX}
BIT_OF: dict[Card, int] = {c: 1 << c.index for c in _BY_INDEX}  # `card.bit`, by lookup
BIT_AT: Final[tuple[int, ...]] = tuple(1 << i for i in range(DOUBLE_DECK_SIZE))  # 1 << index
FULL_DECK_MASK: Final = (1 << DECK_SIZE) - 1
DOUBLE_DECK_MASK: Final = (1 << DOUBLE_DECK_SIZE) - 1
_SUIT_BITS: Final = (1 << CARDS_PER_SUIT) - 1
SUIT_MASKS: Final[tuple[int, ...]] = tuple(_SUIT_BITS << (s * CARDS_PER_SUIT) for s in Suit)
HEARTS_MASK: Final = SUIT_MASKS[Suit.HEARTS]
QUEEN_OF_SPADES = Card(12, Suit.SPADES)
JACK_OF_DIAMONDS = Card(11, Suit.DIAMONDS)
TEN_OF_DIAMONDS = Card(10, Suit.DIAMONDS)
TWO_OF_CLUBS = Card(2, Suit.CLUBS)


# For each byte k of a one-deck mask (card indices 8k..8k+7) and each value of that byte: its
# card indices and its cards, lowest first (seven bytes hold the 52 cards).
_INDICES_IN_BYTE: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(8 * k + b for b in range(8) if value >> b & 1 and 8 * k + b < DECK_SIZE)
          for value in range(256))
    for k in range(7))
_CARDS_IN_BYTE: Final[tuple[tuple[tuple[Card, ...], ...], ...]] = tuple(
    tuple(tuple(_BY_INDEX[i] for i in found) for found in byte) for byte in _INDICES_IN_BYTE)


_ORDER = attrgetter("order")


def card_at(index: int) -> Card:
    """`Card.from_index`, as a module function (what a pickled card is rebuilt with)."""
    return _BY_INDEX[index]


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards in a bitmask, sorted by suit then rank (a second copy right after the first)."""
    if mask >> DECK_SIZE:
        return tuple(sorted(_BY_INDEX[i] for i in iter_indices(mask)))
    if mask >> 26:  # eight bits at a time, from tables of every byte's cards
        return (_CARDS_IN_BYTE[0][mask & 255] + _CARDS_IN_BYTE[1][mask >> 8 & 255]
                + _CARDS_IN_BYTE[2][mask >> 16 & 255] + _CARDS_IN_BYTE[3][mask >> 24 & 255]
                + _CARDS_IN_BYTE[4][mask >> 32 & 255] + _CARDS_IN_BYTE[5][mask >> 40 & 255]
                + _CARDS_IN_BYTE[6][mask >> 48])
    return (_CARDS_IN_BYTE[0][mask & 255] + _CARDS_IN_BYTE[1][mask >> 8 & 255]
            + _CARDS_IN_BYTE[2][mask >> 16 & 255] + _CARDS_IN_BYTE[3][mask >> 24])


def twin_mask(mask: int) -> int:
    """Both copies of every card in `mask` (Cancellation Hearts)."""
    base = (mask | mask >> DECK_SIZE) & FULL_DECK_MASK
    return base | base << DECK_SIZE


def indices(mask: int) -> list[int]:
    """The card indices in a bitmask, lowest first (`iter_indices`, as a list)."""
    if mask >> DECK_SIZE or mask.bit_count() < 4:  # few cards: bit by bit is quicker
        found = []
        while mask:
            low = mask & -mask
            found.append(low.bit_length() - 1)
            mask ^= low
        return found
    return [*_INDICES_IN_BYTE[0][mask & 255], *_INDICES_IN_BYTE[1][mask >> 8 & 255],
            *_INDICES_IN_BYTE[2][mask >> 16 & 255], *_INDICES_IN_BYTE[3][mask >> 24 & 255],
            *_INDICES_IN_BYTE[4][mask >> 32 & 255], *_INDICES_IN_BYTE[5][mask >> 40 & 255],
            *_INDICES_IN_BYTE[6][mask >> 48]]


def iter_indices(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def lowest_index(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_ORDER))  # the order `<` compares, read in C


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def list_in_words(items: list[str], conjunction: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (or ``a, b or c``)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


# --- parsing what people type -------------------------------------------------------------

_SUIT_SYMBOLS = {"♣": Suit.CLUBS, "♧": Suit.CLUBS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
                 "♥": Suit.HEARTS, "♡": Suit.HEARTS, "♠": Suit.SPADES, "♤": Suit.SPADES}
_SUIT_WORDS = {"club": Suit.CLUBS, "diamond": Suit.DIAMONDS, "heart": Suit.HEARTS,
               "spade": Suit.SPADES}
_RANK_TOKENS: dict[str, int] = {
    **{str(r): r for r in range(2, 11)},
    **{RANK_LETTERS[r - 2].lower(): r for r in range(2, 15)},
    **{word: r for r, word in enumerate(RANK_WORDS, start=2)},
}
_SHORT_FORM = re.compile(r"^(10|[2-9tjqka])([cdhs♣♧♦♢♥♡♠♤])$")
_SYMBOL_FIRST = re.compile(r"^([♣♧♦♢♥♡♠♤])(10|[2-9tjqka])$")
_WORD_FORM = re.compile(r"^(\w+)\s+of\s+(\w+)$")
_VARIATION_SELECTORS = re.compile("[\ufe0e\ufe0f]")


def _suit_from(token: str) -> Suit | None:
    if token in _SUIT_SYMBOLS:
        return _SUIT_SYMBOLS[token]
    if len(token) == 1:
        return {"c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES}.get(token)
    return _SUIT_WORDS.get(token.removesuffix("s"))


def parse_suit(text: str) -> Suit:
    """Read a suit as people type it: ``S s ♠ spade spades Spades``."""
    cleaned = _VARIATION_SELECTORS.sub("", text).strip().lower()
    suit = _suit_from(cleaned) if cleaned else None
    if suit is None:
        raise UnreadableInput("not_a_suit", text=text.strip())
    return suit


def parse_card(text: str) -> Card:
    """Read one card as people type it: ``QS qs Q♠ ♠Q 10S TS "queen of spades" "ten of hearts"``."""
    cleaned = _VARIATION_SELECTORS.sub("", text).strip().lower()
    cleaned = re.sub(r"\s+", " ", cleaned)
    short = _SHORT_FORM.match(cleaned.replace(" ", "")) or _SYMBOL_FIRST.match(cleaned)
    if short:
        first, second = short.groups()
        rank_token, suit_token = (second, first) if first in _SUIT_SYMBOLS else (first, second)
        suit = _suit_from(suit_token)
        if suit is not None:
            return Card(_RANK_TOKENS[rank_token], suit)
    words = _WORD_FORM.match(cleaned)
    if words:
        rank, suit = _RANK_TOKENS.get(words.group(1)), _suit_from(words.group(2))
        if rank is not None and suit is not None:
            return Card(rank, suit)
    raise _unreadable(text.strip())


def _unreadable(text: str) -> UnreadableInput:
    bare = text.lower()
    if bare in _RANK_TOKENS:
        rank = _RANK_TOKENS[bare]
        return UnreadableInput("card_without_suit", text=text,
                               options=tuple(Card(rank, s) for s in Suit))
    if _suit_from(bare) is not None:
        return UnreadableInput("card_without_rank", text=text)
    return UnreadableInput("not_a_card", text=text)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Several cards separated by spaces, commas or ``and``; ``ten of hearts`` too."""
    cleaned = re.sub(r"[,;+/]|\band\b", " ", _VARIATION_SELECTORS.sub("", text).lower())
    tokens = cleaned.split()
    cards: list[Card] = []
    i = 0
    while i < len(tokens):
        if i + 2 < len(tokens) and tokens[i + 1] == "of":
            cards.append(parse_card(" ".join(tokens[i:i + 3])))
            i += 3
        else:
            cards.append(parse_card(tokens[i]))
            i += 1
    return tuple(cards)
