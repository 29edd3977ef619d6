"""Engine speed beside OpenSpiel's Hearts, measured in the same run, as ratios.

Run: python benchmarks/engine_speed.py [--hands 600] [--rounds 5] [--seed 1] [--both]

The engine measured is the one this process runs: compiled by mypyc (setup.py) or its pure
Python (PBEM_ENGINE_PURE=1, or no build); the first line says which. --both measures the pure
Python too, in a second process, after the compiled engine.

Figures (each the median of --rounds rounds; in each round every figure and its reference are
measured one after the other; all times are this process's CPU time, so the other processes of
a busy machine do not count):
- the service's path: random full 4-player hands per second through the public API the
  service uses: `decide` a command, `apply` its events, `legal_cards` to choose a random card
  (deal, pass three random cards, play random legal cards to the end);
- the internal loop: the same on the fold's working table (`Table`), no state frozen between;
- replay of a 10-hand game's log (563 events) as read back from the store: `replay_trusted`,
  which does not check again the card plays that were checked when they were appended (the
  checked `replay`, what a command's events go through, is printed too), and the same from the
  stored JSON, decoding included.
Reference: OpenSpiel's Hearts (`pip install open-spiel`) from a Python loop: random hands with
`legal_actions()` at every node (its deal is 52 chance actions), and 563 actions applied.
Targets (issue 15): the service's path >= 0.5x OpenSpiel's hands/s, the internal loop >= 1.0x,
the replay <= 0.3 ms (OpenSpiel: 0.077 ms on this machine when it was quiet); issue 33 raises
the service's path to >= 0.8x.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from pbem.dealing import create_game, deal, shuffled_deck
from pbem.engine import (
    COMPILED,
    ChooseMoon,
    Event,
    GameState,
    PassCards,
    PlayCard,
    apply,
    decide,
    decode_event,
    encode_event,
    legal_cards,
    preset,
    replay,
    replay_trusted,
    start,
)
from pbem.engine.cards import indices
from pbem.engine.state import GAME_OVER, MOON_CHOICE, PASS, PLAY
from pbem.engine.table import Table
from pbem.playout import random_game

# Figures recorded in issue 15 (this machine, quiet), used only when OpenSpiel is missing.
RECORDED_OPENSPIEL_HANDS_PER_S = 7100.0
RECORDED_OPENSPIEL_563_ACTIONS_MS = 0.077
LOG_ACTIONS = 563


def service_hands_per_second(hands: int, rng: random.Random) -> float:
    """decide + apply for every move, legal_cards to pick a card: what the service calls."""
    rules = preset("standard")
    state = start(create_game(rules, rng))
    started = time.process_time()
    for _ in range(hands):
        state = _service_hand(state if not state.game_over else start(create_game(rules, rng)),
                              rng)
    return hands / (time.process_time() - started)


def _service_hand(state: GameState, rng: random.Random) -> GameState:
    # (The loop's phases are module constants, not `Phase.PLAY`: in Python 3.11 each read of
    # an enum member goes through the enum class's `__getattr__` hook, ~1,500 instructions,
    # which the loop would pay at every card; see docs/speed.md.)
    state = apply(state, deal(state.rules, rng))
    while state.phase is PASS:
        seat = state.to_move[0]
        state = _act(state, PassCards(seat, tuple(rng.sample(state.hand(seat), 3))))
    while state.phase is PLAY:
        seat = state.turn
        legal = legal_cards(state, seat)
        state = _act(state, PlayCard(seat, legal[rng.randrange(len(legal))]))
    if state.phase is MOON_CHOICE:
        state = _act(state, ChooseMoon(state.moon_shooter, True))
    return state


def _act(state: GameState, command: PassCards | PlayCard | ChooseMoon) -> GameState:
    for event in decide(state, command):
        state = apply(state, event)
    return state


def internal_hands_per_second(hands: int, rng: random.Random) -> float:
    """The fold's working table: the same random hands without freezing a state in between."""
    rules = preset("standard")
    table = Table(create_game(rules, rng))
    started = time.process_time()
    for _ in range(hands):
        if table.phase is GAME_OVER:
            table = Table(create_game(rules, rng))
        _table_hand(table, rng)
    return hands / (time.process_time() - started)


def _table_hand(table: Table, rng: random.Random) -> None:
    table.deal(shuffled_deck(table.rules, rng))
    while table.phase is PASS:
        seat = table.passed.index(-1)
        cards = rng.sample(indices(table.hands[seat]), 3)
        table.pass_cards(seat, (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]))
    while table.phase is PLAY:
        legal = indices(table.legal_mask(table.turn))
        table.play(table.turn, legal[rng.randrange(len(legal))])
    if table.phase is MOON_CHOICE:
        table.choose_moon(table.moon_shooter, True)


def ten_hand_log(seed: int) -> list[Event]:
    """A random game's log cut just before the 11th hand is dealt (games that end sooner are
    skipped by moving to the next seed)."""
    events, state = random_game(preset("standard"), seed, max_hands=200)
    if len(state.sheet) < 10:
        return ten_hand_log(seed + 1)
    counted, log = 0, [events[0]]
    for event in events[1:]:
        if type(event).__name__ == "HandDealt":
            counted += 1
            if counted > 10:
                break
        log.append(event)
    return log


