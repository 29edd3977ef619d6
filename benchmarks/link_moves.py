"""Benchmark: a move as a player makes it from a turn email, beside the transactional floor.

Run: nice -n 10 python benchmarks/link_moves.py [--db postgresql+psycopg://...] [--games 24]
     [--seconds 40] [--rounds 4] [--fresh]

Each game is one person and three easy robots. pbem is served by gunicorn with
deploy/gunicorn.conf.py (2 web workers), `pbem worker` fans the mail jobs out and sends the
outbox to an SMTP server on loopback (benchmarks/smtp_keep.py, which keeps each message). The
player follows each turn email's one-time link as a person does: GET the confirmation page
(`/t/<token>`, or `/p/<token>` to pass), then POST its form (the page's CSRF token; to pass,
the first cards the form offers), on one kept-alive connection (--fresh: a new one each move,
as a browser opening the next email's link a while later: a game's moves then go through
either web worker). The robots answer in the same request; the next turn email
comes from the worker. Measured: the server CPU per link move (gunicorn's master and workers,
`pbem worker` with its fan-out and SMTP sends; read from /proc; not the PostgreSQL server's;
the SMTP server's, the relay's side of each send, printed apart) and the wall time of the GET
and the POST.

The reference is the transactional floor of any move: benchmarks/floor_flask.py, a minimal
Flask view under the same gunicorn configuration on the same database, whose GET looks one
row up by a token and whose POST looks it up, inserts one event row and commits: its server
CPU per GET + POST pair. The ratio is floor CPU / pbem CPU (target >= 0.3). Both are served
side by side and measured in alternate rounds (--rounds; the floor half as long each round),
so that a busy neighbour weighs on both alike: each round's ratio is printed, with their
median, beside the whole run's.

It also counts, in this process (the same app, the same database, Flask's test client), the
SQL statements and commits per link move: of the GET, of the POST, and of the worker's
fan-out of the move's mail job.
"""

from __future__ import annotations

import argparse
import email
import http.client
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from http_moves import cpu_seconds, environment, free_port, pct, serve, stop  # noqa: E402
from scratch import bench_app, scratch_database  # noqa: E402
from sqlalchemy import Column, Engine, Integer, MetaData, Pool, String, Table, event  # noqa: E402
from sqlmodel import col, select  # noqa: E402

from pbem import service  # noqa: E402
from pbem.app import db_engine  # noqa: E402
from pbem.mail.compose import MailSettings  # noqa: E402
from pbem.mail.jobs import fan_out_all  # noqa: E402
from pbem.present.tokens import insert_tokens, token_values  # noqa: E402
from pbem.store.db import make_engine, transaction  # noqa: E402
from pbem.store.models import OutboxEmail  # noqa: E402

SECRET = "link-bench-secret"
WORKERS = 2
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
LINK = re.compile(r"http://pbem\.test(/[tp]/[A-Za-z0-9_\-]+)")
PASS_CARD = re.compile(r'name="cards" value="([^"]+)"')
FLOOR_TOKENS = 200


def player(index: int) -> service.Invitee:
    return service.Invitee(email=f"p{index}@example.org", name=f"P{index}", accepted=True)


def make_games(url: str, folder: str, count: int) -> None:
    """`count` games of one person (seat 0) and three easy robots, started (dealt)."""
    app = bench_app(url, folder, SECRET)
    with app.app_context():
        engine = db_engine(app)
        for index in range(count):
            ctx = service.Context(engine=engine, rng=service.make_rng(index + 1))
            service.create_game(ctx, name=f"Bench {index}", players=[player(index)],
                                bot_seats={1, 2, 3}, robot_strength="easy",
                                options={"target": 100_000})
        engine.dispose()


def floor_tokens(url: str) -> list[str]:
    """Tokens for the floor's view to look up, and its event table."""
    engine = make_engine(url)
    table = Table("floor_event", MetaData(), Column("id", Integer, primary_key=True),
                  Column("token_id", Integer), Column("payload", String(200)))
    table.create(engine)
    raws, rows = [], []
    for _ in range(FLOOR_TOKENS):
        raw, row = token_values("card", card="QS")
        raws.append(raw)
        rows.append(row)
    with transaction(engine) as session:
        insert_tokens(session, rows)
    engine.dispose()
    return raws


# --- the player --------------------------------------------------------------------------

