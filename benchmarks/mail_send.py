"""Benchmark: emails per second from the outbox to a local aiosmtpd server (one sender).

Run: python benchmarks/mail_send.py [--n 1000] [--batch 100] [--runs 3] [--db URL]
                                     [--in-process]
Default database: a fresh SQLite file in a temporary folder; with --db a PostgreSQL URL, a
throwaway schema. Each email is a rendered turn email (text + html); the figure includes
claiming, composing and checking the bytes, SMTP and marking each row sent. The SMTP server
(aiosmtpd) runs in its own process, as a real one would; --in-process runs it in a thread of the
sender. Each run queues n fresh emails and drains them; the median run is the figure.
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
            SQLModel.metadata.create_all(engine)
            yield engine
            engine.dispose()
        return
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = make_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine = make_engine(url, connect_args={"options": f"-csearch_path={schema}"})
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", default=None)
    parser.add_argument("--in-process", action="store_true")
    args = parser.parse_args()
    with database(args.db) as engine, smtp_server(args.in_process) as smtp:
        rates = [run_once(engine, smtp, args.n, args.batch, run) for run in range(args.runs)]
    where = "same process" if args.in_process else "own process"
    print(f"outbox -> aiosmtpd on loopback ({where}), {engine.dialect.name}, n={args.n}, "
          f"batch={args.batch}, runs={args.runs}")
    median = statistics.median(rates)
    print(f"  {median:.0f} emails/s median ({1000 / median:.2f} ms per email; runs: "
          f"{', '.join(f'{r:.0f}' for r in rates)}; target: at least 200/s)")


if __name__ == "__main__":
    main()
