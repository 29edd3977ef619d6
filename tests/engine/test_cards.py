"""Cards: the canonical form, the forgiving parser, its error messages and the sort order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.engine import (
    ALL_CARDS,
    Card,
    Suit,
    UnreadableInput,
    format_cards,
    parse_card,
    parse_cards,
    sort_cards,
)

RANK_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
              9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}
SUIT_LETTERS = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}
SUIT_SYMBOLS = {Suit.CLUBS: ("♣", "♧"), Suit.DIAMONDS: ("♦", "♢"),
                Suit.HEARTS: ("♥", "♡"), Suit.SPADES: ("♠", "♤")}
SUIT_WORDS = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart",
              Suit.SPADES: "spade"}


def rank_tokens(rank: int) -> list[str]:
    """Short rank spellings: the letter, and for the ten both 10 and T."""
    letter = "23456789TJQKA"[rank - 2]
    return [letter, "10"] if rank == 10 else [letter]


def spellings(card: Card) -> list[str]:
    """Every way people write this card that the parser promises to read (before casing/spaces)."""
    found: list[str] = []
    for rank in rank_tokens(card.rank):
        found.append(rank + SUIT_LETTERS[card.suit])
        found.append(f"{rank} {SUIT_LETTERS[card.suit]}")
        for symbol in SUIT_SYMBOLS[card.suit]:
            found += [rank + symbol, symbol + rank, rank + symbol + "\ufe0f"]
    words = [RANK_WORDS[card.rank], *rank_tokens(card.rank)]
    suits = [SUIT_WORDS[card.suit] + "s", SUIT_WORDS[card.suit]]
    for rank in words:
        for suit in suits:
            found += [f"{rank} of {suit}", f"{rank}  of\t{suit}"]
    return found


@st.composite
def card_and_spelling(draw: st.DrawFn) -> tuple[Card, str]:
    card = draw(st.sampled_from(ALL_CARDS))
    text = draw(st.sampled_from(spellings(card)))
    flips = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    text = "".join(c.upper() if up else c.lower() for c, up in zip(text, flips, strict=True))
    before = draw(st.sampled_from(["", " ", "  ", "\t", "\n "]))
    after = draw(st.sampled_from(["", " ", "   ", "\t", " \n"]))
    return card, before + text + after


@given(card_and_spelling())
def test_every_spelling_parses_to_the_card(case: tuple[Card, str]) -> None:
    card, text = case
    assert Card.parse(text) is card
    assert parse_card(text) is card


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_canonical_form_round_trips(card: Card) -> None:
    text = str(card)
    assert len(text) == 2
    assert text[1] in "CDHS"
    assert Card.parse(text) is card
    assert Card.parse(card.symbol) is card
    assert Card.parse(card.name) is card
    assert Card(card.rank, card.suit) is card
    assert Card.from_index(card.index) is card


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_every_listed_spelling_parses(card: Card) -> None:
    for text in spellings(card):
        for variant in (text, text.upper(), text.lower(), f"  {text}  "):
            assert Card.parse(variant) is card, variant


def test_known_spellings() -> None:
    qs = Card(12, Suit.SPADES)
    for text in ("QS", "qs", "Q♠", "Q♤", "♠Q", "queen of spades", "Q of spades", "  Qs ",
                 "QUEEN OF SPADES"):
        assert Card.parse(text) is qs
    th = Card(10, Suit.HEARTS)
    for text in ("10H", "TH", "th", "10 of hearts", "ten of hearts", "10♥", "♥10"):
        assert Card.parse(text) is th
    assert str(th) == "TH"
    assert th.symbol == "10♥"
    assert th.name == "ten of hearts"
    assert str(qs) == "QS" and qs.symbol == "Q♠" and qs.rank == 12 and qs.suit is Suit.SPADES


@pytest.mark.parametrize("junk", ["", "   ", "XS", "1S", "11H", "Q", "spades", "queen of",
                                  "QSS", "of spades", "0H", "1 of hearts", "QX", "S Q",
                                  "queen of swords", "prince of hearts", "2C 3D"])
def test_junk_raises_unreadable_input(junk: str) -> None:
    with pytest.raises(UnreadableInput) as info:
        Card.parse(junk)
    error = info.value
    assert error.code in {"not_a_card", "card_without_suit", "card_without_rank"}
    assert error.data["text"] == junk.strip()  # the words quote what was written
    assert junk.strip() in str(error)


@pytest.mark.parametrize(("rank_text", "expected"), [
    ("Q", ["QC", "QD", "QH", "QS"]),
    ("queen", ["QC", "QD", "QH", "QS"]),
    ("10", ["TC", "TD", "TH", "TS"]),
    ("a", ["AC", "AD", "AH", "AS"]),
])
def test_rank_without_suit_names_the_four_cards(rank_text: str, expected: list[str]) -> None:
    with pytest.raises(UnreadableInput) as info:
        Card.parse(rank_text)
    assert info.value.code == "card_without_suit"
    assert [str(c) for c in info.value.data["options"]] == expected


def test_suit_without_rank_says_so() -> None:
    with pytest.raises(UnreadableInput, match="^card_without_rank"):
        Card.parse("spades")
    with pytest.raises(UnreadableInput, match="^card_without_rank"):
        Card.parse("♥")


def test_generic_junk_message_shows_an_example() -> None:
    with pytest.raises(UnreadableInput) as info:
        Card.parse("XS")
    assert info.value.code == "not_a_card" and info.value.data == {"text": "XS"}


def test_card_order_is_suit_then_rank() -> None:
    assert list(ALL_CARDS) == sorted(ALL_CARDS)
    assert Card.parse("AC") < Card.parse("2D") < Card.parse("AD") < Card.parse("2H")
    assert Card.parse("AH") < Card.parse("2S") < Card.parse("QS") < Card.parse("AS")
    assert list(Suit) == [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]


@given(st.lists(st.sampled_from(ALL_CARDS), unique=True))
def test_hands_sort_by_suit_then_rank(cards: list[Card]) -> None:
    hand = sort_cards(cards)
    assert set(hand) == set(cards) and len(hand) == len(cards)
    keys = [(int(c.suit), c.rank) for c in hand]
    assert keys == sorted(keys)


def test_sort_example() -> None:
    hand = sort_cards(parse_cards("QS 2H AC 10D 3C KH 2S"))
    assert format_cards(hand) == "3C AC TD 2H KH 2S QS"


def test_cards_are_interned_and_immutable() -> None:
    card = Card.parse("QS")
    with pytest.raises(AttributeError):
        card.rank = 3  # type: ignore[misc]
    assert {card: 1}[Card(12, Suit.SPADES)] == 1
    assert len(set(ALL_CARDS)) == 52
    with pytest.raises(ValueError):
        Card(15, Suit.SPADES)


@pytest.mark.parametrize(("text", "expected"), [
    ("2C, 3D and AH", "2C 3D AH"),
    ("ten of hearts QS", "TH QS"),
    ("QS,QH", "QS QH"),
    ("queen of spades, 10♥ and ♣2", "QS TH 2C"),
    ("  as  ks qs  ", "AS KS QS"),
    ("", ""),
])
def test_parse_cards(text: str, expected: str) -> None:
    assert format_cards(parse_cards(text)) == expected


def test_parse_cards_keeps_the_order_written() -> None:
    assert parse_cards("AH 2C") == (Card.parse("AH"), Card.parse("2C"))


def test_parse_cards_rejects_junk() -> None:
    with pytest.raises(UnreadableInput):
        parse_cards("2C XS AH")
    with pytest.raises(UnreadableInput):
        parse_cards("2C and Q")


def test_cards_of_and_indices_match_a_bit_by_bit_reading() -> None:
    import random

    from pbem.engine.cards import DOUBLE_DECK, cards_of, indices

    rng = random.Random(15)
    masks = [0, 1, (1 << 52) - 1, (1 << 104) - 1, 1 << 51, 1 << 103]
    masks += [rng.getrandbits(104) & rng.getrandbits(104) for _ in range(3000)]
    for mask in masks:
        assert indices(mask) == [i for i in range(104) if mask >> i & 1]
        expected = sorted(c for c in DOUBLE_DECK if mask >> c.index & 1)
        assert list(cards_of(mask)) == expected
        assert list(cards_of(mask & (1 << 52) - 1)) == [c for c in expected if c.copy == 0]
