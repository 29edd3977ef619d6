"""Worker processes' health: each `pbem worker` process beats in its own row (host, pid, the
units of work it holds, the plans it threw away), and `pbem worker --check` reads the rows of
its host, so one dead worker among several on a host is seen, not hidden by the others'
beats. A clean stop deletes the row; a process killed outright leaves it to age, and the
next worker started on that host removes the rows of its host's processes that are gone."""

from __future__ import annotations

import os
import socket
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import Engine, delete, insert, select, update

from pbem.store.claims import holding
from pbem.store.db import transaction
from pbem.store.models import WorkerProcess
from pbem.store.types import utcnow

HEARTBEAT_INTERVAL_SECONDS = 15
# `pbem worker --check` fails once a process's last beat is older than this.
HEARTBEAT_MAX_AGE = timedelta(seconds=HEARTBEAT_INTERVAL_SECONDS * 4)
# Rows of any host not beaten for this long are removed by whichever worker beats next (a
# host that was shut down for good).
FORGOTTEN_AFTER = timedelta(days=1)
_P = WorkerProcess.__table__  # type: ignore[attr-defined]
HOLDING_KEPT = 1000


@dataclass
class ProcessStats:
    """What a worker process counts between beats (read by its heartbeat)."""

    plans_discarded: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def discarded(self) -> None:
        with self.lock:
            self.plans_discarded += 1


def host_name() -> str:
    return socket.gethostname()[:64]


def start(engine: Engine, holder: str, now: datetime | None = None) -> None:
    """Record this process (and remove the rows of this host's processes that are gone)."""
    now = now or utcnow()
    with transaction(engine) as session:
        conn = session.connection()
        rows = conn.execute(select(_P.c.id, _P.c.pid).where(_P.c.host == host_name())).all()
        gone = [row_id for row_id, pid in rows if not _alive(pid)]
        if gone:
            conn.execute(delete(_P).where(_P.c.id.in_(gone)))
        conn.execute(insert(_P).values(id=holder, host=host_name(), pid=os.getpid(),
                                       started_at=now, beat_at=now, holding="",
                                       plans_discarded=0))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def beat(engine: Engine, holder: str, stats: ProcessStats | None = None,
         now: datetime | None = None) -> None:
    """This process is alive: its row's beat, what it holds now and its counts."""
    now = now or utcnow()
    held = " ".join(f"{kind}:{key}" for kind, key in holding(engine))[:HOLDING_KEPT]
    values = {"beat_at": now, "holding": held}
    if stats is not None:
        values["plans_discarded"] = stats.plans_discarded
    with transaction(engine) as session:
        conn = session.connection()
        done = conn.execute(update(_P).where(_P.c.id == holder).values(**values))
        if not done.rowcount:  # removed meanwhile (its beat was a day old): back again
            conn.execute(insert(_P).values(id=holder, host=host_name(), pid=os.getpid(),
                                           started_at=now, plans_discarded=0,
                                           **{"holding": held, "beat_at": now}))
        conn.execute(delete(_P).where(_P.c.beat_at < now - FORGOTTEN_AFTER))


def stop(engine: Engine, holder: str) -> None:
    with transaction(engine) as session:
        session.connection().execute(delete(_P).where(_P.c.id == holder))


@dataclass(frozen=True)
class ProcessHealth:
    id: str
    pid: int
    age_seconds: float
    holding: str
    plans_discarded: int

    def alive(self, max_age: timedelta = HEARTBEAT_MAX_AGE) -> bool:
        return self.age_seconds <= max_age.total_seconds()


def processes(engine: Engine, host: str | None = None,
              now: datetime | None = None) -> list[ProcessHealth]:
    """The worker processes of `host` (every host: None), as their rows say."""
    now = now or utcnow()
    query = select(_P.c.id, _P.c.pid, _P.c.beat_at, _P.c.holding, _P.c.plans_discarded)
    if host is not None:
        query = query.where(_P.c.host == host)
    with transaction(engine, read_only=True) as session:
        rows = session.connection().execute(query.order_by(_P.c.id)).all()
    return [ProcessHealth(row_id, pid, max((now - beat_at).total_seconds(), 0.0), held,
                          discarded)
            for row_id, pid, beat_at, held, discarded in rows]


def check(engine: Engine, pid: int | None = None, max_age: timedelta = HEARTBEAT_MAX_AGE,
          now: datetime | None = None) -> tuple[bool, list[str]]:
    """(healthy, one line per process): every worker process of this host (or the one with
    `pid`) beat within `max_age`; False when one has not, or when there is none."""
    found = [p for p in processes(engine, host_name(), now) if pid is None or p.pid == pid]
    if not found:
        return False, [f"no worker process on {host_name()}"
                       + (f" with pid {pid}" if pid is not None else "")]
    lines = [f"worker {p.id}: {'alive' if p.alive(max_age) else 'NOT BEATING'}, last beat "
             f"{p.age_seconds:.0f} s ago, holds [{p.holding}], {p.plans_discarded} plans "
             "discarded" for p in found]
    return all(p.alive(max_age) for p in found), lines
