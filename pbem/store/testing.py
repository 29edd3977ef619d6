"""Helpers for tests and benchmarks: throw-away PostgreSQL schemas and SQLite files."""

from __future__ import annotations

import uuid

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from pbem.store.db import make_engine
from pbem.store.models import metadata


def url_with_schema(url: str, schema: str) -> str:
    """The same PostgreSQL database, with `schema` first on the search path."""
    parsed = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
    return parsed.render_as_string(hide_password=False)


def create_pg_schema(base_url: str, prefix: str = "pbem_test") -> tuple[str, str]:
    """A new empty schema; returns (schema name, URL whose connections use it)."""
    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = make_engine(base_url, poolclass=NullPool)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    admin.dispose()
    return schema, url_with_schema(base_url, schema)


def drop_pg_schema(base_url: str, schema: str) -> None:
    admin = make_engine(base_url, poolclass=NullPool)
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    admin.dispose()


def create_tables(url: str) -> None:
    engine = make_engine(url, poolclass=NullPool)
    metadata.create_all(engine)
    engine.dispose()


def truncate_all(url: str) -> None:
    """Empty every table (PostgreSQL), resetting id sequences."""
    engine = make_engine(url, poolclass=NullPool)
    names = ", ".join(f'"{t.name}"' for t in metadata.sorted_tables)
    with engine.begin() as conn:
        conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    engine.dispose()
