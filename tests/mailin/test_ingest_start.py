"""`pbem ingest`, which an MTA starts once per message, only stores the message, with the
standard library (psycopg for PostgreSQL): not SQLAlchemy, Flask or the service
(pbem.mailin.pipe). Its row is the one store_raw writes, in the database the app uses."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlmodel import col, select

from pbem import config
from pbem.app import create_app, db_engine
from pbem.mailin.pipe import sqlite_path
from pbem.mailin.process import deliver
from pbem.mailin.rawmail import content_hash
from pbem.mailin.receive import store_raw
from pbem.store.db import make_engine, transaction
from pbem.store.models import InboundMail
from pbem.store.testing import create_tables
from tests.mailin.support import inbox
from tests.security.support import pbem_env

LIST_MODULES = ("import atexit, runpy, sys; atexit.register(lambda: sys.stderr.write("
                "'modules ' + ' '.join(sorted(sys.modules)) + '\\n')); "
                "sys.argv[0] = 'pbem'; runpy.run_module('pbem', run_name='__main__')")
MESSAGE = (b"From: ann@example.org\r\nTo: play+nosuchtoken@pbem.test\r\nSubject: Re: Hearts\r\n"
           b"Message-ID: <start-1@example.org>\r\n\r\nQS\r\n")
NOT_NEEDED = ("sqlalchemy", "sqlmodel", "pydantic", "flask", "click", "jinja2", "alembic",
              "apscheduler", "pbem.store", "pbem.service", "pbem.engine", "pbem.mail",
              "pbem.mailin.process", "pbem.web", "pbem.scheduler", "pbem.app", "pbem.cli")


def _ingest(env: dict[str, str], message: bytes = MESSAGE,
            *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", LIST_MODULES, "ingest", *args], input=message,
                          capture_output=True, env=env, timeout=120)


def _loaded_but_not_needed(stderr: bytes) -> list[str]:
    listed = stderr.decode().split("modules ")[-1].split()
    assert "pbem.mailin.pipe" in listed
    return [m for m in listed if any(m == n or m.startswith(n + ".") for n in NOT_NEEDED)]


def test_pbem_ingest_stores_the_message_with_the_standard_library_only(
        db_url: str, engine: Engine, tmp_path: Path) -> None:
    done = _ingest(pbem_env(db_url, tmp_path))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode() == "stored #1\n"
    assert _loaded_but_not_needed(done.stderr) == []
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(InboundMail)).all()
    assert [(r.message_id, r.status, r.processed_at) for r in rows] == [
        ("<start-1@example.org>", "pending", None)]


def test_its_row_is_the_one_store_raw_writes(db_url: str, engine: Engine,
                                             tmp_path: Path) -> None:
    """The same message body under two Message-IDs, one stored by the process, one by
    store_raw: every column alike but the id and the times (read back by SQLAlchemy, and on
    SQLite also as stored: the time's text form)."""
    other = MESSAGE.replace(b"start-1@", b"start-2@")
    done = _ingest(pbem_env(db_url, tmp_path), MESSAGE, "-r", "play+x@pbem.test")
    assert done.returncode == 0, done.stderr.decode()
    store_raw(engine, b"Delivered-To: play+x@pbem.test\r\n" + other)
    with transaction(engine, read_only=True) as session:
        piped, stored = session.exec(select(InboundMail).order_by(col(InboundMail.id))).all()
    assert piped.raw == b"Delivered-To: play+x@pbem.test\r\n" + MESSAGE
    assert piped.content_hash == stored.content_hash == content_hash(MESSAGE)
    assert (piped.status, piped.reason, piped.processed_at) == \
        (stored.status, stored.reason, stored.processed_at) == ("pending", None, None)
    assert piped.received_at.tzinfo is not None
    assert abs((piped.received_at - stored.received_at).total_seconds()) < 60
    if make_url(db_url).get_backend_name() == "sqlite":
        path = make_url(db_url).database
        assert path is not None
        with sqlite3.connect(path) as raw_db:
            typed = raw_db.execute("SELECT typeof(message_id), typeof(raw), typeof(received_at),"
                                   " length(received_at) FROM inbound_mail ORDER BY id").fetchall()
        assert typed[0] == typed[1] == ("text", "blob", "text", 26)


def test_a_message_stored_by_the_process_is_a_duplicate_for_every_other_way_in(
        db_url: str, engine: Engine, tmp_path: Path) -> None:
    assert _ingest(pbem_env(db_url, tmp_path)).returncode == 0
    stored = deliver(inbox(engine), MESSAGE)
    assert (stored.id, stored.created) == (1, False)


def test_without_a_database_it_asks_the_mta_to_retry_and_creates_no_file(
        tmp_path: Path) -> None:
    missing = tmp_path / "missing.sqlite3"
    done = _ingest(pbem_env(f"sqlite:///{missing}", tmp_path))
    assert done.returncode == 75, done.stderr.decode()
    assert b"could not be stored" in done.stderr and not missing.exists()


def test_with_no_database_url_it_finds_the_apps_sqlite_file_in_the_instance_folder(
        tmp_path: Path) -> None:
    create_tables(f"sqlite:///{tmp_path / config.SQLITE_FILE}")
    env = {k: v for k, v in pbem_env("", tmp_path).items() if k != "PBEM_DATABASE_URL"}
    done = _ingest(env)
    assert done.returncode == 0, done.stderr.decode()
    engine = make_engine(f"sqlite:///{tmp_path / config.SQLITE_FILE}")
    with transaction(engine, read_only=True) as session:
        assert len(session.exec(select(InboundMail)).all()) == 1
    engine.dispose()


@pytest.mark.parametrize("environ", [
    {"PBEM_DATABASE_URL": "postgresql://u:p@db.example/pbem"},
    {"PBEM_INSTANCE_PATH": "some/instance"},
    {},
])
def test_the_database_url_is_the_one_the_app_uses(
        environ: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    app = create_app({"SECRET_KEY": "k" * 32, "TESTING": True})  # the environment's settings
    db_engine(app).dispose()
    assert config.database_url(environ) == app.config["DATABASE_URL"]


def test_the_default_instance_folder_is_flasks() -> None:
    assert config.default_instance_path() == Flask("pbem").instance_path


@pytest.mark.parametrize("url", ["sqlite:///pbem.sqlite3", "sqlite:////var/lib/pbem/db.sqlite3",
                                 "sqlite+pysqlite:///rel/x.db"])
def test_the_sqlite_file_is_the_one_sqlalchemy_opens(url: str) -> None:
    assert sqlite_path(url) == make_url(url).database


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", "sqlite:///a%20b.db",
                                 "sqlite:///x.db?timeout=5", "sqlite:///file:x.db?uri=true"])
def test_unusual_sqlite_urls_go_through_sqlalchemy(url: str) -> None:
    assert sqlite_path(url) is None
