"""Database engines (SQLite in WAL mode, PostgreSQL via psycopg 3) and transactions."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any, cast

try:
    import fcntl
except ImportError:  # not on Windows: SQLite's busy handler alone serialises writers there
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import (
    ClauseElement,
    Connection,
    CursorResult,
    Engine,
    Executable,
    Insert,
    create_engine,
    event,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.sql.compiler import SQLCompiler
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
    engine = create_engine(url, **kwargs)
    _ping_when_idle(engine)
    return engine


# A pooled connection idle this long is pinged before use (a restarted server or a firewall
# may have dropped it); one in steady use is not: a ping is a round trip per transaction.
PING_AFTER_IDLE_S = 5.0
_LAST_USED = "pbem_last_used"


def _ping_when_idle(engine: Engine) -> None:
    """Pessimistic disconnect handling, for idle connections only (SQLAlchemy's
    `pool_pre_ping` pings at every checkout): a failed ping raises DisconnectionError, and
    the pool then checks out a fresh connection."""

    @event.listens_for(engine, "checkout")
    def on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        now = time.monotonic()
        last = record.info.get(_LAST_USED, now)  # a new connection was just made
        if now - last > PING_AFTER_IDLE_S:
            try:
                engine.dialect.do_ping(dbapi_connection)
            except engine.dialect.loaded_dbapi.Error as exc:
                raise DisconnectionError(f"an idle pooled connection was dropped: {exc}") \
                    from exc
        record.info[_LAST_USED] = now

    @event.listens_for(engine, "checkin")
    def on_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info[_LAST_USED] = time.monotonic()


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
        # (Straight to the driver: SQLAlchemy's statement machinery costs more than BEGIN.)
        begin = "BEGIN" if conn.get_execution_options().get(READ_ONLY) else "BEGIN IMMEDIATE"
        conn.connection.driver_connection.execute(begin)  # type: ignore[union-attr]

    return engine


def inserted_id(result: CursorResult[Any]) -> int:
    """The primary key of the one row a single-row Core INSERT wrote."""
    key = result.inserted_primary_key
    assert key is not None, "not a single-row INSERT"
    return int(key[0])


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


class _WriterLock:
    """One SQLite database file's writers, queued on an flock of `<file>-writer.lock`.

    BEGIN IMMEDIATE alone makes a second writer wait in SQLite's busy handler, which sleeps
    1, 2, 5, 10... ms between tries, so writers of several processes idle while the database
    is free. Waiting on an flock first wakes the next writer the moment the last one is done.
    Each thread holds its own open file (flock excludes other open files, also in this
    process) and may nest (a transaction inside another in one thread takes it once)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.local = threading.local()

    @contextmanager
    def held(self) -> Iterator[None]:
        depth = getattr(self.local, "depth", 0)
        if depth == 0:
            fd = getattr(self.local, "fd", None)
            if fd is None:
                fd = self.local.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX)
        self.local.depth = depth + 1
        try:
            yield
        finally:
            self.local.depth = depth
            if depth == 0:
                fcntl.flock(self.local.fd, fcntl.LOCK_UN)


_WRITER_LOCKS: dict[str, _WriterLock] = {}
_WRITER_LOCKS_GUARD = threading.Lock()


def _writer_lock(engine: Engine) -> _WriterLock | None:
    """The writer lock of a SQLite file database (None for PostgreSQL and in-memory ones)."""
    database = engine.url.database if is_sqlite(engine) else None
    if fcntl is None or not database or database == ":memory:" or database.startswith("file:"):
        return None
    path = os.path.abspath(database) + "-writer.lock"
    with _WRITER_LOCKS_GUARD:
        return _WRITER_LOCKS.setdefault(path, _WriterLock(path))


def writing(engine: Engine) -> Any:
    """Hold around a write transaction: on a SQLite file, queues this writer behind the others
    (see _WriterLock); elsewhere nothing."""
    lock = _writer_lock(engine)
    return lock.held() if lock is not None else nullcontext()


