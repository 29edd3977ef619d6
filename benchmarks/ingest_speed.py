"""`pbem ingest < msg` as a new process, as an MTA pipe runs it, beside python parsing the same
bytes as a new process, in the same run.

Run: python benchmarks/ingest_speed.py [--n 10]

A fresh SQLite database holds a game of four people playing by email; each round one reply
(a Gmail-like reply playing a legal move, as benchmarks/mailin_speed.py makes them) is piped
to `pbem ingest` (stored, parsed, routed, the move played, its emails queued), then the same
bytes to `python -c "email.message_from_binary_file(sys.stdin.buffer)"`. Printed: the median
CPU time of each process (user + system, from the children's rusage: on a machine shared with
busy processes, wall-clock time mostly measures them) and the median wall-clock time, with
the ratio. pbem's bytecode is compiled first (`python -m compileall pbem`), as a pip install
does: with PYTHONDONTWRITEBYTECODE set and no bytecode, every start compiles each module again.
`python -X importtime -c "from pbem.cli import main; main()" ingest < msg` shows
where the start goes.
Target (issue 15): <= 150 ms (reference: 40 ms on this machine when quiet).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mailin_speed import new_game, next_reply  # noqa: E402

import pbem.app  # noqa: E402,F401 - wires the service's notifier (the emails)
from pbem.store.db import make_engine  # noqa: E402
from pbem.store.testing import create_tables  # noqa: E402
from tests.security.support import PBEM, pbem_env  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10)
    args = parser.parse_args()
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "pbem")], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        create_tables(url)
        engine = make_engine(url)
        game = new_game(engine, 1)
        env = {**pbem_env(url, Path(tmp)), "PATH": os.environ.get("PATH", "")}
        ingest: list[tuple[float, float]] = []
        parse: list[tuple[float, float]] = []
        for _ in range(args.n):
            raw = next_reply(engine, game)
            assert raw is not None
            ingest.append(run([*PBEM, "ingest"], raw, env))
            parse.append(run(PARSE, raw, env))
        engine.dispose()
    report(ingest, parse)


def report(ingest: list[tuple[float, float]], parse: list[tuple[float, float]]) -> None:
    print(f"{'process':44} {'CPU ms':>8} {'wall ms':>8}")
    cpu, wall = (statistics.median(v) for v in zip(*ingest, strict=True))
    ref_cpu, ref_wall = (statistics.median(v) for v in zip(*parse, strict=True))
    print(f"{'pbem ingest < reply (a move played)':44} {cpu:8.0f} {wall:8.0f}")
    print(f"{'python parsing the same bytes (reference)':44} {ref_cpu:8.0f} {ref_wall:8.0f}")
    print(f"{'ratio':44} {cpu / ref_cpu:7.1f}x {wall / ref_wall:7.1f}x   "
          "(target: 150 ms, 3.75x the quiet reference)")


if __name__ == "__main__":
    main()
