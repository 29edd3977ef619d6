"""Signed-in browsers, kept on the server: the cookie holds a random id, the `web_session`
table its sha256, the player and when it ends. A session is good while its row is there and
unexpired, so signing out (one row), "sign out everywhere" and deleting the account (all the
player's rows) end it for every copy of the cookie, not only in the browser that asked."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import Engine, delete
from sqlmodel import col, select

from pbem.store.db import transaction
from pbem.store.models import Player, WebSession
from pbem.store.types import utcnow

LIFETIME = timedelta(days=30)  # from signing in; the cookie lasts as long


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def start(engine: Engine, player_id: int, now: datetime | None = None) -> str:
    """A new session for the player: the raw id for the cookie (only its hash is kept)."""
    now = now or utcnow()
    raw = secrets.token_urlsafe(24)
    with transaction(engine) as session:
        session.add(WebSession(id_hash=_hash(raw), player_id=player_id, created_at=now,
                               expires_at=now + LIFETIME))
    return raw


def player_of(engine: Engine, raw: str, player_id: int,
              now: datetime | None = None) -> Player | None:
    """The player of a live session with this id (and this player), else None."""
    with transaction(engine, read_only=True) as session:
        return session.exec(select(Player).join(
            WebSession, col(WebSession.player_id) == col(Player.id)).where(
            WebSession.id_hash == _hash(raw), WebSession.player_id == player_id,
            col(WebSession.expires_at) > (now or utcnow()))).first()


def end(engine: Engine, raw: str) -> None:
    """Sign this session out (every copy of its cookie)."""
    with transaction(engine) as session:
        session.execute(delete(WebSession).where(col(WebSession.id_hash) == _hash(raw)))


def end_all(engine: Engine, player_id: int, now: datetime | None = None) -> int:
    """Sign the player out everywhere; expired rows of anyone's go too. How many ended."""
    with transaction(engine) as session:
        ended = session.execute(delete(WebSession).where(
            col(WebSession.player_id) == player_id))
        session.execute(delete(WebSession).where(
            col(WebSession.expires_at) <= (now or utcnow())))
        return int(ended.rowcount or 0)  # type: ignore[attr-defined]
