"""Issue 13.3: a crash during mail in must not lose the move.

Each way in is a real process, killed (SIGKILL, through the PBEM_TEST_CRASH_AT hook) at the bad
moment: `pbem ingest` right after storing the message, or after claiming it; the SMTP receiver
just after its 250. The MTA's redelivery of the same message then plays the move (once), or
answers "try again later" while the dead process's claim lasts; and the worker's job finishes
whatever is left pending, with no operator."""

from __future__ import annotations

import smtplib
import socket
import time
from datetime import timedelta
from pathlib import Path

from flask import Flask
from sqlalchemy import update
from sqlmodel import select

from pbem.app import db_engine
from pbem.engine import CardPlayed
from pbem.scheduler.worker import finish_inbound_mail
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.store.models import InboundMail
from pbem.store.types import utcnow
from tests.mail.mailtest_support import free_port
from tests.mailin.support import latest_token, legal, reply, to_play, two_human_game
from tests.security.support import pbem_env, pbem_process


def _a_reply(app: Flask) -> tuple[int, CardPlayed, bytes, str]:
    """A game waiting for a human's card, and their reply playing a legal one."""
    engine = db_engine(app)
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    token = latest_token(engine, me, "turn")
    card = legal(state, seat)
    return game, CardPlayed(seat, card), reply(token, str(card), sender=me), \
        f"play+{token}@pbem.test"


def _ingest(app: Flask, tmp_path: Path, raw: bytes, rcpt: str,
            crash_at: str = "") -> tuple[int, str]:
    extra = {"PBEM_TEST_CRASH_AT": crash_at} if crash_at else {}
    proc = pbem_process(["ingest", "-r", rcpt],
                        pbem_env(app.config["DATABASE_URL"], tmp_path, **extra))
    out, err = proc.communicate(raw, timeout=120)
    return proc.returncode, (out + err).decode()


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


def test_a_redelivered_copy_of_a_message_stored_by_a_killed_ingest_plays_the_move(
        app: Flask, tmp_path: Path) -> None:
    game, move, raw, rcpt = _a_reply(app)
    code, _ = _ingest(app, tmp_path, raw, rcpt, crash_at="stored")
    assert code == -9  # killed, as a crash would: the MTA sees a failure and redelivers
    assert _statuses(app) == ["pending"] and _times_played(app, game, move) == 0
    code, said = _ingest(app, tmp_path, raw, rcpt)
    assert code == 0, said
    assert "processed it now" in said
    assert _statuses(app) == ["processed"] and _times_played(app, game, move) == 1
    code, said = _ingest(app, tmp_path, raw, rcpt)  # and once more: nothing new
    assert code == 0 and "already had it)" in said and _times_played(app, game, move) == 1


def test_a_message_claimed_by_a_killed_ingest_is_retried_later_then_finished_by_the_worker(
        app: Flask, tmp_path: Path) -> None:
    game, move, raw, rcpt = _a_reply(app)
    assert _ingest(app, tmp_path, raw, rcpt, crash_at="claimed")[0] == -9
    code, said = _ingest(app, tmp_path, raw, rcpt)  # its claim is still fresh
    assert code == 75, said  # EX_TEMPFAIL: the MTA keeps the message and tries again
    assert "try again later" in said and _times_played(app, game, move) == 0
    _time_passes(app, timedelta(minutes=3))  # the dead process's claim runs out
    assert finish_inbound_mail(app) == 1
    assert _statuses(app) == ["processed"] and _times_played(app, game, move) == 1
    code, said = _ingest(app, tmp_path, raw, rcpt)
    assert code == 0 and "already had it)" in said and _times_played(app, game, move) == 1


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
                            pbem_env(app.config["DATABASE_URL"], tmp_path,
                                     PBEM_TEST_CRASH_AT="receiver-accepted"))
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
