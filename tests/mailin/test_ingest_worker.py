"""`pbem ingest` stores, `pbem worker` plays: both real processes, as a deployment runs them
(the MTA starts `pbem ingest` per message; the worker polls the stored mail every second)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from flask import Flask
from sqlmodel import select

from pbem.app import db_engine
from pbem.engine import CardPlayed
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.store.models import InboundMail
from tests.mailin.support import latest_token, legal, reply, to_play, two_human_game
from tests.security.support import pbem_env


def test_a_running_worker_plays_what_pbem_ingest_stored_once(
        make_app: Callable[..., Flask], db_url: str, tmp_path: Path) -> None:
    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    raw = reply(latest_token(engine, me, "turn"), str(legal(state, seat)), sender=me)
    env = pbem_env(db_url, tmp_path, PBEM_SMTP_PORT="9")  # nothing listens: mail waits
    worker = subprocess.Popen([sys.executable, "-m", "pbem", "worker"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(2):  # the MTA delivers it twice: stored once, played once
            done = subprocess.run([sys.executable, "-m", "pbem", "ingest"], input=raw,
                                  capture_output=True, env=env, timeout=120)
            assert done.returncode == 0, done.stderr.decode()
        status = _wait_for_status(app, lambda s: s != "pending")
    finally:
        worker.send_signal(signal.SIGTERM)
        _, err = worker.communicate(timeout=120)
    assert status == "processed", err.decode()[-2000:]
    with transaction(engine, read_only=True) as session:
        assert len(session.exec(select(InboundMail)).all()) == 1
        events = load_events(session, game)
    assert events.count(CardPlayed(seat, legal(state, seat))) == 1


def _wait_for_status(app: Flask, done: Callable[[str], bool], limit: float = 90.0) -> str:
    """The stored message's status once `done` holds (waiting at most `limit` seconds: the
    worker polls every second; a loaded machine may take longer to start it)."""
    deadline = time.monotonic() + limit
    status = "none"
    while time.monotonic() < deadline:
        with transaction(db_engine(app), read_only=True) as session:
            row = session.exec(select(InboundMail)).first()
        status = row.status if row is not None else "none"
        if row is not None and done(status):
            return status
        time.sleep(0.2)
    return status
