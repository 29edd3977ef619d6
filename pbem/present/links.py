"""Private seat links (/s/<token>): one long-lived link per (game, seat, player) to their own view.

Tokens are stored only as a hash, so to hand out the same link again its raw form must be
derivable: it is an HMAC of the token row's id and its game, seat and player under the app's
secret key. Nobody without the key can make one; a changed key just makes the next email carry
a fresh link (the old one keeps working until it expires).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import bindparam
from sqlalchemy import select as core_select
from sqlmodel import Session, select

from pbem.present.tokens import find_token, hash_token
from pbem.store.db import is_planning, planned_engine, transaction
from pbem.store.models import Game, Player, Seat, Token

PURPOSE = "seat"
SEAT_TTL = timedelta(days=365)
RENEW_BEFORE = timedelta(days=60)  # a link with less life left than this is not handed out again


_TOKENS = Token.__table__  # type: ignore[attr-defined]
# Looked up for every email a player gets: built once, straight down ix_token_seat_link.
_LIVE_SEAT_TOKENS = (
    core_select(_TOKENS.c.id, _TOKENS.c.token_hash)
    .where(_TOKENS.c.game_id == bindparam("the_game"), _TOKENS.c.seat_no == bindparam("the_seat"),
           _TOKENS.c.purpose == PURPOSE, _TOKENS.c.turn_seq.is_(None),
           _TOKENS.c.player_id == bindparam("the_player"), _TOKENS.c.used_at.is_(None),
           _TOKENS.c.expires_at > bindparam("renew_after"))
    .order_by(_TOKENS.c.id.desc()))


def seat_link(session: Session, game_id: int, seat_no: int, player_id: int, *,
              secret: str | bytes | None = None, now: datetime | None = None) -> str:
    """The raw token of the private link of `player_id` in `seat_no` of `game_id`.

    Reuses the newest live seat token of that (game, seat, player), or adds one in the
    caller's transaction (in a planning session, pbem.store.db.planning, in one of its own:
    a link made for a move that is then redone is simply reused). `secret` defaults to the
    Flask app's SECRET_KEY."""
    key = _key(secret)
    now = now or datetime.now(UTC)
    found = live_seat_link(session, game_id, seat_no, player_id, secret=key, now=now)
    if found is not None:
        return found
    if is_planning(session):  # a move being planned: the link is made at once, on its own
        with transaction(planned_engine(session)) as own:
            return _new_seat_link(own, key, game_id, seat_no, player_id, now)
    return _new_seat_link(session, key, game_id, seat_no, player_id, now)


def _new_seat_link(session: Session, key: bytes, game_id: int, seat_no: int, player_id: int,
                   now: datetime) -> str:
    # The hash needs the row's id: insert with a placeholder hash, then set the real one.
    token = Token(token_hash=_placeholder(), purpose=PURPOSE, game_id=game_id,
                  seat_no=seat_no, player_id=player_id, created_at=now,
                  expires_at=now + SEAT_TTL)
    session.add(token)
    session.flush()
    assert token.id is not None
    raw = _derive(key, token.id, game_id, seat_no, player_id)
    token.token_hash = hash_token(raw)
    session.add(token)
    session.flush()
    return raw


def live_seat_link(session: Session, game_id: int, seat_no: int, player_id: int, *,
                   secret: str | bytes | None = None, now: datetime | None = None) -> str | None:
    """The raw token of the newest live private link of that (game, seat, player), or None:
    reads only (for pages that list links on a GET)."""
    key = _key(secret)
    now = now or datetime.now(UTC)
    live = session.connection().execute(_LIVE_SEAT_TOKENS, {
        "the_game": game_id, "the_seat": seat_no, "the_player": player_id,
        "renew_after": now + RENEW_BEFORE})
    for token_id, token_hash in live:
        raw = _derive(key, token_id, game_id, seat_no, player_id)
        if hmac.compare_digest(hash_token(raw), token_hash):
            return raw
    return None


def find_seat_token(session: Session, raw: str, *, now: datetime | None = None) -> Token | None:
    """The live seat token for `raw` whose seat still belongs to its player, or None.

    (A seat given to someone else, or to a robot, closes the previous player's link: the
    service marks it used then, pbem.service.games `close_seat_links`; `closed_seat` says
    what became of the seat.)"""
    token = find_token(session, raw, frozenset({PURPOSE}), now=now)
    if (token is None or token.used_at is not None or token.turn_seq is not None
            or token.game_id is None or token.seat_no is None or token.player_id is None):
        return None
    seat = session.exec(select(Seat).where(Seat.game_id == token.game_id,
                                           Seat.seat_no == token.seat_no)).first()
    if seat is None or seat.is_bot or seat.player_id != token.player_id:
        return None
    return token


@dataclass(frozen=True)
class ClosedSeat:
    """Why a private link no longer opens its seat: its player "left" (resigned: a robot
    plays it), or the seat went to someone else, "taken" (a newcomer) or "robot"; `when`:
    since when (the link's closing time), None if unknown."""

    why: str
    game_id: int
    game_name: str
    seat_no: int
    when: datetime | None
    time_zone: str | None  # the link's player's


def closed_seat(session: Session, raw: str, *, now: datetime | None = None) -> ClosedSeat | None:
    """What became of the seat of a private link that no longer opens it (`find_seat_token`
    gave None), or None: an unknown or expired link says nothing about anyone's seat."""
    token = find_token(session, raw, frozenset({PURPOSE}), now=now)
    if (token is None or token.turn_seq is not None or token.game_id is None
            or token.seat_no is None or token.player_id is None):
        return None
    seat = session.exec(select(Seat).where(Seat.game_id == token.game_id,
                                           Seat.seat_no == token.seat_no)).first()
    game, player = session.get(Game, token.game_id), session.get(Player, token.player_id)
    if seat is None or game is None or player is None:
        return None
    if seat.player_id == token.player_id:
        if not seat.is_bot:
            return None  # their seat still: the link was closed otherwise
        why = "left"
    else:
        why = "robot" if seat.is_bot or seat.player_id is None else "taken"
    return ClosedSeat(why, token.game_id, game.name, token.seat_no, token.used_at,
                      player.time_zone)


# --- helpers --------------------------------------------------------------------------------

def _key(secret: str | bytes | None) -> bytes:
    if secret is None:
        from flask import current_app

        secret = current_app.config["SECRET_KEY"]
    if not secret:
        raise RuntimeError("seat links need a secret key")
    return secret.encode("utf-8") if isinstance(secret, str) else secret


def _derive(key: bytes, token_id: int, game_id: int, seat_no: int, player_id: int) -> str:
    message = f"seat-link:{token_id}:{game_id}:{seat_no}:{player_id}".encode("ascii")
    digest = hmac.new(key, message, hashlib.sha256).digest()[:18]  # 144 bits
    return base64.urlsafe_b64encode(digest).decode("ascii")


def _placeholder() -> str:
    import secrets

    return "pending-" + secrets.token_hex(24)