@contextmanager
def transaction(engine: Engine, *, read_only: bool = False) -> Iterator[Session]:
    """A Session in one transaction: committed on normal exit, rolled back on an exception.

    Objects stay usable after the commit (expire_on_commit=False).
    """
    bind = _with_options(engine, "read_only", {READ_ONLY: True}) if read_only else engine
    with (nullcontext() if read_only else writing(engine)), \
            Session(bind, expire_on_commit=False) as session, session.begin():
        yield session


# --- computing a write before taking the writer lock ---------------------------------------

Write = Callable[[Session], None]  # one write, run later in the short write transaction
_WRITES = "pbem_writes"  # Session.info key: the writes a planning session collected
_ENGINE = "pbem_engine"  # Session.info key: the engine a planning session reads from


class WriteInPlanning(RuntimeError):
    """An ORM flush in a planning session: its writes must go through `execute_write`."""


@contextmanager
def planning(engine: Engine) -> Iterator[Session]:
    """A Session that reads in one transaction without the writer lock (SQLite: a plain
    BEGIN, so readers and other games' writers go on) and collects writes instead of making
    them: `execute_write` and `defer_write` add to `collected_writes(session)`, to be run
    in a short write transaction (`run_writes`) that first checks nothing changed meanwhile.
    The transaction is always rolled back; an ORM flush in it raises WriteInPlanning. The
    objects it loaded stay usable afterwards (detached, as loaded)."""
    session = Session(_reading(engine), expire_on_commit=False, autoflush=False)
    session.info[_WRITES] = []
    session.info[_ENGINE] = engine
    try:
        session.begin()
        yield session
        if session.new or session.dirty:  # ORM changes would be lost silently
            raise WriteInPlanning("ORM changes while planning: "
                                  f"{list(session.new)[:3]} {list(session.dirty)[:3]}")
    finally:
        session.close()  # detaches every object as it is, then rolls back


def _reading(engine: Engine) -> Engine:
    """The engine as planning reads with it: SQLite, a plain (deferred) BEGIN: one snapshot
    for every read, without the writer lock; PostgreSQL, autocommit: no BEGIN and ROLLBACK
    round trips (at READ COMMITTED each statement reads its own snapshot anyway, so nothing
    is lost: the write transaction checks the game is as read)."""
    if is_sqlite(engine):
        return _with_options(engine, "read_only", {READ_ONLY: True})
    return _with_options(engine, "planning", {READ_ONLY: True, "isolation_level": "AUTOCOMMIT"})


def _with_options(engine: Engine, name: str, options: dict[str, Any]) -> Engine:
    """`engine.execution_options(**options)`, made once per engine (making one costs more
    than a statement) and kept on it under `name` (a cycle the collector frees with it)."""
    kept: dict[str, Engine] = engine.__dict__.setdefault("_pbem_option_engines", {})
    if name not in kept:
        kept[name] = engine.execution_options(**options)
    return kept[name]


@event.listens_for(OrmSession, "before_flush")
def _refuse_flush(session: OrmSession, _context: Any, _instances: Any) -> None:
    if _WRITES in session.info and (session.new or session.dirty or session.deleted):
        raise WriteInPlanning("an ORM write while planning: use pbem.store.db.execute_write")


def is_planning(session: OrmSession) -> bool:
    return _WRITES in session.info


def collected_writes(session: Session) -> list[Write]:
    writes: list[Write] = session.info.get(_WRITES, [])
    return writes


def planned_engine(session: Session) -> Engine:
    """The engine of a planning session (for a write that cannot wait, in its own
    transaction)."""
    engine: Engine = session.info[_ENGINE]
    return engine


def defer_write(session: Session, write: Write) -> None:
    """Run `write(session)` now, or collect it in a planning session, to be run with the
    write transaction's session."""
    if is_planning(session):
        collected_writes(session).append(write)
    else:
        write(session)


class PlainWrite:
    """A collected write that only sends statements whose results it reads through
    `deferred` and `after_sync` (or not at all): safe in a `pipelined_transaction`."""

    def __init__(self, write: Write) -> None:
        self.write = write

    def __call__(self, session: Session) -> None:
        self.write(session)


