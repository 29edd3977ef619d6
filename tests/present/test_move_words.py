"""One wording of a move, shared by a reply's echo and the timeout email."""

from __future__ import annotations

from pbem.engine import BidMade, CardPlayed, CardsPassed, MoonChosen, Suit, SuitNamed
from pbem.present.views import move_words
from tests.helpers import card


def test_each_move_in_words() -> None:
    assert move_words(CardPlayed(0, card("QS"))) == "played Q♠ (QS)"
    assert move_words(BidMade(1, 5)) == "bid 5 chips"
    assert move_words(BidMade(1, 1)) == "bid 1 chip"
    assert move_words(BidMade(1, None)) == "passed in the bidding"
    assert move_words(SuitNamed(2, Suit.SPADES)) == "named ♠ Spades as the suit to avoid"
    assert move_words(MoonChosen(3, True), 26) == "went down 26 for the moon"
    assert move_words(MoonChosen(3, False), 30) == "put everyone else up 30 for the moon"


def test_a_pass_names_its_cards_only_where_they_may_be_shown() -> None:
    passed = CardsPassed(0, (card("AH"), card("2C"), card("3D")))
    assert move_words(passed) == "passed 2♣ (2C), 3♦ (3D) and A♥ (AH)"
    assert move_words(passed, cards_shown=False) == "passed 3 cards"
