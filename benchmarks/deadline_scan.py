"""The worker's deadline job at 100,000 active games with nothing due, beside one indexed
SELECT of the due rows in the same run.

Run: python benchmarks/deadline_scan.py [--games 100000] [--n 30] [--db URL]

Fills a fresh SQLite file (or a throwaway PostgreSQL schema with --db), migrated to the
newest revision, with --games active
games (four seats each, one pending deadline due tomorrow and three closed ones), a tenth as
many finished games and a hundredth as many tables still gathering people (their wait not
over), all written straight into the tables. Then runs the job the worker runs every minute
(pbem.scheduler.worker `check_deadlines`: the lease, expired deadlines and due reminders, open
tables whose wait is over, unanswered invitations) --n times and prints the median CPU time
of this process per run (ms) and of each of its scans, and the median wall-clock time,
each beside the reference's: one indexed
`SELECT id FROM deadline WHERE status = 'pending' AND grace_until <= now` (no row), as a ratio.
The worker's other periodic scans follow at the same size (the robots' listing of the games
left to them, the finished games to review, the mail jobs, the outbox). It then drops
migration 0024's indexes and measures the deadline job again: the figure before them.
On PostgreSQL the server's own CPU is not in these figures (this process's is).
Target (issue 33): the job <= 20 ms at 100,000 active games.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask import Flask  # noqa: E402
from scratch import bench_app, scratch_database  # noqa: E402
from sqlalchemy import Engine, insert, text  # noqa: E402

from pbem.app import db_engine  # noqa: E402
from pbem.engine import preset  # noqa: E402
from pbem.mail.compose import MailSettings  # noqa: E402
from pbem.mail.outbox import claim  # noqa: E402
from pbem.scheduler.worker import check_deadlines, process_deadlines  # noqa: E402
from pbem.service import Context, games_awaiting_robots, games_to_play  # noqa: E402
from pbem.service.invitations import remind_unanswered  # noqa: E402
from pbem.service.lobby import top_up_tables  # noqa: E402
from pbem.service.reviews import games_to_review  # noqa: E402
from pbem.store.mailjobs import pending_jobs  # noqa: E402
from pbem.store.models import Deadline, Game, GameReview, Seat  # noqa: E402

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
BATCH = 5000
# Migration 0024's indexes (table, name), dropped for the "before" figure.
INDEXES_0024 = (("game", "ix_game_status_fill_by"), ("game", "ix_game_status_id"),
                ("game", "ix_game_status_robots_thinking_since"),
                ("player", "ix_player_digest"),
                ("outbox_email", "ix_outbox_email_player_id_kind_created_at"))
REFERENCE = text("SELECT id FROM deadline WHERE status = 'pending' AND grace_until <= :now")


def _games(first: int, count: int, status: str) -> Iterator[dict[str, Any]]:
    rules = preset("standard").to_dict()
    for game_id in range(first, first + count):
        yield {"id": game_id, "name": f"Game {game_id}", "preset": "standard", "rules": rules,
               "engine_version": "1", "status": status, "deadline_policy": {},
               "created_at": NOW - timedelta(days=3), "last_seq": 40,
               "robot_strength": "easy", "quick": False,
               # a lobby table's fill_by stays set once it started (over for the active
               # ones; not yet for those still gathering people)
               "fill_by": NOW + (timedelta(days=1) if status == "inviting"
                                 else -timedelta(days=2))}


def _seats(game_id: int) -> Iterator[dict[str, Any]]:
    for seat_no in range(4):
        yield {"game_id": game_id, "seat_no": seat_no, "player_id": None,
               "is_bot": seat_no > 0, "invite_status": "accepted" if seat_no else "open",
               "timeouts_in_row": 0, "bot_holding": False}


def _deadlines(game_id: int) -> Iterator[dict[str, Any]]:
    for turn in range(4):  # three closed, the last one pending (due tomorrow)
        due = NOW + timedelta(days=1) if turn == 3 else NOW - timedelta(days=3 - turn)
        yield {"game_id": game_id, "seat_no": 0, "kind": "play", "turn_seq": turn * 10,
               "started_at": due - timedelta(days=1), "due_at": due,
               "grace_until": due + timedelta(hours=1), "reminders_sent": 0,
               "next_reminder_at": due - timedelta(hours=12) if turn == 3 else None,
               "status": "pending" if turn == 3 else "done",
               "closed_at": None if turn == 3 else due}


def fill(engine: Engine, active: int) -> None:
    """`active` active games, a tenth as many finished, a hundredth gathering people."""
    kinds = (("active", active), ("finished", active // 10), ("inviting", active // 100))
    first = 1
    for status, count in kinds:
        for start in range(first, first + count, BATCH):
            ids = range(start, min(start + BATCH, first + count))
            with engine.begin() as conn:
                conn.execute(insert(Game.__table__),  # type: ignore[attr-defined]
                             list(_games(ids[0], len(ids), status)))
                conn.execute(insert(Seat.__table__),  # type: ignore[attr-defined]
                             [row for g in ids for row in _seats(g)])
                if status == "active":
                    conn.execute(insert(Deadline.__table__),  # type: ignore[attr-defined]
                                 [row for g in ids for row in _deadlines(g)])
                if status == "finished":  # reviewed long ago
                    conn.execute(insert(GameReview.__table__),  # type: ignore[attr-defined]
                                 [{"game_id": g, "status": "done", "decisions": 0,
                                   "cpu_seconds": 0.0, "created_at": NOW} for g in ids])
        first += count
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.execute(text("ANALYZE"))


def cpu_ms(run: Callable[[], object], n: int) -> tuple[float, float]:
    """The median CPU time of this process per call, and the median wall-clock time (which
    holds PostgreSQL's server time, and the other processes of a busy machine), ms."""
    cpu, wall = [], []
    for _ in range(n):
        started, clock = time.process_time(), time.perf_counter()
        run()
        cpu.append((time.process_time() - started) * 1000)
        wall.append((time.perf_counter() - clock) * 1000)
    return statistics.median(cpu), statistics.median(wall)


def reference(engine: Engine) -> None:
    with engine.connect() as conn:
        assert conn.execute(REFERENCE, {"now": NOW}).all() == []


def parts(app: Flask) -> dict[str, Callable[[], object]]:
    """The job whole, and each of its scans alone."""
    engine = db_engine(app)
    ctx = Context(engine=engine, clock=lambda: NOW)
    settings = MailSettings.from_config(app.config)

    def job() -> None:
        report = check_deadlines(app, "bench", NOW)
        assert report.acted and not (report.timeouts or report.reminders or report.failed)

    def in_app(run: Callable[[], object]) -> Callable[[], object]:
        def call() -> object:
            with app.app_context():
                return run()
        return call

    return {
        "the deadline job (check_deadlines)": job,
        "  expired deadlines and reminders": in_app(lambda: process_deadlines(ctx, settings,
                                                                               NOW)),
        "  open tables whose wait is over (lobby)": in_app(lambda: top_up_tables(ctx)),
        "  unanswered invitations": in_app(lambda: remind_unanswered(ctx)),
    }


Row = tuple[str, tuple[float, float], tuple[float, float]]  # label, (cpu, wall), reference


def other_scans(app: Flask) -> dict[str, Callable[[], object]]:
    """The worker's other periodic scans, at the same size (not part of the deadline job)."""
    engine = db_engine(app)
    ctx = Context(engine=engine, clock=lambda: NOW)

    def jobs() -> object:
        with engine.connect() as connection:
            return pending_jobs(connection, now=NOW)

    return {
        "games left to robots (every second)": lambda: games_to_play(ctx),
        "games awaiting robots (4 a second)": lambda: games_awaiting_robots(ctx),
        "finished games to review (every 30 s)": lambda: games_to_review(ctx),
        "mail jobs pending (every second)": jobs,
        "outbox rows due (every 5 s)": lambda: claim(engine, "bench", 100, NOW),
    }


def measure(app: Flask, n: int, scans: Callable[[Flask], dict[str, Callable[[], object]]]
            ) -> list[Row]:
    """Each part beside the reference, measured one after the other, `n` rounds each."""
    engine = db_engine(app)
    rows = []
    for label, run in scans(app).items():
        run()  # warm: statement caches, the lease row
        value = cpu_ms(run, n)
        rows.append((label, value, cpu_ms(lambda: reference(engine), n)))
    return rows


def report(title: str, rows: list[Row]) -> None:
    print(title)
    print(f"{'':42} {'CPU ms':>7} {'ref':>6} {'ratio':>6} {'wall ms':>8} {'ref':>6} "
          f"{'ratio':>6}  target")
    for label, (cpu, wall), (ref_cpu, ref_wall) in rows:
        target = "<= 20 ms CPU" if label.startswith("the deadline job") else ""
        print(f"{label:42} {cpu:7.2f} {ref_cpu:6.3f} {cpu / ref_cpu:5.1f}x {wall:8.2f} "
              f"{ref_wall:6.3f} {wall / ref_wall:5.1f}x  {target}")


def drop_0024(engine: Engine) -> None:
    with engine.begin() as conn:
        for _table, name in INDEXES_0024:
            conn.execute(text(f"DROP INDEX {name}"))
        if engine.dialect.name == "postgresql":
            conn.execute(text("ANALYZE"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--db", default="", help="a PostgreSQL URL (default: SQLite)")
    args = parser.parse_args()
    with scratch_database(args.db) as (url, folder):  # migrated: 0024's indexes included
        _run(bench_app(url, folder), args)


def _run(app: Flask, args: argparse.Namespace) -> None:
    engine = db_engine(app)
    print(f"Filling {engine.dialect.name} with {args.games:,} active games ...", flush=True)
    started = time.perf_counter()
    fill(engine, args.games)
    print(f"(filled in {time.perf_counter() - started:.0f} s)")
    print("Reference: one indexed SELECT of the due deadline rows (none), same run.")
    report(f"With migration 0024's indexes, {args.games:,} active games, nothing due:",
           measure(app, args.n, parts))
    report("The worker's other periodic scans, at the same size:",
           measure(app, args.n, other_scans))
    drop_0024(engine)
    report("Without migration 0024's indexes (as before it):",
           measure(app, max(3, args.n // 5), parts))


if __name__ == "__main__":
    main()
