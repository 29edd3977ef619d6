"""Benchmark: moves over HTTP under gunicorn (deploy/gunicorn.conf.py), beside a bare Flask view
under the same configuration.

Run: nice -n 10 python benchmarks/http_moves.py [--db postgresql://...] [--seconds 8]
     [--clients 1,2,4,8] [--workers N] [--no-worker]

pbem is served by `gunicorn -c deploy/gunicorn.conf.py pbem.wsgi:app` (the deploy settings;
`--workers` sets PBEM_WEB_WORKERS, default the config's own choice), on a fresh SQLite file or
a throwaway PostgreSQL schema, the rate limit counting in the deployed default store (the
database; moves in each worker's memory) but set too high to refuse anyone. Each client is a
process with a game of its own (four people playing by email): it POSTs the move of whoever
is to move to their private page (`/s/<token>/play` or `/pass`, with the page's turn and
CSRF token, as the page's form does), keeping the table itself between deals (no page GET
per move). The reference is `benchmarks/bare_flask.py`: the same POSTs answered 303 by an
empty view, under the same gunicorn configuration. For 1, 2, 4 and 8 clients it prints
moves/s and p50/p99 latency, both, the ratio, and the servers' CPU time per request
(gunicorn and its workers, `pbem worker` and its SMTP sink, read from /proc; not the
PostgreSQL server's): a ratio of CPU costs, which the neighbours' load changes less; and the
clients' own CPU a request, on the same 2 cores (a pbem client applies each move in the engine
to know the next one; a bare client only sends). Each level starts after 3 s of untimed
moves (each worker's first requests load templates and modules). The worker (`pbem worker`:
mail, deadlines) runs throughout, sending to an SMTP sink (aiosmtpd) of its own, so its CPU
is counted as in production.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scratch import bench_app, scratch_database  # noqa: E402
from sqlmodel import col, func, select  # noqa: E402

from pbem import service  # noqa: E402
from pbem.app import db_engine  # noqa: E402
from pbem.engine import (  # noqa: E402
    Command,
    GameState,
    PassCards,
    Phase,
    PlayCard,
    apply,
    asked,
    decide,
    forced_events,
    legal_cards,
)
from pbem.present.links import seat_link  # noqa: E402
from pbem.store.db import make_engine, transaction  # noqa: E402
from pbem.store.events import load_state  # noqa: E402
from pbem.store.models import OutboxEmail, Seat  # noqa: E402

PLAYERS = [service.Invitee(email=f"{name.lower()}@example.org", name=name, accepted=True)
           for name in ("Ann", "Bob", "Cy", "Dee")]
SECRET = "http-bench-secret"
WARM_UP = 3.0  # seconds of untimed moves before each level
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def environment(url: str, folder: str, smtp_port: int) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT), PBEM_DATABASE_URL=url,
                PBEM_SECRET_KEY=SECRET, PBEM_BASE_URL="http://pbem.test",
                PBEM_MAIL_DOMAIN="pbem.test", PBEM_INSTANCE_PATH=f"{folder}/instance",
                PBEM_RATELIMIT="1000000 per minute", PBEM_SMTP_HOST="127.0.0.1",
                PBEM_SMTP_PORT=str(smtp_port))


def start_worker(url: str, folder: str, smtp_port: int) -> list[subprocess.Popen[bytes]]:
    """An SMTP sink and `pbem worker` sending the outbox to it."""
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": str(ROOT)}
    sink = subprocess.Popen([sys.executable, "-m", "aiosmtpd", "-n", "-c",
                             "aiosmtpd.handlers.Sink", "-l", f"127.0.0.1:{smtp_port}"],
                            **quiet)  # type: ignore[call-overload]
    worker = subprocess.Popen([sys.executable, "-m", "pbem", "worker"],
                              env=environment(url, folder, smtp_port),
                              **quiet)  # type: ignore[call-overload]
    return [worker, sink]


def serve(app_path: str, url: str, port: int, workers: int | None,
          folder: str) -> subprocess.Popen[bytes]:
    env = dict(environment(url, folder, 0), PBEM_BIND=f"127.0.0.1:{port}")
    if workers:
        env["PBEM_WEB_WORKERS"] = str(workers)
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy/gunicorn.conf.py"), app_path],
        env=env, cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"gunicorn ({app_path}) did not answer")


TICK = os.sysconf("SC_CLK_TCK")
# A level's figures: requests/s, each request's time, each server's and the clients' CPU a
# request (seconds).
Level = tuple[float, list[float], list[float], float]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process, of its children that ended (gunicorn recycles
    its workers) and of its living children, from /proc."""
    total = 0.0
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += sum(int(n) for n in fields[11:15]) / TICK
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = [int(c) for c in f.read().split()]
    except OSError:
        return total
    return total + sum(cpu_seconds(child) for child in children)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


