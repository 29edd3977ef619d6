"""Fixtures for mail tests: a real SMTP server (aiosmtpd) on loopback and real databases."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

import pbem.store.models  # noqa: F401  (registers the tables)
from pbem.app import wire_mail
from pbem.mail.compose import MailSettings
from pbem.store.db import make_engine
from tests.conftest import TEST_SWITCHES
from tests.mail.game_support import PlayedGame, create_game
from tests.mail.mailtest_support import SmtpServer, free_port


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
def game(engine: Engine) -> PlayedGame:
    """A four-player game stepped by hand (tests/mail/game_support.py), not yet dealt."""
    return create_game(engine)


@pytest.fixture
def sqlite_engine(sqlite_url: str) -> Iterator[Engine]:
    """SQLite only (tests/conftest.py's `engine` runs on SQLite and PostgreSQL)."""
    eng = make_engine(sqlite_url)
    wire_mail(eng, TEST_SWITCHES)
    yield eng
    eng.dispose()
