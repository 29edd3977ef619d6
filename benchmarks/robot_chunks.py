"""A game left to robots alone: what the request that leaves it costs, and the worker's chunks.

Run: python benchmarks/robot_chunks.py [--db POSTGRES_URL] [--strong-chunks 8] [--idle 50]
One human (Ann) and three robots, at each strength: Ann passes (a normal request: easy robots
answer it up to her next card; strong robots' moves are left to the worker, as in production,
`Context.robots_now`), then resigns at the start of hand 1's play (no human left:
one bounded chunk, pbem.service.core `robot_budget`), then the worker's chunks
(`play_robot_turns`). Figures, CPU time of this process (the honest one on a shared machine):
- the resign request beside Ann's pass, from the same run (a normal request's cost), as a
  ratio (no target: the bound is a count, 3 robot decisions a seat; this says what it costs);
- the worker's chunks: count, the largest, and (easy robots: the whole rest of the game)
  their total, which is what the resign request used to cost before the bound (reference,
  the run recorded in docs/speed.md: 497 events in one call);
- an idle pass of the worker (`carry_on_robot_games`) over `--idle` games left to robots with
  nothing to play (a seat nobody holds at its turn, no deadline pending), once each has been
  found idle: p50 CPU and wall-clock, beside the one query that lists the games left to robots
  (`games_left_to_robots`) from the same run, as a ratio (target: an idle pass costs about
  that one query, not a planning of each game).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scratch import bench_app, scratch_database  # noqa: E402
from sqlalchemy import Engine, text  # noqa: E402

from pbem import service  # noqa: E402
from pbem.app import db_engine  # noqa: E402
from pbem.scheduler.worker import carry_on_robot_games  # noqa: E402
from pbem.store.db import transaction  # noqa: E402
from pbem.store.events import load_state  # noqa: E402

ANN = service.Invitee(email="ann@example.org", name="Ann", accepted=True)
T = TypeVar("T")


def cpu(action: Callable[[], T]) -> tuple[float, T]:
    started = time.process_time()
    result = action()
    return time.process_time() - started, result


def one_strength(engine: Engine, strength: str, chunk_limit: int) -> None:
    ctx = service.Context(engine=engine, rng=service.make_rng(seed=11))
    game_id = service.create_game(ctx, name=strength, players=[ANN], bot_seats=(1, 2, 3),
                                  robot_strength=strength).game_id
    with transaction(engine, read_only=True) as s:
        state = load_state(s, game_id).state
    move_cpu, moved = cpu(lambda: service.pass_cards(ctx, game_id, 0, state.hand(0)[:3]))
    resign_cpu, resigned = cpu(lambda: service.resign(ctx, game_id, 0))
    print(f"{strength}: Ann's pass answered by the robots: {move_cpu * 1000:.0f} ms CPU, "
          f"{len(moved.events)} events")
    print(f"  her resignation (no human left): {resign_cpu * 1000:.0f} ms CPU, "
          f"{len(resigned.events)} events; ratio to her pass {resign_cpu / move_cpu:.2f}")
    worker = service.Context(engine=engine, rng=service.make_rng(seed=14), robots_now=True)
    chunks: list[float] = []
    events = 0
    over = False
    while not over and len(chunks) < chunk_limit:
        spent, out = cpu(lambda: service.play_robot_turns(worker, game_id))
        chunks.append(spent)
        events += len(out.events)
        over = out.state is not None and out.state.game_over
    total = sum(chunks) + resign_cpu
    print(f"  the worker's chunks: {len(chunks)}{' (game over)' if over else ' (stopped)'}, "
          f"largest {max(chunks) * 1000:.0f} ms CPU, {events} events, "
          f"{sum(chunks):.2f} s CPU in all")
    if over:
        print(f"  before the bound the resignation would have cost {total:.2f} s CPU and "
              f"{events + len(resigned.events)} events in the one request: now "
              f"{resign_cpu / total:.3f} of it")


def idle_games(engine: Engine, count: int) -> list[int]:
    """`count` games at Ann's turn whose seat is then left empty (nobody holds it) and whose
    deadline is closed: active, no deadline pending, nothing for the robots to play."""
    ctx = service.Context(engine=engine, rng=service.make_rng(seed=12))
    made = [service.create_game(ctx, name=f"idle {n}", players=[ANN], bot_seats=(1, 2, 3),
                                robot_strength="easy").game_id for n in range(count)]
    with transaction(engine) as s:
        for game_id in made:
            s.execute(text("UPDATE seat SET player_id = NULL WHERE game_id = :g AND "
                           "seat_no = 0"), {"g": game_id})
            s.execute(text("UPDATE deadline SET status = 'cancelled' WHERE game_id = :g"),
                      {"g": game_id})
    return made


def timed(action: Callable[[], object], rounds: int) -> tuple[float, float]:
    """p50 CPU and wall-clock of `action`, in ms."""
    cpus, walls = [], []
    for _ in range(rounds):
        wall = time.perf_counter()
        spent, _result = cpu(action)
        walls.append(time.perf_counter() - wall)
        cpus.append(spent)
    return sorted(cpus)[rounds // 2] * 1000, sorted(walls)[rounds // 2] * 1000


def idle_pass(engine: Engine, count: int, rounds: int = 30) -> None:
    made = idle_games(engine, count)
    ctx = service.Context(engine=engine, rng=service.make_rng(seed=13))
    assert carry_on_robot_games(ctx) == []  # each found idle once
    assert set(made) <= set(service.games_left_to_robots(ctx))
    pass_cpu, pass_wall = timed(lambda: carry_on_robot_games(ctx), rounds)
    query_cpu, query_wall = timed(lambda: service.games_left_to_robots(ctx), rounds)
    print(f"idle pass over {count} idle games, p50: {pass_cpu:.2f} ms CPU / {pass_wall:.2f} ms "
          f"wall; the query of the games left to robots alone {query_cpu:.2f} / "
          f"{query_wall:.2f} ms; ratio {pass_cpu / query_cpu:.1f}x CPU, "
          f"{pass_wall / query_wall:.1f}x wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="", help="a PostgreSQL URL (default: SQLite file)")
    parser.add_argument("--strong-chunks", type=int, default=8,
                        help="worker chunks to time with strong robots (easy: the whole game)")
    parser.add_argument("--idle", type=int, default=50,
                        help="idle games for the idle pass (0: skip it)")
    args = parser.parse_args()
    with scratch_database(args.db) as (url, folder):
        app = bench_app(url, folder)
        with app.app_context():
            if args.idle:  # first: no other game left to robots yet
                idle_pass(db_engine(app), args.idle)
            one_strength(db_engine(app), "easy", 10**6)
            one_strength(db_engine(app), "strong", args.strong_chunks)
        db_engine(app).dispose()


if __name__ == "__main__":
    main()