def replay_ms(log: list[Event], repeat: int = 50) -> float:
    return _median_ms(lambda: replay_trusted(log), repeat)


def checked_replay_ms(log: list[Event], repeat: int = 50) -> float:
    return _median_ms(lambda: replay(log), repeat)


def replay_json_ms(log: list[Event], repeat: int = 20) -> float:
    payloads = [encode_event(e) for e in log]
    return _median_ms(lambda: replay_trusted([decode_event(p) for p in payloads]), repeat)


def _median_ms(run: Callable[[], object], repeat: int) -> float:
    timings = []
    for _ in range(repeat):
        started = time.process_time()
        run()
        timings.append((time.process_time() - started) * 1000)
    return statistics.median(timings)


# --- OpenSpiel, the reference -------------------------------------------------------------------

def load_openspiel() -> Any | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pyspiel.load_game("hearts")


def openspiel_hands_per_second(game: Any, hands: int, rng: random.Random) -> float:
    started = time.process_time()
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
    return hands / (time.process_time() - started)


def openspiel_actions(game: Any, count: int, rng: random.Random) -> list[list[int]]:
    """Random games' actions, `count` in all (the last game cut short)."""
    games: list[list[int]] = []
    left = count
    while left:
        state, actions = game.new_initial_state(), []
        while left and not state.is_terminal():
            legal = state.legal_actions()
            actions.append(legal[rng.randrange(len(legal))])
            state.apply_action(actions[-1])
            left -= 1
        games.append(actions)
    return games


def openspiel_replay_ms(game: Any, games: list[list[int]], repeat: int = 50) -> float:
    def run() -> None:
        for actions in games:
            state = game.new_initial_state()
            for action in actions:
                state.apply_action(action)
    return _median_ms(run, repeat)


# --- the run ------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=600, help="hands per figure per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--both", action="store_true",
                        help="then the pure Python engine too (PBEM_ENGINE_PURE=1)")
    args = parser.parse_args()
    print(f"Engine: {'compiled by mypyc' if COMPILED else 'pure Python'}.")
    rng = random.Random(args.seed)
    game = load_openspiel()
    log = ten_hand_log(args.seed)
    assert len(log) == LOG_ACTIONS, len(log)
    os_games = openspiel_actions(game, LOG_ACTIONS, rng) if game is not None else []
    figures: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for name, measure in _measures(args.hands, rng, log, game, os_games).items():
            figures.setdefault(name, []).append(measure())
    _report({name: statistics.median(values) for name, values in figures.items()}, game, log)
    if args.both and COMPILED:
        print(flush=True)
        argv = [a for a in sys.argv[1:] if a != "--both"]
        subprocess.run([sys.executable, __file__, *argv], check=True,
                       env={**os.environ, "PBEM_ENGINE_PURE": "1"})


def _measures(hands: int, rng: random.Random, log: list[Event], game: Any | None,
              os_games: list[list[int]]) -> dict[str, Callable[[], float]]:
    measures: dict[str, Callable[[], float]] = {
        "service": lambda: service_hands_per_second(hands, rng),
        "internal": lambda: internal_hands_per_second(hands, rng),
        "replay": lambda: replay_ms(log),
        "checked_replay": lambda: checked_replay_ms(log),
        "replay_json": lambda: replay_json_ms(log),
    }
    if game is not None:
        measures["os_hands"] = lambda: openspiel_hands_per_second(game, hands, rng)
        measures["os_replay"] = lambda: openspiel_replay_ms(game, os_games)
    return measures


def _report(median: dict[str, float], game: Any | None, log: list[Event]) -> None:
    if game is None:
        print("OpenSpiel is not installed (pip install open-spiel): the references below are "
              "the figures recorded in issue 15, NOT measured in this run.")
        median["os_hands"] = RECORDED_OPENSPIEL_HANDS_PER_S
        median["os_replay"] = RECORDED_OPENSPIEL_563_ACTIONS_MS
    else:
        print("Reference: OpenSpiel's Hearts from Python, measured in this run.")
    hands_ref, replay_ref = median["os_hands"], median["os_replay"]
    state = replay(log)
    rows = [
        ("random hands/s, the service's path (decide + apply)", median["service"], hands_ref,
         median["service"] / hands_ref, ">= 0.8x (33)"),
        ("random hands/s, the internal loop (Table)", median["internal"], hands_ref,
         median["internal"] / hands_ref, ">= 1.0x"),
        (f"replay of a stored 10-hand log ({len(log)} events, {len(state.sheet)} hands), ms",
         median["replay"], replay_ref, median["replay"] / replay_ref, "<= 0.3 ms"),
        ("  the same through the checked replay (every card checked), ms",
         median["checked_replay"], replay_ref, median["checked_replay"] / replay_ref, ""),
        ("  the same from stored JSON, decoding included, ms", median["replay_json"],
         replay_ref, median["replay_json"] / replay_ref, ""),
    ]
    print(f"{'figure':62} {'pbem':>9} {'OpenSpiel':>10} {'ratio':>7}  target")
    for name, ours, ref, ratio, target in rows:
        print(f"{name:62} {ours:9,.3f} {ref:10,.3f} {ratio:6.2f}x  {target}")


if __name__ == "__main__":
    main()
