"""Claims (pbem.store.claims): a unit of work is held by one process and one thread at a time,
never waited for, given back when its block ends, and dropped when its process dies however
it dies; on PostgreSQL per schema (two installations in one database don't block each other).
Another process is a real one here."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine

from pbem.store.claims import GAME, MAIL, claim, holding, kind_code
from pbem.store.db import make_engine
from pbem.store.testing import create_pg_schema, drop_pg_schema
from tests.conftest import pg_base_url

REPO = Path(__file__).resolve().parents[2]
HOLDER = """
import sys, time
from pbem.store.claims import claim
from pbem.store.db import make_engine
with claim(make_engine(sys.argv[1]), sys.argv[2], int(sys.argv[3])) as mine:
    print("held" if mine else "refused", flush=True)
    time.sleep(600 if mine else 0)
"""


def _holder(db_url: str, kind: str, key: int) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    child = subprocess.Popen([sys.executable, "-c", HOLDER, db_url, kind, str(key)], env=env,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "held"
    return child


def _mine(engine: Engine, kind: str, key: int) -> bool:
    with claim(engine, kind, key) as mine:
        return mine


def test_a_unit_held_by_another_process_is_refused_at_once_and_free_after_it_dies(
        engine: Engine, db_url: str) -> None:
    child = _holder(db_url, GAME, 7)
    try:
        started = time.monotonic()
        assert not _mine(engine, GAME, 7)  # refused, not waited for
        assert time.monotonic() - started < 1
        assert _mine(engine, GAME, 8) and _mine(engine, MAIL, 7)  # other units are free
    finally:
        child.kill()  # SIGKILL: no clean-up runs in it
        child.wait()
    deadline = time.monotonic() + 5
    while not _mine(engine, GAME, 7):
        assert time.monotonic() < deadline, "the dead process's claim was kept"
        time.sleep(0.01)


def test_two_threads_of_one_process_never_hold_one_unit(engine: Engine) -> None:
    inside, release = threading.Event(), threading.Event()

    def hold() -> None:
        with claim(engine, GAME, 3) as mine:
            assert mine
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    inside.wait(10)
    try:
        assert (GAME, 3) in holding(engine)
        assert not _mine(engine, GAME, 3)
    finally:
        release.set()
        thread.join()
    assert holding(engine) == [] and _mine(engine, GAME, 3)


def test_a_claim_is_given_back_when_its_block_raises(engine: Engine) -> None:
    with pytest.raises(RuntimeError), claim(engine, GAME, 4) as mine:
        assert mine
        raise RuntimeError("the work failed")
    assert _mine(engine, GAME, 4)


@pytest.mark.postgres
def test_postgresql_claims_are_per_schema(pg_url: str) -> None:
    base = pg_base_url()
    assert base is not None
    schema, other_url = create_pg_schema(base, "pbem_other")
    child = _holder(pg_url, GAME, 9)
    other = make_engine(other_url)
    try:
        assert _mine(other, GAME, 9)  # another installation's game 9 is another unit
        assert kind_code(GAME, "a") != kind_code(GAME, "b")
    finally:
        child.kill()
        child.wait()
        other.dispose()
        drop_pg_schema(base, schema)
