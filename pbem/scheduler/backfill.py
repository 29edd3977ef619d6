"""What migrations introduce for games already under way, filled in after `pbem db upgrade`.

Deadline rows (migration 0002) exist only for turns asked after it: a game in progress when a
database is upgraded from 0001 would never be reminded or timed out. The backfill runs with
today's code once the schema is at head (never against a half-migrated one), is idempotent,
and touches only active games that have no pending deadline at all."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import Engine
from sqlalchemy.pool import NullPool
from sqlmodel import col, select

from pbem.service.deadlines import sync_deadlines
from pbem.service.ratings import rate_finished
from pbem.store.db import make_engine, transaction
from pbem.store.events import load_state
from pbem.store.models import Deadline, Game, RatedGame
from pbem.store.types import utcnow

log = logging.getLogger(__name__)


def backfill_deadlines(engine: Engine, now: datetime | None = None) -> int:
    """Open the deadlines of active games that have none (each game in its own transaction);
    the clock starts now, so nobody is timed out for time the service did not count."""
    now = now or utcnow()
    with transaction(engine, read_only=True) as session:
        game_ids = session.exec(select(Game.id).where(Game.status == "active")).all()
    opened = 0
    for game_id in game_ids:
        assert game_id is not None
        with transaction(engine) as session:
            game = session.get(Game, game_id, with_for_update=True)
            pending = session.exec(select(Deadline.id).where(
                Deadline.game_id == game_id, Deadline.status == "pending")).first()
            if game is None or game.status != "active" or pending is not None:
                continue
            opened += len(sync_deadlines(session, game, load_state(session, game_id).state,
                                         (), now))
    if opened:
        log.info("opened %d deadlines for games in progress", opened)
    return opened


def backfill_ratings(engine: Engine) -> int:
    """Rate finished games that have no rating decision (those that ended before migration
    0010), oldest first: ratings depend on the order of games. Idempotent."""
    with transaction(engine, read_only=True) as session:
        game_ids = session.exec(
            select(Game.id).outerjoin(RatedGame, col(RatedGame.game_id) == col(Game.id))
            .where(Game.status == "finished", col(RatedGame.game_id).is_(None))
            .order_by(col(Game.id))).all()
    rated = sum(rate_finished(engine, game_id) for game_id in game_ids if game_id is not None)
    if rated:
        log.info("rated %d finished games", rated)
    return rated


def run_backfills(engine: Engine) -> dict[str, int]:
    return {"deadlines": backfill_deadlines(engine), "ratings": backfill_ratings(engine)}


def backfill_url(url: str) -> dict[str, int]:
    """The backfills on the database at `url` (what `pbem db upgrade` runs after upgrading)."""
    engine = make_engine(url, poolclass=NullPool)
    try:
        return run_backfills(engine)
    finally:
        engine.dispose()
