"""Claims: a unit of background work (a game's robot turns or timeout, a game's mail jobs, a
review, a periodic job's run) is claimed by one worker process before it is worked, so
several workers on one database, on one host or many, take different units instead of
planning the same one and throwing all but one plan away (DESIGN.md 13).

A claim is a lock that its holder's death releases at once, with nothing to expire:
- PostgreSQL: a session-level advisory lock (`pg_try_advisory_lock(kind, key)`) taken on one
  connection this process keeps for its claims; a worker killed with SIGKILL closes its socket
  and the server drops its locks (another worker takes the unit at its next tick).
- SQLite: a POSIX record lock on one byte of `<database>-claims.lock` chosen by (kind, key);
  the kernel drops a process's record locks when it exits, however it exits.
Both lock per process, so a registry in the process keeps its threads apart too (two threads
of one worker must not both hold a unit: PostgreSQL's advisory locks nest per session).

Claims never wait: `claim()` says at once whether the unit is this process's now; a unit held
elsewhere is skipped and looked at again at the next tick. The work itself stays safe without
its claim (each write checks the game is as read): a claim is what keeps work from being done
twice, not what keeps the data right.
"""

from __future__ import annotations

import os
import threading
import weakref
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any, Protocol
from weakref import WeakKeyDictionary

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import Engine, event

from pbem.store.db import is_sqlite

# The kinds of claimed work (and what names the unit): a game's robot turns and timeouts
# ("game", game id), its mail jobs ("mail", game id), a finished game's review ("review",
# game id), a deadline's reminder ("reminder", deadline id), one run of a periodic job that
# works through a short list itself ("job", JOB_KEYS[...]).
GAME, MAIL, REVIEW, REMINDER, JOB = "game", "mail", "review", "reminder", "job"
JOB_KEYS = {"top_up": 1, "invitations": 2, "digests": 3, "imap": 4, "purge_raw_mail": 5,
            "purge_sent_mail": 6, "tally": 7, "retention": 8}
Unit = tuple[str, int]
_LOCK_SPACE = 1 << 40  # SQLite: byte offsets the (kind, key) pairs are spread over


def kind_code(kind: str, space: str = "") -> int:
    """A stable 31-bit number for a kind in a schema (PostgreSQL's first advisory-lock key:
    advisory locks are per database, and two installations may share one in two schemas)."""
    return zlib.crc32(f"pbem:{space}:{kind}".encode()) & 0x7FFF_FFFF


class _Backend(Protocol):
    def try_lock(self, unit: Unit) -> bool: ...
    def unlock(self, unit: Unit) -> None: ...


class _PostgresBackend:
    """Advisory locks on one connection of this process's own (not from the pool: a lock is
    held by the connection that took it), used by one thread at a time."""

    def __init__(self, engine: Engine) -> None:
        # Weak: the registry (_CLAIMS) is keyed weakly by the engine, and a strong reference
        # from its value would keep the engine, and this connection, alive for ever.
        self.engine = weakref.ref(engine)
        self.guard = threading.Lock()
        self.connection: Any = None
        self.schema = ""
        # Disposing of the engine (a test's, a forked process's) closes this connection too:
        # it is not in the pool, so dispose() alone would leave it open on the server.
        event.listen(engine, "engine_disposed", self._disposed)

    def _disposed(self, _engine: Engine) -> None:
        with self.guard:
            self._forget()

    def _connection(self) -> Any:
        if self.connection is None or self.connection.closed:
            engine = self.engine()
            if engine is None:
                raise RuntimeError("claims of an engine that is gone")
            raw = engine.raw_connection()
            raw.driver_connection.autocommit = True  # type: ignore[union-attr]
            cursor = raw.driver_connection.cursor()  # type: ignore[union-attr]
            cursor.execute("SELECT current_schema()")
            self.schema = str(cursor.fetchone()[0])
            self.connection = raw
        return self.connection

    def try_lock(self, unit: Unit) -> bool:
        with self.guard:
            return bool(self._run("SELECT pg_try_advisory_lock(%s, %s)", unit))

    def unlock(self, unit: Unit) -> None:
        with self.guard:
            self._run("SELECT pg_advisory_unlock(%s, %s)", unit)

    def _run(self, sql: str, unit: Unit) -> Any:
        kind, key = unit
        try:
            cursor = self._connection().driver_connection.cursor()
            cursor.execute(sql, (kind_code(kind, self.schema), _int32(key)))
            return cursor.fetchone()[0]
        except Exception:  # a broken connection held no lock worth keeping: start afresh
            self._forget()
            raise

    def _forget(self) -> None:
        if self.connection is not None:
            with suppress(Exception):  # already gone
                self.connection.invalidate()  # closed, not returned to the pool
        self.connection = None


