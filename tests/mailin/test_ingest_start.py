"""`pbem ingest`, which an MTA starts once per message, only spools the message, with the
standard library: no database driver, not SQLAlchemy, Flask or the service (pbem.mailin.pipe,
pbem.mailin.spool). The worker's step stores it as store_raw stores every way in's messages,
in the database the app uses, from the spool the app uses."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlmodel import col, select

from pbem import config
from pbem.app import create_app, db_engine
from pbem.mailin.process import deliver
from pbem.mailin.rawmail import content_hash
from pbem.mailin.receive import store_raw, store_spooled
from pbem.mailin.spool import STALE_TMP_SECONDS, remove_stale_tmp, spool_message, waiting
from pbem.store.db import make_engine, transaction
from pbem.store.models import InboundMail
from tests.mailin.support import inbox
from tests.security.support import pbem_env

LIST_MODULES = ("import atexit, runpy, sys; atexit.register(lambda: sys.stderr.write("
                "'modules ' + ' '.join(sorted(sys.modules)) + '\\n')); "
                "sys.argv[0] = 'pbem'; runpy.run_module('pbem', run_name='__main__')")
MESSAGE = (b"From: ann@example.org\r\nTo: play+nosuchtoken@pbem.test\r\nSubject: Re: Hearts\r\n"
           b"Message-ID: <start-1@example.org>\r\n\r\nQS\r\n")
NOT_NEEDED = ("sqlalchemy", "sqlmodel", "pydantic", "flask", "click", "jinja2", "alembic",
              "apscheduler", "psycopg", "sqlite3", "pbem.store", "pbem.service", "pbem.engine",
              "pbem.mail", "pbem.mailin.process", "pbem.mailin.receive", "pbem.web",
              "pbem.scheduler", "pbem.app", "pbem.cli")


def _ingest(env: dict[str, str], message: bytes = MESSAGE,
            *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", LIST_MODULES, "ingest", *args], input=message,
                          capture_output=True, env=env, timeout=120)


def _loaded_but_not_needed(stderr: bytes) -> list[str]:
    listed = stderr.decode().split("modules ")[-1].split()
    assert "pbem.mailin.pipe" in listed
    return [m for m in listed if any(m == n or m.startswith(n + ".") for n in NOT_NEEDED)]


def _rows(engine: Engine) -> list[InboundMail]:
    with transaction(engine, read_only=True) as session:
        return list(session.exec(select(InboundMail).order_by(col(InboundMail.id))))


def test_pbem_ingest_spools_the_message_with_the_standard_library_only(
        db_url: str, engine: Engine, tmp_path: Path) -> None:
    done = _ingest(pbem_env(db_url, tmp_path), MESSAGE, "-r", "play+x@pbem.test")
    assert done.returncode == 0, done.stderr.decode()
    assert _loaded_but_not_needed(done.stderr) == []
    spooled = list(waiting(tmp_path / config.SPOOL_FOLDER))
    assert done.stdout.decode() == f"spooled {spooled[0].name}\n" and len(spooled) == 1
    assert spooled[0].read_bytes() == b"Delivered-To: play+x@pbem.test\r\n" + MESSAGE
    assert list((tmp_path / config.SPOOL_FOLDER / "tmp").iterdir()) == []
    assert _rows(engine) == []  # the database is the worker's business


def test_the_worker_stores_it_as_store_raw_stores_every_other_way_ins_messages(
        db_url: str, engine: Engine, tmp_path: Path) -> None:
    """The same message body under two Message-IDs, one spooled by the process and taken in,
    one stored by store_raw: every column alike but the id and the times (read back by
    SQLAlchemy, and on SQLite also as stored: the time's text form). The file is gone."""
    other = MESSAGE.replace(b"start-1@", b"start-2@")
    done = _ingest(pbem_env(db_url, tmp_path), MESSAGE, "-r", "play+x@pbem.test")
    assert done.returncode == 0, done.stderr.decode()
    assert store_spooled(engine, tmp_path / config.SPOOL_FOLDER) == 1
    assert list(waiting(tmp_path / config.SPOOL_FOLDER)) == []
    store_raw(engine, b"Delivered-To: play+x@pbem.test\r\n" + other)
    piped, stored = _rows(engine)
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


def test_a_spooled_message_is_received_when_it_was_spooled(engine: Engine,
                                                          tmp_path: Path) -> None:
    name = spool_message(tmp_path / "spool", MESSAGE)
    os.utime(tmp_path / "spool" / "new" / name, (1_700_000_000, 1_700_000_000))  # worker late
    store_spooled(engine, tmp_path / "spool")
    assert _rows(engine)[0].received_at.timestamp() == 1_700_000_000


def test_a_message_taken_in_from_the_spool_is_a_duplicate_for_every_other_way_in(
        db_url: str, engine: Engine, tmp_path: Path) -> None:
    assert _ingest(pbem_env(db_url, tmp_path)).returncode == 0
    store_spooled(engine, tmp_path / config.SPOOL_FOLDER)
    stored = deliver(inbox(engine), MESSAGE)
    assert (stored.id, stored.created) == (1, False)


def test_workers_taking_the_same_spool_in_at_once_store_each_message_once(
        db_url: str, engine: Engine, tmp_path: Path) -> None:
    """Two workers' steps (threads, each its own engine) race over 20 spooled messages and
    4 copies of one of them: 20 rows, every file removed."""
    spool = tmp_path / "spool"
    messages = [MESSAGE.replace(b"start-1@", f"race-{n}@".encode()) for n in range(20)]
    for raw in messages + [messages[0]] * 4:
        spool_message(spool, raw)
    engines = [make_engine(db_url) for _ in range(2)]
    try:
        with ThreadPoolExecutor(2) as pool:
            taken = list(pool.map(lambda e: store_spooled(e, spool), engines))
    finally:
        for each in engines:
            each.dispose()
    assert 24 <= sum(taken) <= 48  # a file both read before either removed it counts twice
    assert sorted(r.raw for r in _rows(engine)) == sorted(messages)
    assert list(waiting(spool)) == []


def test_a_file_over_the_cap_is_set_aside_not_stored(
        engine: Engine, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Only `pbem ingest` should write the spool, and it refuses big messages: anything else
    found there that cannot be taken in goes to failed/, logged once, and the rest is stored."""
    spool = tmp_path / "spool"
    spool_message(spool, MESSAGE)
    (spool / "new" / "0-big").write_bytes(b"x" * (10 * 1024 * 1024 + 1))
    assert store_spooled(engine, spool) == 1 and store_spooled(engine, spool) == 0
    assert [p.name for p in (spool / "failed").iterdir()] == ["0-big"]
    assert "0-big is over" in caplog.text and len(_rows(engine)) == 1


def test_files_never_delivered_are_removed_from_tmp_after_a_day(tmp_path: Path) -> None:
    spool = tmp_path / "spool"
    spool_message(spool, MESSAGE)  # delivered: not in tmp/
    left = [spool / "tmp" / "old", spool / "tmp" / "fresh"]
    for path in left:
        path.write_bytes(MESSAGE)
    day_ago = (tmp_path / "spool" / "tmp" / "old").stat().st_mtime - STALE_TMP_SECONDS - 1
    os.utime(left[0], (day_ago, day_ago))
    assert remove_stale_tmp(spool) == 1
    assert [p.name for p in (spool / "tmp").iterdir()] == ["fresh"]
    assert len(list(waiting(spool))) == 1


def test_the_default_spool_is_made_with_the_instance_folder_above_it(tmp_path: Path) -> None:
    """Issue 35: a first message before the service ever ran (no instance folder yet) is
    spooled at once, not answered 75 ("try again later") by every retry for days."""
    instance = tmp_path / "not" / "made" / "yet"
    done = _ingest(pbem_env("", instance))
    assert done.returncode == 0, done.stderr.decode()
    assert [p.read_bytes() for p in waiting(instance / config.SPOOL_FOLDER)] == [MESSAGE]
    for folder in (tmp_path / "not", instance, instance / config.SPOOL_FOLDER):
        assert folder.stat().st_mode & 0o7777 == 0o2770, folder  # the group may write (deploy)


def test_a_named_spool_without_its_parent_folder_asks_the_mta_to_retry_and_creates_nothing(
        tmp_path: Path) -> None:
    """A spool named by PBEM_SPOOL_DIR or --spool is the operator's (a mount not up yet):
    nothing is made above it, and the MTA keeps the message."""
    missing = tmp_path / "missing"
    for env, args in ((pbem_env("", tmp_path, PBEM_SPOOL_DIR=str(missing / "spool")), ()),
                      (pbem_env("", tmp_path), ("--spool", str(missing / "spool")))):
        done = _ingest(env, MESSAGE, *args)
        assert done.returncode == 75, done.stderr.decode()
        assert b"could not be spooled" in done.stderr and not missing.exists()


def test_the_pipe_needs_no_database_access_and_creates_no_lock_file(tmp_path: Path) -> None:
    """The MTA's user needs no rights on the database: not on a SQLite file, its folder or its
    `<file>-writer.lock` (created 0600 by the web or worker process that opens it first)."""
    database = tmp_path / "nobody-may-open" / "pbem.sqlite3"
    done = _ingest(pbem_env(f"sqlite:///{database}", tmp_path))
    assert done.returncode == 0, done.stderr.decode()
    assert not database.parent.exists() and len(list(waiting(tmp_path / config.SPOOL_FOLDER))) == 1


def test_spool_names_the_folder_where_the_mta_passes_no_environment(tmp_path: Path) -> None:
    """Postfix's pipe clears the environment: `--spool` says where, and wins over the rest."""
    env = pbem_env("", tmp_path / "elsewhere", PBEM_SPOOL_DIR=str(tmp_path / "not-this"))
    done = _ingest(env, MESSAGE, "--spool", str(tmp_path / "spool"))
    assert done.returncode == 0, done.stderr.decode()
    assert [p.read_bytes() for p in waiting(tmp_path / "spool")] == [MESSAGE]
    assert not (tmp_path / "not-this").exists()


def test_the_spool_is_the_one_the_app_uses(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    for environ in ({"PBEM_SPOOL_DIR": str(tmp_path / "s")},
                    {"PBEM_INSTANCE_PATH": str(tmp_path / "i")}, {}):
        monkeypatch.chdir(tmp_path)
        for name in ("PBEM_SPOOL_DIR", "PBEM_INSTANCE_PATH"):
            monkeypatch.delenv(name, raising=False)
        for name, value in environ.items():
            monkeypatch.setenv(name, value)
        app = create_app({"SECRET_KEY": "k" * 32, "TESTING": True})
        db_engine(app).dispose()
        assert config.spool_dir(environ) == Path(app.config["SPOOL_DIR"]), environ


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
