"""Decision regret: how much each robot's choices lose, decision by decision, against a
reference search many times larger, on the same decisions. Far less noisy than whole hands
(the luck of the rest of the hand is gone), so it tells budgets and race settings apart that a
tournament of a few hundred deals cannot; the tournament (bot_tournament.py) stays the measure
of strength, this the screen.

The decisions are the strong robot's seats in hands of four heuristic robots (standard rules,
the pass and every card with more than one distinct choice). The reference plays every choice
over `--worlds` worlds (no halving, no race); a robot's regret at a decision is the reference's
cost of its choice minus the reference's cheapest. Printed per robot: the mean regret (95%
interval), the paired difference from today's robot, and CPU per decision (process_time).

Run: nice -n 10 python benchmarks/bot_regret.py [--hands 40] [--worlds 400] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from pbem.bots import choose_event
from pbem.bots.strong import (
    DEFAULT_BUDGET,
    TODAY_BUDGET,
    Budget,
    Options,
    choose,
    distinct_plays,
    evaluate,
    pass_options,
)
from pbem.bots.worlds import Seen, seen_by
from pbem.dealing import create_game, deal
from pbem.engine import CardPlayed, CardsPassed, Event, Phase, apply, forced_events, preset, start


@dataclass(frozen=True)
class Point:
    """One decision: what the seat saw, and the reference's cost of each choice."""

    seen: Seen
    seed: int
    costs: dict[int, float]


def choice_of(event: Event) -> int:
    if isinstance(event, CardPlayed):
        return event.card.index
    assert isinstance(event, CardsPassed)
    return sum(c.bit for c in event.cards)


def options_of(seen: Seen) -> Options[int]:
    return pass_options(seen) if seen.view.phase is Phase.PASS else distinct_plays(seen)


def decisions(hands: int, seed: int, worlds: int, pass_worlds: int | None = None,
              only: str | None = None) -> list[Point]:
    """The decisions of seat (hand % 4) in `hands` hands of heuristic robots, with references."""
    points: list[Point] = []
    rules = preset("standard")
    for h in range(hands):
        rng = random.Random(f"{seed}/{h}")
        state = apply(start(create_game(rules, rng)), deal(rules, rng))
        seat, hand = h % 4, state.hand_number
        while state.phase is not Phase.DEAL and state.hand_number == hand:
            forced = forced_events(state)
            if forced:
                state = apply(state, forced[0])
                continue
            mover = state.to_move[0]
            kind = "pass" if state.phase is Phase.PASS else "play"
            if mover == seat and only in (None, kind):
                point = reference(seen_by(state, seat), rng.randrange(2**32), worlds,
                                  pass_worlds)
                if point is not None:
                    points.append(point)
            state = apply(state, choose_event(state, mover))
    return points


def reference(seen: Seen, seed: int, worlds: int,
              pass_worlds: int | None = None) -> Point | None:
    options = options_of(seen)
    if len(options.choices) < 2:
        return None
    count = worlds if seen.view.phase is not Phase.PASS else pass_worlds or worlds // 4
    big = Budget(plays=10**9, min_worlds=count, max_worlds=count, pass_plays=10**9)
    found = evaluate(seen, seed ^ 0x5EED, big, options, halve=False)
    return Point(seen, seed, {e.choice: e.mean for e in found})


def regrets(points: list[Point], budget: Budget) -> tuple[list[float], list[float]]:
    """Per decision: the regret of the robot with `budget`, and its CPU seconds (its wall
    seconds when the budget has a wall-clock limit)."""
    lost, cpu = [], []
    for p in points:
        started, wall = time.process_time(), time.perf_counter()
        chosen = choice_of(choose(p.seen, p.seed, budget))
        cpu.append(time.process_time() - started if budget.seconds is None
                   else time.perf_counter() - wall)
        costs = p.costs
        key = chosen if chosen in costs else equivalent(p, chosen)
        lost.append(costs[key] - min(costs.values()))
    return lost, cpu


def equivalent(point: Point, chosen: int) -> int:
    """The reference's choice that plays alike with `chosen` (merged by distinct_plays)."""
    low = max((c for c in point.costs if c <= chosen and c // 13 == chosen // 13), default=None)
    if low is None:
        raise SystemExit(f"no reference for choice {chosen}")
    return low


def parsed(text: str) -> Budget:
    plays, worlds, pass_plays, z, slack, *spread = text.split(",")
    return Budget(plays=int(plays), max_worlds=int(worlds), pass_plays=int(pass_plays),
                  race=float(z), indifferent=float(slack),
                  spread=float(spread[0]) if spread else 0.0)


def interval(values: list[float]) -> tuple[float, float]:
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / len(values) ** 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--try", dest="tries", nargs="*", default=[], metavar="P,W,PP,Z,E[,S]",
                        help="more budgets to screen: plays, most worlds, pass plays, race z, "
                             "indifference[, spread] (e.g. 20000,240,16000,2.5,0.05)")
    parser.add_argument("--only", choices=("pass", "play"), default=None,
                        help="only the passes, or only the cards")
    parser.add_argument("--pass-worlds", type=int, default=None, metavar="N",
                        help="the reference's worlds for a pass (default: a quarter of --worlds)")
    parser.add_argument("--seconds", type=float, nargs="*", default=[], metavar="S",
                        help="also the new robot with these wall-clock limits a decision")
    args = parser.parse_args()
    started = time.process_time()
    points = decisions(args.hands, args.seed, args.worlds, args.pass_worlds, args.only)
    print(f"{len(points)} decisions ({args.hands} hands), reference over {args.worlds} worlds "
          f"a choice ({args.pass_worlds or args.worlds // 4} for a pass): "
          f"{time.process_time() - started:.0f} s CPU")
    today, today_cpu = regrets(points, TODAY_BUDGET)
    tried = [(t, parsed(t)) for t in args.tries] + \
        [(f"new, {s * 1000:g} ms wall limit", DEFAULT_BUDGET.limited(s)) for s in args.seconds]
    for name, budget in (("today", TODAY_BUDGET), ("new", DEFAULT_BUDGET), *tried):
        lost, cpu = (today, today_cpu) if name == "today" else regrets(points, budget)
        mean, half = interval(lost)
        diff, diff_half = interval([a - b for a, b in zip(lost, today, strict=True)])
        cpu.sort()
        clock = "CPU" if budget.seconds is None else "wall"
        print(f"  {name}: regret {mean:.3f} ± {half:.3f} points a decision; minus today's "
              f"{diff:+.3f} ± {diff_half:.3f}; {clock} p50 {cpu[len(cpu) // 2] * 1000:.0f} ms, "
              f"p99 {cpu[int(len(cpu) * 0.99)] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
