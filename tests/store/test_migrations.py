"""The Alembic migrations build exactly the schema the models describe."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.pool import NullPool

from pbem.store.db import make_engine
from pbem.store.migrate import current_heads, upgrade
from pbem.store.models import metadata
from pbem.store.testing import create_pg_schema, drop_pg_schema


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with no tables at all."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'migrated.sqlite3'}"
        return
    base = os.environ.get("PBEM_TEST_DATABASE_URL")
    if base is None:
        pytest.skip("PBEM_TEST_DATABASE_URL is not set")
    schema, url = create_pg_schema(base, prefix="pbem_migr")
    yield url
    drop_pg_schema(base, schema)


def test_migrations_create_the_schema_the_models_describe(empty_db_url: str) -> None:
    upgrade(empty_db_url)
    engine = make_engine(empty_db_url, poolclass=NullPool)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
        assert context.get_current_heads() == current_heads(empty_db_url)
    engine.dispose()


def test_upgrade_twice_is_harmless(empty_db_url: str) -> None:
    upgrade(empty_db_url)
    upgrade(empty_db_url)
    engine = make_engine(empty_db_url, poolclass=NullPool)
    assert set(metadata.tables) <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_migrated_deadlines_accept_every_kind_the_models_know(empty_db_url: str) -> None:
    from pbem.store.models import DEADLINE_KINDS

    upgrade(empty_db_url)
    engine = make_engine(empty_db_url, poolclass=NullPool)
    checks = {c["name"]: c["sqltext"] for c in inspect(engine).get_check_constraints("deadline")}
    engine.dispose()
    assert all(f"'{kind}'" in checks["ck_deadline_kind"] for kind in DEADLINE_KINDS)


def test_the_migrations_form_one_line_of_unique_revisions() -> None:
    """Two branches that each add a migration numbered 0004 must not both land: every revision
    id is unique, each file's number is its revision, and there is exactly one head."""
    from alembic.script import ScriptDirectory

    from pbem.store.migrate import alembic_config

    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    files = sorted((Path(scripts.dir) / "versions").glob("[0-9]*.py"))
    ids = [path.name.split("_", 1)[0] for path in files]
    assert len(ids) == len(set(ids)), ids
    assert [r.revision for r in reversed(list(scripts.walk_revisions()))] == ids
    assert scripts.get_heads() == [ids[-1]]
