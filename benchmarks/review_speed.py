"""The review of a finished game: CPU time for a 10-hand game, every seat reviewed.

Run: python benchmarks/review_speed.py [--hands 10] [--seed 3]
Target (issue 18): a 10-hand game's review within a minute of CPU (it runs in the worker, one
game after another, never in a request). Reference, from the same run: the strong robot making
the same decisions in play (one `choose` per decision), so the review is also printed as a
multiple of it.
"""

from __future__ import annotations

import argparse
import time

from pbem.bots.review import review_events
from pbem.bots.strong import choose
from pbem.bots.worlds import seen_by
from pbem.engine import Event, GameState, Phase, apply, preset, start
from tests.engine.test_bot_review import heuristic_game

TARGET_SECONDS = 60.0


def decisions(events: list[Event]) -> list[tuple[int, GameState]]:
    """(index in the log, the state it was made in) of every seat's move."""
    found = []
    state = start(events[0])  # type: ignore[arg-type]
    for k, event in enumerate(events[1:], start=1):
        if getattr(event, "seat", None) is not None:
            found.append((k, state))
        state = apply(state, event)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    events = heuristic_game(preset("standard").replace(target=10**6), args.seed, args.hands)
    moves = decisions(events)
    started = time.process_time()
    verdicts = review_events(events, [k for k, _ in moves], seed=args.seed)
    review = time.process_time() - started
    started = time.process_time()
    for k, state in moves:
        seat = events[k].seat  # type: ignore[attr-defined]
        if state.phase is Phase.PLAY and len(seen_by(state, seat).view.legal) > 1 \
                or state.phase is Phase.PASS:
            choose(seen_by(state, seat), seed=k)
    reference = time.process_time() - started
    samples = sorted(v.worlds for v in verdicts)
    print(f"standard, {args.hands} hands, every seat reviewed: {len(verdicts)} decisions with "
          f"a choice ({len(moves)} moves), samples per decision min {samples[0]}, "
          f"median {samples[len(samples) // 2]}")
    print(f"  review: {review:.1f} s CPU (target <= {TARGET_SECONDS:.0f} s: ratio "
          f"{review / TARGET_SECONDS:.2f}); {review / len(verdicts) * 1000:.0f} ms a decision")
    print(f"  reference, the strong robot making the same decisions in play: {reference:.1f} s "
          f"CPU; the review is {review / reference:.1f}x that")


if __name__ == "__main__":
    main()
