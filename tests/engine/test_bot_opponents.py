"""The strong robot's model of its opponents: players of the heuristic's kind are never judged to
play at random, random players soon are, the judgement uses the seat's view alone, and the
rollouts draw random cards only for the seats judged wild."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from pbem.bots import choose_event
from pbem.bots.opponents import PRIOR_WILD, contradictions, posterior, wildness
from pbem.bots.rollout import play_out
from pbem.bots.worlds import knowledge, sample_world, seen_by, world_table
from pbem.dealing import create_game, deal
from pbem.engine import Event, GameState, Phase, apply, forced_events, preset, start
from pbem.playout import random_event
from tests.engine.test_bot_strong import swap_hidden

Player = Callable[[GameState, random.Random], Event]


def heuristic(state: GameState, rng: random.Random) -> Event:
    return choose_event(state, state.to_move[0])


random_legal: Player = random_event  # a random legal move for whoever is to move


def hand_played(name: str, seed: int, others: Player, tricks: int) -> GameState:
    """Seat 0 plays its cards like the heuristic, the rest is `others`' until `tricks` tricks
    are done."""
    rng = random.Random(seed)
    rules = preset(name)
    state = apply(start(create_game(rules, rng)), deal(rules, rng))
    while not (state.phase is Phase.PLAY and len(state.tricks) >= tricks):
        forced = forced_events(state)
        if forced:
            state = apply(state, forced[0])
            continue
        mine = state.phase is Phase.PLAY and state.to_move[0] == 0
        state = apply(state, (heuristic if mine else others)(state, rng))
    return state


@pytest.mark.parametrize("name", ["standard", "three", "five", "hoyle", "seven-kitty"])
def test_players_of_the_heuristics_kind_show_no_contradiction(name: str) -> None:
    tricks = min(9, preset(name).hand_size - 1)  # the last trick still to play
    for seed in range(12):
        seen = seen_by(hand_played(name, seed, heuristic, tricks), 0)
        assert contradictions(seen)[1:] == [0] * (seen.view.seats - 1)
        assert wildness(seen) == [0.0] + [PRIOR_WILD] * (seen.view.seats - 1)


def test_random_players_are_soon_judged_to_play_at_random() -> None:
    judged = [wildness(seen_by(hand_played("standard", seed, random_legal, tricks=9), 0))
              for seed in range(12)]
    wild = [w for seats in judged for w in seats[1:]]
    assert all(seats[0] == 0.0 for seats in judged)  # the robot's own seat
    assert sum(w > 0.5 for w in wild) >= 0.75 * len(wild)
    early = [wildness(seen_by(hand_played("standard", seed, random_legal, tricks=1), 0))
             for seed in range(12)]
    assert all(w == PRIOR_WILD for seats in early for w in seats[1:])  # no evidence yet


def test_each_contradiction_makes_a_random_player_likelier() -> None:
    assert posterior(0) == pytest.approx(PRIOR_WILD)
    assert posterior(0) < posterior(1) < posterior(2) < posterior(3) < 1.0
    assert posterior(3) > 0.9


def test_the_judgement_reads_the_seat_view_alone() -> None:
    state = hand_played("standard", 4, random_legal, tricks=6)
    other = swap_hidden(state, 1, 2)  # other hidden cards, the same public tricks
    assert other.hands != state.hands
    assert wildness(seen_by(state, 0)) == wildness(seen_by(other, 0))


def test_whole_variants_count_every_player_as_the_heuristics_kind() -> None:
    seen = seen_by(hand_played("cancellation", 2, random_legal, tricks=6), 0)
    assert wildness(seen) == [0.0] * seen.view.seats


def test_rollouts_draw_random_cards_only_for_wild_seats() -> None:
    seen = seen_by(hand_played("standard", 5, random_legal, tricks=3), 0)
    know = knowledge(seen)
    hands, rest = sample_world(know, random.Random(1))
    base = world_table(seen, know, hands, rest, random.Random(1))
    tame, rng = base.clone(), random.Random(7)
    play_out(tame, [0.0] * 4, rng)
    assert rng.random() == random.Random(7).random()  # no draw for a seat that is never wild
    plain = base.clone()
    play_out(plain)
    assert tame.sheet[-1].points == plain.sheet[-1].points
    outcomes = set()
    for seed in range(10):
        wild = base.clone()
        play_out(wild, [0.0, 1.0, 1.0, 1.0], random.Random(seed))
        outcomes.add(wild.sheet[-1].points)
    assert len(outcomes) > 1  # random seats: the hand ends differently
