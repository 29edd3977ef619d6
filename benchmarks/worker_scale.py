"""Do several `pbem worker` processes add up? (issue 32)

Run: python benchmarks/worker_scale.py --db POSTGRES_URL [--games 200] [--seconds 60]
        [--workers 1,2]

For each worker count, on a fresh PostgreSQL schema: an SMTP server on loopback (in this
process) takes the worker's emails; `--games` games of one person and three strong robots are
started at once (the robots' first passes are the workers': production leaves strong robots'
moves to them); each person moves as soon as their turn email arrives, by its one-time link
(GET the confirmation page, POST its form: a pass picks the first cards offered, a card email
its first card), through the app in this process (the page's own code path, without
gunicorn: this process's CPU is printed apart and is not the workers').

Printed per worker count, then each figure beside the one-worker run's as a ratio:
- first turn emails: seconds from the games' start until every person had theirs (the
  robots' first passes of all the games, then the fan-out and the send), median and last;
- robot moves a second over `--seconds` once those are out, and the workers' CPU (user +
  system, from /proc) per robot move;
- plans thrown away (a lost compare-and-set: each worker says its count when it stops), and
  emails received twice (the same recipient, subject and text): both must be 0.
"""

from __future__ import annotations

import argparse
import email
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from aiosmtpd.controller import Controller  # noqa: E402
from http_moves import cpu_seconds, environment, free_port, stop  # noqa: E402
from scratch import bench_app  # noqa: E402
from sqlalchemy import func, select  # noqa: E402

from pbem import service  # noqa: E402
from pbem.app import db_engine  # noqa: E402
from pbem.scheduler.processes import processes  # noqa: E402
from pbem.store.db import transaction  # noqa: E402
from pbem.store.migrate import upgrade  # noqa: E402
from pbem.store.models import Event  # noqa: E402
from pbem.store.testing import create_pg_schema, drop_pg_schema  # noqa: E402

LINK = re.compile(r"http://pbem\.test(/t/[A-Za-z0-9_\-]+)")
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
CARD_BOX = re.compile(r'name="cards" value="([0-9TJQKA][CDHS])"')
PICK = re.compile(r"Pick (\d+) cards")
DISCARDED = re.compile(r"(\d+) plans discarded")


