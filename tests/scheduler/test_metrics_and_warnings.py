"""What a worker costs others while it runs (issue 32): a /metrics scrape reads kept totals and
indexed rows only, never the event table (which only grows); the events are counted by the
worker's tally, each once, one interval behind; APScheduler's "skipped run" warnings come at
most once a minute, with how many were held back; each worker process beats in its own row
and `check` sees one that stopped beating among others."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from flask import Flask
from sqlalchemy import event
from sqlmodel import select

from pbem.app import db_engine
from pbem.scheduler import processes
from pbem.scheduler.quiet import SKIPPED, SkippedRuns
from pbem.store.db import transaction
from pbem.store.models import Event
from pbem.store.tally import EVENTS, tally_events, totals
from pbem.store.types import utcnow
from tests.web.support import start_game


def _metric(text: str, name: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(name)]


def test_a_scrape_never_reads_the_event_table(
        make_app: Callable[..., Flask], db_url: str) -> None:
    app = make_app(DATABASE_URL=db_url)
    start_game(app)
    engine = db_engine(app)
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement.lower())

    event.listen(engine, "before_cursor_execute", seen)
    try:
        assert app.test_client().get("/metrics").status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert statements and not [s for s in statements if " event " in s or " event\n" in s
                               or s.rstrip().endswith(" event")]


def test_the_tally_counts_each_event_once_one_interval_behind(
        make_app: Callable[..., Flask], db_url: str) -> None:
    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    start_game(app)
    with transaction(engine, read_only=True) as session:
        stored = len(session.exec(select(Event.id)).all())
    assert tally_events(engine) == 0  # the first tally only sets its horizon
    assert tally_events(engine) == stored
    assert tally_events(engine) == 0  # nothing new: nothing counted again
    with engine.connect() as conn:
        counted = dict(totals(conn, EVENTS))
    assert sum(counted.values()) == stored and counted["game_created"] == 1
    text = app.test_client().get("/metrics").get_data(as_text=True)
    assert 'pbem_events_total{type="game_created"} 1.0' in text


def test_skipped_runs_are_said_once_a_minute_with_the_count_held_back() -> None:
    quiet = SkippedRuns(every=60)
    said: list[str] = []

    def record(n: int) -> logging.LogRecord:
        return logging.LogRecord("apscheduler.scheduler", logging.WARNING, __file__, 1,
                                 f'Execution of job "tick" skipped: {SKIPPED}', (), None)

    for n in range(300):
        rec = record(n)
        if quiet.filter(rec):
            said.append(rec.getMessage())
    assert len(said) == 1 and quiet.total == 300
    quiet.last_said = (quiet.last_said or 0) - 61  # a minute later
    rec = record(0)
    assert quiet.filter(rec) and "(299 more like it in the last minute)" in rec.getMessage()
    other = logging.LogRecord("apscheduler.scheduler", logging.WARNING, __file__, 1,
                              "Run time of job was missed", (), None)
    assert quiet.filter(other)  # other warnings pass as they are


def test_check_sees_one_dead_worker_among_several_on_a_host(
        make_app: Callable[..., Flask], db_url: str) -> None:
    engine = db_engine(make_app(DATABASE_URL=db_url))
    now = utcnow()
    processes.start(engine, "me:1:a", now=now)
    processes.start(engine, "me:2:b", now=now)
    processes.beat(engine, "me:1:a", now=now + timedelta(minutes=5))
    healthy, lines = processes.check(engine, now=now + timedelta(minutes=5))
    assert not healthy  # me:2:b stopped beating 5 minutes ago
    assert any("me:2:b: NOT BEATING" in line for line in lines)
    assert any("me:1:a: alive" in line for line in lines)
    processes.stop(engine, "me:2:b")  # (stopped cleanly: its row goes)
    assert processes.check(engine, now=now + timedelta(minutes=5))[0]
