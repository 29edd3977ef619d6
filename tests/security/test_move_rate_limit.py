"""Where the rate limit counts a move (issue 15): with the database as the shared store, the
move buttons count in each web process's memory (no counter write per move), while what
emails people (/new) keeps the count every worker shares. Production refuses memory:// as
the shared store."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

from pbem import ratelimit_store
from pbem.app import db_engine
from pbem.config import production_problems
from pbem.ratelimit_store import ProcessStorage
from pbem.store.db import transaction
from pbem.store.models import RateLimit
from tests.settings import PRODUCTION_SAFE

LIMIT = 3


def _limited(make_app: Callable[..., Flask], db_url: str, **more: str) -> Flask:
    return make_app(DATABASE_URL=db_url, RATELIMIT=f"{LIMIT} per minute",
                    RATELIMIT_ENABLED=True, **more)


def _counter_rows(app: Flask) -> int:
    with transaction(db_engine(app), read_only=True) as session:
        return len(session.exec(select(RateLimit)).all())


def _move(client: FlaskClient) -> int:
    """A move's POST (to a private link nobody has: it is counted before it is answered)."""
    return client.post("/s/no-such-link/play", data={"card": "2C", "turn": "1"}).status_code


def test_moves_count_in_the_process_without_a_database_write(
    make_app: Callable[..., Flask], db_url: str
) -> None:
    worker = _limited(make_app, db_url)
    client = worker.test_client()
    answers = [_move(client) for _ in range(LIMIT)]
    assert 429 not in answers
    refused = client.post("/s/no-such-link/pass", data={})
    assert refused.status_code == 429  # the moves share one bucket in the process
    assert 1 <= int(refused.headers["Retry-After"]) <= 60  # when this minute's window ends
    assert _counter_rows(worker) == 0  # no counter row was written for any move
    assert _move(worker.test_client()) == 429  # same client address, same process
    other = client.post("/s/no-such-link/play", environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert other.status_code != 429  # another client has its own count


def test_every_limit_counts_a_move_and_the_longest_refusing_window_says_when_to_retry(
    make_app: Callable[..., Flask], db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RATELIMIT "2 per minute; 3 per hour": the minute refuses the third move; a minute
    later the hour, which counted the refused move too, refuses the next one until it ends."""
    app = make_app(DATABASE_URL=db_url, RATELIMIT="2 per minute; 3 per hour",
                   RATELIMIT_ENABLED=True)
    client = app.test_client()
    assert [_move(client) for _ in range(2)].count(429) == 0
    refused = client.post("/s/no-such-link/play", data={})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) <= 60
    later = time.time() + 61
    monkeypatch.setattr(ratelimit_store.time, "time", lambda: later)
    again = client.post("/s/no-such-link/play", data={})
    assert again.status_code == 429  # the minute is new, the hour is spent
    assert 60 < int(again.headers["Retry-After"]) <= 3600 - 61


def test_another_worker_counts_moves_apart_but_shares_what_emails_people(
    make_app: Callable[..., Flask], db_url: str
) -> None:
    """Two apps on one database stand for two gunicorn workers."""
    first, second = (_limited(make_app, db_url) for _ in range(2))
    for _ in range(LIMIT):
        _move(first.test_client())
    assert _move(first.test_client()) == 429
    assert _move(second.test_client()) != 429  # each worker counts moves itself
    # /new (it emails the invited) is counted in the database, in a bucket of its own.
    assert first.test_client().post("/new", data={}).status_code != 429
    assert _counter_rows(first) > 0
    for _ in range(LIMIT - 1):
        assert second.test_client().post("/new", data={}).status_code != 429
    assert first.test_client().post("/new", data={}).status_code == 429  # shared


def test_the_database_named_as_the_store_is_the_default(
    make_app: Callable[..., Flask], db_url: str
) -> None:
    worker = _limited(make_app, db_url, RATELIMIT_STORAGE_URL="database")
    client = worker.test_client()
    for _ in range(LIMIT):
        assert client.post("/new", data={}).status_code != 429
    assert client.post("/new", data={}).status_code == 429
    assert _counter_rows(worker) > 0


@pytest.mark.parametrize("store", ["memory://", "memory://?x=1"])
def test_production_refuses_memory_as_the_shared_store(store: str) -> None:
    problems = production_problems({**PRODUCTION_SAFE, "DATABASE_URL": "postgresql://x/y",
                                    "LOG_FORMAT": "plain", "RATELIMIT_STORAGE_URL": store})
    assert any("memory://" in p for p in problems), problems


def test_production_accepts_the_database_and_redis_as_the_shared_store() -> None:
    for store in (None, "database", "redis://127.0.0.1:6379/0"):
        problems = production_problems({**PRODUCTION_SAFE, "DATABASE_URL": "postgresql://x/y",
                                        "LOG_FORMAT": "plain", "RATELIMIT_STORAGE_URL": store})
        assert not any("RATELIMIT" in p for p in problems), problems


def test_the_process_counter_counts_every_racing_increment_and_starts_new_windows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = ProcessStorage()
    threads = [threading.Thread(target=lambda: [store.incr("k", 60) for _ in range(500)])
               for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.get("k") == 4000
    assert store.get("other") == 0
    later = time.time() + 61
    monkeypatch.setattr(ratelimit_store.time, "time", lambda: later)
    assert store.get("k") == 0  # the window ended
    assert store.incr("k", 60) == 1  # a new one starts
    assert store.get_expiry("k") == later + 60
    for n in range(ProcessStorage.PURGE_EVERY):
        store.incr(f"client-{n}", 60)
    monkeypatch.setattr(ratelimit_store.time, "time", lambda: later + 120)
    store.incr("last", 60)
    for _ in range(ProcessStorage.PURGE_EVERY - 1):
        store.incr("last", 60)
    assert set(store.counters) == {"last"}  # ended windows were dropped
