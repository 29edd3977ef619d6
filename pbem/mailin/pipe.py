"""`pbem ingest`, for an MTA pipe: store one message raw, nothing else (DESIGN.md point 7).

An MTA starts a process per message, so this imports only the standard library (and psycopg
for PostgreSQL): not SQLAlchemy, Flask or the service. The row is the one
pbem.mailin.receive.store_raw writes (pending, unclaimed); `pbem worker` plays it within about
a second (pbem.mailin.process.process_new). The same message stored twice is one row.

Exit codes (sysexits.h): 0 stored (or stored before); 65 larger than the cap (the MTA bounces
it with our sentence); 75 it could not be stored (the MTA keeps it and tries again).
"""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import IO, Any, NamedTuple

from pbem.config import database_url
from pbem.mailin.crash import crash_point
from pbem.mailin.rawmail import MAX_MESSAGE_BYTES, content_hash, message_id_of, with_recipients

try:
    import fcntl
except ImportError:  # not on Windows: SQLite's busy handler alone serialises writers there
    fcntl = None  # type: ignore[assignment]

EX_USAGE = 2  # as click's usage errors
EX_DATAERR = 65  # sysexits.h: the MTA bounces the message, with our words, to its sender
EX_TEMPFAIL = 75  # sysexits.h: Postfix and procmail keep the message and try again
SQLITE_BUSY_TIMEOUT_MS = 30_000  # as pbem.store.db
PG_CONNECT_TIMEOUT_SECONDS = 30


class Stored(NamedTuple):
    id: int
    created: bool  # False: the same message was stored before (nothing was added)


class Row(NamedTuple):
    """An inbound_mail row as store_raw writes it (pending, unclaimed)."""

    message_id: str
    content_hash: str
    raw: bytes
    received_at: datetime

    @classmethod
    def of(cls, raw: bytes, now: datetime | None = None) -> Row:
        return cls(message_id_of(raw), content_hash(raw), raw, now or datetime.now(UTC))


_INSERT = ("INSERT INTO inbound_mail (message_id, content_hash, raw, status, reason, received_at,"
           " processed_at) VALUES ({p}, {p}, {p}, 'pending', NULL, {p}, NULL)"
           " ON CONFLICT (message_id, content_hash) DO NOTHING RETURNING id")
_FIND = "SELECT id FROM inbound_mail WHERE message_id = {p} AND content_hash = {p}"


def main(argv: list[str]) -> int:
    """`pbem ingest [-r RECIPIENT]...` as its own process: the exit code."""
    parser = argparse.ArgumentParser(
        prog="pbem ingest", description="Read one message on standard input and store it for "
        "`pbem worker` to play (for an MTA pipe: Postfix, procmail).")
    parser.add_argument("-r", "--recipient", action="append", default=[],
                        help="Envelope recipient (Postfix: ${original_recipient}); repeatable.")
    args = parser.parse_args(argv)
    load_dotenv_files()
    return ingest(sys.stdin.buffer, args.recipient, database_url(os.environ))


