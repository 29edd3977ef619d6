"""Totals for /metrics kept as work happens: the worker adds the events stored since its last
tally to `metric_total` (by type), so a scrape reads a few rows instead of counting the event
table (which only grows).

Event ids are handed out when a transaction inserts, not when it commits, so an id below the
newest committed one can still appear (a longer transaction commits later). A tally therefore
counts only the ids up to the highest one the previous tally saw (`horizon`): every move's
transaction is far shorter than the tally interval, so by then all of them have committed.
The counts lag by one interval; nothing is counted twice or missed."""

from __future__ import annotations

from sqlalchemy import Connection, Engine, func, insert, select, update

from pbem.store.claims import JOB, JOB_KEYS, claim
from pbem.store.db import transaction
from pbem.store.models import Event, MetricTotal

TALLY_INTERVAL_SECONDS = 15
EVENTS = "events"  # metric_total.name of the events by type
_CURSOR, _HORIZON = "cursor", "horizon"  # labels of the bookkeeping rows (name "tally")
_M = MetricTotal.__table__  # type: ignore[attr-defined]
_E = Event.__table__  # type: ignore[attr-defined]


def tally_events(engine: Engine) -> int:
    """Add the events stored since the last tally to the totals (one worker at a time); how
    many were counted."""
    with claim(engine, JOB, JOB_KEYS["tally"]) as mine:
        if not mine:
            return 0
        with transaction(engine) as session:
            return _tally(session.connection())


def _tally(conn: Connection) -> int:
    cursor, horizon = _kept(conn, _CURSOR), _kept(conn, _HORIZON)
    rows = conn.execute(select(_E.c.type, func.count()).where(
        _E.c.id > cursor, _E.c.id <= horizon).group_by(_E.c.type)).all()
    for event_type, count in rows:
        _add(conn, EVENTS, str(event_type), int(count))
    newest = conn.execute(select(func.max(_E.c.id))).scalar() or 0  # the primary key's end
    _set(conn, _CURSOR, max(cursor, horizon))
    _set(conn, _HORIZON, max(horizon, int(newest)))
    return sum(int(count) for _type, count in rows)


def _kept(conn: Connection, label: str) -> int:
    found = conn.execute(select(_M.c.value).where(_M.c.name == "tally",
                                                  _M.c.label == label)).scalar()
    return int(found or 0)


def _set(conn: Connection, label: str, value: int) -> None:
    done = conn.execute(update(_M).where(_M.c.name == "tally", _M.c.label == label)
                        .values(value=value))
    if not done.rowcount:
        conn.execute(insert(_M).values(name="tally", label=label, value=value))


def _add(conn: Connection, name: str, label: str, count: int) -> None:
    done = conn.execute(update(_M).where(_M.c.name == name, _M.c.label == label)
                        .values(value=_M.c.value + count))
    if not done.rowcount:
        conn.execute(insert(_M).values(name=name, label=label, value=count))


def totals(conn: Connection, name: str) -> list[tuple[str, int]]:
    """The totals kept under `name`, by label (one indexed read: the table's primary key)."""
    rows = conn.execute(select(_M.c.label, _M.c.value).where(_M.c.name == name)
                        .order_by(_M.c.label)).all()
    return [(str(label), int(value)) for label, value in rows]
