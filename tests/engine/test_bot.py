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


# --- what the bot does in known positions ------------------------------------------------------

def test_bot_ducks_under_the_winning_card() -> None:
    from pbem.bots import choose_play
    from tests.engine.test_rules import STANDARD, game, play

    state = play(game(STANDARD, {0: "2C 8D AD", 1: "3C", 2: "4C", 3: "AC JD"}),
                 "2C", "3C", "4C", "AC", "JD")
    card = choose_play(state, 0)
    assert card.suit.letter == "D" and card.rank < 11


def test_bot_dumps_the_queen_of_spades_when_void() -> None:
    from pbem.bots import choose_play
    from tests.engine.test_rules import STANDARD, game, play

    rules = STANDARD.replace(points_on_first_trick=True)
    state = play(game(rules, {0: "2C", 1: "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"}), "2C")
    assert str(choose_play(state, 1)) == "QS"


def test_bot_gives_points_to_a_player_who_is_not_shooting_the_moon() -> None:
    from pbem.bots.heuristic import _stop_the_moon
    from pbem.engine import Card

    legal = tuple(Card.parse(t) for t in ("2H", "9H", "KD"))
    plays = ((2, Card.parse("5C")), (3, Card.parse("AC")))
    # seat 1 has every point so far; seat 3 is winning this trick: hand it the biggest heart
    assert str(_stop_the_moon(legal, plays, threat=1)) == "9H"
    # the shooter is winning this trick: keep the hearts, throw the high diamond
    assert str(_stop_the_moon(legal, plays, threat=3)) == "KD"