def ingest(stream: IO[bytes], recipients: list[str], url: str,
           out: IO[str] | None = None, err: IO[str] | None = None) -> int:
    """Read one message from `stream`, store it in the database at `url`; the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    raw = stream.read(MAX_MESSAGE_BYTES + 1)  # bounded memory and time
    if len(raw) > MAX_MESSAGE_BYTES:  # nothing is stored: a reply is never this large
        err.write(f"pbem ingest: message refused, it is larger than "
                  f"{MAX_MESSAGE_BYTES // (1024 * 1024)} MB (a reply to Hearts needs no "
                  "attachments)\n")
        return EX_DATAERR
    if not raw.strip():
        err.write("pbem ingest: no message on standard input\n")
        return EX_USAGE
    try:
        stored = store(url, Row.of(with_recipients(raw, recipients)))
    except Exception as exc:  # the database is down or locked: the MTA tries again later
        err.write(f"pbem ingest: the message could not be stored: {exc}\n")
        return EX_TEMPFAIL
    crash_point("ingest-stored")  # committed, not yet told the MTA
    out.write(f"stored #{stored.id}" + ("\n" if stored.created else " (already had it)\n"))
    return 0


def store(url: str, row: Row) -> Stored:
    """Store `row` in the database at `url` (a PBEM_DATABASE_URL), once."""
    path = sqlite_path(url)
    if path is not None:
        return store_sqlite(path, row)
    conninfo = postgres_conninfo(url)
    if conninfo is not None:
        return store_postgres(conninfo, row)
    return _store_with_sqlalchemy(url, row)


# --- where the database is -------------------------------------------------------------------

_SQLITE_URL = re.compile(r"^sqlite(\+pysqlite)?:///(?P<path>[^?]+)$")
_POSTGRES_URL = re.compile(r"^(postgres|postgresql)(\+psycopg|\+psycopg2)?://(?P<rest>.*)$",
                           re.DOTALL)


def sqlite_path(url: str) -> str | None:
    """The file of a plain `sqlite:///PATH` URL (None for any other URL, in-memory and
    `file:` URI databases included: those go through SQLAlchemy)."""
    found = _SQLITE_URL.match(url)
    if found is None or "%" in found["path"] or found["path"] in (":memory:",) \
            or found["path"].startswith("file:"):
        return None
    return found["path"]


def postgres_conninfo(url: str) -> str | None:
    """A libpq URI for a PostgreSQL URL as pbem.store.db accepts them (any driver is read
    as psycopg 3); None for other databases."""
    found = _POSTGRES_URL.match(url)
    return None if found is None else f"postgresql://{found['rest']}"


# --- storing ------------------------------------------------------------------------------

def store_sqlite(path: str, row: Row) -> Stored:
    """One BEGIN IMMEDIATE transaction on the existing database file (never created here),
    queued behind the other writers on the file lock pbem.store.db.writing takes."""
    with _sqlite_writer_lock(path):
        connection = sqlite3.connect(f"file:{_uri_path(path)}?mode=rw", uri=True,
                                     isolation_level=None,
                                     timeout=SQLITE_BUSY_TIMEOUT_MS / 1000)
        try:
            for pragma in (f"busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}", "journal_mode = WAL",
                           "synchronous = NORMAL", "foreign_keys = ON"):
                connection.execute(f"PRAGMA {pragma}")
            connection.execute("BEGIN IMMEDIATE")
            stored = _insert(connection.execute, "?", row, _sqlite_time(row.received_at))
            crash_point("ingest-before-commit")
            connection.execute("COMMIT")
            return stored
        finally:
            connection.close()  # an uncommitted transaction is rolled back


def _uri_path(path: str) -> str:
    return os.path.abspath(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")


def _sqlite_time(moment: datetime) -> str:
    """How SQLAlchemy stores a UTCDateTime on SQLite (pbem.store.types): naive UTC text."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


@contextmanager
def _sqlite_writer_lock(path: str) -> Iterator[None]:
    """pbem.store.db's writer lock of this file (an flock of `<file>-writer.lock`)."""
    if fcntl is None:
        yield
        return
    fd = os.open(os.path.abspath(path) + "-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the file releases the flock


def store_postgres(conninfo: str, row: Row) -> Stored:
    import psycopg  # only for PostgreSQL: its import costs more than the rest of the process

    with psycopg.connect(conninfo, connect_timeout=PG_CONNECT_TIMEOUT_SECONDS) as connection:
        stored = _insert(connection.execute, "%s", row, row.received_at)
        crash_point("ingest-before-commit")
        connection.commit()
    return stored


def _insert(execute: Callable[..., Any], placeholder: str, row: Row, received_at: Any) -> Stored:
    inserted = execute(_INSERT.format(p=placeholder),
                       (row.message_id, row.content_hash, row.raw, received_at)).fetchone()
    if inserted is not None:
        return Stored(int(inserted[0]), True)
    found = execute(_FIND.format(p=placeholder), (row.message_id, row.content_hash)).fetchone()
    if found is None:  # cannot happen: the conflict was with this very row
        raise RuntimeError("the message is neither new nor stored")
    return Stored(int(found[0]), False)


def _store_with_sqlalchemy(url: str, row: Row) -> Stored:
    """Any other URL (an in-memory or URI SQLite database): through the app's own store."""
    from pbem.mailin.receive import store_raw
    from pbem.store.db import make_engine

    engine = make_engine(url)
    try:
        stored = store_raw(engine, row.raw, now=row.received_at)
    finally:
        engine.dispose()
    return Stored(stored.id, stored.created)


# --- settings files ---------------------------------------------------------------------------

def load_dotenv_files(environ: Mapping[str, str] | None = None) -> None:
    """PBEM_* settings from `.flaskenv` and `.env` (nearest to the working folder), as the
    rest of the `pbem` command line loads them (flask.cli.load_dotenv), unless
    FLASK_SKIP_DOTENV says not to; set variables win. Nothing without python-dotenv."""
    skip = (environ or os.environ).get("FLASK_SKIP_DOTENV", "")
    if skip and skip.lower() not in ("0", "false", "no"):
        return
    try:
        import dotenv
    except ImportError:
        return
    values: dict[str, str | None] = {}
    for name in (".flaskenv", ".env"):
        found = dotenv.find_dotenv(name, usecwd=True)
        if found:
            values |= dotenv.dotenv_values(found, encoding="utf-8")
    for key, value in values.items():
        if key not in os.environ and value is not None:
            os.environ[key] = value