# --- games, made in this process ------------------------------------------------------------

def make_games(url: str, folder: str, count: int) -> list[tuple[int, list[str]]]:
    """`count` games of four, each with its four private seat tokens."""
    app = bench_app(url, folder, SECRET)
    games = []
    with app.app_context():
        engine = db_engine(app)
        for seed in range(count):
            ctx = service.Context(engine=engine, rng=service.make_rng(seed + 1))
            out = service.create_game(ctx, name="Bench", players=PLAYERS,
                                      options={"target": 100_000})
            with transaction(engine) as session:
                rows = session.exec(select(Seat).where(Seat.game_id == out.game_id)
                                    .order_by(col(Seat.seat_no))).all()
                tokens = [seat_link(session, out.game_id, s.seat_no, s.player_id or 0,
                                    secret=SECRET) for s in rows]
            games.append((out.game_id, tokens))
        engine.dispose()
    return games


# --- a client --------------------------------------------------------------------------------

class Client:
    """One player of all four seats of one game, posting moves to the private pages."""

    def __init__(self, url: str, port: int, game: int, tokens: list[str], bare: bool) -> None:
        self.port, self.game, self.tokens, self.bare = port, game, tokens, bare
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.engine = None if bare else make_engine(url)
        self.state: GameState | None = None
        self.cookie, self.csrf = "", "x"
        if not bare:
            self.reload()
            self.login()

    def reload(self) -> None:
        assert self.engine is not None
        with transaction(self.engine, read_only=True) as session:
            self.state = load_state(session, self.game).state

    def login(self) -> None:
        """The page once, for the session cookie and its CSRF token (the form's hidden field)."""
        self.conn.request("GET", f"/s/{self.tokens[0]}")
        response = self.conn.getresponse()
        body = response.read().decode()
        found = CSRF.search(body)
        assert found, body[:500]
        self.csrf = found.group(1)
        self.cookie = (response.getheader("Set-Cookie") or "").split(";")[0]

    def command(self) -> tuple[str, dict[str, Any], Command | None]:
        if self.bare:
            return f"/s/{self.tokens[0]}/play", {"card": "QS", "turn": "1"}, None
        state = self.state
        assert state is not None
        seat = state.to_move[0]
        turn = asked(state, seat).turn
        if state.phase is Phase.PASS:
            cards = tuple(state.hand(seat)[:state.rules.pass_count])
            return (f"/s/{self.tokens[seat]}/pass",
                    {"cards": [str(c) for c in cards], "turn": turn}, PassCards(seat, cards))
        card = legal_cards(state, seat)[-1]
        return (f"/s/{self.tokens[seat]}/play", {"card": str(card), "turn": turn},
                PlayCard(seat, card))

    def move(self) -> float:
        path, form, command = self.command()
        body = urlencode({**form, "csrf_token": self.csrf}, doseq=True)
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": self.cookie}
        start = time.perf_counter()
        response = self.post(path, body, headers)
        took = time.perf_counter() - start
        if response.status != 303:
            raise RuntimeError(f"{path}: {response.status}")
        if command is not None:
            self.follow(command)
        return took

    def post(self, path: str, body: str, headers: dict[str, str]) -> Any:
        """The POST, sent again once on a new connection when the server had closed the kept-
        alive one (gunicorn recycles a worker every ~2,000 requests; keepalive is 5 s), as
        browsers do. A move that did arrive is then answered "already done" (the turn)."""
        try:
            return self.send("POST", path, body, headers)
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            self.conn.close()
            return self.send("POST", path, body, headers)

    def send(self, method: str, path: str, body: str, headers: dict[str, str]) -> Any:
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        response.read()
        return response

    def follow(self, command: Command) -> None:
        """The table after the move, as the server made it (a deal: read it)."""
        state = self.state
        assert state is not None
        for event in decide(state, command, [p.name for p in PLAYERS]):
            state = apply(state, event)
        while forced := forced_events(state):
            for event in forced:
                state = apply(state, event)
        self.state = state
        if state.phase not in (Phase.PASS, Phase.PLAY) or not state.to_move:
            self.reload()


def client_loop(index: int, url: str, port: int, game: int, tokens: list[str], bare: bool,
                seconds: float, barrier: Any, results: Any, servers: list[int]) -> None:
    try:
        timed_moves(index, url, port, game, tokens, bare, seconds, barrier, results, servers)
    except BaseException as exc:
        barrier.abort()
        results.put((index, exc, [], 0.0))  # the benchmark stops, saying why, instead of waiting
        raise


