"""The review's flags: are they real? Every decision of every seat of heuristic games is
reviewed as the worker does; each mistake shown (`Verdict.shown`) is weighed again with ten
times the budget (the first look and the check) and other worlds, and survives when it still
costs at least `SHOWN_FROM` there. Printed: flags a game and a player, how many survive (target
>= 95%), and how often the better choice named is the ten-times one's.

Run: nice -n 10 python benchmarks/review_stability.py [--games 2] [--hands 4] [--seed 3]
"""

from __future__ import annotations

import argparse
import time

from pbem.bots.review import (
    CHECK_ROUNDS,
    REVIEW_BUDGET,
    SHOWN_FROM,
    Verdict,
    review_decision,
    review_events,
)
from pbem.bots.strong import Budget
from pbem.engine import Event, GameState, apply, preset, start
from tests.engine.test_bot_review import heuristic_game

TARGET = 0.95
TIMES = 10


def ten_times(budget: Budget) -> Budget:
    return Budget(plays=budget.plays * TIMES, min_worlds=budget.min_worlds * TIMES,
                  max_worlds=budget.max_worlds * TIMES, pass_plays=budget.pass_plays * TIMES,
                  race=budget.race, indifferent=budget.indifferent)


def states(events: list[Event]) -> dict[int, tuple[GameState, Event]]:
    """Per index in the log: the state a move was made in, and the move."""
    found = {}
    state = start(events[0])  # type: ignore[arg-type]
    for k, event in enumerate(events[1:], start=1):
        found[k] = (state, event)
        state = apply(state, event)
    return found


def again(events: list[Event], v: Verdict, seed: int) -> Verdict | None:
    """The verdict `v` weighed with ten times the budget, on other worlds."""
    for k, (state, event) in states(events).items():
        if state.hand_number == v.hand_number and state.trick_number == v.trick_number \
                and getattr(event, "seat", None) == v.seat and event_kind(event) == v.kind:
            return review_decision(state, event, seed * 7 + k + 999_983, ten_times(REVIEW_BUDGET),
                                   [n * TIMES for n in CHECK_ROUNDS])
    return None


def event_kind(event: Event) -> str:
    name = type(event).__name__
    return {"CardPlayed": "play", "CardsPassed": "pass", "BidMade": "bid",
            "SuitNamed": "suit"}.get(name, "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    shown: list[tuple[Verdict, Verdict | None]] = []
    review_cpu, decisions = 0.0, 0
    for g in range(args.games):
        seed = args.seed + g
        events = heuristic_game(preset("standard").replace(target=10**6), seed, args.hands)
        started = time.process_time()
        verdicts = review_events(events, range(len(events)), seed=seed)
        review_cpu += time.process_time() - started
        decisions += len(verdicts)
        for v in verdicts:
            if v.shown:
                shown.append((v, again(events, v, seed)))
                print(f"  game {seed} hand {v.hand_number} trick {v.trick_number} seat {v.seat} "
                      f"{v.kind} {v.chosen}: {v.cost:.2f} [{v.low:.2f}, {v.high:.2f}] over "
                      f"{v.worlds}, better {v.best}; x{TIMES}: "
                      f"{_said(shown[-1][1])}", flush=True)
    report(args, shown, review_cpu, decisions)


def _said(v: Verdict | None) -> str:
    return "?" if v is None else f"{v.cost:.2f} [{v.low:.2f}, {v.high:.2f}], better {v.best}"


def report(args: argparse.Namespace, shown: list[tuple[Verdict, Verdict | None]],
           review_cpu: float, decisions: int) -> None:
    survived = sum(1 for _, w in shown if w is not None and w.cost >= SHOWN_FROM)
    same = sum(1 for v, w in shown if w is not None and w.best == v.best)
    players = args.games * 4
    print(f"standard, {args.games} games of {args.hands} hands, heuristic players, every seat "
          f"reviewed: {decisions} decisions, {review_cpu:.1f} s CPU")
    print(f"  mistakes shown: {len(shown)} ({len(shown) / players:.1f} a player and game)")
    if shown:
        ratio = survived / len(shown)
        print(f"  still >= {SHOWN_FROM} with {TIMES}x the budget: {survived} of {len(shown)} "
              f"({ratio:.0%}; target >= {TARGET:.0%}: ratio {ratio / TARGET:.2f})")
        print(f"  the better choice named is the {TIMES}x one's: {same} of {len(shown)}")


if __name__ == "__main__":
    main()
