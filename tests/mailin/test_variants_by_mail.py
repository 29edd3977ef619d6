"""The whole variants by reply, on SQLite and PostgreSQL: Auction bids and the suit to avoid,
refusals in the variant's words (with what may be replied now), repeats made once, and a
plain card naming either copy in Cancellation Hearts."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Engine

from pbem import service
from pbem.engine import (
    BidMade,
    Card,
    CardPlayed,
    GameState,
    Phase,
    Suit,
    SuitNamed,
    Variant,
    legal_cards,
)
from pbem.mailin.process import deliver
from tests.mailin.support import (
    emails,
    inbox,
    latest_token,
    reply,
    seq_of,
    state_of,
    two_human_game,
)
from tests.mailin.test_process import row
from tests.mailin.variant_support import (
    NAMES,
    address,
    answer,
    bid_through_service,
    events,
    newest,
    reason,
    variant_game,
)

# --- Auction Hearts: bids ---------------------------------------------------------------------

def test_a_bid_by_reply_is_made(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    seat = state_of(engine, game).turn
    stored = answer(engine, seat, "bid 5")
    assert reason(engine, stored.id).startswith("bid 5")
    assert BidMade(seat, 5) in events(engine, game)
    assert state_of(engine, game).bids[seat] == 5


def test_pass_alone_during_the_bidding_passes_the_bid(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    seat = state_of(engine, game).turn
    answer(engine, seat, "Not this time.\npass")
    assert BidMade(seat, None) in events(engine, game)
    assert state_of(engine, game).turn != seat


def test_an_illegal_bid_gets_the_error_email_and_changes_nothing(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    first = state_of(engine, game).turn
    state = bid_through_service(engine, game, [3])
    seat, seq = state.turn, seq_of(engine, game)
    stored = answer(engine, seat, "bid 2")
    assert seq_of(engine, game) == seq
    assert reason(engine, stored.id).startswith("refused")
    assert row(engine, stored.id).raw  # the raw mail is kept
    error = newest(engine, seat, "error")
    assert f"{NAMES[first]} already bid 3: bid more than 3 chips, or pass." in error
    assert "Reply “bid 4” or more, or “pass”." in error


def test_a_bid_without_a_number_is_answered_in_the_bidding_s_words(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    seat, seq = state_of(engine, game).turn, seq_of(engine, game)
    for text in ("bid", "bid -3"):
        answer(engine, seat, text)
        assert seq_of(engine, game) == seq
    error = newest(engine, seat, "error")
    assert "a bid is a whole number of chips, at least 1" in error
    assert "Reply “bid 1” or more, or “pass”." in error


def test_the_same_bid_twice_bids_once(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    seat = state_of(engine, game).turn
    token = latest_token(engine, address(seat))
    message = reply(token, "bid 4", sender=address(seat))
    deliver(inbox(engine), message)
    seq = seq_of(engine, game)
    again = deliver(inbox(engine), message)  # the same message delivered twice
    assert not again.created
    repeat = deliver(inbox(engine), reply(token, "bid 4", sender=address(seat)))  # sent again
    assert seq_of(engine, game) == seq
    assert events(engine, game).count(BidMade(seat, 4)) == 1
    assert reason(engine, repeat.id).startswith("duplicate")
    assert "Your bid of 4 was already recorded." in newest(engine, seat, "note")


def test_another_bid_in_reply_to_an_earlier_email_is_stale(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    seat = state_of(engine, game).turn
    token = latest_token(engine, address(seat))
    deliver(inbox(engine), reply(token, "bid 4", sender=address(seat)))
    seq = seq_of(engine, game)
    deliver(inbox(engine), reply(token, "bid 9", sender=address(seat)))
    assert seq_of(engine, game) == seq
    assert "you have bid since" in newest(engine, seat, "error")


def test_a_bid_out_of_turn_is_refused(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    state = state_of(engine, game)
    waiting = (state.turn + 1) % state.seats
    seq = seq_of(engine, game)
    answer(engine, waiting, "bid 2")
    assert seq_of(engine, game) == seq
    assert f"It's not your turn to bid: we're waiting for {NAMES[state.turn]}." in newest(
        engine, waiting, "error")


def test_a_card_during_the_bidding_gets_bidding_first(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    state = state_of(engine, game)
    seat, seq = state.turn, seq_of(engine, game)
    answer(engine, seat, str(state.hand(seat)[0]))
    assert seq_of(engine, game) == seq
    error = newest(engine, seat, "error")
    assert "The bidding comes first." in error and "Reply “bid 1” or more" in error


# --- Auction Hearts: the suit to avoid ----------------------------------------------------------

def _to_name_suit(engine: Engine, game: int) -> int:
    state = state_of(engine, game)
    state = bid_through_service(engine, game, [2, *([None] * (state.seats - 1))])
    assert state.phase is Phase.NAME_SUIT
    return state.bidder


def test_avoid_by_reply_names_the_suit(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    bidder = _to_name_suit(engine, game)
    answer(engine, bidder, "avoid hearts")
    assert SuitNamed(bidder, Suit.HEARTS) in events(engine, game)
    state = state_of(engine, game)
    assert state.named_suit is Suit.HEARTS and state.phase is Phase.PLAY


def test_the_suit_alone_names_it_while_it_is_named(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    bidder = _to_name_suit(engine, game)
    answer(engine, bidder, "♦")
    assert state_of(engine, game).named_suit is Suit.DIAMONDS


def test_avoid_trumps_says_which_suits_there_are(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    bidder = _to_name_suit(engine, game)
    seq = seq_of(engine, game)
    answer(engine, bidder, "avoid trumps")
    assert seq_of(engine, game) == seq
    error = newest(engine, bidder, "error")
    assert "“trumps” isn't a suit" in error and "“avoid spades”" in error


def test_only_the_winning_bidder_names_the_suit(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    bidder = _to_name_suit(engine, game)
    other = (bidder + 1) % 4
    answer(engine, other, "status")  # a fresh email to answer (an old one would be stale)
    answer(engine, other, "avoid spades", "status")
    assert state_of(engine, game).named_suit is None
    assert f"Only {NAMES[bidder]}, who won the bidding, names the suit." in newest(
        engine, other, "error")


def test_help_lists_the_auction_commands_only(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    answer(engine, 0, "help")
    text = newest(engine, 0, "help")
    assert "bid 5" in text and "avoid spades" in text
    assert "pass 2C 3D AH" not in text and "moon down" not in text
    assert state_of(engine, game).phase is Phase.BID


# --- Cancellation and Domino ----------------------------------------------------------------------

def _play_until(engine: Engine, game: int,
                wanted: Callable[[GameState, int], Card | None]) -> tuple[int, Card]:
    """Play the last legal card for every seat (through the service) until `wanted(state,
    seat)` names a card for the seat to move; that seat and card."""
    ctx = service.Context(engine=engine)
    for _ in range(400):
        state = state_of(engine, game)
        seat = state.turn
        found = wanted(state, seat)
        if found is not None:
            return seat, found
        service.play_card(ctx, game, seat, legal_cards(state, seat)[-1])
    raise AssertionError("never found")


def test_a_cancellation_reply_plays_the_copy_held(engine: Engine) -> None:
    """"QS" means a queen of spades you hold, whichever deck it came from."""
    game = variant_game(engine, "cancellation-seven")

    def second_copy_only(state: GameState, seat: int) -> Card | None:
        hand = state.hands[seat]
        return next((c for c in legal_cards(state, seat)
                     if c.copy == 1 and not hand & c.twin.bit), None)

    seat, card = _play_until(engine, game, second_copy_only)
    answer(engine, seat, str(card))
    assert CardPlayed(seat, card) in events(engine, game)


def test_a_cancellation_card_held_twice_is_played_twice_by_reply(engine: Engine) -> None:
    game = variant_game(engine, "cancellation-seven")

    def both_copies(state: GameState, seat: int) -> Card | None:
        legal = legal_cards(state, seat)
        return next((c for c in legal if c.copy == 0 and c.twin in legal), None)

    seat, card = _play_until(engine, game, both_copies)
    answer(engine, seat, str(card))
    hand = state_of(engine, game).hands[seat]
    assert hand & card.twin.bit and not hand & card.bit

    def twin_again(state: GameState, to_move: int) -> Card | None:
        legal = to_move == seat and card.twin in legal_cards(state, to_move)
        return card.twin if legal else None

    _play_until(engine, game, twin_again)  # a new turn email: the twin is a new move
    answer(engine, seat, str(card))
    assert CardPlayed(seat, card.twin) in events(engine, game)


def test_a_claim_in_cancellation_or_domino_gets_the_refusal_in_words(engine: Engine) -> None:
    for preset, title in (("cancellation-seven", "Cancellation"), ("domino-two", "Domino")):
        game = variant_game(engine, preset)
        seat, seq = state_of(engine, game).turn, seq_of(engine, game)
        answer(engine, seat, "claim")
        assert seq_of(engine, game) == seq
        assert (f"Claims aren't part of {title} Hearts here: please play on."
                in newest(engine, seat, "error"))


def test_help_in_domino_has_no_claim_or_pass(engine: Engine) -> None:
    game = variant_game(engine, "domino-two")
    assert state_of(engine, game).rules.variant is Variant.DOMINO
    answer(engine, 0, "help")
    text = newest(engine, 0, "help")
    assert "claim all" not in text and "pass 2C 3D AH" not in text
    assert "stock" in text


def test_status_during_the_bidding_shows_the_bids_and_the_pot(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    first = state_of(engine, game).turn
    state = bid_through_service(engine, game, [3])
    answer(engine, state.turn, "status")
    text = newest(engine, state.turn, "status")
    assert "It's your turn to bid for the suit to avoid. Reply “bid 4” or more" in text
    assert f"Bids so far: {NAMES[first]} 3 chips" in text
    assert "the highest bid so far is 3 chips" in text and "The pot holds 0 chips." in text
    other = (state.turn + 1) % state.seats
    answer(engine, other, "status")
    assert f"Waiting for {NAMES[state.turn]} to bid." in newest(engine, other, "status")


def test_status_in_play_shows_the_suit_to_avoid(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    bidder = _to_name_suit(engine, game)
    answer(engine, bidder, "avoid clubs")
    answer(engine, bidder, "status")
    text = newest(engine, bidder, "status")
    assert "are the suit to avoid this hand, named by you" in text and "Clubs" in text


def test_status_in_domino_shows_the_stock(engine: Engine) -> None:
    variant_game(engine, "domino-two")
    answer(engine, 0, "status")
    assert "The stock has 40 cards." in newest(engine, 0, "status")


def test_a_bid_or_a_suit_in_a_standard_game_is_refused_in_words(engine: Engine) -> None:
    game = two_human_game(engine)
    seq = seq_of(engine, game)
    token = latest_token(engine, "ann@example.org", "pass")
    deliver(inbox(engine), reply(token, "bid 5"))
    assert "There's no bidding in this game." in newest_error(engine)
    deliver(inbox(engine), reply(token, "avoid spades"))
    assert "hearts are the suit to avoid" in newest_error(engine)
    assert seq_of(engine, game) == seq


def newest_error(engine: Engine, to: str = "ann@example.org") -> str:
    return emails(engine, to, "error")[-1].body_text
