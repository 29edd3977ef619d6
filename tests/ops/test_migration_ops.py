"""Operating the migrations: two `pbem db upgrade` at once are safe (a lock), every earlier
revision upgrades with its data kept and backfilled, and each downgrade round-trips."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from sqlalchemy import func
from sqlalchemy.pool import NullPool
from sqlmodel import select

from pbem.app import db_engine
from pbem.scheduler.backfill import backfill_url
from pbem.store.db import make_engine, transaction
from pbem.store.migrate import current_heads, downgrade, upgrade
from pbem.store.models import Deadline, Event, Game, metadata
from pbem.store.testing import create_pg_schema, drop_pg_schema
from tests.web.support import start_game

EARLIER_REVISIONS = ["0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009",
                     "0010", "0012", "0015", "0016", "0017", "0018"]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ops.sqlite3'}"
        return
    base = os.environ.get("PBEM_TEST_DATABASE_URL")
    if base is None:
        pytest.skip("PBEM_TEST_DATABASE_URL is not set")
    schema, url = create_pg_schema(base, prefix="pbem_ops")
    yield url
    drop_pg_schema(base, schema)


def _upgrade_when_told(url: str, go: object, results: object) -> None:
    go.wait(60)  # type: ignore[attr-defined]
    try:
        upgrade(url)
        results.put("ok")  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001 - reported to the test
        results.put(f"{type(exc).__name__}: {exc}")  # type: ignore[attr-defined]


def _heads(url: str) -> list[str]:
    engine = make_engine(url, poolclass=NullPool)
    with engine.connect() as conn:
        heads = list(MigrationContext.configure(conn).get_current_heads())
    engine.dispose()
    return heads


def test_two_upgrades_at_once_on_an_empty_database(empty_url: str) -> None:
    """Two processes released together (the systemd units upgrade on every host at start)."""
    mp = multiprocessing.get_context("fork")
    go, results = mp.Event(), mp.Queue()
    workers = [mp.Process(target=_upgrade_when_told, args=(empty_url, go, results))
               for _ in range(2)]
    for worker in workers:
        worker.start()
    go.set()
    for worker in workers:
        worker.join(180)
    assert [results.get(timeout=5) for _ in workers] == ["ok", "ok"]
    assert _heads(empty_url) == list(current_heads(empty_url))


def _counts(engine: object) -> tuple[int, str, int]:
    with transaction(engine, read_only=True) as session:  # type: ignore[arg-type]
        events = session.exec(select(func.count()).select_from(Event)).one()
        status = session.exec(select(Game.status)).one()
        pending = session.exec(select(func.count()).select_from(Deadline)
                               .where(Deadline.status == "pending")).one()
    return events, status, pending


@pytest.mark.parametrize("revision", EARLIER_REVISIONS)
def test_a_game_in_progress_survives_an_upgrade_from_each_earlier_revision(
    empty_url: str, make_app: Callable[..., Flask], revision: str
) -> None:
    upgrade(empty_url)
    app = make_app(DATABASE_URL=empty_url)
    start_game(app)  # one human asked to pass: one pending deadline
    engine = db_engine(app)
    before = _counts(engine)
    assert before[1:] == ("active", 1)
    engine.dispose()
    downgrade(empty_url, revision)  # the database as that revision left it, data included
    assert _heads(empty_url) == [revision]
    upgrade(empty_url, after=backfill_url)  # as `pbem db upgrade` does
    assert _counts(engine) == before  # events kept, the deadline there (backfilled from 0001)
    check = make_engine(empty_url, poolclass=NullPool)
    with check.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
    check.dispose()


def test_games_finished_before_ratings_are_rated_by_the_upgrade(empty_url: str) -> None:
    """Migration 0010 adds ratings; `pbem db upgrade`'s backfill rates the games that had
    already finished, once (a second upgrade rates nothing more)."""
    from pbem.service.ratings import rate_finished
    from pbem.store.models import RatedGame, RatingChange
    from tests.service.test_ratings import ANN, BOB, new_game, play_out

    upgrade(empty_url)
    engine = make_engine(empty_url, poolclass=NullPool)
    ctx, game_id = new_game(engine, [ANN, BOB])
    play_out(ctx, game_id)
    downgrade(empty_url, "0009")
    upgrade(empty_url, after=backfill_url)
    with transaction(engine, read_only=True) as session:
        rated = session.get(RatedGame, game_id)
        assert rated is not None and rated.counted
        assert len(session.exec(select(RatingChange)).all()) == 2
    upgrade(empty_url, after=backfill_url)
    assert rate_finished(engine, game_id) is False
    with transaction(engine, read_only=True) as session:
        assert len(session.exec(select(RatingChange)).all()) == 2
    engine.dispose()
