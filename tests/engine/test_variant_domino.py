"""Domino Hearts (seed 001): one test per rule, random playouts for 2 to 7 players."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from pbem.engine import (
    ALL_CARDS,
    VARIANT_PRESETS,
    Card,
    CardPlayed,
    CardsDrawn,
    Claim,
    GameCreated,
    GameState,
    HandDealt,
    IllegalMove,
    Phase,
    PlayCard,
    Rules,
    WrongPhase,
    apply,
    decide,
    decode_event,
    drawn_cards,
    encode_event,
    forced_events,
    legal_cards,
    parse_cards,
    replay,
    restore,
    seat_view,
    snapshot,
)
from pbem.engine.cards import mask_of
from pbem.playout import random_event
from tests.helpers import play

RULES = VARIANT_PRESETS["domino"].rules  # 4 players, QS not scored


def situation(rules: Rules, hands: dict[int, str], stock: str = "", **changes: object
              ) -> GameState:
    """A dealt hand (dealer = last seat, so seat 0 leads) with the given hands and stock."""
    n = rules.players
    state = replay([GameCreated(rules, n, n - 1), HandDealt(ALL_CARDS)])
    masks = tuple(mask_of(parse_cards(hands.get(s, ""))) for s in range(n))
    return replace(state, hands=masks, stock=tuple(c.index for c in parse_cards(stock)),
                   **changes)  # type: ignore[arg-type]


def test_domino_needs_2_to_7_players() -> None:
    for players in (1, 8):
        with pytest.raises(ValueError, match="players_range"):
            replace(RULES, players=players)


def test_six_cards_each_and_the_rest_is_the_stock() -> None:
    for players in range(2, 8):
        rules = RULES.replace(players=players)
        state = replay([GameCreated(rules, players, 0), HandDealt(ALL_CARDS)])
        assert [len(state.hand(s)) for s in range(players)] == [6] * players
        assert state.stock == tuple(c.index for c in ALL_CARDS[6 * players:])
        assert seat_view(state, 0).stock_size == 52 - 6 * players
        assert state.turn == 1  # left of the dealer leads


def test_a_player_who_cannot_follow_draws_until_able() -> None:
    state = situation(RULES, {0: "5C 9D", 1: "2D 3D", 2: "4C 4D", 3: "6C 6D"},
                      stock="7H 8S KC 2S")
    state = play(state, "5C")
    assert state.phase is Phase.DRAW and state.to_move == ()
    assert legal_cards(state, 1) == ()
    draw = forced_events(state)
    assert draw == (CardsDrawn(1, 3),)
    assert drawn_cards(state, draw[0]) == parse_cards("7H 8S KC")
    state = apply(state, draw[0])
    assert state.phase is Phase.PLAY and legal_cards(state, 1) == parse_cards("KC")
    assert state.stock == (Card.parse("2S").index,)


def test_a_draw_must_take_exactly_the_cards_needed() -> None:
    state = play(situation(RULES, {0: "5C 9D", 1: "2D 3D", 2: "4C", 3: "6C"},
                           stock="7H KC"), "5C")
    with pytest.raises(IllegalMove, match=r"^wrong_draw_count \(needed=2, count=1\)"):
        apply(state, CardsDrawn(1, 1))


def test_no_card_is_played_while_a_player_must_draw() -> None:
    state = play(situation(RULES, {0: "5C 9D", 1: "2D 3D", 2: "4C", 3: "6C"},
                           stock="7H KC"), "5C")
    with pytest.raises(WrongPhase, match=r"^waiting_draw \(waiting=1\)"):
        decide(state, PlayCard(1, Card.parse("2D")), names=["a", "b"])


def test_the_whole_stock_is_drawn_when_it_holds_no_card_of_the_suit() -> None:
    state = play(situation(RULES, {0: "5C 9D", 1: "2D 3D", 2: "4C", 3: "6C"},
                           stock="7H 8S"), "5C")
    assert forced_events(state) == (CardsDrawn(1, 2),)
    state = apply(state, CardsDrawn(1, 2))
    assert state.stock == () and len(legal_cards(state, 1)) == 3  # 7H not on trick one


def test_once_the_stock_is_gone_a_void_player_discards() -> None:
    state = play(situation(RULES, {0: "5C 9D", 1: "2D 3D", 2: "4C 4D", 3: "6C 6D"}), "5C")
    assert state.phase is Phase.PLAY and legal_cards(state, 1) == parse_cards("2D 3D")


def test_players_drop_out_as_their_hands_empty() -> None:
    state = play(situation(RULES, {0: "5C 9D", 1: "2C", 2: "4C 4D", 3: "6C 6D"}),
                 "5C", "2C", "4C", "6C")
    assert state.tricks[0].winner == 3 and state.hands[1] == 0
    state = play(state, "6D", "9D", "4D")  # seat 1 is out: three cards make the trick
    assert len(state.tricks[1].plays) == 3 and state.tricks[1].winner == 0


def test_a_winner_with_no_cards_passes_the_lead_to_the_next_active_player() -> None:
    state = play(situation(RULES, {0: "5C 9D", 1: "AC", 2: "4C 4D", 3: "6C 6D"}),
                 "5C", "AC", "4C", "6C")
    assert state.tricks[0].winner == 1 and state.turn == 2 and state.leader == 2


def test_the_last_player_left_takes_the_cards_in_hand_and_the_stock() -> None:
    rules = RULES.replace(players=2)
    state = situation(rules, {0: "5C", 1: "6C 7H 8H"}, stock="9H TH")
    state = play(state, "5C", "6C")
    assert state.phase is Phase.DEAL
    assert set(state.taken(1)) == set(parse_cards("5C 6C 7H 8H 9H TH"))
    assert state.sheet[-1].points == (0, 4)


def test_when_nobody_is_left_the_last_trick_winner_takes_the_stock() -> None:
    rules = RULES.replace(players=2)
    state = play(situation(rules, {0: "5C", 1: "6C"}, stock="9H TH"), "5C", "6C")
    assert set(state.taken(1)) == set(parse_cards("5C 6C 9H TH"))


def test_the_queen_of_spades_usually_does_not_count() -> None:
    state = situation(RULES, {})
    state = replace(state, won=(mask_of(parse_cards("QS 2H")), 0, 0, 0))
    assert state.hand_points == (1, 0, 0, 0)
    assert RULES.replace(queen_scores=True).moon_points == 26


def test_claims_are_refused_in_domino() -> None:
    with pytest.raises(IllegalMove, match="^no_claims .*domino"):
        decide(situation(RULES, {0: "AS"}), Claim(0))


def test_cards_drawn_round_trips_through_json_strictly() -> None:
    body = encode_event(CardsDrawn(2, 3))
    assert body == {"type": "cards_drawn", "v": 1, "seat": 2, "count": 3}
    assert decode_event(body) == CardsDrawn(2, 3)
    for bad in ({**body, "count": 0}, {**body, "count": "3"}, {**body, "count": True}):
        with pytest.raises(Exception, match="malformed_event .*cards_drawn"):
            decode_event(bad)


# --- random playouts ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_random_playouts_keep_the_invariants(players: int) -> None:
    rules = RULES.replace(players=players, target=40)
    for seed in range(3):
        rng = random.Random(seed * 10 + players)
        created = GameCreated(rules, players, rng.randrange(players))
        state, log = replay([created]), [created]
        while not state.game_over and state.hand_number <= 12:
            event = random_event(state, rng)
            after = apply(state, event)
            log.append(event)  # type: ignore[arg-type]
            held = sum(h.bit_count() for h in after.hands) + len(after.stock)
            assert held + len(after.trick) + sum(w.bit_count() for w in after.won) == 52
            if isinstance(event, CardPlayed):
                assert event.card in legal_cards(state, event.seat)
                assert state.hands[event.seat]  # only active players play
            if isinstance(event, CardsDrawn):
                led = state.trick[0][1] // 13
                got = drawn_cards(state, event)
                assert all(c.suit != led for c in got[:-1])
                assert got[-1].suit == led or not after.stock
            if after.phase is Phase.DRAW:
                assert not after.hands[after.turn] & (0x1FFF << 13 * (after.trick[0][1] // 13))
            for seat in range(players):  # the stock is never shown
                assert not {Card.from_index(i) for i in after.stock} & set(
                    seat_view(after, seat).hand)
            if after.phase is not Phase.PLAY and after.phase is not Phase.DRAW and (
                    len(after.sheet) > len(state.sheet)):
                assert sum(w.bit_count() for w in after.won) == 52
                result = after.sheet[-1]
                assert result.moon is not None or sum(result.points) == 13
            state = after
        assert replay(log) == state
        payloads = [json.loads(json.dumps(encode_event(e))) for e in log]
        assert replay(decode_event(p) for p in payloads) == state
        assert restore(json.loads(json.dumps(snapshot(state)))) == state
