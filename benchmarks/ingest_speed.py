"""`pbem ingest < msg` as a new process, as an MTA pipe runs it, beside python parsing the same
bytes as a new process, in the same run; and how soon a running `pbem worker` plays the move.

Run: python benchmarks/ingest_speed.py [--n 20] [--db postgresql://...]

A fresh database (a SQLite file; with --db a throwaway PostgreSQL schema) holds a game of four
people playing by email. Each round one reply (a Gmail-like reply playing a legal move, as
benchmarks/mailin_speed.py makes them) is piped to `python -m pbem ingest` (it only spools the
message into the mail spool, pbem.mailin.pipe), then the same bytes to `python -c
"email.message_from_binary_file(sys.stdin.buffer)"`. A real `pbem worker` runs meanwhile; it
stores what is spooled in the database and plays it (it looks every second).

Printed: the median CPU time of each process (user + system, from the children's rusage: on a
machine shared with busy processes, wall-clock time mostly measures them) and the median
wall-clock time, with the ratio; then the median and maximum time from starting `pbem ingest`
to the move played by the worker (wall-clock: what the player waits for). pbem's bytecode is
compiled first (`python -m compileall pbem`), as a pip install does: with
PYTHONDONTWRITEBYTECODE set and no bytecode, every start compiles each module again.
`python -X importtime -m pbem ingest < msg` shows where the start goes.
Target (issue 15): `pbem ingest` <= 150 ms CPU.
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mailin_speed import new_game, next_reply  # noqa: E402
from sqlalchemy import Engine  # noqa: E402
from sqlmodel import col, select  # noqa: E402

from pbem.app import wire_mail  # noqa: E402
from pbem.store.db import make_engine, transaction  # noqa: E402
from pbem.store.models import InboundMail  # noqa: E402
from pbem.store.testing import create_pg_schema, create_tables, drop_pg_schema  # noqa: E402
from tests.security.support import pbem_env  # noqa: E402

INGEST = [sys.executable, "-m", "pbem", "ingest"]
PARSE = [sys.executable, "-c",
         "import email, sys; email.message_from_binary_file(sys.stdin.buffer)"]


def run(command: list[str], raw: bytes, env: dict[str, str]) -> tuple[float, float]:
    """(CPU ms, wall ms) of one process reading `raw` on its standard input."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, input=raw, capture_output=True, env=env, check=False)
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr.decode()
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return cpu, wall


@contextmanager
def database(db: str | None, tmp: Path) -> Iterator[str]:
    if db is None:
        url = f"sqlite:///{tmp / 'bench.sqlite3'}"
        create_tables(url)
        yield url
        return
    schema, url = create_pg_schema(db)
    create_tables(url)
    try:
        yield url
    finally:
        drop_pg_schema(db, schema)


@contextmanager
def running_worker(env: dict[str, str]) -> Iterator[None]:
    worker = subprocess.Popen([sys.executable, "-m", "pbem", "worker"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(120)


def wait_played(engine: Engine, limit: float = 60.0) -> None:
    """Until the newest stored message is no longer pending (the worker played it)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with transaction(engine, read_only=True) as session:
            status = session.exec(select(InboundMail.status)
                                  .order_by(col(InboundMail.id).desc())).first()
        if status is not None and status != "pending":
            assert status == "processed", status
            return
        time.sleep(0.005)
    raise TimeoutError("the worker did not play the stored reply")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: SQLite)")
    args = parser.parse_args()
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "pbem")], check=True)
    with tempfile.TemporaryDirectory() as tmp, database(args.db, Path(tmp)) as url:
        engine = make_engine(url)
        wire_mail(engine)  # the service tells by email, as in the app
        game = new_game(engine, 1)
        env = {**pbem_env(url, Path(tmp), PBEM_SMTP_PORT="9"), "PATH": os.environ["PATH"]}
        ingest: list[tuple[float, float]] = []
        parse: list[tuple[float, float]] = []
        played: list[float] = []
        with running_worker(env):
            for _ in range(args.n):
                raw = next_reply(engine, game)
                assert raw is not None
                started = time.perf_counter()
                ingest.append(run(INGEST, raw, env))
                wait_played(engine)
                played.append((time.perf_counter() - started) * 1000)
                parse.append(run(PARSE, raw, env))
        engine.dispose()
    report(ingest, parse, played, "PostgreSQL" if args.db else "SQLite")


def report(ingest: list[tuple[float, float]], parse: list[tuple[float, float]],
           played: list[float], db: str) -> None:
    print(f"{db}, {len(ingest)} replies; load average {os.getloadavg()[0]:.1f}")
    print(f"{'process':44} {'CPU ms':>8} {'wall ms':>8}")
    cpu, wall = (statistics.median(v) for v in zip(*ingest, strict=True))
    ref_cpu, ref_wall = (statistics.median(v) for v in zip(*parse, strict=True))
    print(f"{'pbem ingest < reply (spooled)':44} {cpu:8.0f} {wall:8.0f}")
    print(f"{'python parsing the same bytes (reference)':44} {ref_cpu:8.0f} {ref_wall:8.0f}")
    print(f"{'ratio':44} {cpu / ref_cpu:7.1f}x {wall / ref_wall:7.1f}x   "
          f"(target: 150 ms CPU: {cpu / 150:.2f}x the target)")
    print(f"from starting pbem ingest to the move played by the running worker: median "
          f"{statistics.median(played):.0f} ms, max {max(played):.0f} ms (wall; it polls "
          "every second)")


if __name__ == "__main__":
    main()
