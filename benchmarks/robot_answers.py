"""What a human's move costs when robots answer it: in the same command, or left to the worker.

Run: python benchmarks/robot_answers.py [--db POSTGRES_URL] [--hands 3]
One human (Ann, seat 1) and three robot seats, standard rules: Ann plays `--hands` hands through
`service.move` (her pass, then each card: the heuristic's choice for her seat), and each of her
commands is timed in CPU (this process: the honest figure on a shared machine) and wall-clock.
A command runs every robot decision up to Ann's next question (pbem.service.core `advance`): up
to six card decisions, or three passes and the cards before hers when a hand ends. Printed for
strong robots beside the same game with easy robots (the reference: the command's own work,
robots that cost well under a millisecond), the same deals (the same seed), as a ratio.
To compare two robots, run it on each commit (the easy reference keeps the runs comparable).

Since issue 15's "no request that can stall the others", production leaves strong robots' moves
to the worker (`Context.robots_now`): the same strong game is played that way too,
Ann's command (what a page's POST or a reply now costs) timed apart from the worker's pass that
plays the robots' answers after it (`play_robot_turns`, as `pbem worker` runs it every second).

Then what Ann waits for, with the worker's job running in the background as deployed
(APScheduler, `RobotPasses.tick` every 0.25 s: a full pass each second, the games where a
player waits at every tick): from her command's return to the robots' answers committed,
polled every 5 ms. Beside the same wait with the job run every second (as before the tick)
and the worker's pass alone (what the robots think: the floor). Her page then reloads within
a second (it reloads every second while the robots think).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apscheduler.schedulers.background import BackgroundScheduler  # noqa: E402
from flask import Flask  # noqa: E402
from scratch import bench_app, scratch_database  # noqa: E402
from sqlalchemy import Engine  # noqa: E402

from pbem import service  # noqa: E402
from pbem.app import db_engine  # noqa: E402
from pbem.bots import choose_event  # noqa: E402
from pbem.engine import CardPlayed, CardsPassed, Event, PassCards, Phase, PlayCard  # noqa: E402
from pbem.scheduler.worker import RobotPasses  # noqa: E402
from pbem.store.db import transaction  # noqa: E402
from pbem.store.events import load_state  # noqa: E402
from pbem.store.models import Game  # noqa: E402

ANN = service.Invitee(email="ann@example.org", name="Ann", accepted=True)


def command_for(event: Event) -> PassCards | PlayCard:
    if isinstance(event, CardsPassed):
        return PassCards(event.seat, event.cards)
    if isinstance(event, CardPlayed):
        return PlayCard(event.seat, event.card)
    raise RuntimeError(f"Ann has no command for {event}")


Timed = tuple[float, float]  # CPU and wall seconds


def play(engine: Engine, strength: str, hands: int,
         later: bool = False) -> tuple[list[Timed], list[Timed]]:
    """(CPU, wall) seconds of each of Ann's commands over `hands` hands and, `later`, of each
    worker pass playing the robots' moves her command left to it."""
    ctx = service.Context(engine=engine, rng=service.make_rng(seed=21), robots_now=not later)
    worker = service.Context(engine=engine, rng=service.make_rng(seed=22), robots_now=True)
    game_id = service.create_game(ctx, name=strength, players=[ANN], bot_seats=(1, 2, 3),
                                  robot_strength=strength).game_id
    times: list[Timed] = []
    passes: list[Timed] = []
    while True:
        if later:
            passes.append(timed(partial(service.play_robot_turns, worker, game_id)))
        with transaction(engine, read_only=True) as session:
            state = load_state(session, game_id).state
        if state.game_over or len(state.sheet) >= hands:
            return times, passes
        if 0 not in state.to_move or state.phase not in (Phase.PASS, Phase.PLAY):
            raise RuntimeError(f"not Ann's move: {state.phase}")
        command = command_for(choose_event(state, 0))
        times.append(timed(partial(service.move, ctx, game_id, command)))


