"""The reply language of the whole variants: Auction bids and the suit to avoid, read by phase,
and the precise sentences for what can't be read."""

from __future__ import annotations

import pytest

from pbem.engine import Phase, Suit, sort_cards
from pbem.mailin.commands import needs_phase, read_commands
from tests.helpers import asked_at

AUCTION = "auction"


def read(text: str, phase: Phase | None = None, preset: str = "standard",
         to_move: bool = True) -> str:
    now = asked_at(phase, preset, to_move=to_move) if phase is not None else None
    reading = read_commands(text, now)
    if not reading.ok:
        return f"problem: {reading.problem}"
    command = reading.action or reading.say
    assert command is not None
    return command.describe()


@pytest.mark.parametrize(("text", "expected"), [
    ("bid 5", "bid 5"), ("Bid 5 chips!", "bid 5"), ("bid 1 chip", "bid 1"), ("BID: 12", "bid 12"),
    ("bid five", "bid 5"), ("I bid 7 chips.", "bid 7"), ("bid 5 please", "bid 5"),
    ("no bid", "bid pass"), ("bid pass", "bid pass"), ("Bid: pass", "bid pass"),
])
def test_bids_read_the_same_in_every_phase(text: str, expected: str) -> None:
    assert read(text) == expected
    assert not needs_phase(text)


@pytest.mark.parametrize(("text", "problem"), [
    ("bid", "Say how many chips you bid, e.g. “bid 5”; or reply “pass”."),
    ("bid -3", "“bid -3” isn't a bid: a bid is a whole number of chips, at least 1"),
    ("bid 0", "“bid 0” isn't a bid"),
    ("bid 2.5", "We couldn't read “bid 2.5” as a bid: write a whole number of chips"),
    ("bid lots", "We couldn't read “bid lots” as a bid"),
])
def test_a_bid_without_a_whole_number_of_chips_says_why(text: str, problem: str) -> None:
    assert problem in read(text, Phase.BID, AUCTION)


def test_pass_alone_passes_the_bid_in_auction_hearts() -> None:
    assert needs_phase("pass") and needs_phase("Pass.") and needs_phase("I pass")
    assert read("pass", Phase.BID, AUCTION) == "bid pass"
    assert read("I pass", Phase.BID, AUCTION) == "bid pass"
    # another seat's bid: still a pass of the bid (the service says whose turn it is)
    assert read("pass", Phase.BID, AUCTION, to_move=False) == "bid pass"


def test_pass_alone_after_the_bidding_says_nobody_passes_cards() -> None:
    """The engine's own reason (asked().why_not), with what the seat is asked instead."""
    assert read("pass", Phase.PLAY, AUCTION) == ("problem: Nobody passes cards in Auction "
                                                 "Hearts: reply with the card you play, e.g. “QS”.")
    assert read("pass", Phase.NAME_SUIT, AUCTION) == \
        "problem: Nobody passes cards in Auction Hearts."
    assert read("pass", Phase.PLAY, "cancellation", to_move=False) == \
        "problem: Nobody passes cards in Cancellation Hearts."


def test_pass_with_cards_stays_the_card_pass() -> None:
    assert read("pass 2C 3D AH", Phase.BID, AUCTION) == "pass 2C 3D AH"
    assert read("pass 2C 3D AH") == "pass 2C 3D AH"


def test_pass_alone_asks_for_the_cards_where_cards_are_passed() -> None:
    """The example is three cards of the player's own hand (the first in the hand's order)."""
    own = " ".join(str(c) for c in sort_cards(asked_at(Phase.PASS).cards)[:3])
    assert read("pass", Phase.PASS) == f"problem: Name the cards to pass, e.g. “pass {own}”."
    assert read("pass", Phase.PLAY, "domino") == (
        "problem: Nobody passes cards in Domino Hearts: reply with the card you play, e.g. “QS”.")
    # a standard game between passes: still the cards are what's missing
    assert read("pass", Phase.PLAY) == \
        "problem: Name the cards to pass, e.g. “pass 2C 3D AH”."


