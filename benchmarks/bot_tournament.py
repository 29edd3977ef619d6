"""Duplicate tournament: how many points a hand a robot takes, with the luck of the deal cancelled.

Each seeded deal is played once per seat, with the robot under test in that seat and the same
opponents around it, so every seat's cards are played once by the robot under test: luck cancels
out. With `--baseline` the same deals are also played with the heuristic ("easy") robot in that
seat, and the paired difference is printed (the strong robot is better when it is below zero).

Run: python benchmarks/bot_tournament.py [--preset standard] [--deals 500] [--opponents heuristic]
        [--baseline] [--compare] [--workers 1] [--seed 1 [2 ...]] [--progress 25] [--budget 1]
        [--seconds S] [--first K]
  --deals 500 in the standard game is 2,000 hands (each deal once per seat).
  Opponents: heuristic (three copies of the easy robot) or random (random legal moves).
  --budget K multiplies the strong robot's search budget (plays, pass plays, most worlds) by K;
  the same --seed plays the same deals, so two budgets compare paired on the same cards:
  --told (a calibration, not a robot): the strong robot searches the true deal instead of sampled
  worlds: what seeing every hidden card would be worth to the same search.
  --save FILE keeps a run's points per deal, --against FILE prints this run minus that one, deal by
  deal (e.g. --budget 1 --save b1.json, then --budget 2 --against b1.json).
  --compare (issue 36) also plays today's robot (the budget of docs/robots.md §8, no race, no
  time limit, its worlds and rollouts run as Python as they were before they were compiled with
  the engine: in processes of its own) in the same seats of the same deals, and prints the two
  side by side: points a hand, their paired difference, CPU per decision (process_time) p50
  and p99 of each. Run long
  ones under `nice -n 10` with --progress N: every N deals the figures so far are printed and
  --save written, so a run stopped early keeps its completed deals.
  --seconds S gives the strong robot a wall-clock limit per decision (what a tight one costs).
Targets (issue 18): standard rules, strong vs three heuristic robots: at most 5.0 points a hand
(par 6.5); vs three random-legal players: at most 1.5; in every whole variant and the 3, 5, 6 and
7-player forms the strong robot beats the heuristic in the same seat (the difference's 95%
confidence interval excludes zero); decision time p99 at most 250 ms in the standard game.
Auction Hearts counts the chips a hand costs (its real stake), every other game the points.
The pass direction of a deal follows the preset's cycle (deal k uses its k-th direction).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from importlib.machinery import ModuleSpec
from types import ModuleType

import pbem

# Today's robot of --compare runs as it ran before issue 36: its worlds and rollouts in Python
# (the engine compiled). Its processes are started with this variable set, and find the modules
# compiled beside the engine as their .py files before anything imports them.
PYTHON_ROLLOUTS = "BOT_TOURNAMENT_PYTHON_ROLLOUTS"


class PythonRollouts:
    """Finds the robots' modules compiled beside the engine as their .py files."""

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None, /) -> ModuleSpec | None:
        if path is None or name not in pbem.GROUP_MODULES:
            return None
        return pbem.source_spec(name, path)


if os.environ.get(PYTHON_ROLLOUTS):
    sys.meta_path.insert(0, PythonRollouts())

from pbem.bots import choose_event, strong  # noqa: E402 - after the finder above
from pbem.bots.strong import DEFAULT_BUDGET, TODAY_BUDGET, Budget, choose  # noqa: E402
from pbem.bots.worlds import seen_by  # noqa: E402
from pbem.dealing import deal  # noqa: E402
from pbem.engine import (  # noqa: E402
    CardPlayed,
    CardsPassed,
    Event,
    GameCreated,
    GameState,
    MoonChosen,
    Phase,
    Rules,
    Variant,
    apply,
    forced_events,
    legal_cards,
    preset,
    start,
    thaw,
)
from pbem.playout import random_event  # noqa: E402

Player = Callable[[GameState, int, random.Random], Event]
TARGETS = {"heuristic": 5.0, "random": 1.5}


def random_player(state: GameState, seat: int, rng: random.Random) -> Event:
    if state.phase is Phase.PASS:
        return CardsPassed(seat, tuple(rng.sample(state.hand(seat), state.rules.pass_count)))
    if state.phase is Phase.MOON_CHOICE:
        return MoonChosen(seat, True)
    if state.phase is Phase.PLAY:
        return CardPlayed(seat, rng.choice(legal_cards(state, seat)))
    return random_event(state, rng)  # Auction: a random bid, a random suit


def heuristic_player(state: GameState, seat: int, rng: random.Random) -> Event:
    return choose_event(state, seat)


