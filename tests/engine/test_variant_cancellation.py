"""Cancellation Hearts (seed 001): one test per rule, random playouts for 7 to 10 players."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from pbem.engine import (
    VARIANT_PRESETS,
    Cancels,
    Card,
    CardPlayed,
    Claim,
    EventDecodeError,
    GameCreated,
    GameState,
    HandDealt,
    IllegalMove,
    Phase,
    PlayCard,
    Rules,
    Variant,
    apply,
    decide,
    deck_cards,
    decode_event,
    encode_event,
    legal_cards,
    replay,
    restore,
    seat_view,
    snapshot,
)
from pbem.engine.cards import DOUBLE_DECK, mask_of
from pbem.playout import random_event
from tests.helpers import play

RULES = VARIANT_PRESETS["cancellation"].rules  # 8 players, identical cards cancel
FREE = RULES.replace(points_on_first_trick=True)  # so that hand-made first tricks may hold points


def codes(text: str) -> tuple[Card, ...]:
    return tuple(Card.from_code(t) for t in text.split())


def situation(rules: Rules, hands: dict[int, str], kitty: str = "", **changes: object
              ) -> GameState:
    """A dealt hand (dealer = last seat, so seat 0 leads) with the given hands and widow."""
    n = rules.players
    state = replay([GameCreated(rules, n, n - 1), HandDealt(deck_cards(rules))])
    masks = tuple(mask_of(codes(hands.get(s, ""))) for s in range(n))
    return replace(state, hands=masks, kitty=mask_of(codes(kitty)), **changes)  # type: ignore


def test_cancellation_needs_7_to_10_players() -> None:
    for players in (6, 11):
        with pytest.raises(ValueError, match="players_range"):
            replace(RULES, players=players)
    for players in range(7, 11):
        assert RULES.replace(players=players).players == players


def test_two_decks_are_dealt_out_evenly_and_the_rest_is_a_widow() -> None:
    for players, size, widow in ((7, 14, 6), (8, 13, 0), (9, 11, 5), (10, 10, 4)):
        rules = RULES.replace(players=players)
        assert (rules.deck_size, rules.hand_size, rules.kitty_size) == (104, size, widow)
        state = replay([GameCreated(rules, players, 0), HandDealt(deck_cards(rules))])
        assert [len(state.hand(s)) for s in range(players)] == [size] * players
        assert len(state.kitty_cards) == widow


def test_a_deal_must_hold_both_decks() -> None:
    state = replay([GameCreated(RULES, 8, 0)])
    with pytest.raises(IllegalMove, match="^bad_deal"):
        apply(state, HandDealt(DOUBLE_DECK[:52] * 2))


def test_no_pass_and_the_player_left_of_the_dealer_leads() -> None:
    state = replay([GameCreated(RULES, 8, 5), HandDealt(deck_cards(RULES))])
    assert state.phase is Phase.PLAY and state.turn == 6
    assert len(legal_cards(state, 6)) > 1  # any card but hearts (unbroken, no points on trick 1)


def test_the_second_copy_prints_the_same_and_has_its_own_code() -> None:
    qs, qs2 = Card.from_code("QS"), Card.from_code("QS'")
    assert qs is Card.parse("QS") and qs2 is qs.twin and qs2.twin is qs
    assert str(qs2) == "QS" and qs2.code == "QS'" and qs2.index == qs.index + 52
    assert (qs2.rank, qs2.suit) == (qs.rank, qs.suit)
    assert sorted([qs2, Card.parse("KS"), qs]) == [qs, qs2, Card.parse("KS")]


def test_a_card_named_plainly_means_the_copy_you_hold() -> None:
    state = situation(FREE, {0: "QS' 3D", 1: "4S 5D"})
    assert decide(state, PlayCard(0, Card.parse("QS"))) == (CardPlayed(0, Card.from_code("QS'")),)
    with pytest.raises(IllegalMove, match=r"^not_held \(cards=\(Card\('KS'\),\)"):
        decide(state, PlayCard(0, Card.parse("KS")))


def test_events_keep_the_copy_in_json() -> None:
    event = CardPlayed(3, Card.from_code("7H'"))
    body = encode_event(event)
    assert body == {"type": "card_played", "v": 1, "seat": 3, "card": "7H'"}
    assert decode_event(json.loads(json.dumps(body))) == event
    with pytest.raises(EventDecodeError, match="not a canonical card"):
        decode_event({**body, "card": "7H''"})


def test_identical_cards_cancel_and_neither_wins() -> None:
    hands = {0: "9C 2D", 1: "9C' 2D'", 2: "5C 3D", 3: "4C 3D'",
             4: "3C 4D", 5: "3C' 4D'", 6: "2C 5D", 7: "2C' 5D'"}
    state = play(situation(RULES, hands), "9C", "9C", "5C", "4C", "3C", "3C", "2C", "2C")
    assert state.tricks[0].winner == 2  # the two 9C cancel: the 5C is the best card left


def test_cards_of_the_same_rank_only_cancel_with_the_same_rank_option() -> None:
    hands = {0: "9C 2D", 1: "KC 2D'", 2: "5C 3D", 3: "4C 3D'",
             4: "3C 4D", 5: "3C' 4D'", 6: "2C 5D", 7: "KD 5D'"}
    plays = ("9C", "KC", "5C", "4C", "3C", "3C", "2C", "KD")
    identical = play(situation(RULES, hands), *plays)
    assert identical.tricks[0].winner == 1  # KC wins: the KD is another card
    rank = RULES.replace(cancels=Cancels.SAME_RANK)
    same_rank = play(situation(rank, hands), *plays)
    assert same_rank.tricks[0].winner == 0  # the KD discard cancels the KC: 9C is best


def test_an_all_paired_trick_goes_to_the_winner_of_the_next_trick() -> None:
    hands = {0: "9C AC", 1: "9C' 2C", 2: "5D 3D", 3: "5D' 4D",
             4: "6S 5S", 5: "6S' 7S", 6: "7D 8D", 7: "7D' 9S"}
    state = play(situation(RULES, hands), "9C", "9C", "5D", "5D", "6S", "6S", "7D", "7D")
    assert state.tricks[0].winner is None
    assert set(state.carried_cards) == set(codes("9C 9C' 5D 5D' 6S 6S' 7D 7D'"))
    assert seat_view(state, 3).carried == state.carried_cards
    assert state.turn == 0  # the same player leads again
    state = play(state, "AC", "2C", "3D", "4D", "5S", "7S", "8D", "9S")
    assert state.tricks[1].winner == 0
    assert len(state.taken(0)) == 16 and state.carry == 0


def test_a_trick_whose_suit_led_is_all_cancelled_goes_to_the_next_trick() -> None:
    rules = RULES.replace(players=7)
    hands = {0: "9C AC", 1: "9C' 2C", 2: "5D 3D", 3: "6D 4D", 4: "6S 5S", 5: "7S 8S",
             6: "8D 9D"}
    state = play(situation(rules, hands), "9C", "9C", "5D", "6D", "6S", "7S", "8D")
    assert state.tricks[0].winner is None and len(state.carried_cards) == 7


def test_the_widow_goes_with_the_first_trick() -> None:
    rules = RULES.replace(players=9)
    hands = {s: f"{r}C {r}D" for s, r in zip(range(9), "AKQJT9876", strict=True)}
    widow = "QH QH' AH AH' 2S"
    state = situation(rules.replace(points_on_first_trick=True), hands, kitty=widow)
    state = play(state, "AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C")
    assert set(codes(widow)) <= set(state.taken(0))
    assert state.kitty == 0


def test_the_last_trick_nobody_can_win_goes_to_its_leader() -> None:
    hands = {0: "9H", 1: "9H'", 2: "5D", 3: "5D'", 4: "6S", 5: "6S'", 6: "7D", 7: "7D'"}
    state = situation(RULES, hands, hearts_broken=True)
    state = replace(state, tricks=(replace(state.current_trick, winner=0),), leader=0)
    state = play(state, "9H", "9H", "5D", "5D", "6S", "6S", "7D", "7D")
    assert state.tricks[-1].winner == 0 and set(state.taken(0)) >= set(codes("9H 9H'"))
    assert state.phase is Phase.DEAL and state.sheet[-1].points[0] == 2


def test_both_queens_score_and_the_moon_needs_every_point_card() -> None:
    assert RULES.moon_points == 52
    qs, qs2 = Card.from_code("QS"), Card.from_code("QS'")
    state = situation(RULES, {s: "" for s in range(8)}, hearts_broken=True)
    state = replace(state, won=(qs.bit | qs2.bit | Card.parse("2H").bit, 0, 0, 0, 0, 0, 0, 0))
    assert state.hand_points[0] == 27


def test_must_follow_suit_error_names_the_suit_in_two_deck_terms() -> None:
    state = play(situation(RULES, {0: "5C' 2D", 1: "9C' 3D"}), "5C")
    with pytest.raises(IllegalMove,
                       match=r"^must_follow_suit .*led=<Suit.CLUBS: 0>, held=\(Card\('9C'\),\)"):
        decide(state, PlayCard(1, Card.parse("3D")))


def test_claims_are_refused_in_cancellation() -> None:
    state = situation(RULES, {0: "AS", 1: "2S"})
    with pytest.raises(IllegalMove, match="^no_claims .*cancellation"):
        decide(state, Claim(0))


def test_variant_rules_round_trip_and_old_rules_decode_as_standard() -> None:
    data = RULES.replace(cancels=Cancels.SAME_RANK).to_dict()
    assert data["variant"] == "cancellation" and data["cancels"] == "same_rank"
    assert Rules.from_dict(data) == RULES.replace(cancels=Cancels.SAME_RANK)
    assert "variant" not in Rules().to_dict()
    assert Rules.from_dict(Rules().to_dict()).variant is Variant.STANDARD
    with pytest.raises(ValueError, match="cancels_outside_cancellation"):
        Rules(cancels=Cancels.SAME_RANK)


# --- random playouts ---------------------------------------------------------------------------

def check_hand(state: GameState, before: GameState) -> None:
    """At the end of a hand: every card of both decks taken once, the points add up."""
    taken = [c for s in range(state.seats) for c in state.taken(s)]
    assert len(taken) == 104 and set(taken) == set(DOUBLE_DECK)
    result = state.sheet[-1]
    if result.moon is None:
        assert sum(result.points) == 52
    assert all(t.winner is not None for t in state.tricks[-1:])
    for trick in state.tricks:
        assert len(trick.plays) == state.seats


@pytest.mark.parametrize("players", [7, 8, 9, 10])
@pytest.mark.parametrize("cancels", [Cancels.IDENTICAL, Cancels.SAME_RANK])
def test_random_playouts_keep_the_invariants(players: int, cancels: Cancels) -> None:
    rules = RULES.replace(players=players, cancels=cancels, target=60)
    for seed in range(2):
        rng = random.Random(seed * 100 + players)
        state = replay([GameCreated(rules, players, rng.randrange(players))])
        log: list = [GameCreated(rules, players, state.dealer)]  # type: ignore[type-arg]
        while not state.game_over and state.hand_number <= 6:
            event = random_event(state, rng)
            after = apply(state, event)
            log.append(event)
            if isinstance(event, CardPlayed):
                assert event.card in legal_cards(state, event.seat)
                held = sum(h.bit_count() for h in after.hands)
                in_trick = len(after.trick) + after.carry.bit_count() + after.kitty.bit_count()
                taken = sum(w.bit_count() for w in after.won)
                assert held + in_trick + taken == 104
                if after.phase is not Phase.PLAY and after.sheet:
                    check_hand(after, state)
            state = after
        assert replay(log) == state
        payloads = [json.loads(json.dumps(encode_event(e))) for e in log]
        assert replay(decode_event(p) for p in payloads) == state
        assert restore(json.loads(json.dumps(snapshot(state)))) == state
