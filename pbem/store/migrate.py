"""Running the Alembic migrations in `migrations/` from code (`pbem db upgrade`, tests)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, text
from sqlalchemy.pool import NullPool

from pbem.resources import resource_dir
from pbem.store.db import make_engine, writing


def migrations_dir() -> Path:
    """The migrations shipped with this pbem (in the wheel, or the checkout's top level)."""
    return resource_dir("migrations")


def alembic_config(url: str) -> Config:
    folder = migrations_dir()
    cfg = Config(str(folder / "alembic.ini"))
    cfg.set_main_option("script_location", str(folder))
    # ConfigParser interpolation: a literal % in a URL (escaped passwords) must be doubled.
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head",
            after: Callable[[str], object] | None = None) -> None:
    """Upgrade under a lock, so that several hosts starting at once (each unit runs the
    upgrade before it starts) upgrade one after the other: the later ones find it done.
    `after(url)` runs once the schema is at head: the backfills (pbem.scheduler.backfill,
    passed in by the app, the store may not import it)."""
    with migration_lock(url) as connection:
        cfg = alembic_config(url)
        if connection is not None:
            cfg.attributes["connection"] = connection  # env.py runs on the locked connection
        command.upgrade(cfg, revision)
        if connection is not None:
            connection.commit()
    if revision == "head" and after is not None:
        after(url)


def downgrade(url: str, revision: str) -> None:
    with migration_lock(url) as connection:
        cfg = alembic_config(url)
        if connection is not None:
            cfg.attributes["connection"] = connection
        command.downgrade(cfg, revision)
        if connection is not None:
            connection.commit()


# PostgreSQL: a session-level advisory lock named after the schema being migrated.
_PG_LOCK = "SELECT pg_advisory_lock(hashtext('pbem-migrate:' || current_schema()))"
_PG_UNLOCK = "SELECT pg_advisory_unlock(hashtext('pbem-migrate:' || current_schema()))"


@contextmanager
def migration_lock(url: str) -> Iterator[Connection | None]:
    """PostgreSQL: a connection holding the advisory lock (migrate on it). SQLite: the file's
    writer lock (pbem.store.db.writing) around the whole upgrade; yields None."""
    engine = make_engine(url, poolclass=NullPool)
    try:
        if engine.dialect.name != "postgresql":
            with writing(engine):
                yield None
            return
        with engine.connect() as conn:
            conn.execute(text(_PG_LOCK))
            conn.commit()  # the lock belongs to the session and outlives this transaction
            try:
                yield conn
            finally:
                conn.rollback()
                conn.execute(text(_PG_UNLOCK))
                conn.commit()
    finally:
        engine.dispose()


def current_heads(url: str) -> tuple[str, ...]:
    from alembic.script import ScriptDirectory

    return tuple(ScriptDirectory.from_config(alembic_config(url)).get_heads())