def strong_player(budget: Budget, told: bool = False) -> Player:
    def play(state: GameState, seat: int, rng: random.Random) -> Event:
        if told:
            return told_choice(state, seat, rng.randrange(2**32), budget)
        return choose(seen_by(state, seat), seed=rng.randrange(2**32), budget=budget)
    return play


def told_choice(state: GameState, seat: int, seed: int, budget: Budget) -> Event:
    """A calibration, never a robot: the strong robot's choice with every world it samples
    replaced by the true deal (the others' real hands), the rest of its search unchanged; what
    it scores so bounds what knowing the hidden cards could be worth to this search."""
    sampled = strong._world
    strong._world = lambda seen, know, rng, like: thaw(state)
    try:
        return choose(seen_by(state, seat), seed=seed, budget=budget)
    finally:
        strong._world = sampled


def scaled(budget: Budget, factor: float) -> Budget:
    """The budget with `factor` times the plays and the most worlds (the fewest unchanged)."""
    return replace(budget, plays=round(budget.plays * factor),
                   max_worlds=round(budget.max_worlds * factor),
                   pass_plays=round(budget.pass_plays * factor))  # the race, the limit kept


OPPONENTS: dict[str, Player] = {"heuristic": heuristic_player, "random": random_player}


@dataclass(frozen=True)
class Job:
    rules: Rules
    seed: int
    deal_no: int
    opponents: str
    robots: tuple[str, ...]
    budget: Budget = DEFAULT_BUDGET
    told: bool = False  # --told: the strong robot's worlds are the true deal (a calibration)
    today: Budget = TODAY_BUDGET  # the reference robot of --compare


Times = list[tuple[float, float]]  # per decision: (wall, CPU) seconds


def deal_rules(rules: Rules, deal_no: int) -> Rules:
    """One hand with the deal's pass direction: the cycle's `deal_no`-th (a huge target so no
    game ends)."""
    cycle = rules.pass_cycle or (0,)
    return rules.replace(pass_cycle=(cycle[deal_no % len(cycle)],), target=10**9)


def robot_player(job: Job, robot: str) -> Player:
    """The player of `robot`: "strong" (the search with the run's budget), "today" (the
    search with the budget of docs/robots.md §8, the reference of --compare) or "easy"."""
    if robot == "strong":
        return strong_player(job.budget, job.told)
    if robot == "today":
        return strong_player(job.today)
    return heuristic_player


def play_hand(job: Job, robot: str, seat: int, times: Times) -> float:
    """One hand of the deal with `robot` in `seat`; what the hand cost that seat."""
    rules = deal_rules(job.rules, job.deal_no)
    n = rules.players
    deck_rng = random.Random(f"{job.seed}/{job.deal_no}/deck")
    state = start(GameCreated(rules, n, job.deal_no % n))
    state = apply(state, deal(rules, deck_rng))
    chips = state.chips[seat] if rules.variant is Variant.AUCTION else 0
    decisions = [0] * n  # per player: its decisions so far this hand
    while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
        forced = forced_events(state)
        if forced:
            state = apply(state, forced[0])
            continue
        mover = state.to_move[0]
        decisions[mover] += 1
        rng = decision_rng(job, seat, mover, decisions[mover])
        if mover == seat:
            started, cpu = time.perf_counter(), time.process_time()
            event = robot_player(job, robot)(state, mover, rng)
            if robot != "easy":
                times.append((time.perf_counter() - started, time.process_time() - cpu))
        else:
            event = OPPONENTS[job.opponents](state, mover, rng)
        state = apply(state, event)
    if rules.variant is Variant.AUCTION:
        return float(chips - state.chips[seat])
    return float(state.sheet[-1].points[seat])


def decision_rng(job: Job, seat: int, mover: int, decision: int) -> random.Random:
    """The random draws of one decision: its own seed (the deal, the seat under test, the player,
    how many decisions that player has made this hand), so two runs that differ in one robot's
    choices still give every other decision the same draws until its choices differ: paired
    runs (--against) keep the luck in common as long as the play allows."""
    return random.Random(f"{job.seed}/{job.deal_no}/{seat}/{mover}/{decision}")


Result = tuple[dict[str, float], dict[str, Times]]


