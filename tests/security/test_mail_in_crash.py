"""Issue 13.3: a crash during mail in must not lose the move.

Each way in is a real process, killed (SIGKILL, through the PBEM_TEST_CRASH_AT hook) at the bad
moment: `pbem ingest` (which only spools; the worker stores and plays what it spooled) before
or after delivering the message into the spool; a process taking the spool in, between
storing a message and removing its file; a process working through the stored mail after
claiming a message (one the webhook stored, too); the SMTP receiver just after its 250. The
MTA's (or the mail provider's) redelivery of the same message is stored once, the worker's job
plays it once, and a dead process's claim is taken over once it runs out, with no operator."""

from __future__ import annotations

import smtplib
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

from flask import Flask
from sqlalchemy import update
from sqlmodel import select

from pbem.app import db_engine
from pbem.engine import CardPlayed
from pbem.scheduler.worker import finish_inbound_mail, play_new_inbound_mail
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.store.models import InboundMail
from pbem.store.types import utcnow
from tests.mail.mailtest_support import free_port
from tests.mailin.support import WEBHOOK_SECRET, a_card_reply, post_to_webhook
from tests.security.support import pbem_env, pbem_process


def _a_reply(app: Flask) -> tuple[int, CardPlayed, bytes, str]:
    """A game waiting for a human's card, and their reply playing a legal one."""
    return a_card_reply(db_engine(app))


def _ingest(app: Flask, tmp_path: Path, raw: bytes, rcpt: str,
            crash_at: str = "") -> tuple[int, str]:
    extra = {"PBEM_TEST_CRASH_AT": crash_at} if crash_at else {}
    proc = pbem_process(["ingest", "-r", rcpt], _env(app, tmp_path, **extra))
    out, err = proc.communicate(raw, timeout=120)
    return proc.returncode, (out + err).decode()


