"""The strong robot: it sees only its seat's view, it is deterministic for a seed, its worlds agree
with what its seat has seen, and it (and every rollout) plays only legal moves in every preset and
whole variant."""

from __future__ import annotations

import inspect
import random
from dataclasses import replace

import pytest

from pbem.bots import choose_event
from pbem.bots.strong import Budget, choose
from pbem.bots.worlds import Seen, knowledge, sample_world, seen_by
from pbem.dealing import create_game, deal
from pbem.engine import (
    ALL_PRESETS,
    GameState,
    Phase,
    apply,
    forced_events,
    preset,
    start,
)

SMALL = Budget(plays=400, min_worlds=2, max_worlds=3, pass_plays=400)


def dealt_state(name: str, seed: int) -> GameState:
    rng = random.Random(seed)
    rules = preset(name)
    state = start(create_game(rules, rng))
    return apply(state, deal(rules, rng))


def advance(state: GameState, moves: int) -> GameState:
    """`moves` moves of the heuristic robot (and any forced ones)."""
    for _ in range(moves):
        forced = forced_events(state)
        state = apply(state, forced[0] if forced else choose_event(state, state.to_move[0]))
    return state


def swap_hidden(state: GameState, a: int, b: int) -> GameState:
    """The same game but seats `a` and `b` hold each other's lowest card of one suit: what any
    third seat sees is unchanged."""
    hands = list(state.hands)
    for suit in range(4):
        bits = 0x1FFF << (13 * suit)
        ha, hb = hands[a] & bits, hands[b] & bits
        if ha and hb:
            ca, cb = ha & -ha, hb & -hb
            hands[a] = hands[a] & ~ca | cb
            hands[b] = hands[b] & ~cb | ca
            return replace(state, hands=tuple(hands))
    raise AssertionError("no suit to swap")


def test_the_robot_is_given_a_seat_view_never_a_game_state() -> None:
    parameters = inspect.signature(choose).parameters
    assert list(parameters)[0] == "seen"
    assert "GameState" not in str(parameters["seen"].annotation)
    assert set(Seen.__dataclass_fields__) == {"rules", "view", "draws"}


@pytest.mark.parametrize("moves", [0, 4, 9])
def test_states_differing_only_in_hidden_cards_give_the_same_decision(moves: int) -> None:
    state = advance(dealt_state("standard", 3), moves)
    me = state.to_move[0]
    a, b = [s for s in range(4) if s != me][:2]
    other = swap_hidden(state, a, b)
    assert other.hands != state.hands
    assert seen_by(state, me) == seen_by(other, me)
    assert choose(seen_by(state, me), seed=5) == choose(seen_by(other, me), seed=5)


def test_the_same_seed_gives_the_same_decision() -> None:
    state = advance(dealt_state("standard", 8), 6)
    me = state.to_move[0]
    first = [choose(seen_by(state, me), seed=s, budget=SMALL) for s in range(5)]
    again = [choose(seen_by(state, me), seed=s, budget=SMALL) for s in range(5)]
    assert first == again


def test_worlds_respect_shown_voids_and_the_cards_passed() -> None:
    state = dealt_state("standard", 12)  # hand 1 passes left
    state = advance(state, 4)  # the four passes
    assert state.phase is Phase.PLAY
    me = state.turn
    # find a trick where someone shows a void: play on with the heuristic until one does
    for _ in range(40):
        know = knowledge(seen_by(state, me))
        if any(know.voids) and state.turn == me:
            break
        state = advance(state, 1)
        me = state.turn
    know = knowledge(seen_by(state, me))
    assert any(know.voids), "no void shown in this deal"
    rng = random.Random(1)
    for _ in range(50):
        hands, rest = sample_world(know, rng)
        for seat, hand in enumerate(hands):
            assert hand.bit_count() == know.sizes[seat]
            for suit in range(4):
                if know.voids[seat] >> suit & 1:
                    assert not hand & (0x1FFF << (13 * suit)), "a card of a suit shown void"
        for index, seat in know.pinned.items():
            assert hands[seat] >> index & 1, "a passed card not with its receiver"
        union = rest
        for hand in hands:
            assert not union & hand
            union |= hand
        assert union == sum(1 << i for i in know.unseen)


def test_worlds_hold_what_the_view_counts_in_every_variant() -> None:
    for name in ("domino", "cancellation", "auction", "three-kitty", "seven-kitty"):
        state = advance(dealt_state(name, 4), 12)
        me = state.to_move[0]
        know = knowledge(seen_by(state, me))
        hands, rest = sample_world(know, random.Random(2))
        for seat in range(state.seats):
            if seat != me:
                assert hands[seat].bit_count() == state.hands[seat].bit_count(), name


@pytest.mark.parametrize("name", sorted(ALL_PRESETS))
def test_strong_robot_plays_only_legal_moves_in_every_preset_and_variant(name: str) -> None:
    """Every seat is the strong robot (small budget) for one hand; apply() refuses anything
    illegal, and so does the engine table inside every rollout."""
    state = dealt_state(name, 21)
    moves = 0
    while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
        forced = forced_events(state)
        if forced:
            state = apply(state, forced[0])
            continue
        seat = state.to_move[0]
        state = apply(state, choose(seen_by(state, seat), seed=moves, budget=SMALL))
        moves += 1
    assert moves > 0 and state.sheet
