"""`pbem backup` and `pbem restore`: a copy of the whole database, taken while the service runs,
and that copy put back into an empty database (issue 35; docs/running/backups.md).

- SQLite: the online backup API (sqlite3.Connection.backup), which copies the pages under a
  read transaction: safe while the web and the worker write (WAL), the copy is one consistent
  moment. The backup is a plain SQLite file.
- PostgreSQL: `pg_dump --format=custom` (one consistent snapshot, taken without locking out
  writers) and `pg_restore`. A URL that puts a schema first on the search path
  (`?options=-csearch_path=NAME`) dumps that schema only.

Links in emails keep working after a restore: every token lives (hashed) in the database. The
secret key (PBEM_SECRET_KEY, or `secret_key` in the instance folder) signs sessions and the
confirm-your-address links: keep it with the backups.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import NullPool

from pbem.store.db import make_engine


class BackupError(RuntimeError):
    """The backup or restore cannot be done (a sentence saying why)."""


def is_sqlite_url(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def default_name(url: str, now: datetime | None = None) -> str:
    """`pbem-YYYYmmddTHHMMSSZ.sqlite3` (SQLite) or `.dump` (PostgreSQL's custom format)."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return f"pbem-{stamp}.{'sqlite3' if is_sqlite_url(url) else 'dump'}"


def backup(url: str, target: Path) -> Path:
    """Copy the database at `url` into the file `target` (never over an existing file)."""
    if target.exists():
        raise BackupError(f"{target} already exists: a backup never overwrites a file")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    try:
        if is_sqlite_url(url):
            _sqlite_copy(_sqlite_path(url), partial)
        else:
            _pg_dump(url, partial)
        os.replace(partial, target)  # a file under the final name is always whole
    finally:
        partial.unlink(missing_ok=True)
    return target


def restore(url: str, source: Path, *, replace: bool = False) -> None:
    """Put the backup `source` into the database at `url`, which must hold no games unless
    `replace`. Run `pbem db upgrade` after it (the CLI does) when the backup is older."""
    if not source.is_file():
        raise BackupError(f"{source} is not a backup file")
    if not replace and holds_games(url):
        raise BackupError("the database already holds games: restore into an empty database, "
                          "or pass --replace to overwrite it (stop the service first)")
    if is_sqlite_url(url):
        _sqlite_copy(source, _sqlite_path(url))
    else:
        _pg_restore(url, source)


def holds_games(url: str) -> bool:
    """Whether the database has a `game` table with a row in it."""
    engine = make_engine(url, poolclass=NullPool)
    try:
        if "game" not in inspect(engine).get_table_names():
            return False
        with engine.connect() as conn:
            return conn.execute(text("SELECT 1 FROM game LIMIT 1")).first() is not None
    finally:
        engine.dispose()


# --- SQLite -------------------------------------------------------------------------------------

def _sqlite_path(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(database)


def _sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup from `source` into `target` (pages copied under a read
    transaction, so writers go on; the copy is one moment of the database)."""
    if not source.is_file():
        raise BackupError(f"no SQLite database at {source}")
    target.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(source, timeout=30)
    dst = sqlite3.connect(target, timeout=30)
    try:
        src.backup(dst, pages=1024)  # in steps: a writer waits at most one step
        dst.execute("PRAGMA journal_mode = WAL")  # as the service opens it
    finally:
        dst.close()
        src.close()


# --- PostgreSQL ---------------------------------------------------------------------------------

def _libpq(url: str) -> tuple[list[str], dict[str, str]]:
    """`--dbname=...` (without the password) and `--schema` options for pg_dump/pg_restore,
    and the environment carrying the password (never on a command line `ps` shows)."""
    parsed = make_url(url)
    env = dict(os.environ)
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    query = {k: v for k, v in parsed.query.items() if k != "options"}
    plain = URL.create("postgresql", username=parsed.username, host=parsed.host,
                       port=parsed.port, database=parsed.database, query=query)
    args = [f"--dbname={plain.render_as_string(hide_password=False)}"]
    schema = _search_path_schema(parsed)
    if schema:
        args.append(f"--schema={schema}")
    return args, env


def _search_path_schema(parsed: URL) -> str | None:
    options = parsed.query.get("options", "")
    text_options = options if isinstance(options, str) else " ".join(options)
    for part in text_options.split():
        if part.startswith("-csearch_path="):
            return part.removeprefix("-csearch_path=").split(",")[0].strip('"') or None
    return None


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def _run(args: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(args[0]).name} failed: {done.stderr.strip()}")


def _pg_dump(url: str, target: Path) -> None:
    args, env = _libpq(url)
    _run([_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges",
          f"--file={target}", *args], env)


def _pg_restore(url: str, source: Path) -> None:
    args, env = _libpq(url)
    dbname = [a for a in args if a.startswith("--dbname=")]
    _run([_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges",
          "--single-transaction", "--exit-on-error", *dbname, str(source)], env)
