"""Rate-limit counters for `limits` (Flask-Limiter's storage backends).

`pbem-db://`: in pbem's own database, so every gunicorn worker and host counts into the same
fixed windows without another server. One row per (limit, client) key holds the count and
when its window ends; `incr` is one atomic INSERT ... ON CONFLICT DO UPDATE ... RETURNING on
SQLite and PostgreSQL alike.

ProcessStorage: in this process's memory (the moves' counters, pbem.security.MoveLimit): a
dict under a lock. (limits' own `memory://` starts a timer thread on every increment.)"""

from __future__ import annotations

import random
import threading
import time
from abc import abstractmethod
from typing import Any

from flask import Flask
from limits.storage import Storage
from sqlalchemy import Engine, bindparam, case, delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import SQLAlchemyError

from pbem.store.db import writing
from pbem.store.models import RateLimit

DATABASE = "pbem-db://"
PURGE_ONE_IN = 200  # now and then an increment also deletes long-ended windows
_T = RateLimit.__table__  # type: ignore[attr-defined]


def _upsert(insert: Any) -> Any:
    """The counter's atomic increment: a new window when the last one ended."""
    ended = _T.c.expires_at <= bindparam("now")
    return insert(_T).values(
        key=bindparam("the_key"), count=bindparam("amount"), expires_at=bindparam("until"),
    ).on_conflict_do_update(
        index_elements=[_T.c.key],
        set_={"count": case((ended, bindparam("amount")), else_=_T.c.count + bindparam("amount")),
              "expires_at": case((ended, bindparam("until")), else_=_T.c.expires_at)},
    ).returning(_T.c.count)


# Every limited request increments and reads counters: statements built once (SQLite, PG).
_UPSERTS = {False: _upsert(sqlite_insert), True: _upsert(pg_insert)}
_ROW = select(_T.c.count, _T.c.expires_at).where(_T.c.key == bindparam("the_key"))


def storage_options(app: Flask, uri: str) -> dict[str, Any]:
    if uri.startswith(DATABASE):
        from pbem.store.app_engine import db_engine

        return {"engine": db_engine(app)}
    return {}


class _WindowStorage(Storage):
    """Reads shared by both: a key's live window as (count, end), or None."""

    @abstractmethod
    def _row(self, key: str) -> tuple[int, float] | None:
        """The key's live window, if any."""

    def get(self, key: str) -> int:
        row = self._row(key)
        return row[0] if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return row[1] if row else time.time()


class DatabaseStorage(_WindowStorage):
    STORAGE_SCHEME = ["pbem-db"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False,
                 engine: Engine | None = None, **options: Any) -> None:
        if engine is None:
            raise ValueError("the pbem-db:// rate-limit storage needs the app's engine")
        self.engine = engine
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        statement = _UPSERTS[self.engine.dialect.name == "postgresql"]
        values = {"the_key": key, "amount": amount, "now": now, "until": now + expiry}
        with writing(self.engine), self.engine.begin() as conn:
            count = int(conn.execute(statement, values).scalar_one())
            if random.randrange(PURGE_ONE_IN) == 0:
                conn.execute(delete(_T).where(_T.c.expires_at < now - 86400))
        return count

    def _row(self, key: str) -> tuple[int, float] | None:
        with self.engine.connect() as conn:
            row = conn.execute(_ROW, {"the_key": key}).first()
        if row is None or row[1] <= time.time():
            return None
        return int(row[0]), float(row[1])  # by position: a Row's .count is tuple.count

    def check(self) -> bool:
        try:
            with self.engine.connect() as conn:
                conn.execute(select(1))
            return True
        except SQLAlchemyError:
            return False

    def reset(self) -> int | None:
        with writing(self.engine), self.engine.begin() as conn:
            result: Any = conn.execute(delete(_T))
            return int(result.rowcount or 0)

    def clear(self, key: str) -> None:
        with writing(self.engine), self.engine.begin() as conn:
            conn.execute(delete(_T).where(_T.c.key == key))


class ProcessStorage(_WindowStorage):
    """Fixed-window counters in this process: {key: (count, window end)}; ended windows are
    dropped now and then, so the dict holds about the clients of the last window."""

    STORAGE_SCHEME = ["pbem-process"]
    PURGE_EVERY = 1000  # increments

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False,
                 **options: Any) -> None:
        self.counters: dict[str, tuple[int, float]] = {}
        self.lock = threading.Lock()
        self.increments = 0
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception]:
        return ValueError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self.lock:
            count, until = self.counters.get(key, (0, now))
            if until <= now:
                count, until = 0, now + expiry
            self.counters[key] = (count + amount, until)
            self.increments += 1
            if self.increments % self.PURGE_EVERY == 0:
                self._purge(now)
            return count + amount

    def _purge(self, now: float) -> None:
        for key in [k for k, (_c, until) in self.counters.items() if until <= now]:
            del self.counters[key]

    def _row(self, key: str) -> tuple[int, float] | None:
        found = self.counters.get(key)
        return found if found is not None and found[1] > time.time() else None

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self.lock:
            count = len(self.counters)
            self.counters.clear()
            return count

    def clear(self, key: str) -> None:
        with self.lock:
            self.counters.pop(key, None)
