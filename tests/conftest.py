"""Shared fixtures: databases (SQLite always, PostgreSQL when PBEM_TEST_DATABASE_URL is set),
the Flask `app`, its test `client` and CLI `runner`."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import Engine

from pbem.app import create_app, wire_mail
from pbem.store.db import make_engine
from pbem.store.testing import create_pg_schema, create_tables, drop_pg_schema, truncate_all

PG_ENV = "PBEM_TEST_DATABASE_URL"

# The fast subset (`pytest -m "not slow"`, docs/developing/tests.md): SQLite only (the
# PostgreSQL half of every test is `slow`), and none of these, marked `slow` here by file or
# by test (a test may also carry @pytest.mark.slow itself): real browsers, real Dovecot and
# SpamAssassin, processes started (gunicorn, the worker, `pbem`, pg_dump, mkdocs), races run
# with real concurrency, whole games played out, the robots' searches and reviews, the fuzzer.
SLOW_FOLDERS = ("browser",)
SLOW_FILES = frozenset({
    "mail/test_spamassassin.py", "mailin/test_imap.py", "mailin/test_real_inboxes.py",
    "mailin/test_ingest_users.py", "mailin/test_ingest_worker.py",
    "mailin/test_variants_end_to_end.py", "mailin/test_one_email_against_robots.py",
    "ops/test_gunicorn_workers.py", "ops/test_worker_signals.py", "ops/test_packaging.py",
    "ops/test_deploy.py", "ops/test_logs.py", "ops/test_check.py", "ops/test_backup.py",
    "ops/test_migration_ops.py", "security/test_mail_in_crash.py",
    "security/test_mail_in_fuzz.py", "scheduler/test_robots_later.py",
    "scheduler/test_review.py", "store/test_race.py", "store/test_writer_lock.py",
    "service/test_move_race.py", "service/test_channel_race.py",
    "service/test_variant_playouts.py", "web/test_end_to_end.py", "web/test_variant_pages.py",
    "engine/test_bot_strong.py", "engine/test_bot_review.py", "engine/test_bot_variants.py",
    "engine/test_playouts.py", "test_layers.py", "devmail/test_devserver.py",
    "service/test_robot_strength.py", "scheduler/test_robot_games.py",
    "scheduler/test_worker_processes.py", "store/test_claims.py",
    "i18n/test_games_in_languages.py",
})
SLOW_TESTS = frozenset({  # "file::test" (without its parameters)
    "mailin/test_webhook.py::test_a_message_stored_while_no_worker_runs_is_played_once_a_"
    "worker_starts",
    "service/test_new_game_waits.py::test_starting_now_racing_a_join_for_the_last_open_seat",
    "web/test_takeover.py::test_a_newcomer_confirms_by_mail_takes_the_seat_and_lands_on_"
    "their_own_view",
    "ops/test_docs_site.py::test_the_site_builds_strictly",
})


def is_slow(relative: str, name: str = "") -> bool:
    """Whether the test `name` of the file at `relative` (to tests/, with "/") is slow."""
    return (relative.split("/", 1)[0] in SLOW_FOLDERS or relative in SLOW_FILES
            or f"{relative}::{name}" in SLOW_TESTS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    root = Path(__file__).parent
    for item in items:
        name = getattr(item, "originalname", item.name)
        inside = item.path.is_relative_to(root)
        on_postgres = item.get_closest_marker("postgres") or "pg_url" in getattr(
            item, "fixturenames", ())
        if on_postgres or (
                inside and is_slow(item.path.relative_to(root).as_posix(), name)):
            item.add_marker(pytest.mark.slow)


def pg_base_url() -> str | None:
    return os.environ.get(PG_ENV) or None


@pytest.fixture(autouse=True)
def _no_pbem_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests configure the app explicitly; a developer's PBEM_* variables must not leak in."""
    for name in list(os.environ):
        if name.startswith("PBEM_") and name != PG_ENV:
            monkeypatch.delenv(name)


# A command's emails are in the outbox when it returns, and the robots have answered (production
# leaves its mail job and strong robots' moves to the worker: tests/mail/test_mail_jobs.py
# and tests/scheduler/test_robots_later.py cover those paths): the switches (pbem.app
# SWITCHES) the tests' engines and apps are wired with.
TEST_SWITCHES = {"MAIL_NOW": True, "ROBOTS_NOW": True}


@pytest.fixture(scope="session")
def _pg_session_url() -> Iterator[str | None]:
    """One schema per test session (and xdist worker), tables created once."""
    base = pg_base_url()
    if base is None:
        yield None
        return
    schema, url = create_pg_schema(base)
    create_tables(url)
    yield url
    drop_pg_schema(base, schema)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite file with the schema created."""
    url = f"sqlite:///{tmp_path / 'test.sqlite3'}"
    create_tables(url)
    return url


@pytest.fixture
def pg_url(_pg_session_url: str | None) -> str:
    """The session's PostgreSQL schema, emptied for this test (skips without PostgreSQL)."""
    if _pg_session_url is None:
        pytest.skip(f"{PG_ENV} is not set")
    truncate_all(_pg_session_url)
    return _pg_session_url


@pytest.fixture(
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
)
def db_url(request: pytest.FixtureRequest) -> str:
    """An empty database with the schema: each test runs on SQLite and on PostgreSQL."""
    name = "sqlite_url" if request.param == "sqlite" else "pg_url"
    url: str = request.getfixturevalue(name)
    return url


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    eng = make_engine(db_url)
    wire_mail(eng, TEST_SWITCHES)  # as the app factory wires its own
    yield eng
    eng.dispose()


def base_config(tmp_path: Path, db_url: str) -> dict[str, Any]:
    return {
        "TESTING": True,
        "DATABASE_URL": db_url,
        "SECRET_KEY": "test-secret-key",
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "BASE_URL": "http://pbem.test",
        "MAIL_DOMAIN": "pbem.test",
        "MAIL_FROM": "Hearts <hearts@pbem.test>",
        **TEST_SWITCHES,
    }


@pytest.fixture
def make_app(tmp_path: Path, sqlite_url: str) -> Iterator[Callable[..., Flask]]:
    """Build apps with extra config: `make_app(DATABASE_URL=pg_url, BASE_URL=...)`."""
    apps: list[Flask] = []

    def build(**overrides: Any) -> Flask:
        cfg = base_config(tmp_path, sqlite_url)
        cfg.update(overrides)
        app = create_app(cfg)
        apps.append(app)
        return app

    yield build
    from pbem.app import db_engine

    for app in apps:
        db_engine(app).dispose()


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """The app on a fresh SQLite database (use `make_app(DATABASE_URL=db_url)` for both)."""
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """`runner.invoke(args=["db", "upgrade"])` runs a `pbem` command against `app`."""
    return app.test_cli_runner()
