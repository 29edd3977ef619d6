"""`POST /inbound` only stores the message (a pending inbound_mail row, as every way in stores
it) and answers 202; the worker's step (every second: pbem.mailin.process.process_new) plays
it, as it plays what `pbem ingest` spooled. Nothing is lost (stored while no worker runs:
played once one starts), nothing doubled (a provider's retry, posts racing from several
processes), and bad input gets the answers it got when the request played it: on SQLite and
PostgreSQL."""

from __future__ import annotations

import json
import multiprocessing
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Engine, event
from sqlmodel import col, select

from pbem.app import create_app, db_engine
from pbem.engine import CardPlayed
from pbem.mailin.process import Inbox, deliver
from pbem.mailin.receive import with_recipients
from pbem.scheduler.worker import play_new_inbound_mail
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.store.models import InboundMail, OutboxEmail
from pbem.store.testing import create_tables
from tests.mailin.support import (
    WEBHOOK_SECRET,
    a_card_reply,
    latest_token,
    post_to_webhook,
    seq_of,
    two_human_game,
)
from tests.security.mutate import mutated
from tests.security.support import pbem_env

RACERS_IN_THREADS = 2
RACERS_IN_PROCESSES = 2


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str) -> Flask:
    return make_app(DATABASE_URL=db_url, INBOUND_SECRET=WEBHOOK_SECRET)


def post(app: Flask, raw: bytes, rcpt: str) -> tuple[int, dict[str, Any]]:
    """The provider's signed request; the status and the JSON answer."""
    response = post_to_webhook(app, raw, rcpt)
    return response.status_code, response.get_json()


def rows(engine: Engine) -> list[InboundMail]:
    with transaction(engine, read_only=True) as session:
        return list(session.exec(select(InboundMail).order_by(col(InboundMail.id))))


def times_played(engine: Engine, game: int, move: CardPlayed) -> int:
    with transaction(engine, read_only=True) as session:
        return load_events(session, game).count(move)


def outbox(engine: Engine) -> list[tuple[str, str]]:
    """Every queued email, oldest first: (to, kind)."""
    with transaction(engine, read_only=True) as session:
        return [(m.to_addr, m.kind) for m in session.exec(
            select(OutboxEmail).order_by(col(OutboxEmail.id)))]


def test_the_request_stores_the_reply_pending_and_the_worker_step_plays_it(app: Flask) -> None:
    engine = db_engine(app)
    game, move, raw, rcpt = a_card_reply(engine)
    seq, mail = seq_of(engine, game), outbox(engine)
    assert post(app, raw, rcpt) == (202, {"id": 1, "duplicate": False})
    [stored] = rows(engine)
    assert (stored.status, stored.processed_at) == ("pending", None)  # nobody claimed it
    assert stored.raw == with_recipients(raw, [rcpt])  # kept raw, with its envelope recipient
    assert seq_of(engine, game) == seq and outbox(engine) == mail  # nothing played yet
    assert play_new_inbound_mail(app) == 1
    assert [r.status for r in rows(engine)] == ["processed"]
    assert times_played(engine, game, move) == 1
    assert [kind for _, kind in outbox(engine)[len(mail):]].count("turn") >= 1  # the next turn


