"""What an idle `pbem worker` costs: its CPU a second with nothing to do (issue 33).

Run: python benchmarks/worker_idle.py [--db POSTGRES_URL] [--games 100000] [--seconds 20]

Every worker process polls: the mail jobs and the spool every second (then sends what it
queued), the games awaiting robots four times a second, the outbox every five seconds, its
heartbeat. That is a cost each process pays whether or not anyone plays, so it is what N
idle hosts cost. Printed: `pbem worker`'s CPU (user + system, from /proc) a second over
`--seconds`, on an empty database and then with `--games` active games waiting for
people, a tenth as many finished (benchmarks/deadline_scan.py's games; each scan reads the
rows it looks for, so the figure should not grow with them), beside the reference: this
process sending the same number of the polls' statements a second straight through the
driver (one indexed read each).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from deadline_scan import fill  # noqa: E402
from http_moves import cpu_seconds, environment, free_port, stop  # noqa: E402
from scratch import scratch_database  # noqa: E402

from pbem.store.db import make_engine  # noqa: E402

# The polls a second: fan-out 1, spool 1, awaited robots 4, outbox 0.2, heartbeat 1/15.
POLLS_A_SECOND = 1 + 1 + 4 + 0.2 + 1 / 15


def idle_cpu(url: str, folder: str, seconds: float) -> float:
    """ms of CPU a second of a `pbem worker` left alone (after a few seconds to start)."""
    worker = subprocess.Popen([sys.executable, "-m", "pbem", "worker"],
                              env=environment(url, folder, free_port()), cwd=str(ROOT),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(6)
        before = cpu_seconds(worker.pid)
        time.sleep(seconds)
        return (cpu_seconds(worker.pid) - before) / seconds * 1000
    finally:
        stop(worker)


def reference_cpu(url: str, seconds: float) -> float:
    """ms of CPU a second of this process sending POLLS_A_SECOND indexed reads a second."""
    engine = make_engine(url)
    statement = "SELECT id FROM game WHERE robots_thinking_since IS NOT NULL LIMIT 1"
    with engine.connect() as conn:
        cursor = conn.connection.cursor()
        runs = int(POLLS_A_SECOND * seconds)
        start = time.process_time()
        for _ in range(runs):
            cursor.execute(statement)
            cursor.fetchall()
        took = time.process_time() - start
    engine.dispose()
    return took / seconds * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="", help="a PostgreSQL URL (default: SQLite file)")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    with scratch_database(args.db) as (url, folder):
        reference = reference_cpu(url, args.seconds)
        empty = idle_cpu(url, folder, args.seconds)
        engine = make_engine(url)
        fill(engine, args.games)
        engine.dispose()
        full = idle_cpu(url, folder, args.seconds)
    name = "postgresql" if args.db else "sqlite"
    print(f"{name}: idle `pbem worker`, CPU a second (load {os.getloadavg()[0]:.1f})")
    print(f"  empty database                {empty:6.2f} ms/s")
    print(f"  {args.games} active games waiting for people (and a tenth as many finished)"
          f" {full:6.2f} ms/s")
    print(f"  reference: {POLLS_A_SECOND:.1f} indexed reads a second through the driver "
          f"{reference:6.3f} ms/s   ratio {reference / full:.3f}")


if __name__ == "__main__":
    main()
