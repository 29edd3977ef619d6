"""SQLite specifics: WAL, and writers that wait for each other instead of failing."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import text
from sqlalchemy.exc import StatementError
from sqlmodel import select

from pbem.store.db import make_engine, transaction
from pbem.store.models import Player


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    engine.dispose()


def test_a_second_writer_waits_for_the_first_instead_of_failing(sqlite_url: str) -> None:
    """Both read, then write: with BEGIN IMMEDIATE the second starts after the first commits."""
    engine = make_engine(sqlite_url)
    order: list[str] = []
    first_in = threading.Event()

    def first() -> None:
        with transaction(engine) as s:
            s.execute(text("SELECT count(*) FROM player")).scalar()
            first_in.set()
            time.sleep(0.3)
            s.add(Player(email="a@x.org", name="A"))
            order.append("first committed")

    def second() -> None:
        first_in.wait()
        with transaction(engine) as s:
            count = s.execute(text("SELECT count(*) FROM player")).scalar()  # BEGINs here
            order.append("second began")
            s.add(Player(email="b@x.org", name=f"B after {count}"))

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert order == ["first committed", "second began"]
    with transaction(engine, read_only=True) as s:
        names = s.execute(text("SELECT name FROM player ORDER BY id")).scalars().all()
    assert names == ["A", "B after 1"]
    engine.dispose()


def test_readers_do_not_wait_for_a_writer(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    with transaction(engine) as writer:
        writer.add(Player(email="a@x.org", name="A"))
        writer.flush()
        started = time.monotonic()
        with transaction(engine, read_only=True) as reader:
            assert reader.execute(text("SELECT count(*) FROM player")).scalar() == 0
        assert time.monotonic() - started < 1
    engine.dispose()


def test_a_utc_column_stores_the_text_sqlalchemy_stores_and_refuses_naive_times(
        sqlite_url: str) -> None:
    """UTCDateTime formats a value itself on SQLite: the same text (UTC, six digits of
    microseconds, whatever the offset given) that SQLAlchemy's DateTime stores and reads."""
    engine = make_engine(sqlite_url)
    paris = timezone(timedelta(hours=1))
    with transaction(engine) as s:
        s.add(Player(email="a@x.org", name="A",
                     created_at=datetime(2030, 1, 2, 4, 5, 6, tzinfo=paris)))
    with transaction(engine) as s:
        assert s.execute(text("SELECT created_at FROM player")).scalar() == \
            "2030-01-02 03:05:06.000000"
        player = s.exec(select(Player)).one()
        assert player.created_at == datetime(2030, 1, 2, 3, 5, 6, tzinfo=UTC)
    with pytest.raises(StatementError, match="naive datetime"), transaction(engine) as s:
        s.add(Player(email="b@x.org", name="B", created_at=datetime(2030, 1, 2)))
    engine.dispose()