class _FileBackend:
    """Record locks on one byte each of a lock file beside the SQLite database."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)  # kept open: closing any
        # descriptor of the file would drop every record lock this process holds on it

    def try_lock(self, unit: Unit) -> bool:
        try:
            fcntl.lockf(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, _offset(unit))
        except OSError:
            return False
        return True

    def unlock(self, unit: Unit) -> None:
        fcntl.lockf(self.fd, fcntl.LOCK_UN, 1, _offset(unit))


class _InProcessBackend:
    """In-memory SQLite (tests): one process is all there is."""

    def try_lock(self, unit: Unit) -> bool:
        return True

    def unlock(self, unit: Unit) -> None:
        pass


def _int32(key: int) -> int:
    return key if -(2 ** 31) <= key < 2 ** 31 else zlib.crc32(str(key).encode()) - 2 ** 31


def _offset(unit: Unit) -> int:
    kind, key = unit
    return (kind_code(kind) * 1_000_003 + key) % _LOCK_SPACE


class Claims:
    """This process's claims on one database: which units it holds, and the lock behind."""

    def __init__(self, backend: _Backend) -> None:
        self.backend = backend
        self.guard = threading.Lock()
        self.held: set[Unit] = set()

    def take(self, unit: Unit) -> bool:
        with self.guard:
            if unit in self.held:
                return False  # another thread of this process has it
            self.held.add(unit)
        try:
            if self.backend.try_lock(unit):
                return True
        except Exception:
            self._drop(unit)
            raise
        self._drop(unit)
        return False

    def give_back(self, unit: Unit) -> None:
        try:
            self.backend.unlock(unit)
        finally:
            self._drop(unit)

    def _drop(self, unit: Unit) -> None:
        with self.guard:
            self.held.discard(unit)

    def holding(self) -> list[Unit]:
        with self.guard:
            return sorted(self.held)


_CLAIMS: WeakKeyDictionary[Engine, Claims] = WeakKeyDictionary()
_CLAIMS_GUARD = threading.Lock()


def claims_of(engine: Engine) -> Claims:
    """This process's claims on `engine`'s database (made once per engine)."""
    with _CLAIMS_GUARD:
        found = _CLAIMS.get(engine)
        if found is None:
            found = _CLAIMS[engine] = Claims(_backend(engine))
        return found


def _backend(engine: Engine) -> _Backend:
    if not is_sqlite(engine):
        return _PostgresBackend(engine)
    database = engine.url.database
    if fcntl is None or not database or database == ":memory:" or database.startswith("file:"):
        return _InProcessBackend()
    return _FileBackend(os.path.abspath(database) + "-claims.lock")


@contextmanager
def claim(engine: Engine, kind: str, key: int) -> Iterator[bool]:
    """`with claim(engine, GAME, 12) as mine: if mine: ...`: True when this process (and this
    thread) now holds the unit, until the block ends; False at once when someone else does."""
    claims = claims_of(engine)
    unit = (kind, int(key))
    mine = claims.take(unit)
    try:
        yield mine
    finally:
        if mine:
            claims.give_back(unit)


def holding(engine: Engine) -> list[Unit]:
    """The units this process holds now (for its heartbeat: what each worker is doing)."""
    return claims_of(engine).holding()