@dataclass
class Player:
    """The person of every game, reading the emails the SMTP server kept."""

    port: int
    inbox: Path
    seen: int = 0
    links: dict[str, str] = field(default_factory=dict)  # address -> its newest turn link
    cookie: str = ""

    def __post_init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def read_mail(self) -> None:
        while (self.inbox / f"{self.seen + 1}.eml").exists():
            self.seen += 1
            message = email.message_from_bytes((self.inbox / f"{self.seen}.eml").read_bytes())
            found = LINK.search(text_of(message))
            if found:
                self.links[str(message["To"])] = found.group(1)

    def next_link(self, wait: float = 30.0) -> str:
        deadline = time.perf_counter() + wait
        while time.perf_counter() < deadline:
            self.read_mail()
            if self.links:
                return self.links.pop(next(iter(self.links)))
            time.sleep(0.02)
        raise RuntimeError("no turn email came")

    def request(self, method: str, path: str, body: str = "",
                headers: dict[str, str] | None = None) -> tuple[int, str, float]:
        start = time.perf_counter()
        try:
            self.conn.request(method, path, body=body or None, headers=headers or {})
            response = self.conn.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            self.conn.close()  # gunicorn recycled the worker: as a browser, once more
            self.conn.request(method, path, body=body or None, headers=headers or {})
            response = self.conn.getresponse()
        text = response.read().decode()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        return response.status, text, time.perf_counter() - start

    def move(self, path: str, fresh: bool = False) -> tuple[float, float]:
        """GET the link's page, POST its form: the two requests' times. `fresh`: on a new
        connection, as a browser opening the next email's link a while later does."""
        if fresh:
            self.conn.close()
        status, page, got = self.request("GET", path, headers={"Cookie": self.cookie})
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
        return got, self.post(path, page)

    def post(self, path: str, page: str) -> float:
        found = CSRF.search(page)
        form: dict[str, Any] = {"csrf_token": found.group(1) if found else ""}
        if PASS_CARD.search(page):
            form["cards"] = PASS_CARD.findall(page)[:3]
        body = urlencode(form, doseq=True)
        status, text, took = self.request(
            "POST", path, body, {"Content-Type": "application/x-www-form-urlencoded",
                                 "Cookie": self.cookie})
        if status not in (200, 303):
            raise RuntimeError(f"POST {path}: {status} {text[:300]}")
        return took