def execute_write(session: Session, statement: Executable, params: Any = None) -> None:
    """Execute one writing statement (a Core INSERT/UPDATE) in the session's transaction, or
    collect it in a planning session (see `planning`). Nothing is read back (an INSERT is
    sent without RETURNING its key), so it may run in a `pipelined_transaction`."""
    defer_write(session, PlainWrite(lambda writing: _execute(writing, statement, params)))


_INLINE: dict[int, tuple[Executable, Executable]] = {}
_KEPT_STATEMENTS = 256  # statements whose derived forms are kept (by identity)


def _inline(statement: Executable) -> Executable:
    """An INSERT as `Insert.inline()`: no implicit RETURNING of its key (made once each)."""
    if not isinstance(statement, Insert):
        return statement
    known = _INLINE.get(id(statement))
    if known is None or known[0] is not statement:
        known = (statement, statement.inline())
        if len(_INLINE) < _KEPT_STATEMENTS:  # the hot ones are built once, at import
            _INLINE[id(statement)] = known
    return known[1]


def _execute(session: Session, statement: Executable, params: Any) -> None:
    execute_now(session, statement, params)


def execute_now(session: Session, statement: Executable,
                params: dict[str, Any] | list[dict[str, Any]]) -> None:
    """Execute a writing statement whose result nobody reads (one row's parameters, or a
    list of them: executemany) on the session's connection: straight through the driver,
    with SQLAlchemy's SQL and its type processing of each parameter (made once per statement
    and set of columns), without its execution machinery (about 15 us a statement);
    through SQLAlchemy when the statement needs more (column defaults to fill in, RETURNING,
    expanding parameters)."""
    rows = params if isinstance(params, list) else [params]
    statement = _inline(statement)  # an INSERT's key is not read back either
    connection = session.connection()
    form = _driver_form(statement, connection.dialect, rows[0]) if rows else None
    if form is None:
        connection.execute(statement, params)
        return
    cursor = connection.connection.cursor()
    if len(rows) == 1:
        _on_driver(connection.dialect, form.sql,
                   lambda: cursor.execute(form.sql, form.values(rows[0])))
    else:
        _on_driver(connection.dialect, form.sql,
                   lambda: cursor.executemany(form.sql, [form.values(row) for row in rows]))


def _on_driver(dialect: Any, sql: str, call: Callable[[], Any]) -> Any:
    """`call()` (a statement run on the driver's cursor), its database error raised as
    SQLAlchemy raises it (IntegrityError...)."""
    dbapi = dialect.loaded_dbapi
    try:
        return call()
    except dbapi.Error as exc:
        raise DBAPIError.instance(sql, None, exc, dbapi.Error) from exc


class _DriverForm:
    """A statement as the driver takes it: its SQL, the order of its parameters (positional
    drivers: SQLite), and SQLAlchemy's processor of each parameter that has one."""

    def __init__(self, compiled: SQLCompiler, dialect: Any) -> None:
        self.compiled = compiled
        self.sql = compiled.string
        self.names = tuple(compiled.positiontup or ()) if compiled.positional else None
        processors = {}
        for bind, name in compiled.bind_names.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                processors[name] = process
        self.processors = processors
        self._result_processors: list[tuple[int, Any]] | None = None

    def result_processors(self, statement: Any, dialect: Any) -> list[tuple[int, Any]]:
        """SQLAlchemy's result processor of each of a SELECT's columns that has one (its
        position, the processor), made once."""
        if self._result_processors is None:
            found = [(n, column.type.dialect_impl(dialect).result_processor(dialect, None))
                     for n, column in enumerate(statement.selected_columns)]
            self._result_processors = [(n, process) for n, process in found
                                       if process is not None]
        return self._result_processors

    def values(self, row: dict[str, Any]) -> Any:
        bound = self.compiled.construct_params(row)
        for name, process in self.processors.items():
            bound[name] = process(bound[name])
        return bound if self.names is None else tuple(bound[name] for name in self.names)


