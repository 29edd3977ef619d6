"""One-time tokens for links and reply addresses: random, stored only as a sha256 hash."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, bindparam, insert, update
from sqlmodel import Session, col, select

from pbem.store.db import execute_write, read_now
from pbem.store.gamerows import plain_token
from pbem.store.models import Token

PURPOSES = frozenset({"reply", "card", "pass", "invite", "unsubscribe", "seat", "join",
                      "signin"})
DEFAULT_TTL = timedelta(days=30)


def hash_token(raw: str) -> str:
    """The sha256 hex digest stored for a raw token (the raw token is never stored)."""
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def raw_token(purpose: str) -> str:
    """A fresh random token (at least 120 bits).

    Reply tokens travel in an address local part (`play+TOKEN@domain`), which some mail
    systems lower-case, so they use lower-case base32; link tokens use `token_urlsafe`.
    """
    if purpose == "reply":
        return base64.b32encode(secrets.token_bytes(15)).decode("ascii").lower()
    return secrets.token_urlsafe(18)


def new_token(
    session: Session,
    purpose: str,
    *,
    game_id: int | None = None,
    seat_no: int | None = None,
    player_id: int | None = None,
    turn_seq: int | None = None,
    card: str | None = None,
    ttl: timedelta = DEFAULT_TTL,
    now: datetime | None = None,
) -> str:
    """Create a Token row in the caller's transaction and return the raw token."""
    raw, row = token_values(purpose, game_id=game_id, seat_no=seat_no, player_id=player_id,
                            turn_seq=turn_seq, card=card, ttl=ttl, now=now)
    insert_tokens(session, [row])  # a plain INSERT (collected when planning a command)
    return raw


_TOKENS = Token.__table__  # type: ignore[attr-defined]


_INSERT_TOKENS = insert(_TOKENS)
_BY_HASH = select(_TOKENS).where(_TOKENS.c.token_hash.in_(bindparam("hashes", expanding=True)))


def token_values(
    purpose: str,
    *,
    game_id: int | None = None,
    seat_no: int | None = None,
    player_id: int | None = None,
    turn_seq: int | None = None,
    card: str | None = None,
    ttl: timedelta = DEFAULT_TTL,
    now: datetime | None = None,
) -> tuple[str, dict[str, Any]]:
    """A raw token and the column values of its Token row, for `insert_tokens` (the fast way
    to add many: one executemany, no ORM objects)."""
    if purpose not in PURPOSES:
        raise ValueError(f"unknown token purpose {purpose!r}")
    now = now or datetime.now(UTC)
    raw = raw_token(purpose)
    return raw, {
        "token_hash": hash_token(raw), "purpose": purpose, "game_id": game_id,
        "seat_no": seat_no, "player_id": player_id, "turn_seq": turn_seq, "card": card,
        "used_at": None, "created_at": now, "expires_at": now + ttl,
    }


def insert_tokens(session: Session, rows: list[dict[str, Any]]) -> None:
    """Insert rows made by `token_values` in the session's transaction (one statement)."""
    if rows:
        execute_write(session, _INSERT_TOKENS, rows)


def live_token(tokens: Sequence[Token], purposes: set[str] | frozenset[str] | None = None,
               *, now: datetime | None = None) -> Token | None:
    """The first of `tokens` (found by a raw token's hashes) of one of `purposes` that has
    not expired."""
    now = now or datetime.now(UTC)
    for token in tokens:
        if purposes is not None and token.purpose not in purposes:
            continue
        if token.expires_at is None or token.expires_at > now:
            return token
    return None


def token_hashes(raw: str) -> list[str]:
    """The hashes a raw token may be stored under: as typed, and lower-cased (a reply token
    may come back upper-cased by a mail system; its canonical form is lower)."""
    raw = raw.strip()
    return list(dict.fromkeys([hash_token(raw), hash_token(raw.lower())]))


def find_token(
    session: Session, raw: str, purposes: set[str] | frozenset[str] | None = None,
    *, now: datetime | None = None,
) -> Token | None:
    """The live (unexpired) Token for a raw token, or None. Does not consume it."""
    now = now or datetime.now(UTC)
    query = select(Token).where(Token.token_hash.in_(token_hashes(raw)))  # type: ignore[attr-defined]
    for token in session.exec(query):
        if purposes is not None and token.purpose not in purposes:
            continue
        if token.expires_at is None or token.expires_at > now:
            return token
    return None


def find_token_row(
    session: Session, raw: str, purposes: set[str] | frozenset[str] | None = None,
    *, now: datetime | None = None,
) -> Token | None:
    """`find_token` for hot read paths: one prebuilt statement run straight through the
    driver (pbem.store.db.read_now), the row as a plain Token (pbem.store.gamerows.plain:
    in no session; read it, never add it)."""
    hashes = token_hashes(raw)
    rows = read_now(session.connection(), _BY_TWO_HASHES,
                    {"first": hashes[0], "second": hashes[-1]})
    return live_token([plain_token(row) for row in rows],
                      purposes, now=now)


# A raw token's two candidate hashes (as typed, lower-cased: the same for link tokens).
_BY_TWO_HASHES = select(_TOKENS).where(_TOKENS.c.token_hash.in_(
    [bindparam("first"), bindparam("second")]))


def consume_token(session: Session, token: Token, *, now: datetime | None = None) -> bool:
    """Mark a token used, atomically: True for exactly one caller, False if already used.

    Call it only from a POST (mail scanners GET every link; GET must only render).
    """
    now = now or datetime.now(UTC)
    result = cast(CursorResult[Any], session.execute(
        update(Token)
        .where(col(Token.id) == token.id, col(Token.used_at).is_(None))
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    ))
    if result.rowcount == 1:
        token.used_at = now
        return True
    return False