def text_of(message: Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            return payload.decode() if isinstance(payload, bytes) else str(payload)
    return ""


@dataclass
class Figures:
    moves: int
    cpu: list[float]  # each server's CPU seconds a move
    gets: list[float]
    posts: list[float]
    seconds: float


def timed(step: Callable[[], tuple[float, float]], seconds: float,
          pids: list[int]) -> Figures:
    """`step` (a GET + POST, returning their times) over and over for `seconds`: the servers'
    CPU a step (each of `pids`, with its children) and each step's times."""
    before = [cpu_seconds(pid) for pid in pids]
    start = time.perf_counter()
    gets, posts = [], []
    while time.perf_counter() < start + seconds:
        got, posted = step()
        gets.append(got)
        posts.append(posted)
    took = time.perf_counter() - start
    count = max(1, len(gets))
    cpu = [(cpu_seconds(pid) - b) / count for pid, b in zip(pids, before, strict=True)]
    return Figures(len(gets), cpu, gets, posts, took)


def merged(rounds: list[Figures]) -> Figures:
    """Several rounds' figures as one run's (CPU a move weighted by each round's moves)."""
    moves = sum(r.moves for r in rounds)
    cpu = [sum(r.cpu[n] * r.moves for r in rounds) / max(1, moves)
           for n in range(len(rounds[0].cpu))]
    return Figures(moves, cpu, [g for r in rounds for g in r.gets],
                   [p for r in rounds for p in r.posts], sum(r.seconds for r in rounds))


class FloorClient:
    """The floor's GET + POST pairs, each on the next of `tokens`."""

    def __init__(self, port: int, tokens: list[str]) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.tokens, self.count = tokens, 0

    def pair(self, fresh: bool = False) -> tuple[float, float]:
        path = f"/t/{self.tokens[self.count % len(self.tokens)]}"
        self.count += 1
        if fresh:
            self.conn.close()
        start = time.perf_counter()
        self.request("GET", path)
        middle = time.perf_counter()
        self.request("POST", path, "csrf_token=x")
        return middle - start, time.perf_counter() - middle

    def request(self, method: str, path: str, body: str = "") -> None:
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if body else {}
        try:
            self.conn.request(method, path, body=body or None, headers=headers)
            self.conn.getresponse().read()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            self.conn.close()  # idle through pbem's round: gunicorn closed it (keep-alive)
            self.conn.request(method, path, body=body or None, headers=headers)
            self.conn.getresponse().read()


def warm(step: Callable[[], object], seconds: float) -> None:
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        step()


# --- statements and commits, counted in this process -------------------------------------

@dataclass
class Counter:
    statements: int = 0
    commits: int = 0


_COUNTING: list[Counter] = []  # the counter a `counting` block adds to


_LAST_TRACED = [""]  # the statement SQLite's trace callback reported last


def _traced(sql: str) -> None:
    """SQLite's trace callback reports a statement again for each step of a trigger it fires
    (pbem.store.triggers), with the same text: those are not statements the code sent."""
    if sql != _LAST_TRACED[0]:
        _statement(sql)
    _LAST_TRACED[0] = sql


def _statement(sql: str) -> None:
    if _COUNTING and sql.split(None, 1)[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK"):
        _COUNTING[-1].statements += 1


def _count_driver(dbapi_connection: Any, _record: Any) -> None:
    """Count every statement the driver runs (pbem runs many straight through the driver,
    past SQLAlchemy's events): SQLite's trace callback, psycopg's cursors."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.set_trace_callback(_traced)
        return
    base = dbapi_connection.cursor_factory

    class Counting(base):  # type: ignore[misc, valid-type]
        def execute(self, query: Any, *args: Any, **kwargs: Any) -> Any:
            _statement(str(query) if isinstance(query, str) else "SELECT")
            return super().execute(query, *args, **kwargs)

        def executemany(self, query: Any, params: Any, *args: Any, **kwargs: Any) -> Any:
            for _ in range(len(params) if isinstance(params, list) else 1):
                _statement("INSERT")
            return super().executemany(query, params, *args, **kwargs)

    dbapi_connection.cursor_factory = Counting


def _commit(*_args: Any) -> None:
    if _COUNTING:
        _COUNTING[-1].commits += 1


event.listen(Pool, "connect", _count_driver)
event.listen(Engine, "commit", _commit)


@contextmanager
def counting() -> Iterator[Counter]:
    """Count what this process's own requests run meanwhile (statements, commits)."""
    counter = Counter()
    _COUNTING.append(counter)
    try:
        yield counter
    finally:
        _COUNTING.remove(counter)


def count_statements(url: str, folder: str, moves: int = 12) -> dict[str, tuple[float, float]]:
    """Statements and commits a link move's GET, POST and fan-out cost (average of `moves`),
    in this process: Flask's test client, the worker's fan-out function."""
    app = bench_app(url, folder, SECRET)
    app.config["WTF_CSRF_ENABLED"] = True
    totals = {"GET": Counter(), "POST": Counter(), "fan-out": Counter()}
    with app.app_context():
        engine = db_engine(app)
        settings = MailSettings.from_config(app.config)
        ctx = service.Context(engine=engine, rng=service.make_rng(99))
        game = service.create_game(ctx, name="Counted", players=[player(999)],
                                   bot_seats={1, 2, 3}, robot_strength="easy",
                                   options={"target": 100_000}).game_id
        fan_out_all(engine, settings=settings)
        client = app.test_client()
        for _ in range(moves):
            path = newest_link(engine, game)
            with counting() as counted:
                page = client.get(path).get_data(as_text=True)
            _add(totals["GET"], counted)
            form: dict[str, Any] = {"csrf_token": CSRF.search(page).group(1)}  # type: ignore[union-attr]
            if PASS_CARD.search(page):
                form["cards"] = PASS_CARD.findall(page)[:3]
            with counting() as counted:
                answer = client.post(path, data=form)
            if answer.status_code != 200:
                raise RuntimeError(f"POST {path}: {answer.status_code}")
            _add(totals["POST"], counted)
            with counting() as counted:
                fan_out_all(engine, settings=settings)
            _add(totals["fan-out"], counted)
        engine.dispose()
    return {name: (c.statements / moves, c.commits / moves) for name, c in totals.items()}


def _add(total: Counter, counted: Counter) -> None:
    total.statements += counted.statements
    total.commits += counted.commits


def newest_link(engine: Engine, game: int) -> str:
    with transaction(engine, read_only=True) as session:
        body = session.exec(select(OutboxEmail.body_text).where(
            OutboxEmail.game_id == game, OutboxEmail.kind != "summary")
            .order_by(col(OutboxEmail.id).desc())).first()
    found = LINK.search(body or "")
    if found is None:
        raise RuntimeError(f"no link in the newest email: {body!r}")
    return found.group(1)


# --- the run -------------------------------------------------------------------------------

def start_background(url: str, folder: str) -> tuple[list[subprocess.Popen[bytes]], Path]:
    inbox, smtp_port = Path(folder) / "inbox", free_port()
    quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL,
                             "cwd": str(ROOT)}
    keeper = subprocess.Popen([sys.executable, str(ROOT / "benchmarks/smtp_keep.py"),
                               str(smtp_port), str(inbox)], **quiet)
    worker = subprocess.Popen([sys.executable, "-m", "pbem", "worker"],
                              env=environment(url, folder, smtp_port), **quiet)
    return [worker, keeper], inbox


@dataclass
class Run:
    pbem: Figures
    floor: Figures
    ratios: list[float]  # each round's floor CPU a pair / pbem's CPU a link move
    fresh: bool = False  # each move on a new connection


def measure(args: argparse.Namespace, url: str, folder: str) -> Run:
    """pbem and the floor served side by side, measured in alternate rounds (a busy
    neighbour then weighs on both alike), each round's ratio kept."""
    tokens = floor_tokens(url)
    make_games(url, folder, args.games)
    port, floor_port = free_port(), free_port()
    background, inbox = start_background(url, folder)
    servers: list[subprocess.Popen[bytes]] = []
    try:
        servers.append(serve("pbem.wsgi:app", url, port, WORKERS, folder))
        servers.append(serve("benchmarks.floor_flask:app", url, floor_port, WORKERS, folder))
        person, floor_client = Player(port, inbox), FloorClient(floor_port, tokens)
        link_move = lambda: person.move(person.next_link(), args.fresh)  # noqa: E731
        floor_pair = lambda: floor_client.pair(args.fresh)  # noqa: E731
        warm(link_move, args.warm)
        warm(floor_pair, args.warm / 2)
        pids = [servers[0].pid, *(p.pid for p in background)]
        ours, theirs = [], []
        for _ in range(args.rounds):
            ours.append(timed(link_move, args.seconds / args.rounds, pids))
            theirs.append(timed(floor_pair, args.seconds / 2 / args.rounds, [servers[1].pid]))
    finally:
        for proc in [*servers, *background]:
            stop(proc)
    ratios = [sum(f.cpu) / (o.cpu[0] + o.cpu[1]) for o, f in zip(ours, theirs, strict=True)]
    return Run(merged(ours), merged(theirs), ratios, args.fresh)


def report(name: str, run: Run, counts: dict[str, tuple[float, float]]) -> None:
    pbem, bare = run.pbem, run.floor
    web, worker, smtp = (seconds * 1000 for seconds in pbem.cpu)
    cpu, floor_cpu = web + worker, sum(bare.cpu) * 1000
    pair = [g + p for g, p in zip(pbem.gets, pbem.posts, strict=True)]
    floor_pair = [g + p for g, p in zip(bare.gets, bare.posts, strict=True)]
    print(f"{name}: {pbem.moves} link moves in {pbem.seconds:.0f} s; floor {bare.moves} "
          f"GET+POST pairs; load {os.getloadavg()[0]:.1f} at the end"
          f"{'; a new connection each move' if run.fresh else ''}")
    print(f"  server CPU a link move  {cpu:7.2f} ms (web {web:.2f}, worker {worker:.2f})"
          f"   floor {floor_cpu:5.2f} ms a pair   ratio {floor_cpu / cpu:.3f} (target >= 0.3)")
    print(f"  each round's ratio       median {statistics.median(run.ratios):.3f}  "
          + " ".join(f"{ratio:.3f}" for ratio in run.ratios)
          + f"   ({len(run.ratios)} rounds, pbem and the floor alternated)")
    print(f"  + the SMTP server's     {smtp:7.2f} ms (the relay's side, not pbem's)"
          f"   ratio with it {floor_cpu / (cpu + smtp):.3f}")
    for label, ours, theirs in (("GET", pbem.gets, bare.gets), ("POST", pbem.posts, bare.posts),
                                ("GET+POST", pair, floor_pair)):
        print(f"  wall {label:8} p50 {pct(ours, 0.5):6.2f} ms p99 {pct(ours, 0.99):6.2f} ms"
              f"   floor p50 {pct(theirs, 0.5):5.2f} ms p99 {pct(theirs, 0.99):5.2f} ms"
              f"   ratio (p50) {pct(theirs, 0.5) / pct(ours, 0.5):.3f}")
    for label, (statements, commits) in counts.items():
        print(f"  {label:8} {statements:5.1f} SQL statements, {commits:4.1f} commits a move"
              f"   floor: {'1 and 0' if label == 'GET' else '2 and 1' if label == 'POST' else '-'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="", help="a PostgreSQL URL (default: SQLite file)")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--warm", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=4,
                        help="pbem and the floor alternate this many times")
    parser.add_argument("--fresh", action="store_true",
                        help="each move (and each floor pair) on a new connection, as a "
                             "person clicking the next email's link: the moves of a game "
                             "then go through either web worker")
    args = parser.parse_args()
    with scratch_database(args.db) as (url, folder):
        counts = count_statements(url, folder)
    with scratch_database(args.db) as (url, folder):
        run = measure(args, url, folder)
    report("postgresql" if args.db else "sqlite", run, counts)


if __name__ == "__main__":
    main()