_DRIVER_FORMS: dict[tuple[int, str, tuple[str, ...]],
                    tuple[Executable, _DriverForm | None]] = {}


def _driver_form(statement: Executable, dialect: Any,
                 row: dict[str, Any]) -> _DriverForm | None:
    """`statement` compiled for the columns of `row` (as SQLAlchemy does); None when the
    driver alone can't run it."""
    key = (id(statement), dialect.name, tuple(sorted(row)))
    known = _DRIVER_FORMS.get(key)
    if known is None or known[0] is not statement:
        compiled = cast(SQLCompiler, cast(ClauseElement, statement).compile(
            dialect=dialect, column_keys=list(key[2])))
        plain = not (compiled.insert_prefetch or compiled.update_prefetch
                     or compiled.returning or compiled.literal_execute_params
                     or compiled.post_compile_params or compiled.escaped_bind_names)
        known = (statement, _DriverForm(compiled, dialect) if plain else None)
        if len(_DRIVER_FORMS) < _KEPT_STATEMENTS:
            _DRIVER_FORMS[key] = known
    return known[1]


def read_now(connection: Connection, statement: Executable,
             params: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The rows of a SELECT (Core, its columns typed), run straight through the driver as
    `execute_now` runs a write: SQLAlchemy's SQL and parameter processing (made once per
    statement), then its result processor of each column applied to each value that is not
    NULL (a NULL stays None, as every processor here maps it), without its result machinery
    (no Row objects; the driver's cursor description is not read: on psycopg it is built
    anew at every read)."""
    dialect = connection.dialect
    form = _driver_form(statement, dialect, params)
    assert form is not None, "a SELECT without prefetch or expanding parameters"
    cursor = connection.connection.cursor()
    try:
        _on_driver(dialect, form.sql, lambda: cursor.execute(form.sql, form.values(params)))
        fetched = _on_driver(dialect, form.sql, cursor.fetchall)
    finally:
        cursor.close()
    processors = form.result_processors(statement, dialect)
    rows: list[tuple[Any, ...]] = []
    for row in fetched:
        values = list(row)
        for n, process in processors:
            if values[n] is not None:
                values[n] = process(values[n])
        rows.append(tuple(values))
    return rows


def reading_connection(engine: Engine) -> Connection:
    """A connection for reads that need no transaction around them, as `read_alone` takes
    (use it in a `with` block): several `read_now` calls without a session's machinery."""
    return _reading(engine).connect()