def timed_moves(index: int, url: str, port: int, game: int, tokens: list[str], bare: bool,
                seconds: float, barrier: Any, results: Any, servers: list[int]) -> None:
    client = Client(url, port, game, tokens, bare)
    warm = time.perf_counter() + WARM_UP  # every gunicorn worker's first requests are slow
    while time.perf_counter() < warm:
        client.move()
    barrier.wait()
    cpu = [cpu_seconds(pid) for pid in servers] if index == 0 else []
    end, own = time.perf_counter() + seconds, time.process_time()
    times: list[float] = []
    while time.perf_counter() < end:
        times.append(client.move())
    results.put((index, times, cpu, time.process_time() - own))


def load(url: str, port: int, games: list[tuple[int, list[str]]], clients: int,
         bare: bool, seconds: float, servers: list[int]) -> Level:
    """(requests/s, each request's time, each of the `servers`' CPU seconds per request, the
    clients' own CPU seconds per request: they share the 2 cores with the servers)."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(clients)
    results = context.Queue()
    procs = [context.Process(target=client_loop, args=(i, url, port, *games[i], bare, seconds,
                                                        barrier, results, servers))
             for i in range(clients)]
    for proc in procs:
        proc.start()
    collected, cpu, clients_cpu = [], [], 0.0
    for _ in procs:
        index, times, before, own = results.get()
        clients_cpu += own
        if index == 0:  # client 0 read the CPU as the timed part began, sends it as it ends
            cpu = [cpu_seconds(pid) - b for pid, b in zip(servers, before, strict=False)]
        collected.append((index, times))
    failed = [times for _i, times in collected if isinstance(times, BaseException)]
    if failed:
        raise RuntimeError(f"a client failed: {failed[0]!r}")
    for proc in procs:
        proc.join()
    times = [t for _i, worker_times in collected for t in worker_times]
    count = max(1, len(times))
    return len(times) / seconds, times, [c / count for c in cpu], clients_cpu / count


def outbox_statuses(url: str) -> str:
    """How many emails the worker sent (and left), by status: it ran, and kept up."""
    engine = make_engine(url)
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(OutboxEmail.status, func.count())
                            .group_by(col(OutboxEmail.status))).all()
    engine.dispose()
    return ", ".join(f"{count} {status}" for status, count in sorted(rows))


def pct(times: list[float], p: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="", help="a PostgreSQL URL (default: SQLite file)")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--clients", default="1,2,4,8")
    parser.add_argument("--workers", type=int, default=0, help="PBEM_WEB_WORKERS")
    parser.add_argument("--no-worker", action="store_true",
                        help="without `pbem worker` (the outbox is left unsent)")
    args = parser.parse_args()
    levels = [int(n) for n in args.clients.split(",")]
    with scratch_database(args.db) as (url, folder):
        games = make_games(url, folder, max(levels))
        port = free_port()
        figures: dict[tuple[str, int], Level] = {}
        background = [] if args.no_worker else start_worker(url, folder, free_port())
        try:
            for name, app_path in (("bare", "benchmarks.bare_flask:app"),
                                   ("pbem", "pbem.wsgi:app")):
                server = serve(app_path, url, port, args.workers or None, folder)
                pids = [server.pid, *(p.pid for p in background)]
                try:
                    for clients in levels:
                        figures[name, clients] = load(url, port, games, clients,
                                                      name == "bare", args.seconds, pids)
                finally:
                    stop(server)
        finally:
            for proc in background:
                stop(proc)
        mail = outbox_statuses(url)
    worker = "no worker" if args.no_worker else "pbem worker running"
    print(f"{'postgresql' if args.db else 'sqlite'}: gunicorn -c deploy/gunicorn.conf.py, "
          f"{args.seconds:.0f} s a level, {worker} (outbox: {mail}); load "
          f"{os.getloadavg()[0]:.1f} at the end")
    for clients in levels:
        rate, times, cpus, own = figures["pbem", clients]
        bare_rate, bare_times, bare_cpus, bare_own = figures["bare", clients]
        cpu, bare_cpu = sum(cpus), sum(bare_cpus)
        print(f"  {clients} clients: {rate:7.1f} moves/s (p50 {pct(times, 0.5):6.1f} ms,"
              f" p99 {pct(times, 0.99):6.1f} ms, server CPU {cpu * 1000:5.2f} ms a move: web "
              f"{cpus[0] * 1000:.2f}, worker {sum(cpus[1:]) * 1000:.2f})"
              f"   bare Flask {bare_rate:7.1f} req/s (p50 {pct(bare_times, 0.5):5.1f} ms, "
              f"p99 {pct(bare_times, 0.99):5.1f} ms, CPU {bare_cpu * 1000:5.2f} ms)"
              f"   ratio {rate / bare_rate:.2f} (CPU {bare_cpu / cpu:.2f})"
              f"   clients' own CPU a request {own * 1000:.2f} / bare {bare_own * 1000:.2f} ms"
              f"   target >= 0.5, p99 <= 100 ms")


if __name__ == "__main__":
    main()