def run_deal(job: Job) -> Result:
    """Per robot the average cost over the seats of one deal, and its decision times."""
    times: dict[str, Times] = {robot: [] for robot in job.robots}
    n = job.rules.players
    means = {robot: statistics.fmean(play_hand(job, robot, seat, times[robot])
                                     for seat in range(n))
             for robot in job.robots}
    return means, times


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else float("inf")
    return mean, half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--first", type=int, default=0, metavar="K",
                        help="start at deal K of each seed (a long run continued in parts: "
                             "the deals are the same whichever run plays them)")
    parser.add_argument("--opponents", choices=sorted(OPPONENTS), default="heuristic")
    parser.add_argument("--baseline", action="store_true",
                        help="also play the heuristic in the same seat; print the difference")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, nargs="+", default=[1],
                        help="the deals' seed; several: --deals deals of each, and the figures "
                             "of each seed besides the pooled ones")
    parser.add_argument("--budget", type=float, default=1.0, metavar="K",
                        help="the strong robot's search budget times K (default: its own)")
    parser.add_argument("--compare", action="store_true",
                        help="also play today's robot (the budget of docs/robots.md §8, no "
                             "race, no time limit) in the same seats: strength and CPU per "
                             "decision side by side, paired deal by deal")
    parser.add_argument("--seconds", type=float, default=None, metavar="S",
                        help="the strong robot's wall-clock limit per decision (default: none)")
    parser.add_argument("--told", action="store_true",
                        help="a calibration, not a robot: the strong robot searches the true "
                             "deal instead of sampled worlds (what seeing every card is worth)")
    parser.add_argument("--save", metavar="FILE", help="write the strong robot's cost per deal")
    parser.add_argument("--against", metavar="FILE",
                        help="a --save file of the same deals: print the paired difference")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="every N deals, print the figures so far (and --save them), so a "
                             "run stopped early still tells its largest completed part")
    args = parser.parse_args()
    rules = preset(args.preset)
    robots = ("strong", *(("today",) if args.compare else ()),
              *(("easy",) if args.baseline else ()))
    budget = scaled(DEFAULT_BUDGET, args.budget).limited(args.seconds)
    jobs = [Job(rules, seed, d, args.opponents, robots, budget, args.told)
            for seed in args.seed for d in range(args.first, args.first + args.deals)]
    started = time.perf_counter()
    results: list[Result] = []
    for result in played(jobs, args.workers):
        results.append(result)
        if args.progress and len(results) % args.progress == 0 and len(results) < len(jobs):
            print(f"-- after {len(results)} deals:", flush=True)
            report(args, rules, results, time.perf_counter() - started)
            save(args, results)  # a run stopped early keeps its completed deals
    report(args, rules, results, time.perf_counter() - started)
    save(args, results)
    per_deal = [r["strong"] for r, _ in results]
    if args.against:
        compare(args, per_deal)


def played(jobs: list[Job], workers: int) -> Iterator[Result]:
    """Each deal's result, in deal order. Today's robot (--compare) plays in processes of its
    own, whose worlds and rollouts run as Python (see `PYTHON_ROLLOUTS`), beside the others."""
    today = [replace(job, robots=("today",)) for job in jobs if "today" in job.robots]
    rest = [replace(job, robots=tuple(r for r in job.robots if r != "today")) for job in jobs]
    with multiprocessing.Pool(workers) as pool:
        others = pool.imap(run_deal, rest, chunksize=1)
        if not today:
            yield from others
            return
        with _python_rollouts_pool(workers) as old_pool:
            olds = old_pool.imap(run_deal, today, chunksize=1)
            for (means, times), (old_means, old_times) in zip(others, olds, strict=True):
                yield {**means, **old_means}, {**times, **old_times}


def _python_rollouts_pool(workers: int) -> multiprocessing.pool.Pool:
    """A pool of fresh processes (spawned, not forked: the robots' modules are imported anew)
    whose robots run their worlds and rollouts as Python."""
    os.environ[PYTHON_ROLLOUTS] = "1"
    try:
        return multiprocessing.get_context("spawn").Pool(workers)
    finally:
        del os.environ[PYTHON_ROLLOUTS]


def save(args: argparse.Namespace, results: list[Result]) -> None:
    """With --save: the strong robot's cost per deal so far (and today's, with --compare)."""
    if args.save:
        with open(args.save, "w") as out:
            json.dump({"seed": args.seed, "budget": args.budget,
                       "strong": [r["strong"] for r, _ in results],
                       "today": [r.get("today") for r, _ in results]}, out)


def compare(args: argparse.Namespace, per_deal: list[float]) -> None:
    """This run minus a saved run of the same deals (same seeds), deal by deal."""
    with open(args.against) as saved_file:
        saved = json.load(saved_file)
    if _seeds(saved["seed"]) != args.seed:
        raise SystemExit(f"{args.against} was played with seed {saved['seed']}, not {args.seed}")
    pairs = list(zip(per_deal, saved["strong"], strict=False))
    diff, half = interval([mine - theirs for mine, theirs in pairs])
    print(f"  this run (budget x{args.budget:g}) - {args.against} (budget x{saved['budget']:g}) "
          f"over the same {len(pairs)} deals: {diff:+.2f} ± {half:.2f} a hand (95% CI, paired)")


