"""Benchmark: emails per second from the outbox to a local aiosmtpd server (one sender).

Run: python benchmarks/mail_send.py [--n 1000] [--batch 100] [--runs 3] [--db URL]
                                     [--in-process] [--moves 300]
Default database: a fresh SQLite file in a temporary folder; with --db a PostgreSQL URL, a
throwaway schema. Each email is a rendered turn email (text + html); the figure includes
claiming, composing and checking the bytes, SMTP and marking each row sent. The SMTP server
(aiosmtpd) runs in its own process, as a real one would; --in-process runs it in a thread of the
sender. Each run queues n fresh emails and drains them; the median run is the figure.

Then the same with the fan-out: `--moves` moves of a 4-player email game each leave a mail
job (as in production: the move writes the job, the worker works its emails out), fanned
out after each move (a worker keeping up); the figure is the emails sent per second of
fanning the jobs out (states rebuilt, emails rendered, tokens, outbox rows) plus sending
them, as the worker does both (the moves themselves are not counted); wall-clock, and by
the sender's CPU time (a busy machine's wall-clock is mostly waiting for a core; the SMTP
server's own CPU is not counted).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import Engine, text  # noqa: E402
from sqlmodel import SQLModel  # noqa: E402

from pbem.mail.compose import MailSettings, build_headers  # noqa: E402
from pbem.mail.outbox import SmtpSettings, drain_all, enqueue  # noqa: E402
from pbem.mail.render import Renderer  # noqa: E402
from pbem.store.db import make_engine, transaction  # noqa: E402
from pbem.store.models import Player  # noqa: E402
from tests.mail.mailtest_support import SmtpServer, free_port  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mail_render import turn_context  # noqa: E402
from scratch import bench_app, scratch_database  # noqa: E402

from pbem import service  # noqa: E402
from pbem.app import db_engine, wire_mail  # noqa: E402
from pbem.engine import GameState, PassCards, Phase, PlayCard, legal_cards  # noqa: E402
from pbem.mail.compose import MailSettings as Settings  # noqa: E402
from pbem.mail.jobs import fan_out_pending  # noqa: E402

PLAYERS = [service.Invitee(email=f"{name.lower()}@example.org", name=name, accepted=True)
           for name in ("Ann", "Bob", "Cy", "Dee")]


def fill(engine: Engine, n: int, run: int = 0) -> None:
    """Queue n rendered turn emails to a new player (one per run)."""
    settings = MailSettings(domain="hearts.test", base_url="https://hearts.test")
    rendered = Renderer().render("turn", **turn_context())
    to_addr = f"ann{run}@example.org"
    with transaction(engine) as session:
        player = Player(email=to_addr, name="Ann")
        session.add(player)
        session.flush()
        for i in range(n):
            headers = build_headers(settings, kind="turn", to_name="Ann", to_addr=to_addr,
                                    game_id=None, player_id=player.id,
                                    reply_token=f"tok{run}x{i}", unsubscribe_token=f"u{i}")
            enqueue(session, kind="turn", to_addr=to_addr, subject="Hearts: Friday",
                    body_text=rendered.text, body_html=rendered.html, headers=headers,
                    player_id=player.id)


@contextmanager
def database(url: str | None) -> Iterator[Engine]:
    if url is None:
        with tempfile.TemporaryDirectory() as folder:
            engine = make_engine(f"sqlite:///{folder}/bench.sqlite3")
            wire_mail(engine)  # the service tells by email, as in the app
            SQLModel.metadata.create_all(engine)
            yield engine
            engine.dispose()
        return
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = make_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine = make_engine(url, connect_args={"options": f"-csearch_path={schema}"})
    wire_mail(engine)  # the service tells by email, as in the app
    try:
        SQLModel.metadata.create_all(engine)
        yield engine
    finally:
        engine.dispose()
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))


@contextmanager
def smtp_server(in_process: bool) -> Iterator[SmtpSettings]:
    port = free_port()
    if in_process:
        server = SmtpServer(port)
        server.start()
        try:
            yield server.settings
        finally:
            server.stop()
        return
    proc = subprocess.Popen([sys.executable, "-m", "aiosmtpd", "-n", "-c",
                             "aiosmtpd.handlers.Sink", "-l", f"127.0.0.1:{port}"])
    try:
        _wait_for_port(port)
        yield SmtpSettings(host="127.0.0.1", port=port, envelope_from="bounces@hearts.test")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _wait_for_port(port: int) -> None:
    import socket

    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the SMTP server did not start")


def run_once(engine: Engine, smtp: SmtpSettings, n: int, batch: int, run: int) -> float:
    """Queue n emails, drain them; emails per second."""
    fill(engine, n, run)
    start = time.perf_counter()
    result = drain_all(engine, smtp, batch=batch, worker_id="bench")
    elapsed = time.perf_counter() - start
    # smtplib raises unless the server answered 250 to each message.
    assert len(result.sent) == n, "not everything was accepted"
    return n / elapsed


def next_command(state: GameState) -> PlayCard | PassCards:
    seat = state.to_move[0]
    if state.phase is Phase.PASS:
        return PassCards(seat, tuple(state.hand(seat)[:3]))
    return PlayCard(seat, legal_cards(state, seat)[-1])


def play_and_fan_out(engine: Engine, settings: Settings, moves: int,
                     seed: int) -> tuple[float, float]:
    """`moves` moves, each job fanned out right after its move; the seconds fanning out,
    wall-clock and this thread's CPU time."""
    ctx = service.Context(engine=engine, rng=service.make_rng(seed), mail_now=False)
    out = service.create_game(ctx, name="Bench", players=PLAYERS, options={"target": 100_000})
    state = out.state
    fanning = fanning_cpu = 0.0
    for n in range(moves + 1):
        start, cpu = time.perf_counter(), time.thread_time()
        fan_out_pending(engine, settings=settings)
        fanning += time.perf_counter() - start
        fanning_cpu += time.thread_time() - cpu
        if n < moves:
            assert state is not None
            state = service.move(ctx, out.game_id, next_command(state)).state
    return fanning, fanning_cpu