@dataclass
class Inbox:
    """The SMTP server's handler: every message, and a queue of those for the people."""

    messages: list[tuple[float, str, str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    arrived: threading.Condition = field(default_factory=threading.Condition)
    waiting: list[tuple[str, str]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content)
        text = _text(message)
        for to in envelope.rcpt_tos:
            with self.lock:
                self.messages.append((time.monotonic(), to, str(message["Subject"]), text))
            with self.arrived:
                self.waiting.append((to, text))
                self.arrived.notify()
        return "250 OK"

    def first_arrivals(self, people: set[str]) -> dict[str, float]:
        with self.lock:
            found: dict[str, float] = {}
            for at, to, _subject, _text in self.messages:
                if to in people and to not in found:
                    found[to] = at
        return found

    def duplicates(self) -> int:
        with self.lock:
            counts = Counter((to, subject, text) for _at, to, subject, text in self.messages)
        return sum(n - 1 for n in counts.values() if n > 1)


def _text(message: Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            return payload.decode(part.get_content_charset() or "utf-8", "replace") \
                if isinstance(payload, bytes) else ""
    return ""


class People:
    """The people: each email with a one-time link is followed (GET, then POST the form)."""

    def __init__(self, inbox: Inbox, app: Any, threads: int = 2) -> None:
        self.inbox, self.app, self.moves = inbox, app, 0
        self.stopping = threading.Event()
        self.pool = ThreadPoolExecutor(threads)
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while not self.stopping.is_set():
            with self.inbox.arrived:
                self.inbox.arrived.wait(0.2)
                batch, self.inbox.waiting[:] = list(self.inbox.waiting), []
            for _to, text in batch:
                link = LINK.search(text)
                if link:
                    self.pool.submit(self._follow, link.group(1))

    def _follow(self, path: str) -> None:
        if self.stopping.is_set():
            return
        client = self.app.test_client()
        page = client.get(path).get_data(as_text=True)
        csrf = CSRF.search(page)
        if csrf is None:
            return  # out of date (the game moved on): nothing to do
        form: dict[str, Any] = {"csrf_token": csrf.group(1)}
        pick = PICK.search(page)
        if pick:
            form["cards"] = CARD_BOX.findall(page)[:int(pick.group(1))]
        if client.post(path, data=form).status_code < 400:
            self.moves += 1

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join()
        self.pool.shutdown(wait=True, cancel_futures=True)


@dataclass
class Run:
    workers: int
    first_p50: float
    first_last: float
    robot_moves_per_s: float
    cpu_per_robot_move_ms: float
    plans_discarded: int
    duplicates: int
    people_moves: int
    people_cpu_s: float


def robot_moves(engine: Any) -> int:
    with transaction(engine, read_only=True) as session:
        return int(session.execute(select(func.count()).select_from(Event).where(
            Event.actor == "robot")).scalar() or 0)


def start_workers(count: int, url: str, folder: str, smtp_port: int) -> list[Any]:
    env = environment(url, folder, smtp_port)
    return [subprocess.Popen([sys.executable, "-m", "pbem", "worker"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for _ in range(count)]


def wait_for_workers(engine: Any, count: int) -> None:
    deadline = time.monotonic() + 120
    while len(processes(engine)) < count:
        if time.monotonic() > deadline:
            raise RuntimeError("the workers did not start")
        time.sleep(0.2)


def start_games(engine: Any, games: int) -> set[str]:
    ctx = service.Context(engine=engine, robots_now=False, mail_now=False)
    people = set()
    for n in range(games):
        person = f"p{n}@example.org"
        service.create_game(ctx, name=f"Scale {n}", players=[
            service.Invitee(person, f"P{n}", accepted=True)], bot_seats=(1, 2, 3))
        people.add(person)
    return people


def one_run(pg_url: str, workers: int, games: int, seconds: float) -> Run:
    schema, url = create_pg_schema(pg_url, "pbem_scale")
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            upgrade(url)
            app = bench_app(url, folder, "bench-secret")
            app.config["RATELIMIT_ENABLED"] = False
            engine = db_engine(app)
            procs = start_workers(workers, url, folder, port)
            try:
                wait_for_workers(engine, workers)
                return measure(app, engine, inbox, procs, workers, games, seconds)
            finally:
                for proc in procs:
                    stop(proc)
    finally:
        controller.stop()
        drop_pg_schema(pg_url, schema)


def measure(app: Any, engine: Any, inbox: Inbox, procs: list[Any], workers: int, games: int,
            seconds: float) -> Run:
    people_cpu = time.process_time()
    started = time.monotonic()
    with app.app_context():
        people_set = start_games(engine, games)
    created = time.monotonic()
    crowd = People(inbox, app)
    while len(inbox.first_arrivals(people_set)) < len(people_set):
        if time.monotonic() - created > 1800:
            raise RuntimeError("first emails never all arrived")
        time.sleep(0.2)
    firsts = sorted(at - started for at in inbox.first_arrivals(people_set).values())
    moves0, cpu0, t0 = robot_moves(engine), _cpu(procs), time.monotonic()
    time.sleep(seconds)
    moves1, cpu1, t1 = robot_moves(engine), _cpu(procs), time.monotonic()
    crowd.stop()
    discarded = _discarded(procs)
    done = moves1 - moves0
    return Run(workers, statistics.median(firsts), firsts[-1], done / (t1 - t0),
               1000 * (cpu1 - cpu0) / max(done, 1), discarded, inbox.duplicates(),
               crowd.moves, time.process_time() - people_cpu)


def _cpu(procs: list[Any]) -> float:
    return sum(cpu_seconds(proc.pid) for proc in procs)


def _discarded(procs: list[Any]) -> int:
    total = 0
    for proc in procs:
        stop(proc)
        said = DISCARDED.findall(proc.stderr.read() if proc.stderr else "")
        total += int(said[-1]) if said else 0
    return total


def report(runs: list[Run]) -> None:
    base = runs[0]
    print(f"{'workers':>7} {'first email p50 / last (s)':>27} {'robot moves/s':>14} "
          f"{'x 1 worker':>10} {'CPU/robot move':>15} {'discarded':>9} {'dup emails':>10} "
          f"{'people moves':>12}")
    for run in runs:
        ratio = run.robot_moves_per_s / base.robot_moves_per_s
        print(f"{run.workers:>7} {run.first_p50:>12.1f} / {run.first_last:>8.1f}   "
              f"{run.robot_moves_per_s:>14.2f} {ratio:>9.2f}x"
              f" {run.cpu_per_robot_move_ms:>12.0f} ms {run.plans_discarded:>9} "
              f"{run.duplicates:>10} {run.people_moves:>12}")
    for run in runs[1:]:
        ratio = run.robot_moves_per_s / base.robot_moves_per_s
        print(f"{run.workers} workers: robot moves/s {ratio:.2f}x"
              f" of 1 worker; first emails all out in {run.first_last:.1f} s vs "
              f"{base.first_last:.1f} s ({base.first_last / run.first_last:.2f}x sooner); CPU "
              f"per robot move {run.cpu_per_robot_move_ms / base.cpu_per_robot_move_ms:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", required=True, help="PostgreSQL URL (a schema is made in it)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", default="1,2")
    args = parser.parse_args()
    runs = []
    for count in [int(n) for n in args.workers.split(",")]:
        runs.append(one_run(args.db, count, args.games, args.seconds))
        print(f"  ({count} worker(s) done: {runs[-1]})", flush=True)
    report(runs)


if __name__ == "__main__":
    main()
