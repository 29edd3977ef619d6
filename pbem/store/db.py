"""Database engines (SQLite in WAL mode, PostgreSQL via psycopg 3) and transactions."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlmodel import Session

SQLITE_BUSY_TIMEOUT_MS = 30_000
# Execution option: a read-only transaction may use a plain (deferred) BEGIN on SQLite.
READ_ONLY = "pbem_read_only"


def normalise_url(url: str) -> str:
    """Use psycopg 3 for every PostgreSQL URL (`postgres://` and `postgresql://` too)."""
    parsed = make_url(url)
    if parsed.drivername in {"postgres", "postgresql"}:
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def make_engine(url: str, **kwargs: Any) -> Engine:
    url = normalise_url(url)
    if make_url(url).get_backend_name() == "sqlite":
        return _sqlite_engine(url, **kwargs)
    return create_engine(url, pool_pre_ping=True, **kwargs)


def _sqlite_engine(url: str, **kwargs: Any) -> Engine:
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take BEGIN away from the sqlite3 module so that we can emit BEGIN IMMEDIATE.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Connection) -> None:
        # Two deferred transactions that both read then write fail at once with
        # "database is locked"; IMMEDIATE makes the second writer wait instead.
        if conn.get_execution_options().get(READ_ONLY):
            conn.exec_driver_sql("BEGIN")
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


@contextmanager
def transaction(engine: Engine, *, read_only: bool = False) -> Iterator[Session]:
    """A Session in one transaction: committed on normal exit, rolled back on an exception.

    Objects stay usable after the commit (expire_on_commit=False).
    """
    bind = engine.execution_options(**{READ_ONLY: True}) if read_only else engine
    with Session(bind, expire_on_commit=False) as session, session.begin():
        yield session
