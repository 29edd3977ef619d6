"""What a human's move costs when robots answer it in the same command (a page's POST, a reply).

Run: python benchmarks/robot_answers.py [--db POSTGRES_URL] [--hands 3]
One human (Ann, seat 1) and three robot seats, standard rules: Ann plays `--hands` hands through
`service.move` (her pass, then each card: the heuristic's choice for her seat), and each of her
commands is timed in CPU (this process: the honest figure on a shared machine) and wall-clock.
A command runs every robot decision up to Ann's next question (pbem.service.core `advance`): up
to six card decisions, or three passes and the cards before hers when a hand ends. Printed for
strong robots beside the same game with easy robots (the reference: the command's own work,
robots that cost well under a millisecond), the same deals (the same seed), as a ratio.
To compare two robots, run it on each commit (the easy reference keeps the runs comparable).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scratch import bench_app, scratch_database  # noqa: E402
from sqlalchemy import Engine  # noqa: E402

from pbem import service  # noqa: E402
from pbem.app import db_engine  # noqa: E402
from pbem.bots import choose_event  # noqa: E402
from pbem.engine import CardPlayed, CardsPassed, Event, PassCards, Phase, PlayCard  # noqa: E402
from pbem.store.db import transaction  # noqa: E402
from pbem.store.events import load_state  # noqa: E402

ANN = service.Invitee(email="ann@example.org", name="Ann", accepted=True)


def command_for(event: Event) -> PassCards | PlayCard:
    if isinstance(event, CardsPassed):
        return PassCards(event.seat, event.cards)
    if isinstance(event, CardPlayed):
        return PlayCard(event.seat, event.card)
    raise RuntimeError(f"Ann has no command for {event}")


def play(engine: Engine, strength: str, hands: int) -> list[tuple[float, float]]:
    """(CPU, wall) seconds of each of Ann's commands over `hands` hands."""
    ctx = service.Context(engine=engine, rng=service.make_rng(seed=21))
    game_id = service.create_game(ctx, name=strength, players=[ANN], bot_seats=(1, 2, 3),
                                  robot_strength=strength).game_id
    times: list[tuple[float, float]] = []
    while True:
        with transaction(engine, read_only=True) as session:
            state = load_state(session, game_id).state
        if state.game_over or len(state.sheet) >= hands:
            return times
        if 0 not in state.to_move or state.phase not in (Phase.PASS, Phase.PLAY):
            raise RuntimeError(f"not Ann's move: {state.phase}")
        command = command_for(choose_event(state, 0))
        wall, cpu = time.perf_counter(), time.process_time()
        service.move(ctx, game_id, command)
        times.append((time.process_time() - cpu, time.perf_counter() - wall))


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
            easy = play(db_engine(app), "easy", args.hands)
            tough = play(db_engine(app), "strong", args.hands)
        db_engine(app).dispose()
    print(f"Ann's commands over {args.hands} hands, one human and three robots "
          f"({len(tough)} commands with strong robots, {len(easy)} with easy ones):")
    for name, index in (("CPU", 0), ("wall", 1)):
        s50, s99, smax = quantiles([t[index] for t in tough])
        e50, e99, emax = quantiles([t[index] for t in easy])
        print(f"  {name}: strong p50 {s50:.0f} / p99 {s99:.0f} / max {smax:.0f} ms;"
              f" easy (reference) p50 {e50:.1f} / p99 {e99:.1f} / max {emax:.1f} ms;"
              f" ratio at p50 {s50 / e50:.0f}x")


if __name__ == "__main__":
    main()