@pytest.mark.parametrize(("text", "suit"), [
    ("avoid spades", Suit.SPADES), ("Avoid ♠", Suit.SPADES), ("avoid: S", Suit.SPADES),
    ("avoid the hearts", Suit.HEARTS), ("name clubs", Suit.CLUBS), ("name the suit diamonds",
                                                                     Suit.DIAMONDS),
    ("suit: ♥", Suit.HEARTS), ("avoid spade", Suit.SPADES), ("avoid ♠️", Suit.SPADES),
])
def test_the_suit_to_avoid_is_named_with_avoid_or_name(text: str, suit: Suit) -> None:
    assert read(text) == f"avoid {suit.plural}"
    assert not needs_phase(text)


def test_a_suit_alone_names_it_only_while_the_suit_is_named() -> None:
    assert needs_phase("Spades") and needs_phase("♠")
    assert read("Spades", Phase.NAME_SUIT, AUCTION) == "avoid spades"
    assert read("♦", Phase.NAME_SUIT, AUCTION) == "avoid diamonds"
    assert read("Hearts please", Phase.NAME_SUIT, AUCTION) == "avoid hearts"
    assert read("spades", Phase.PLAY, AUCTION).startswith("problem: “spades” has no rank")


def test_a_bare_letter_is_an_initial_not_a_suit() -> None:
    assert not needs_phase("S")
    assert read("avoid hearts\n\nS", Phase.NAME_SUIT, AUCTION) == "avoid hearts"


@pytest.mark.parametrize(("text", "problem"), [
    ("avoid trumps", "“avoid trumps”: “trumps” isn't a suit. Name the suit to avoid as clubs, "
                     "diamonds, hearts or spades, e.g. “avoid spades”."),
    ("avoid", "Name the suit to avoid, e.g. “avoid spades”."),
])
def test_avoid_without_a_suit_says_why(text: str, problem: str) -> None:
    assert read(text, Phase.NAME_SUIT, AUCTION) == f"problem: {problem}"


def test_name_and_suit_lines_that_are_not_suits_are_ordinary_words() -> None:
    assert read("Name: Hans Müller\nQS") == "play QS"
    assert read("Suit yourself!\nQS") == "play QS"


def test_a_bid_and_a_card_are_two_commands() -> None:
    assert "more than one command" in read("bid 5\nQS", Phase.BID, AUCTION)
    assert "more than one command" in read("bid 5\npass", Phase.BID, AUCTION)


def test_nothing_found_says_what_the_phase_wants() -> None:
    assert "couldn't find a bid" in read("Hmm, let me think", Phase.BID, AUCTION)
    assert "couldn't find the suit to avoid" in read("S", Phase.NAME_SUIT, AUCTION)


def test_a_card_during_the_bidding_is_read_as_a_card() -> None:
    """The service then answers that the bidding comes first."""
    assert not needs_phase("QS")
    assert read("QS", Phase.BID, AUCTION) == "play QS"


def test_say_lines_never_need_the_phase() -> None:
    assert not needs_phase("say spades are trouble\npass")


SAMPLES = [
    "QS", "play 10h", "pass 2C 3D AH", "2c 3d ah", "pass", "I pass", "no bid", "bid 5", "bid",
    "bid -3", "avoid spades", "avoid trumps", "spades", "♠", "S", "Name: Ann Smith\nQS",
    "claim", "moon down", "status", "help", "say spades!", "away 1-14 August", "Thanks!",
    "Hearts please", "Diamonds", "QS\nKS", "Q", "",
]


# Every phase a seat can be asked in, in the variants that have it (the moon choice is
# reached by a seeded game only rarely; its reading is the same as play's).
QUESTIONS = [(Phase.PASS, "standard"), (Phase.PLAY, "standard"), (Phase.BID, AUCTION),
             (Phase.NAME_SUIT, AUCTION), (Phase.PLAY, AUCTION), (Phase.PLAY, "domino"),
             (Phase.DRAW, "domino"), (Phase.PLAY, "cancellation")]


@pytest.mark.parametrize("text", SAMPLES)
def test_a_reply_needs_the_phase_whenever_the_phase_changes_its_reading(text: str) -> None:
    """The fast path (no game loaded) must read every reply as the game would."""
    if needs_phase(text):
        return
    unloaded = read_commands(text)
    for phase, preset in QUESTIONS:
        for to_move in (True, False):
            loaded = read_commands(text, asked_at(phase, preset, to_move=to_move))
            assert (loaded.action, loaded.say, bool(loaded.problem)) == (
                unloaded.action, unloaded.say, bool(unloaded.problem)), (phase, preset)
