"""For the benchmarks: a fresh database at the newest migration, and the app on it."""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask import Flask  # noqa: E402

from pbem.app import create_app  # noqa: E402
from pbem.store.migrate import upgrade  # noqa: E402
from pbem.store.testing import create_pg_schema, drop_pg_schema  # noqa: E402


@contextmanager
def scratch_database(pg_url: str = "") -> Iterator[tuple[str, str]]:
    """(URL, a temporary folder): a SQLite file in that folder, or with `pg_url` a throwaway
    schema of that PostgreSQL database; migrated to the newest revision, removed after."""
    schema = None
    with tempfile.TemporaryDirectory() as folder:
        if pg_url:
            schema, url = create_pg_schema(pg_url, "pbem_bench")
        else:
            url = f"sqlite:///{folder}/bench.db"
        try:
            upgrade(url)
            yield url, folder
        finally:
            if schema:
                drop_pg_schema(pg_url, schema)


def bench_app(url: str, folder: str, secret: str = "bench") -> Flask:
    return create_app({"DATABASE_URL": url, "SECRET_KEY": secret, "TESTING": True,
                       "BASE_URL": "http://pbem.test", "MAIL_DOMAIN": "pbem.test",
                       "MAIL_FROM": "Hearts <hearts@pbem.test>",
                       "INSTANCE_PATH": f"{folder}/instance"})
