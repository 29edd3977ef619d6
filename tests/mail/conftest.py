"""Fixtures for mail tests: a real SMTP server (aiosmtpd) on loopback and real databases."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from mailtest_support import SmtpServer, free_port
from sqlalchemy import Engine, text
from sqlmodel import SQLModel

import pbem.store.models  # noqa: F401  (registers the tables)
from pbem.mail.compose import MailSettings
from pbem.store.db import make_engine


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    server = SmtpServer(free_port())
    server.start()
    yield server
    server.stop()


@pytest.fixture
def stopped_smtp_server() -> Iterator[SmtpServer]:
    """A server object whose port has nobody listening until the test calls start()."""
    server = SmtpServer(free_port())
    yield server
    server.stop()


@pytest.fixture
def mail_settings() -> MailSettings:
    return MailSettings(domain="hearts.test", base_url="https://hearts.test")


@pytest.fixture
def sqlite_engine(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'mail.sqlite3'}")
    SQLModel.metadata.create_all(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def postgres_engine() -> Iterator[Engine]:
    """Tables in a throwaway schema of PBEM_TEST_DATABASE_URL (skipped when unset)."""
    url = os.environ.get("PBEM_TEST_DATABASE_URL")
    if not url:
        pytest.skip("PBEM_TEST_DATABASE_URL is not set")
    schema = f"mail_test_{uuid.uuid4().hex[:12]}"
    admin = make_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine = make_engine(url, connect_args={"options": f"-csearch_path={schema}"})
    SQLModel.metadata.create_all(engine)
    yield engine
    engine.dispose()
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_engine(request: pytest.FixtureRequest) -> Engine:
    return request.getfixturevalue(f"{request.param}_engine")  # type: ignore[no-any-return]