def fan_out_and_send(pg_url: str, smtp: SmtpSettings, moves: int, batch: int,
                     run: int) -> tuple[float, float, int]:
    """Emails per second of fanning out `moves` moves' jobs and sending what they queued:
    wall-clock, and by the sender's CPU time (this thread's; the SMTP server's not counted)."""
    with scratch_database(pg_url) as (url, folder):
        app = bench_app(url, folder)
        engine = db_engine(app)
        with app.app_context():
            fanning, fanning_cpu = play_and_fan_out(engine, Settings.from_config(app.config),
                                                    moves, run)
            start, cpu = time.perf_counter(), time.thread_time()
            sent = len(drain_all(engine, smtp, batch=batch, worker_id="bench").sent)
            sending, sending_cpu = time.perf_counter() - start, time.thread_time() - cpu
        engine.dispose()
    each = 1000 / max(sent, 1)
    print(f"  run {run}: fanning out {fanning * 1000 / moves:.2f} ms a job "
          f"({fanning_cpu * 1000 / moves:.2f} ms CPU), sending {sending * each:.2f} ms an "
          f"email ({sending_cpu * each:.2f} ms CPU)")
    return sent / (fanning + sending), sent / (fanning_cpu + sending_cpu), sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", default=None)
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--moves", type=int, default=300,
                        help="moves whose mail jobs are fanned out and sent (0: skip)")
    args = parser.parse_args()
    with database(args.db) as engine, smtp_server(args.in_process) as smtp:
        rates = [run_once(engine, smtp, args.n, args.batch, run) for run in range(args.runs)]
    where = "same process" if args.in_process else "own process"
    print(f"outbox -> aiosmtpd on loopback ({where}), {engine.dialect.name}, n={args.n}, "
          f"batch={args.batch}, runs={args.runs}")
    median = statistics.median(rates)
    print(f"  {median:.0f} emails/s median ({1000 / median:.2f} ms per email; runs: "
          f"{', '.join(f'{r:.0f}' for r in rates)}; target: at least 200/s)")
    if args.moves <= 0:
        return
    with smtp_server(args.in_process) as smtp:
        both = [fan_out_and_send(args.db or "", smtp, args.moves, args.batch, run)
                for run in range(args.runs)]
    for label, rates in (("wall-clock", [wall for wall, _cpu, _sent in both]),
                         ("by the sender's CPU time", [cpu for _wall, cpu, _sent in both])):
        median = statistics.median(rates)
        print(f"  with the fan-out, {label}: {args.moves} moves' mail jobs fanned out and their "
              f"{both[0][2]} emails sent: {median:.0f} emails/s median ({1000 / median:.2f} ms "
              f"per email; runs: {', '.join(f'{r:.0f}' for r in rates)}; target: at least "
              "200/s)")


if __name__ == "__main__":
    main()
