"""Sign-in links (/signin/<token>): what a link is (live, used, expired, unknown) and using it
up, once. Mail scanners open every link, so only a POST may call `use_signin`. A link may carry
where the player was (`?next=/games/12`): `local_path` says whether that is a path of this
site to land on after signing in, so that no link can send anyone elsewhere."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from pbem.present.tokens import consume_token, hash_token
from pbem.service.accounts import account_for, player_by_address
from pbem.store.db import transaction
from pbem.store.models import Player, Token

PURPOSE = "signin"
LIVE, USED, EXPIRED, UNKNOWN = "live", "used", "expired", "unknown"
NEXT_MAX = 200  # our own paths are far shorter (/games/12/summary)
# One "/" then RFC 3986 path, query and fragment characters, less "%" and the backslash: no
# scheme or host ("//evil", and "/\evil", which browsers read as "//evil"), no spaces or
# control characters (browsers drop tabs and newlines inside URLs: "/<TAB>/evil" is "//evil"
# to them), nothing percent-encoded that something further on might decode into those.
_LOCAL_PATH = re.compile(r"/(?!/)[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]*")


@dataclass(frozen=True)
class SigninLink:
    state: str  # LIVE, USED, EXPIRED or UNKNOWN
    player_id: int | None = None
    name: str = ""


def local_path(value: str | None) -> str | None:
    """`value` if it is a path of this site to go to after signing in, else None (ignored:
    the player lands on their games)."""
    if value is None or len(value) > NEXT_MAX or not _LOCAL_PATH.fullmatch(value):
        return None
    return value


def _find(session: Session, raw: str, now: datetime) -> tuple[SigninLink, Token | None]:
    """The link's state, with its player: the token's, else the one of its address (made
    since, by another link or an invitation); a live link for an address nobody plays from
    has none yet (name "")."""
    token = session.exec(select(Token).where(Token.token_hash == hash_token(raw.strip()),
                                             Token.purpose == PURPOSE)).first()
    if token is None:
        return SigninLink(UNKNOWN), None
    player = session.get(Player, token.player_id) if token.player_id else \
        player_by_address(session, token.email) if token.email else None
    if player is None and not token.email:
        return SigninLink(UNKNOWN), None
    if token.used_at is not None:
        return SigninLink(USED), token
    if token.expires_at is None or token.expires_at <= now:
        return SigninLink(EXPIRED), token
    return SigninLink(LIVE, player.id if player else None, player.name if player else ""), \
        token


def check_signin(engine: Engine, raw: str, now: datetime | None = None) -> SigninLink:
    """What the link is, changing nothing (for the GET that shows the confirm button)."""
    with transaction(engine, read_only=True) as session:
        return _find(session, raw, now or datetime.now(UTC))[0]


def use_signin(engine: Engine, raw: str, now: datetime | None = None) -> SigninLink:
    """Use the link up: LIVE (with the player, whose account is made now if its address had
    none) for exactly one caller, even when two POSTs race; USED for the others. Two links
    for one new address used at once: the second's account fails the unique address and is
    tried again, finding the first's."""
    now = now or datetime.now(UTC)
    for attempt in range(2):
        try:
            with transaction(engine) as session:
                return _use(session, raw, now)
        except IntegrityError:
            if attempt:
                raise
    raise AssertionError("unreachable")


def _use(session: Session, raw: str, now: datetime) -> SigninLink:
    link, token = _find(session, raw, now)
    if link.state != LIVE or token is None:
        return link
    if not consume_token(session, token, now=now):
        return SigninLink(USED)
    if link.player_id is not None:
        return link
    player = account_for(session, token.email or "")
    token.player_id = player.id  # the link is theirs now: they took part (pbem.mail.strangers)
    session.add(token)
    return SigninLink(LIVE, player.id, player.name)
