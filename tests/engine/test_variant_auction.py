"""Auction Hearts (seed 001): one test per rule, random playouts for 3 to 7 players."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from pbem.engine import (
    ALL_CARDS,
    VARIANT_PRESETS,
    Bid,
    BidMade,
    Card,
    CardPlayed,
    GameCreated,
    GameState,
    HandDealt,
    IllegalMove,
    NameSuit,
    NotYourTurn,
    PassCards,
    Phase,
    PlayCard,
    Settlement,
    Suit,
    SuitNamed,
    WrongPhase,
    apply,
    decide,
    decode_event,
    encode_event,
    legal_cards,
    parse_cards,
    preset,
    replay,
    restore,
    seat_view,
    settlement,
    snapshot,
)
from pbem.engine.cards import SUIT_MASKS, mask_of
from pbem.playout import random_event

RULES = VARIANT_PRESETS["auction"].rules


def dealt(rules=RULES, dealer: int = 3) -> GameState:  # type: ignore[no-untyped-def]
    return replay([GameCreated(rules, rules.players, dealer), HandDealt(ALL_CARDS)])


def bid(state: GameState, *chips: int | None) -> GameState:
    for amount in chips:
        state = apply(state, decide(state, Bid(state.turn, amount))[0])
    return state


def last_trick(state: GameState, suit: Suit, won: list[str], hands: list[str]) -> GameState:
    """The named suit, the cards already taken, one card left per seat; then play it out."""
    state = apply(state, SuitNamed(state.bidder, suit))
    state = replace(state, won=tuple(mask_of(parse_cards(w)) for w in won),
                    hands=tuple(mask_of(parse_cards(h)) for h in hands),
                    tricks=(state.current_trick,) * 12, hearts_broken=True)
    for _ in hands:
        state = apply(state, CardPlayed(state.turn, state.hand(state.turn)[0]))
    return state


def test_bidding_starts_left_of_the_dealer_and_everyone_bids_once() -> None:
    state = dealt()
    assert state.phase is Phase.BID and state.to_move == (0,)
    state = bid(state, 2, None, 5)
    assert state.bids == (2, 0, 5, -1) and state.turn == 3
    with pytest.raises(NotYourTurn, match="^already_bid"):
        decide(state, Bid(0, 9))


def test_a_bid_must_be_higher_than_the_last_bid_or_a_pass() -> None:
    state = bid(dealt(), 4)
    with pytest.raises(IllegalMove, match=r"^bid_too_low \(leader=0, high=4\)"):
        decide(state, Bid(1, 4))
    with pytest.raises(IllegalMove, match=r"^bid_too_low \(leader=0, high=1\)"):
        decide(bid(dealt(), 1), Bid(1, 1))  # one chip, not "1 chips"
    with pytest.raises(IllegalMove, match="^bid_not_positive"):
        decide(state, Bid(1, 0))
    assert decide(state, Bid(1, None)) == (BidMade(1, None),)


def test_the_winner_pays_into_the_pot_names_the_suit_and_leads() -> None:
    state = bid(dealt(), 1, 3, None, None)
    assert state.phase is Phase.NAME_SUIT and state.bidder == 1 and state.to_move == (1,)
    assert state.pot == 3 and state.chips == (0, -3, 0, 0)
    with pytest.raises(NotYourTurn, match=r"^not_bidder \(bidder=1\)"):
        decide(state, NameSuit(0, Suit.CLUBS))
    with pytest.raises(WrongPhase, match=r"^waiting_name_suit \(waiting=1\)"):
        decide(state, PlayCard(1, state.hand(1)[0]))
    state = apply(state, decide(state, NameSuit(1, Suit.CLUBS))[0])
    assert state.phase is Phase.PLAY and state.turn == 1 and state.named_suit is Suit.CLUBS
    assert seat_view(state, 0).named_suit is Suit.CLUBS and seat_view(state, 0).pot == 3


def test_when_everyone_passes_the_dealer_names_the_suit_for_nothing() -> None:
    state = bid(dealt(), None, None, None, None)
    assert state.bidder == 3 and state.pot == 0 and state.phase is Phase.NAME_SUIT


def test_the_named_suit_must_be_broken_before_it_is_led() -> None:
    state = apply(bid(dealt(), 1, None, None, None), SuitNamed(0, Suit.DIAMONDS))
    state = replace(state, hands=(mask_of(parse_cards("2D 3C")),) + state.hands[1:],
                    tricks=(state.current_trick,))
    assert legal_cards(state, 0) == parse_cards("3C")
    with pytest.raises(IllegalMove, match=r"^avoid_not_broken .*suit=<Suit.DIAMONDS"):
        decide(state, PlayCard(0, Card.parse("2D")))


def test_a_chip_per_card_of_the_named_suit_and_a_sole_clean_player_wins_the_pot() -> None:
    state = bid(dealt(), 2, None, None, None)
    state = last_trick(state, Suit.CLUBS, ["", "2C 3C 4C", "5C 6C 7C 8C 9C", "TC JC QC"],
                       ["2S", "AS", "2D", "KC"])
    # seat 1 took the last trick's KC too: counts 0, 4, 5, 3; the pot 2 + 12 goes to seat 0
    assert state.sheet[-1].points == (0, 4, 5, 3)
    assert state.pot == 0 and state.chips == (-2 + 14, -4, -5, -3)
    assert state.bidder == -1  # the next deal bids afresh
    state = apply(state, HandDealt(ALL_CARDS))
    assert state.phase is Phase.BID


def test_two_clean_players_split_the_pot_and_an_odd_chip_stays() -> None:
    state = bid(dealt(), 4, None, None, None)
    state = last_trick(state, Suit.HEARTS, ["", "", "2H 3H 4H 5H 6H 7H", "8H 9H TH JH QH KH"],
                       ["2S", "3S", "4S", "AH"])
    assert state.sheet[-1].points == (0, 0, 7, 6)
    assert state.pot == 1 and state.chips == (-4 + 8, 8, -7, -6)  # 17 chips: 8 each, 1 stays


def test_more_than_two_clean_players_carry_the_pot_and_the_bidder_names_again() -> None:
    state = bid(dealt(), None, 2, None, None)
    state = last_trick(state, Suit.SPADES,
                       ["", "", "", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"],
                       ["KD", "AD", "2D", "3D"])
    assert state.sheet[-1].points == (0, 0, 0, 12)  # three clean players: nobody wins
    assert state.pot == 2 + 12 and state.bidder == 1
    state = apply(state, HandDealt(ALL_CARDS))
    assert state.phase is Phase.NAME_SUIT and state.to_move == (1,) and state.pot == 14
    with pytest.raises(WrongPhase, match="^pot_carried_over"):
        decide(state, Bid(0, 5))
    state = apply(state, SuitNamed(1, Suit.HEARTS))
    assert state.turn == 1 and state.chips == (0, -2, 0, -12)  # no second payment


def test_one_player_taking_the_whole_suit_wins_nothing() -> None:
    rules = RULES.replace(players=3, removed=parse_cards("2D"))
    deck = tuple(c for c in ALL_CARDS if c is not Card.parse("2D"))
    state = bid(replay([GameCreated(rules, 3, 2), HandDealt(deck)]), 1, None, None)
    clubs = " ".join(f"{r}C" for r in "3456789TJQK")
    state = last_trick(state, Suit.CLUBS, ["", "", "2C AC " + clubs], ["2S", "3D", "AS"])
    assert state.sheet[-1].points == (0, 0, 13)  # two clean players, yet nobody wins
    assert state.pot == 14 and state.bidder == 0


def test_when_everyone_takes_some_of_the_suit_nobody_wins() -> None:
    state = bid(dealt(), 1, None, None, None)
    state = last_trick(state, Suit.CLUBS, ["2C", "3C", "4C", "5C"], ["2S", "3S", "4S", "5S"])
    assert state.pot == 5 and state.bidder == 0


def test_auction_settlement_is_each_seats_chips_and_the_pot() -> None:
    state = bid(dealt(), 1, None, None, None)
    state = last_trick(state, Suit.CLUBS, ["2C", "3C", "4C", "5C"], ["2S", "3S", "4S", "5S"])
    result = settlement(state)
    assert result.kind is Settlement.AUCTION and result.pot == 5
    assert result.amounts == state.chips == (-2, -1, -1, -1)


def test_bids_and_suits_have_strict_json() -> None:
    for event in (BidMade(1, 7), BidMade(2, None), SuitNamed(0, Suit.SPADES)):
        body = json.loads(json.dumps(encode_event(event)))
        assert decode_event(body) == event
    assert encode_event(SuitNamed(0, Suit.SPADES))["suit"] == "S"
    for bad in ({"type": "bid_made", "v": 1, "seat": 0, "chips": 0},
                {"type": "bid_made", "v": 1, "seat": 0, "chips": "3"},
                {"type": "suit_named", "v": 1, "seat": 0, "suit": "spades"}):
        with pytest.raises(Exception, match="malformed"):
            decode_event(bad)


def test_standard_games_refuse_bids_and_named_suits() -> None:
    state = replay([GameCreated(preset("standard"), 4, 3), HandDealt(ALL_CARDS)])
    with pytest.raises(WrongPhase, match="^no_bidding"):
        decide(state, Bid(0, 3))
    with pytest.raises(WrongPhase, match="^event_out_of_place"):
        apply(state, BidMade(0, 3))


def test_the_auction_needs_its_own_settlement_and_no_queen() -> None:
    with pytest.raises(ValueError, match="auction_settles_pot"):
        replace(RULES, settlement=Settlement.HOWELL)
    with pytest.raises(ValueError, match="auction_scores_named_suit"):
        replace(RULES, queen_scores=True)


# --- random playouts ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_random_playouts_keep_the_invariants(players: int) -> None:
    base = preset("seven") if players == 7 else preset({3: "three", 5: "five", 6: "six-hoyle"}
                                                       .get(players, "standard"))
    rules = RULES.replace(players=players, removed=base.removed, target=40)
    for seed in range(3):
        rng = random.Random(seed * 10 + players)
        created = GameCreated(rules, players, rng.randrange(players))
        state, log = replay([created]), [created]
        while not state.game_over and state.hand_number <= 15:
            event = random_event(state, rng)
            after = apply(state, event)
            log.append(event)  # type: ignore[arg-type]
            assert sum(after.chips) + after.pot == 0
            if isinstance(event, CardPlayed):
                assert event.card in legal_cards(state, event.seat)
            if len(after.sheet) > len(state.sheet):
                counts = after.sheet[-1].points
                suit = SUIT_MASKS[state.avoid]
                assert sum(counts) == (after.in_play & suit).bit_count()
                clean = counts.count(0)
                won = clean in (1, 2) and max(counts) < sum(counts)
                assert (after.bidder == -1) == won
                if not won:
                    assert after.pot == state.pot + sum(counts)
            state = after
        assert replay(log) == state
        payloads = [json.loads(json.dumps(encode_event(e))) for e in log]
        assert replay(decode_event(p) for p in payloads) == state
        assert restore(json.loads(json.dumps(snapshot(state)))) == state
        assert settlement(state).amounts == state.chips


def test_presets_command_lists_the_variants_under_their_own_heading() -> None:
    from click.testing import CliRunner

    from pbem.rules_cli import presets

    output = CliRunner().invoke(presets, []).output
    heading = output.index("\nWhole variants\n")
    assert output.index("auction ") > heading and output.index("domino ") > heading
    assert "Auction Hearts:" in CliRunner().invoke(presets, ["auction"]).output


def test_there_is_no_pass_in_auction_hearts_and_a_pass_says_so() -> None:
    state = bid(dealt(), 2, None, None, None)
    state = apply(state, SuitNamed(0, Suit.SPADES))
    with pytest.raises(WrongPhase, match="^no_passing .*auction"):
        decide(state, PassCards(0, state.hand(0)[:3]))
