"""Mail to one address, whoever asks for it: its mailbox (plus-variants are one mailbox), a
lock that makes counting and sending one step, and what it was sent lately.

Anyone may type anyone's address (sign-in, /new's invitations, "add another address"), so
the limits that protect a mailbox count what that mailbox was sent, from every sender
(pbem.mail.strangers), not only what one sender asked for."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, exists, func, or_, text
from sqlmodel import Session, col, select

from pbem.store.models import OutboxEmail, Player, Seat, Token, normalise_email
from pbem.store.types import utcnow

# Emails a sender's typing sends to an address (invitations, confirmations of an address).
UNASKED = ("invite", "invite_reminder", "address_confirm", "join_confirm")
STRANGER_PER_DAY = 5
KNOWN_PER_DAY = 20

# PostgreSQL: one transaction at a time counts and sends to one mailbox (SQLite's write
# transactions run one at a time anyway).
_LOCK = text("select pg_advisory_xact_lock(hashtext('pbem-mailbox:' || :mailbox))")


def mailbox(address: str) -> str:
    """The mailbox an address delivers to: lower-cased, without a +tag (bob+x@ is bob@)."""
    local, at, domain = normalise_email(address).rpartition("@")
    return f"{local.partition('+')[0]}{at}{domain}"


def lock_mailbox(session: Session, address: str) -> None:
    """Hold the mailbox's lock to the end of the transaction (PostgreSQL)."""
    if session.get_bind().dialect.name == "postgresql":
        session.connection().execute(_LOCK, {"mailbox": mailbox(address)})


def _same_mailbox(column: Any, address: str) -> ColumnElement[bool]:
    """SQL: the column holds an address of `address`'s mailbox (itself or a +variant)."""
    box = mailbox(address)
    local, _, domain = box.rpartition("@")
    pattern = f"{like_escaped(local)}+%@{like_escaped(domain)}"
    return or_(col(column) == box, col(column).like(pattern, escape="\\"))


def like_escaped(text: str) -> str:
    """`text` inside a LIKE pattern (escape character: the backslash)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def mails_to(session: Session, address: str, since: datetime,
             kinds: tuple[str, ...] | None = None) -> int:
    """Emails queued for `address`'s mailbox since `since` (of `kinds`, or of any kind)."""
    query = select(func.count()).select_from(OutboxEmail).where(
        _same_mailbox(OutboxEmail.to_addr, address), col(OutboxEmail.created_at) >= since)
    if kinds is not None:
        query = query.where(col(OutboxEmail.kind).in_(kinds))
    return int(session.exec(query).one())


def signin_links_to(session: Session, address: str, now: datetime,
                    within: timedelta = timedelta(hours=1)) -> int:
    """Sign-in links made for `address`'s mailbox in the last `within`."""
    return int(session.exec(select(func.count()).select_from(Token).where(
        Token.purpose == "signin", _same_mailbox(Token.email, address),
        col(Token.created_at) >= now - within)).one())


def took_part(session: Session, player: Player) -> bool:
    """Whether the address's person ever took part: sat in a seat they accepted (not as a
    robot), or signed in by a link they asked for."""
    if player.id is None:
        return False
    seated = exists().where(col(Seat.player_id) == player.id,
                            col(Seat.invite_status) == "accepted", col(Seat.is_bot).is_(False))
    signed_in = exists().where(col(Token.player_id) == player.id, col(Token.purpose) == "signin",
                               col(Token.used_at).is_not(None))
    return bool(session.exec(select(seated | signed_in)).one())


def may_send(session: Session, address: str, *, known: bool,
             now: datetime | None = None) -> bool:
    """Whether one more unasked-for email may go to `address` now (its mailbox's lock is held
    to the end of the transaction, so racing senders count one after another)."""
    lock_mailbox(session, address)
    since = (now or utcnow()) - timedelta(days=1)
    limit = KNOWN_PER_DAY if known else STRANGER_PER_DAY
    return mails_to(session, address, since, UNASKED) < limit
