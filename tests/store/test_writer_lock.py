"""SQLite writers queue on a file lock (pbem.store.db.writing), so a waiting writer starts the
moment the one before it is done instead of sleeping in SQLite's busy handler."""

from __future__ import annotations

import multiprocessing
import threading
import time
from pathlib import Path

from sqlalchemy import text

from pbem.store.db import make_engine, transaction, writing


def _writes(url: str) -> None:
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS t (n INTEGER)"))


def _hold_then_note(url: str, held: object, release: object, order: object) -> None:
    engine = make_engine(url)
    with writing(engine):
        held.set()  # type: ignore[attr-defined]
        release.wait(10)  # type: ignore[attr-defined]
        order.put("first")  # type: ignore[attr-defined]
        order.close()  # type: ignore[attr-defined]
        order.join_thread()  # delivered before the lock is let go  # type: ignore[attr-defined]


def test_a_writer_waits_for_the_writer_lock_of_another_process(sqlite_url: str) -> None:
    _writes(sqlite_url)
    context = multiprocessing.get_context("spawn")
    held, release, order = context.Event(), context.Event(), context.Queue()
    holder = context.Process(target=_hold_then_note, args=(sqlite_url, held, release, order))
    holder.start()
    assert held.wait(30)
    engine = make_engine(sqlite_url)

    def write() -> None:
        with transaction(engine) as session:
            session.execute(text("INSERT INTO t VALUES (1)"))
        order.put("second")

    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(0.2)
    assert writer.is_alive()  # queued behind the other process's lock
    release.set()
    writer.join(10)
    holder.join(10)
    assert [order.get(timeout=5), order.get(timeout=5)] == ["first", "second"]


def test_writer_lock_is_taken_once_by_nested_transactions_of_one_thread(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    _writes(sqlite_url)
    with writing(engine), writing(engine), transaction(engine) as session:
        session.execute(text("INSERT INTO t VALUES (2)"))
    with transaction(engine, read_only=True) as session:
        assert session.execute(text("SELECT count(*) FROM t")).scalar_one() == 1


def test_writer_lock_file_lies_beside_the_database(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    with writing(engine):
        pass
    database = Path(str(engine.url.database))
    assert (database.parent / (database.name + "-writer.lock")).exists()


def test_readers_do_not_take_the_writer_lock(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    _writes(sqlite_url)
    with writing(engine):
        done = threading.Event()

        def read() -> None:
            with transaction(engine, read_only=True) as session:
                session.execute(text("SELECT count(*) FROM t")).scalar_one()
            done.set()

        reader = threading.Thread(target=read)
        reader.start()
        assert done.wait(5)
        reader.join()