def _env(app: Flask, tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a `pbem` process using the app's database and mail spool (whose
    parent folder, the app's instance folder, must exist: `pbem ingest` creates no more)."""
    Path(app.config["SPOOL_DIR"]).parent.mkdir(parents=True, exist_ok=True)
    return pbem_env(app.config["DATABASE_URL"], tmp_path,
                    PBEM_SPOOL_DIR=app.config["SPOOL_DIR"], **extra)


def _spooled(app: Flask, folder: str = "new") -> int:
    """How many files the app's mail spool holds in `folder` (new: delivered, waiting)."""
    found = Path(app.config["SPOOL_DIR"]) / folder
    return len(list(found.iterdir())) if found.exists() else 0


def _times_played(app: Flask, game: int, move: CardPlayed) -> int:
    with transaction(db_engine(app), read_only=True) as session:
        return load_events(session, game).count(move)


def _statuses(app: Flask) -> list[str]:
    with transaction(db_engine(app), read_only=True) as session:
        return [row.status for row in session.exec(select(InboundMail))]


def _time_passes(app: Flask, by: timedelta) -> None:
    """As if the messages had been stored (and claimed) `by` ago."""
    then = utcnow() - by
    with transaction(db_engine(app)) as session:
        session.execute(update(InboundMail).values(received_at=then).where(
            InboundMail.processed_at.is_(None)))  # type: ignore[union-attr]
        session.execute(update(InboundMail).values(received_at=then, processed_at=then).where(
            InboundMail.processed_at.is_not(None)))  # type: ignore[union-attr]


def _worker_step(app: Flask) -> int:
    """What `pbem worker` runs every second: play the mail `pbem ingest` stored."""
    return play_new_inbound_mail(app)


def test_an_ingest_killed_before_delivering_spooled_nothing_and_the_retry_plays_once(
        app: Flask, tmp_path: Path) -> None:
    game, move, raw, rcpt = _a_reply(app)
    code, _ = _ingest(app, tmp_path, raw, rcpt, crash_at="ingest-written")
    assert code == -9  # killed, as a crash would: the MTA sees a failure and redelivers
    assert (_spooled(app, "tmp"), _spooled(app)) == (1, 0)  # written, never delivered
    assert _worker_step(app) == 0 and _statuses(app) == []
    code, said = _ingest(app, tmp_path, raw, rcpt)
    assert code == 0 and said.startswith("spooled "), said
    assert _spooled(app) == 1 and _statuses(app) == [] and _times_played(app, game, move) == 0
    assert _worker_step(app) == 1
    assert _spooled(app) == 0 and _statuses(app) == ["processed"]
    assert _times_played(app, game, move) == 1


def test_an_ingest_killed_after_delivering_is_stored_once_and_played_once(
        app: Flask, tmp_path: Path) -> None:
    game, move, raw, rcpt = _a_reply(app)
    assert _ingest(app, tmp_path, raw, rcpt, crash_at="ingest-spooled")[0] == -9
    assert _spooled(app) == 1
    code, said = _ingest(app, tmp_path, raw, rcpt)  # the MTA's retry: a second file
    assert code == 0 and said.startswith("spooled "), said
    assert _spooled(app) == 2 and _statuses(app) == []
    assert _worker_step(app) == 1 and _worker_step(app) == 0
    assert _spooled(app) == 0 and _statuses(app) == ["processed"]  # one row
    assert _times_played(app, game, move) == 1
    assert _ingest(app, tmp_path, raw, rcpt)[0] == 0  # and once more: nothing new
    assert _worker_step(app) == 0 and _spooled(app) == 0
    assert _statuses(app) == ["processed"] and _times_played(app, game, move) == 1


def test_a_worker_killed_between_storing_a_spooled_message_and_removing_it_stores_it_once(
        make_app: Callable[..., Flask], db_url: str, tmp_path: Path) -> None:
    """`pbem mail-in process` (which takes the spool in first, as the worker's step does)
    dies after the message's row is committed, before its file is removed: the next run
    finds the file again, stores nothing new, plays the message once and removes the file."""
    app = make_app(DATABASE_URL=db_url)
    game, move, raw, rcpt = _a_reply(app)
    assert _ingest(app, tmp_path, raw, rcpt)[0] == 0
    dying = pbem_process(["mail-in", "process"], _env(app, tmp_path,
                                                      PBEM_TEST_CRASH_AT="spool-stored"))
    dying.communicate(timeout=120)
    assert dying.returncode == -9
    assert _statuses(app) == ["pending"] and _spooled(app) == 1
    assert _worker_step(app) == 1 and _worker_step(app) == 0
    assert _statuses(app) == ["processed"] and _spooled(app) == 0
    assert _times_played(app, game, move) == 1


def test_a_message_claimed_by_a_killed_worker_is_finished_once_its_claim_runs_out(
        app: Flask, tmp_path: Path) -> None:
    game, move, raw, rcpt = _a_reply(app)
    assert _ingest(app, tmp_path, raw, rcpt)[0] == 0
    dying = pbem_process(["mail-in", "process"], _env(app, tmp_path, PBEM_TEST_CRASH_AT="claimed"))
    dying.communicate(timeout=120)
    assert dying.returncode == -9
    assert _statuses(app) == ["pending"] and _times_played(app, game, move) == 0
    assert _worker_step(app) == 0 and finish_inbound_mail(app) == 0  # its claim is fresh
    _time_passes(app, timedelta(minutes=3))  # the dead process's claim runs out
    assert finish_inbound_mail(app) == 1
    assert _statuses(app) == ["processed"] and _times_played(app, game, move) == 1
    assert _ingest(app, tmp_path, raw, rcpt)[0] == 0 and _worker_step(app) == 0
    assert _times_played(app, game, move) == 1


def test_a_webhook_message_whose_worker_was_killed_after_claiming_it_is_played_once(
        make_app: Callable[..., Flask], db_url: str, tmp_path: Path) -> None:
    """`POST /inbound` stored the message and answered 202; the process working through the
    stored mail (`pbem mail-in process`, as the worker's step) dies once it has claimed it.
    The provider's retry is the same row, the next steps leave the fresh claim alone, and once
    it runs out the worker plays the message, once."""
    app = make_app(DATABASE_URL=db_url, INBOUND_SECRET=WEBHOOK_SECRET)
    game, move, raw, rcpt = _a_reply(app)
    assert post_to_webhook(app, raw, rcpt).status_code == 202
    dying = pbem_process(["mail-in", "process"], _env(app, tmp_path, PBEM_TEST_CRASH_AT="claimed"))
    dying.communicate(timeout=120)
    assert dying.returncode == -9
    assert _statuses(app) == ["pending"] and _times_played(app, game, move) == 0
    assert post_to_webhook(app, raw, rcpt).get_json() == {"id": 1, "duplicate": True}
    assert _worker_step(app) == 0 and finish_inbound_mail(app) == 0  # its claim is fresh
    _time_passes(app, timedelta(minutes=3))  # the dead process's claim runs out
    assert finish_inbound_mail(app) == 1
    assert _statuses(app) == ["processed"] and _times_played(app, game, move) == 1


def test_the_same_message_ingested_by_racing_processes_is_stored_once_and_played_once(
        app: Flask, tmp_path: Path) -> None:
    """Four `pbem ingest` processes (as `python -m pbem`) given the same message at once (four
    files in the spool), then two workers' steps at once: one row, one move."""
    game, move, raw, rcpt = _a_reply(app)
    env = _env(app, tmp_path)
    procs = [subprocess.Popen([sys.executable, "-m", "pbem", "ingest", "-r", rcpt],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env) for _ in range(4)]
    for proc in procs:  # each has started; now all read the message together
        assert proc.stdin is not None
        proc.stdin.write(raw)
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.close()
    said = [(proc.wait(120), proc.stdout.read().decode() if proc.stdout else "")
            for proc in procs]
    assert [code for code, _ in said] == [0] * 4, said
    assert len({text.split()[1] for _, text in said}) == 4, said  # each its own file name
    assert _spooled(app) == 4
    with ThreadPoolExecutor(2) as pool:
        played = list(pool.map(_worker_step, [app, app]))
    assert sorted(played) == [0, 1]
    assert _statuses(app) == ["processed"] and _times_played(app, game, move) == 1
    assert _spooled(app) == 0


def _wait_listening(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError("the receiver did not start")


def test_messages_left_pending_by_a_receiver_killed_after_its_250_are_finished_by_the_worker(
        app: Flask, tmp_path: Path) -> None:
    game, move, raw, rcpt = _a_reply(app)
    port = free_port()
    receiver = pbem_process(["mail-in", "smtp", "--port", str(port)],
                            _env(app, tmp_path, PBEM_TEST_CRASH_AT="receiver-accepted"))
    try:
        _wait_listening(port)
        with smtplib.SMTP("127.0.0.1", port) as client:
            assert client.sendmail("ann@example.org", [rcpt], raw) == {}  # 250: accepted
        assert receiver.wait(timeout=60) == -9
    finally:
        if receiver.poll() is None:
            receiver.kill()
        receiver.communicate()
    assert _statuses(app) == ["pending"] and _times_played(app, game, move) == 0
    assert finish_inbound_mail(app) == 0  # a message just stored is left to its receiver
    _time_passes(app, timedelta(minutes=1))
    assert finish_inbound_mail(app) == 1
    assert _statuses(app) == ["processed"] and _times_played(app, game, move) == 1
