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
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, exists, insert
from sqlmodel import col, select

from pbem.mail import outbox
from pbem.mail.compose import MailSettings
from pbem.mail.outbox import STALE_AFTER, claim, outbox_work, reclaim_stale
from pbem.mailin import process
from pbem.mailin.process import Inbox, process_pending
from pbem.scheduler.digest import send_digests
from pbem.scheduler.worker import process_deadlines
from pbem.service import Context, games_awaiting_robots, games_to_play, robotturns
from pbem.service.invitations import due_reminders
from pbem.service.lobby import due_tables
from pbem.service.reviews import games_to_review
from pbem.service.robotturns import games_left_to_robots
from pbem.store import mailjobs
from pbem.store.db import make_engine, transaction
from pbem.store.mailjobs import pending_jobs
from pbem.store.models import Deadline, Game, GameReview, Player, Seat
from pbem.store.testing import create_tables

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


def _through_sqlalchemy(scan: Callable[[Engine], object], statement: Any,
                        parameters: dict[str, Any]) -> Callable[[Engine], object]:
    """A scan that reads straight through the driver (`read_alone`), unseen by engine events:
    run, then its statement sent through SQLAlchemy too, with the same parameters."""
    def run(engine: Engine) -> object:
        scan(engine)
        with engine.connect() as connection:
            return connection.execute(statement, parameters).all()
    return run


# Each scan the worker runs on a timer (pbem.scheduler.worker), as it calls it.
SCANS: dict[str, Callable[[Engine], object]] = {
    "deadlines: expired and reminders (every minute)":
        lambda e: process_deadlines(_ctx(e), SETTINGS, NOW),
    "open tables whose wait is over (every minute)": lambda e: due_tables(_ctx(e)),
    "unanswered invitations (every minute)": lambda e: due_reminders(_ctx(e)),
    "finished games to review (every 30 s)": lambda e: games_to_review(_ctx(e)),
    "games awaiting robots (4 times a second)": _through_sqlalchemy(
        lambda e: games_awaiting_robots(_ctx(e)), robotturns._AWAITING_ROBOTS, {}),  # noqa: SLF001
    "games left to robots (every second)": lambda e: games_to_play(_ctx(e)),
    "games left to robots, listed": lambda e: games_left_to_robots(_ctx(e)),
    "mail jobs pending (every second)": _mail_jobs,
    "outbox: anything due or left sending (every 5 s)": _through_sqlalchemy(
        lambda e: outbox_work(e, NOW), outbox._WORK,  # noqa: SLF001
        {"now": NOW, "stale_before": NOW - STALE_AFTER}),
    "outbox rows due (every 5 s)": lambda e: claim(e, "w", 100, NOW),
    "outbox rows left sending (every 5 s)": lambda e: reclaim_stale(e, NOW),
    "daily digests (every hour)": lambda e: send_digests(e, SETTINGS, NOW),
    "inbound mail pending (every second)": _through_sqlalchemy(
        lambda e: process_pending(Inbox(e, SETTINGS, clock=lambda: NOW), unclaimed_only=True),
        process._UNCLAIMED, {"stored_before": NOW, "limit": 1000}),  # noqa: SLF001
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


# --- O(due rows): the work of a scan does not grow with the games that are not due -----------

# No scan reads every game of a status any more (docs/scans.md): the active games left to
# robots did until the games kept their count of pending deadlines (migration 0029), the
# finished games to review until they kept whether their review is due (0030).
GROWS_WITH_GAMES: set[str] = set()


def _finished_not_reviewed(engine: Engine) -> object:
    """The reviews' listing as it was before 0030: the finished games in id order, each looked
    up in game_review (it reads every finished game)."""
    reviewed = exists().where(col(GameReview.game_id) == col(Game.id))
    with transaction(engine, read_only=True) as session:
        return session.exec(select(Game.id).where(Game.status == "finished", ~reviewed)
                            .order_by(col(Game.id)).limit(10)).all()


def _fill(engine: Engine, games: int) -> None:
    """`games` active games with nothing due (a pending deadline tomorrow, a closed one, four
    seats, a lobby table's fill_by long past), a tenth as many finished and reviewed games, a
    tenth as many tables still gathering people, each seat's invitation answered."""
    game, seat, deadline, review = (m.__table__ for m in  # type: ignore[attr-defined]
                                    (Game, Seat, Deadline, GameReview))
    rows = [("active", NOW - timedelta(days=2))] * games \
        + [("finished", NOW - timedelta(days=9))] * (games // 10) \
        + [("inviting", NOW + timedelta(days=1))] * (games // 10)
    with engine.begin() as conn:
        conn.execute(insert(game), [
            {"id": n, "name": "G", "preset": "standard", "rules": {}, "engine_version": "1",
             "status": status, "deadline_policy": {}, "created_at": NOW, "last_seq": 9,
             "robot_strength": "easy", "quick": False, "fill_by": fill_by}
            for n, (status, fill_by) in enumerate(rows, start=1)])
        conn.execute(insert(seat), [
            {"game_id": n, "seat_no": s, "is_bot": s > 0, "invite_status": "accepted",
             "timeouts_in_row": 0, "bot_holding": False}
            for n in range(1, len(rows) + 1) for s in range(4)])
        conn.execute(insert(deadline), [
            {"game_id": n, "seat_no": 0, "kind": "play", "turn_seq": turn, "started_at": NOW,
             "due_at": NOW + timedelta(days=1), "grace_until": NOW + timedelta(days=1),
             "reminders_sent": 0, "status": "pending" if turn else "done",
             "next_reminder_at": NOW + timedelta(hours=12) if turn else None}
            for n in range(1, games + 1) for turn in (0, 1)])
        conn.execute(insert(review), [
            {"game_id": n, "status": "done", "decisions": 0, "cpu_seconds": 0.0,
             "created_at": NOW} for n in range(games + 1, games + games // 10 + 1)])


def _steps(tmp_path: Path, games: int, scan: str) -> int:
    """SQLite's virtual machine steps (in hundreds) the scan takes at `games` active games."""
    url = f"sqlite:///{tmp_path / f'steps{games}.sqlite3'}"
    create_tables(url)
    engine = make_engine(url)
    counted = [0]

    def count() -> int:
        counted[0] += 1
        return 0

    event.listen(engine, "connect", lambda conn, _record: conn.set_progress_handler(count, 100))
    _fill(engine, games)
    SCANS[scan](engine)  # warm: the lease row, caches
    counted[0] = 0
    SCANS[scan](engine)
    engine.dispose()
    return counted[0]


@pytest.mark.parametrize("scan", [s for s in SCANS if s not in GROWS_WITH_GAMES])
def test_a_periodic_scan_costs_the_same_at_ten_times_the_games(tmp_path: Path,
                                                               scan: str) -> None:
    """Nothing is due at 200 games nor at 2,000: the scan's work (SQLite's steps) stays
    the same; a scan reading every game, or every game of a status, takes ten times more."""
    few, many = _steps(tmp_path, 200, scan), _steps(tmp_path, 2000, scan)
    assert many <= few * 1.2 + 5, (few, many)


def test_the_step_count_sees_a_scan_of_every_finished_game(tmp_path: Path) -> None:
    """The measure above can fail: the reviews' listing as it was before 0030 reads every
    finished game."""
    SCANS["before 0030"] = _finished_not_reviewed
    try:
        few, many = _steps(tmp_path, 200, "before 0030"), _steps(tmp_path, 2000, "before 0030")
    finally:
        del SCANS["before 0030"]
    assert many > few * 5, (few, many)
