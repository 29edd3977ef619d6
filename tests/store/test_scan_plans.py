"""Every periodic scan of the worker reads its rows through an index, never a whole table
(issue 33; docs/scans.md): the statements each scan really sends are recorded and explained,
with SQLite's `EXPLAIN QUERY PLAN` and PostgreSQL's `EXPLAIN`.

On PostgreSQL, tables this small are read whole whatever their indexes (a sequential scan is
cheaper than an index for a few rows), so the plans are asked with `enable_seqscan = off`: the
planner then takes an index whenever one can answer, and a sequential scan only when none can.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Engine, event

from pbem.mail.compose import MailSettings
from pbem.mail.outbox import claim, reclaim_stale
from pbem.mailin.process import Inbox, process_pending
from pbem.scheduler.digest import send_digests
from pbem.scheduler.worker import process_deadlines
from pbem.service import Context, games_awaiting_robots, games_to_play
from pbem.service.invitations import due_reminders
from pbem.service.lobby import due_tables
from pbem.service.reviews import games_to_review
from pbem.service.robotturns import games_left_to_robots
from pbem.store import mailjobs
from pbem.store.db import transaction
from pbem.store.mailjobs import pending_jobs
from pbem.store.models import Player

NOW = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)  # 8 in the morning in UTC: digests are due
SETTINGS = MailSettings(domain="example.org", base_url="http://example.org")
# The tables that grow with the games played. mail_job is not among them: its rows are
# deleted once fanned out, so it holds only what is pending (read whole, it is O(due rows)).
GROWING = ("game", "seat", "deadline", "event", "snapshot", "token", "outbox_email",
           "player", "inbound_mail", "game_review", "reviewed_decision")


def _ctx(engine: Engine) -> Context:
    return Context(engine=engine, clock=lambda: NOW)


def _mail_jobs(engine: Engine) -> object:
    """`pending_jobs` reads straight through the driver, unseen by engine events: its
    statement is also sent through SQLAlchemy here, with the same parameters."""
    with engine.connect() as connection:
        pending_jobs(connection, now=NOW)
        return connection.execute(mailjobs._PENDING, {  # noqa: SLF001
            "most": 100, "now": NOW, "held_since": NOW - mailjobs.HOLD_FOR_ROBOTS}).all()


# Each scan the worker runs on a timer (pbem.scheduler.worker), as it calls it.
SCANS: dict[str, Callable[[Engine], object]] = {
    "deadlines: expired and reminders (every minute)":
        lambda e: process_deadlines(_ctx(e), SETTINGS, NOW),
    "open tables whose wait is over (every minute)": lambda e: due_tables(_ctx(e)),
    "unanswered invitations (every minute)": lambda e: due_reminders(_ctx(e)),
    "finished games to review (every 30 s)": lambda e: games_to_review(_ctx(e)),
    "games awaiting robots (4 times a second)": lambda e: games_awaiting_robots(_ctx(e)),
    "games left to robots (every second)": lambda e: games_to_play(_ctx(e)),
    "games left to robots, listed": lambda e: games_left_to_robots(_ctx(e)),
    "mail jobs pending (every second)": _mail_jobs,
    "outbox rows due (every 5 s)": lambda e: claim(e, "w", 100, NOW),
    "outbox rows left sending (every 5 s)": lambda e: reclaim_stale(e, NOW),
    "daily digests (every hour)": lambda e: send_digests(e, SETTINGS, NOW),
    "inbound mail pending (every second)":
        lambda e: process_pending(Inbox(e, SETTINGS, clock=lambda: NOW), unclaimed_only=True),
}


@contextmanager
def recorded(engine: Engine) -> Iterator[list[tuple[str, Any]]]:
    """The SELECT, UPDATE and DELETE statements sent to `engine` meanwhile, with their
    parameters."""
    sent: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any,
               _many: bool) -> None:
        if statement.lstrip().split(None, 1)[0].upper() in ("SELECT", "UPDATE", "DELETE",
                                                            "WITH"):
            sent.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", record)


def full_scans(engine: Engine, statement: str, parameters: Any) -> list[str]:
    """The growing tables the statement's plan reads whole, each with its plan line."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            rows = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
            return [row[-1] for row in rows if _sqlite_full_scan(row[-1])]
        conn.exec_driver_sql("SET enable_seqscan = off")
        (plan,), = conn.exec_driver_sql("EXPLAIN (FORMAT JSON) " + statement,
                                        parameters).all()
        conn.rollback()
    plan = json.loads(plan) if isinstance(plan, str) else plan
    return [json.dumps(node) for node in _nodes(plan[0]["Plan"]) if _pg_full_scan(node)]


def _sqlite_full_scan(line: str) -> bool:
    # "SCAN game" or "SCAN game USING INDEX ix" reads every row (of the table or the
    # index); "SEARCH game USING INDEX ix (status=?)" only those the index leads to.
    words = line.split()
    return len(words) > 1 and words[0] == "SCAN" and words[1] in GROWING


def _nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", []):
        yield from _nodes(child)


def _pg_full_scan(node: dict[str, Any]) -> bool:
    if node.get("Relation Name") not in GROWING:
        return False
    if node["Node Type"] == "Seq Scan":
        return True
    # an index read from end to end (for its order), with no condition on it
    return node["Node Type"] in ("Index Scan", "Index Only Scan") and "Index Cond" not in node


@pytest.mark.parametrize("scan", list(SCANS))
def test_each_periodic_scan_reads_its_rows_through_an_index(engine: Engine, scan: str) -> None:
    with transaction(engine) as session:  # a digest reader at 8 in the morning: it is asked
        session.add(Player(email="early@example.org", name="Early", digest=True))
    with recorded(engine) as sent:
        SCANS[scan](engine)
    assert sent, f"{scan}: no statement recorded"
    for statement, parameters in sent:
        assert full_scans(engine, statement, parameters) == [], statement


def test_the_check_sees_a_full_scan(engine: Engine) -> None:
    """The check above can fail: a scan on a column with no index is seen reading the table."""
    statement = "SELECT id FROM game WHERE name = 'x'"
    assert full_scans(engine, statement, {} if engine.dialect.name != "sqlite" else ())