def test_the_request_makes_one_insert_in_one_transaction(
        make_app: Callable[..., Flask]) -> None:
    """Counted on SQLite, whose driver reports every statement it runs: BEGIN IMMEDIATE,
    the INSERT, COMMIT (playing the move in the request made it 31 to 43)."""
    app = make_app(INBOUND_SECRET=WEBHOOK_SECRET)
    engine = db_engine(app)
    _, _, raw, rcpt = a_card_reply(engine)
    run: list[str] = []
    engine.dispose()  # the next connection is traced from its start

    def trace(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.set_trace_callback(run.append)

    event.listen(engine, "connect", trace)
    assert post(app, raw, rcpt)[0] == 202
    event.remove(engine, "connect", trace)
    assert [s.split()[:3] for s in run] == [["BEGIN", "IMMEDIATE"],
                                            ["INSERT", "INTO", "inbound_mail"], ["COMMIT"]]


def test_a_retry_of_a_stored_message_is_answered_as_a_duplicate_and_played_once(
        app: Flask) -> None:
    engine = db_engine(app)
    game, move, raw, rcpt = a_card_reply(engine)
    assert post(app, raw, rcpt) == (202, {"id": 1, "duplicate": False})
    assert post(app, raw, rcpt) == (202, {"id": 1, "duplicate": True})  # the provider retried
    assert [r.status for r in rows(engine)] == ["pending"]
    assert play_new_inbound_mail(app) == 1
    assert post(app, raw, rcpt) == (202, {"id": 1, "duplicate": True})  # after it was played
    assert play_new_inbound_mail(app) == 0
    assert [r.status for r in rows(engine)] == ["processed"]
    assert times_played(engine, game, move) == 1


def _race(app: Flask, raw: bytes, rcpt: str, start: Any) -> tuple[int, str]:
    """One racer: its own app (its own engine and connections, as a gunicorn worker has),
    posting once `start` lets every racer go."""
    try:
        start.wait(60)
        status, answer = post(app, raw, rcpt)
        return status, json.dumps(answer, sort_keys=True)
    finally:
        db_engine(app).dispose()


def _race_in_process(config: dict[str, Any], raw: bytes, rcpt: str, start: Any,
                     out: Any) -> None:
    out.put(_race(create_app(config), raw, rcpt, start))


def test_the_same_message_posted_by_racing_processes_is_stored_once_and_played_once(
        app: Flask) -> None:
    """Two processes and two threads, each with its own app, post one message at once: one
    row, each answered 202 (one as the new row, the rest as its duplicate), nothing played
    before the worker; then two workers' steps at once: one move."""
    engine = db_engine(app)
    game, move, raw, rcpt = a_card_reply(engine)
    config = {key: app.config[key] for key in (
        "TESTING", "DATABASE_URL", "SECRET_KEY", "BASE_URL", "MAIL_DOMAIN", "MAIL_FROM",
        "INBOUND_SECRET")} | {"INSTANCE_PATH": app.instance_path}
    engine.dispose()  # no pooled connection survives into the forked children
    fork = multiprocessing.get_context("fork")
    start, out = fork.Barrier(RACERS_IN_THREADS + RACERS_IN_PROCESSES), fork.Queue()
    procs = [fork.Process(target=_race_in_process, args=(config, raw, rcpt, start, out))
             for _ in range(RACERS_IN_PROCESSES)]
    for proc in procs:
        proc.start()
    answers: list[tuple[int, str]] = []
    # The threads' apps are built here, one after the other, as gunicorn builds its app before
    # serving: CPython 3.11.7's compiler is not safe to run in two threads at once (werkzeug
    # compiles each URL rule; two apps built at once failed with "AST constructor recursion
    # depth mismatch" once in a full run).
    racers = [create_app(config) for _ in range(RACERS_IN_THREADS)]
    threads = [threading.Thread(target=lambda a=racer: answers.append(_race(a, raw, rcpt, start)))
               for racer in racers]
    for thread in threads:
        thread.start()
    answers += [out.get(timeout=120) for _ in procs]
    for thread in threads:
        thread.join(120)
    for proc in procs:
        proc.join(120)
        assert proc.exitcode == 0
    assert sorted(answers) == [(202, '{"duplicate": false, "id": 1}')] + \
        [(202, '{"duplicate": true, "id": 1}')] * (len(answers) - 1)
    assert len(answers) == RACERS_IN_THREADS + RACERS_IN_PROCESSES
    assert [r.status for r in rows(engine)] == ["pending"]
    assert times_played(engine, game, move) == 0
    with ThreadPoolExecutor(2) as pool:
        played = list(pool.map(play_new_inbound_mail, [app, app]))
    assert sorted(played) == [0, 1]
    assert [r.status for r in rows(engine)] == ["processed"]
    assert times_played(engine, game, move) == 1


def test_a_message_stored_while_no_worker_runs_is_played_once_a_worker_starts(
        app: Flask, db_url: str, tmp_path: Path) -> None:
    """The webhook answers with no worker running; `pbem worker`, a real process started
    afterwards, plays the message (its first step, within a second of starting)."""
    engine = db_engine(app)
    game, move, raw, rcpt = a_card_reply(engine)
    assert post(app, raw, rcpt)[0] == 202
    time.sleep(1.5)  # more than the worker's interval: nothing else plays it
    assert [r.status for r in rows(engine)] == ["pending"]
    env = pbem_env(db_url, tmp_path / "worker", PBEM_SMTP_PORT="9")  # nothing listens
    worker = subprocess.Popen([sys.executable, "-m", "pbem", "worker"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        status = _wait_until_not_pending(engine)
    finally:
        worker.send_signal(signal.SIGTERM)
        _, err = worker.communicate(timeout=120)
    assert status == "processed", err.decode()[-2000:]
    assert times_played(engine, game, move) == 1


def _wait_until_not_pending(engine: Engine, limit: float = 90.0) -> str:
    """The message's status once it is no longer pending (at most `limit` seconds: a loaded
    machine may take a while to start the worker)."""
    deadline = time.monotonic() + limit
    status = "pending"
    while time.monotonic() < deadline and status == "pending":
        time.sleep(0.2)
        status = rows(engine)[0].status
    return status


FUZZ_COUNT = 40  # mutated replies (tests/security/mutate.py): every kind of damage, autoreplies


def test_bad_input_gets_from_the_worker_the_answers_the_request_gave(
        app: Flask, make_app: Callable[..., Flask], tmp_path: Path) -> None:
    """Broken, hostile and automatic messages (seeded mutations of real replies, led by a
    multipart 1,000 deep) to a player's reply address: posted, then played by the worker's
    step, each ends as `deliver` (what the request did) ends it on a twin game in another
    database: the same status and reason, the same answers queued (error emails within the
    hourly limit, silence for automatic mail), the raw message kept."""
    reference_url = f"sqlite:///{tmp_path / 'reference.sqlite3'}"
    create_tables(reference_url)
    reference = make_app(DATABASE_URL=reference_url)
    engine, reference_engine = db_engine(app), db_engine(reference)
    two_human_game(engine)
    two_human_game(reference_engine)
    rcpt = f"play+{latest_token(engine, 'ann@example.org', 'pass')}@pbem.test"
    reference_rcpt = f"play+{latest_token(reference_engine, 'ann@example.org', 'pass')}@pbem.test"
    mail = outbox(engine)
    posted = []
    for n, (_, damaged) in enumerate(mutated(seed=21, count=FUZZ_COUNT)):
        raw = b"Message-ID: <bad-%d@example.org>\r\nFrom: Ann <ann@example.org>\r\n" % n + damaged
        assert post(app, raw, rcpt) == (202, {"id": n + 1, "duplicate": False})
        deliver(Inbox.from_app(reference), raw, [reference_rcpt])
        posted.append(with_recipients(raw, [rcpt]))
    assert {r.status for r in rows(engine)} == {"pending"} and outbox(engine) == mail
    assert play_new_inbound_mail(app) == FUZZ_COUNT
    outcomes = [(r.status, _same_recursion(r.reason)) for r in rows(engine)]
    assert outcomes == [(r.status, _same_recursion(r.reason)) for r in rows(reference_engine)]
    assert {status for status, _ in outcomes} == {"processed", "ignored"}
    assert outbox(engine) == outbox(reference_engine)
    assert len(outbox(engine)) > len(mail)  # some were answered (and the rest silence)
    assert [r.raw for r in rows(engine)] == posted


def _same_recursion(reason: str | None) -> str | None:
    """A reason, with where the parser hit the recursion limit left out (it depends on the
    stack the message was read on)."""
    return re.sub(r"RecursionError: [^)]*", "RecursionError", reason) if reason else reason