def waits(app: Flask, hands: int, tick: float, full_every: float) -> list[float]:
    """Wall seconds from each of Ann's commands to the robots' answers committed, the worker's
    job (`RobotPasses`) ticking every `tick` seconds in a background scheduler."""
    engine = db_engine(app)
    ctx = service.Context(engine=engine, rng=service.make_rng(seed=23), robots_now=False)
    scheduler = BackgroundScheduler(timezone="UTC")
    passes = RobotPasses(app, every=full_every)
    scheduler.add_job(passes.tick, "interval", seconds=tick, max_instances=2, coalesce=True)
    game_id = service.create_game(ctx, name="live", players=[ANN], bot_seats=(1, 2, 3),
                                  robot_strength="strong").game_id
    scheduler.start()
    found: list[float] = []
    try:
        thinking = robots_thinking(engine, game_id)  # the robots' first passes
        while True:
            while robots_thinking(engine, game_id):
                time.sleep(0.005)
            with transaction(engine, read_only=True) as session:
                state = load_state(session, game_id).state
            if state.game_over or len(state.sheet) >= hands:
                return found
            service.move(ctx, game_id, command_for(choose_event(state, 0)))
            moved = time.perf_counter()
            thinking = robots_thinking(engine, game_id)
            while thinking:
                time.sleep(0.005)
                thinking = robots_thinking(engine, game_id)
            found.append(time.perf_counter() - moved)
    finally:
        scheduler.shutdown()


def robots_thinking(engine: Engine, game_id: int) -> bool:
    with transaction(engine, read_only=True) as session:
        game = session.get(Game, game_id)
        return game is not None and game.robots_thinking_since is not None


def timed(work: Callable[[], object]) -> Timed:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def quantiles(values: list[float]) -> tuple[float, float, float]:
    """p50, p99 and the largest, in ms."""
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p99 * 1000, ordered[-1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="", help="a PostgreSQL URL (default: SQLite file)")
    parser.add_argument("--hands", type=int, default=3)
    args = parser.parse_args()
    with scratch_database(args.db) as (url, folder):
        app = bench_app(url, folder)
        with app.app_context():
            easy, _ = play(db_engine(app), "easy", args.hands)
            tough, _ = play(db_engine(app), "strong", args.hands)
            request, passes = play(db_engine(app), "strong", args.hands, later=True)
            ticking = waits(app, args.hands, tick=0.25, full_every=1.0)
            each_second = waits(app, args.hands, tick=1.0, full_every=1.0)
        db_engine(app).dispose()
    print(f"Ann's commands over {args.hands} hands, one human and three robots "
          f"({len(tough)} commands with strong robots, {len(easy)} with easy ones):")
    rows = (("strong robots answering in the command", tough),
            ("strong robots left to the worker: the command (production)", request),
            ("  ... then the worker's pass playing their answers", passes))
    for name, index in (("CPU", 0), ("wall", 1)):
        e50, e99, emax = quantiles([t[index] for t in easy])
        print(f"  {name}, reference: easy robots p50 {e50:.1f} / p99 {e99:.1f} / max {emax:.1f} ms")
        for label, figures in rows:
            s50, s99, smax = quantiles([t[index] for t in figures])
            print(f"    {label}: p50 {s50:.1f} / p99 {s99:.1f} / max {smax:.1f} ms;"
                  f" ratio at p50 {s50 / e50:.1f}x")
    floor, _, _ = quantiles([t[1] for t in passes])
    print(f"Ann's wait for the robots' answers, the worker's job in the background "
          f"(reference: the worker's pass alone, wall p50 {floor:.0f} ms):")
    for label, found in (("job ticking every 0.25 s (deployed)", ticking),
                         ("job every second (before)", each_second)):
        w50, w99, wmax = quantiles(found)
        print(f"  {label}: p50 {w50:.0f} / p99 {w99:.0f} / max {wmax:.0f} ms over {len(found)}"
              f" moves; ratio at p50 {w50 / floor:.2f}x")


if __name__ == "__main__":
    main()
