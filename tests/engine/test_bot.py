"""The heuristic bot: always legal under every preset, and better than random play."""

from __future__ import annotations

import random

import pytest

from pbem.bots import choose_event
from pbem.dealing import create_game
from pbem.engine import PRESETS, Phase, apply, start
from pbem.playout import random_event


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_bot_only_makes_legal_moves_under_every_preset(name: str) -> None:
    rng = random.Random(7)
    state = start(create_game(PRESETS[name].rules, rng))
    moves = 0
    while not state.game_over and state.hand_number <= 6:
        if state.phase is Phase.DEAL:
            state = apply(state, random_event(state, rng))
            continue
        seat = state.to_move[0]
        state = apply(state, choose_event(state, seat))  # apply() refuses anything illegal
        moves += 1
    assert moves > 0


def test_bot_takes_fewer_points_than_random_players() -> None:
    rules = PRESETS["standard"].rules.replace(target=10_000)
    rng = random.Random(11)
    state = start(create_game(rules, rng))
    while state.hand_number <= 40:
        if state.phase is Phase.DEAL:
            state = apply(state, random_event(state, rng))
        elif 0 in state.to_move:
            state = apply(state, choose_event(state, 0))
        else:
            state = apply(state, random_event(state, rng))
    bot, others = state.totals[0], state.totals[1:]
    assert bot < min(others)