def report(args: argparse.Namespace, rules: Rules, results: list[Result],
           elapsed: float) -> None:
    n = rules.players
    unit = "chips" if rules.variant is Variant.AUCTION else "points"
    deals = len(results)
    hands = deals * n
    head = f"{args.preset} ({n} players), {hands} hands ({deals} deals x {n} seats), " \
           f"opponents: {n - 1} {args.opponents}, strong budget x{args.budget:g}" \
           f"{', TOLD every hidden card (a calibration)' if args.told else ''}"
    print(head)
    strong, half = interval([r["strong"] for r, _ in results])
    target = TARGETS.get(args.opponents) if args.preset == "standard" and not args.told else None
    versus = f"; target <= {target}: ratio {strong / target:.2f}" if target else ""
    print(f"  strong: {strong:.2f} ± {half:.2f} {unit} a hand (95% CI){versus}")
    if len(args.seed) > 1 and deals == args.deals * len(args.seed):  # not a --progress line
        print_each_seed(args.seed, results, unit)
    if args.baseline:
        easy, easy_half = interval([r["easy"] for r, _ in results])
        diff, diff_half = interval([r["strong"] - r["easy"] for r, _ in results])
        verdict = "strong better (CI excludes 0)" if diff + diff_half < 0 else \
            "not shown better (CI includes 0)" if diff - diff_half <= 0 else "strong worse"
        print(f"  easy (heuristic) in the same seats: {easy:.2f} ± {easy_half:.2f}")
        print(f"  strong - easy: {diff:+.2f} ± {diff_half:.2f} {unit} a hand: {verdict}")
    if args.compare:
        print_comparison(results, unit)
    for robot in ("strong", "today") if args.compare else ("strong",):
        print_times(robot, results)
    print(f"  wall time {elapsed:.0f} s with {args.workers} worker(s)", flush=True)


def percentiles(results: list[Result], robot: str, which: int) -> tuple[int, float, float]:
    """(decisions, p50, p99) of one robot's decision times (0: wall, 1: CPU), seconds."""
    times = sorted(t[which] for _, ts in results for t in ts.get(robot, ()))
    if not times:
        return 0, 0.0, 0.0
    return len(times), times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]


def print_times(robot: str, results: list[Result]) -> None:
    for kind, which in (("wall", 0), ("CPU", 1)):
        count, p50, p99 = percentiles(results, robot, which)
        if count:
            print(f"  {robot} decision {kind} time over {count} decisions: p50 "
                  f"{p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms")


def print_comparison(results: list[Result], unit: str) -> None:
    """Today's robot and this one side by side on the same deals: strength, CPU a decision."""
    today, today_half = interval([r["today"] for r, _ in results])
    diff, diff_half = interval([r["strong"] - r["today"] for r, _ in results])
    _, new50, new99 = percentiles(results, "strong", 1)
    _, old50, old99 = percentiles(results, "today", 1)
    print(f"  today's robot in the same seats: {today:.2f} ± {today_half:.2f} {unit} a hand")
    print(f"  strong - today (paired, same deals): {diff:+.2f} ± {diff_half:.2f} {unit} a hand "
          f"(today - strong {-diff:+.2f}; target >= -0.1: {'met' if diff <= 0.1 else 'not met'} "
          f"by the mean)")
    print(f"  CPU a decision, p50: {new50 * 1000:.0f} ms vs today {old50 * 1000:.0f} ms "
          f"(ratio {new50 / old50:.2f}; target <= 50 ms: ratio {new50 * 1000 / 50:.2f})")
    print(f"  CPU a decision, p99: {new99 * 1000:.0f} ms vs today {old99 * 1000:.0f} ms "
          f"(ratio {new99 / old99:.2f}; target <= 120 ms: ratio {new99 * 1000 / 120:.2f})")


def print_each_seed(seeds: list[int], results: list[Result],
                    unit: str) -> None:
    """The strong robot's figure on each seed's deals (the results are in seed order)."""
    per_seed = len(results) // len(seeds)
    for k, seed in enumerate(seeds):
        mean, half = interval([r["strong"] for r, _ in results[k * per_seed:(k + 1) * per_seed]])
        print(f"    seed {seed}: {mean:.2f} ± {half:.2f} {unit} a hand")


def _seeds(saved: int | list[int]) -> list[int]:
    """A saved run's seeds (files written before several seeds were allowed hold one int)."""
    return [saved] if isinstance(saved, int) else saved


if __name__ == "__main__":
    main()
