"""Alembic environment: the pbem models' metadata; URL from the caller, env or app config."""

from __future__ import annotations

import logging.config
import os

from alembic import context
from sqlalchemy import Connection, Engine, event, text
from sqlalchemy.pool import NullPool

import pbem.store.models  # noqa: F401  (registers every table on the metadata)
from pbem.store.db import make_engine
from pbem.store.models import metadata

config = context.config
has_ini = config.config_file_name and os.path.exists(config.config_file_name)
if has_ini and not logging.getLogger().handlers:
    logging.config.fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = metadata


def database_url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    if os.environ.get("PBEM_DATABASE_URL"):
        return os.environ["PBEM_DATABASE_URL"]
    from pbem.app import create_app

    return str(create_app().config["DATABASE_URL"])


def configure(connection: Connection | None = None, url: str | None = None) -> None:
    context.configure(
        connection=connection,
        url=url,
        target_metadata=target_metadata,
        render_as_batch=True,  # SQLite can only ALTER by copying the table
        compare_type=True,
        literal_binds=connection is None,
    )


def run_offline() -> None:
    configure(url=database_url())
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(database_url(), poolclass=NullPool)
    if engine.dialect.name == "sqlite":
        without_foreign_keys(engine)
    with engine.connect() as conn:
        configure(conn)
        with context.begin_transaction():
            context.run_migrations()
            if engine.dialect.name == "sqlite":
                check_foreign_keys(conn)
    engine.dispose()


def without_foreign_keys(engine: Engine) -> None:
    """SQLite: batch mode rebuilds a table (copy, DROP, rename). With foreign keys on, dropping
    a table other rows point to fails ("FOREIGN KEY constraint failed"), and the pragma is a
    no-op inside a transaction, so it goes off as each connection opens (after pbem's own
    connect hook turned it on). Alembic's batch docs recommend this for referenced tables."""

    @event.listens_for(engine, "connect")
    def foreign_keys_off(dbapi_connection: object, _record: object) -> None:
        dbapi_connection.execute("PRAGMA foreign_keys = OFF")  # type: ignore[attr-defined]


def check_foreign_keys(conn: Connection) -> None:
    """With the checks off, make sure the migration left every reference whole."""
    broken = conn.execute(text("PRAGMA foreign_key_check")).fetchall()
    if broken:
        raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")


if context.is_offline_mode():
    run_offline()
else:
    run_online()
