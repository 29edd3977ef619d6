"""The strong robot's model of its opponents: players of the heuristic's kind are never judged to
play at random (their tested plays make it ever less likely), random players soon are, the
judgement uses the seat's view alone, and the rollouts draw random cards only for the seats
judged wild."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from pbem.bots import choose_event
from pbem.bots.opponents import (
    PRIOR_WILD,
    _lead_cost_contradicted,
    contradictions,
    judge,
    posterior,
    wildness,
)
from pbem.bots.rollout import play_out
from pbem.bots.worlds import knowledge, sample_world, seen_by, world_table
from pbem.dealing import create_game, deal
from pbem.engine import Event, GameState, Phase, apply, forced_events, preset, start
from pbem.engine.cards import parse_cards
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
        wild = wildness(seen)
        assert wild[0] == 0.0
        assert all(w == posterior(0, clean) < PRIOR_WILD
                   for w, (_, clean) in zip(wild[1:], judge(seen)[1:], strict=True))


def test_random_players_are_soon_judged_to_play_at_random() -> None:
    judged = [wildness(seen_by(hand_played("standard", seed, random_legal, tricks=9), 0))
              for seed in range(12)]
    wild = [w for seats in judged for w in seats[1:]]
    assert all(seats[0] == 0.0 for seats in judged)  # the robot's own seat
    assert sum(w > 0.5 for w in wild) >= 0.75 * len(wild)
    sooner = [w for seed in range(12)
              for w in wildness(seen_by(hand_played("standard", seed, random_legal, 4), 0))[1:]]
    assert sum(w > 0.5 for w in sooner) >= 0.5 * len(sooner)
    early = [wildness(seen_by(hand_played("standard", seed, random_legal, tricks=1), 0))
             for seed in range(12)]
    assert all(w == PRIOR_WILD for seats in early for w in seats[1:])  # no evidence yet


def test_each_contradiction_makes_a_random_player_likelier() -> None:
    assert posterior(0) == pytest.approx(PRIOR_WILD)
    assert posterior(0) < posterior(1) < posterior(2) < posterior(3) < 1.0
    assert posterior(3) > 0.9


def test_each_play_tested_clean_makes_a_random_player_less_likely() -> None:
    assert posterior(0, 1) < posterior(0) and posterior(1, 3) < posterior(1)
    assert posterior(0, 8) < 0.05


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


def test_a_lead_is_contradicted_by_a_cheaper_card_shown_later() -> None:
    """The heuristic leads its card of least lead cost (rank; a heart 6 more, only once hearts
    have been played; a spade above the queen 40 more while the queen may be out)."""
    def contradicted(led: str, later: str, queen_gone: bool = False,
                     hearts: bool = False) -> bool:
        return _lead_cost_contradicted(parse_cards(led)[0], list(parse_cards(later)),
                                       queen_gone, hearts)

    assert contradicted("KD", "3C")
    assert not contradicted("5D", "7C 9H", hearts=True)
    assert not contradicted("9D", "2H")  # hearts could not be led yet
    assert contradicted("9D", "2H", hearts=True)  # 2 + 6 < 9
    assert not contradicted("3D", "KS")
    assert contradicted("AS", "5C", queen_gone=True)
    assert not contradicted("AD", "KS")  # the queen may be out: the king costs 53
    assert contradicted("AD", "KS QS")  # holding the queen itself: the king costs 13