def read_alone(engine: Engine, statement: Executable,
               params: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The rows of one SELECT that needs no transaction around it (a request's one read, as a
    move's private-link look-up), through `read_now`: no BEGIN and ROLLBACK. A lone statement
    reads one snapshot anyway: SQLite (whose driver begins nothing itself here) runs it in
    an implicit transaction of its own, PostgreSQL in autocommit (as `planning` reads)."""
    with _reading(engine).connect() as connection:
        return read_now(connection, statement, params)


def run_writes(session: Session, writes: list[Write]) -> None:
    """Run the writes a planning session collected, in order, in `session`'s transaction."""
    for write in writes:
        write(session)


def all_plain(writes: list[Write]) -> bool:
    """May these writes run in a `pipelined_transaction`?"""
    return all(isinstance(write, PlainWrite) for write in writes)


# --- several statements in one round trip (PostgreSQL) -------------------------------------

_AFTER_SYNC = "pbem_after_sync"  # Session.info key: checks to run at `sync`
_PIPELINE = "pbem_pipeline"  # Session.info key: the open pipeline of `pipelined_transaction`
# The isolation the move's check is reasoned for (docs/moves.md), said in the BEGIN sent.
_BEGIN = "BEGIN ISOLATION LEVEL READ COMMITTED"


@contextmanager
def pipelined_transaction(engine: Engine, wanted: bool = True) -> Iterator[Session]:
    """`transaction(engine)`, whose statements up to `sync(session)` (or the block's end) go
    to the server together on PostgreSQL (and `wanted`), in psycopg's pipeline mode, the
    BEGIN with them: one round trip for all, where each would take its own (and psycopg
    sends a BEGIN alone and waits for it). Until `sync` a statement executed through
    SQLAlchemy gives no result (not even its rowcount): read results through `deferred`,
    and check them with `after_sync`, which runs the check at `sync`. The statements run in
    order, in the transaction; a database error of one of them is raised by `sync` (as
    SQLAlchemy's error, e.g. IntegrityError), the later ones having done nothing, and the
    transaction is rolled back. Elsewhere (SQLite) it is `transaction(engine)`: each
    statement runs at once, and so does each check."""
    if not wanted or engine.dialect.name != "postgresql":
        with transaction(engine) as session:
            yield session
        return
    # psycopg in autocommit mode begins no transaction of its own: the BEGIN below, the
    # first statement sent, begins it; COMMIT and ROLLBACK go as usual (psycopg sends them
    # whenever the server is in a transaction).
    bind = _with_options(engine, "pipelined", {"isolation_level": "AUTOCOMMIT"})
    with Session(bind, expire_on_commit=False) as session, session.begin():
        connection = session.connection()
        pipeline = connection.connection.driver_connection.pipeline()  # type: ignore[union-attr]
        pipeline.__enter__()
        session.info[_PIPELINE], session.info[_AFTER_SYNC] = pipeline, []
        try:
            connection.connection.cursor().execute(_BEGIN)
            yield session
            sync(session)
        except BaseException as exc:
            if session.info.pop(_PIPELINE, None) is not None:
                session.info.pop(_AFTER_SYNC, None)
                pipeline.__exit__(type(exc), exc, exc.__traceback__)
            raise


def sync(session: Session) -> None:
    """The statements sent so far in a `pipelined_transaction` have run: raise the first
    database error among them, then run the checks `after_sync` kept (nothing to do in any
    other transaction)."""
    pipeline = session.info.pop(_PIPELINE, None)
    if pipeline is None:
        return
    checks: list[Callable[[], None]] = session.info.pop(_AFTER_SYNC)
    dbapi = session.connection().dialect.loaded_dbapi
    try:
        pipeline.__exit__(None, None, None)
    except dbapi.Error as exc:
        raise DBAPIError.instance("(pipelined statements)", None, exc, dbapi.Error) from exc
    for check in checks:
        check()


def after_sync(session: Session, check: Callable[[], None]) -> None:
    """Run `check` (which reads `deferred` results) once the statements before it have run:
    at once, or at `sync` in a `pipelined_transaction`."""
    checks: list[Callable[[], None]] | None = session.info.get(_AFTER_SYNC)
    if checks is None:
        check()
    else:
        checks.append(check)


class Deferred:
    """A statement's result, read when its statement has run (see `pipelined_transaction`)."""

    def __init__(self, cursor: Any) -> None:
        self.cursor = cursor
        self._rows: list[tuple[Any, ...]] | None = None

    def rows(self) -> list[tuple[Any, ...]]:
        if self._rows is None:
            self._rows = [tuple(row) for row in self.cursor.fetchall()] \
                if self.cursor.description is not None else []
        return self._rows

    def rowcount(self) -> int:
        count: int = self.cursor.rowcount
        return count


def deferred(session: Session, statement: Executable, params: dict[str, Any]) -> Deferred:
    """Execute `statement` on the session's connection, straight through the driver as
    `execute_now` does (SQLAlchemy's SQL and parameter processing, made once): its rows and
    rowcount are read later (after `sync`), as the driver gives them (no result processing:
    SQLite gives booleans back as 0 and 1)."""
    connection = session.connection()
    form = _driver_form(statement, connection.dialect, params)
    assert form is not None, "a statement without prefetch or expanding parameters"
    cursor = connection.connection.cursor()
    # (in a pipeline an earlier statement's error may surface here)
    _on_driver(connection.dialect, form.sql, lambda: cursor.execute(form.sql, form.values(params)))
    return Deferred(cursor)

