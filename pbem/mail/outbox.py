"""The outbox: rows written in the game's transaction, then claimed and sent over SMTP.

Delivery is at-least-once with a tiny window: a row is claimed atomically (one claimer wins;
PostgreSQL uses FOR UPDATE SKIP LOCKED, SQLite's writes are serialized by BEGIN IMMEDIATE),
sent, and marked sent in its own committed transaction right after the server accepts it.
Only a crash between those two steps can make a row go out twice, after `stale_after` has
passed. To keep that per-row marking cheap, a batch holds one database connection and runs
pre-built Core statements on it (no ORM session per row), and the claim's UPDATE ... RETURNING
brings back everything needed to send (the rows are not read again).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import smtplib
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, exists, insert, or_, update
from sqlalchemy import select as core_select
from sqlmodel import Session, col, select

from pbem.mail.compose import MailSettings, to_bytes, without_tokens
from pbem.store.db import (
    execute_write,
    inserted_id,
    is_planning,
    read_alone,
    transaction,
    writing,
)
from pbem.store.gamerows import plain
from pbem.store.models import OutboxEmail, Player, normalise_email
from pbem.store.types import utcnow

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
BACKOFF_BASE = timedelta(minutes=1)
BACKOFF_CAP = timedelta(hours=1)
STALE_AFTER = timedelta(minutes=15)


@dataclass(frozen=True)
class SmtpSettings:
    host: str = "127.0.0.1"
    port: int = 1025
    user: str = ""
    password: str = ""
    starttls: bool = False
    timeout: float = 30.0
    envelope_from: str = ""  # MAIL FROM (bounces); empty: the From header's address
    # VERP: MAIL FROM is `<bounce_localpart>+<row id>-<tag>@<bounce_domain>`, so a bounce
    # names the email (and so the player) it returns; the tag (an HMAC) stops forged ones.
    bounce_localpart: str = ""
    bounce_domain: str = ""
    bounce_secret: bytes = b""
    # DKIM (dkimpy) when a key is set: d=, s= and the PEM private key.
    dkim_domain: str = ""
    dkim_selector: str = ""
    dkim_key: bytes = b""

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any]) -> SmtpSettings:
        key_file = str(cfg.get("DKIM_KEY_FILE") or "")
        return cls(
            host=str(cfg.get("SMTP_HOST", "127.0.0.1")), port=int(cfg.get("SMTP_PORT", 1025)),
            user=str(cfg.get("SMTP_USER", "")), password=str(cfg.get("SMTP_PASSWORD", "")),
            starttls=bool(cfg.get("SMTP_STARTTLS", False)),
            bounce_localpart=str(cfg.get("BOUNCE_LOCALPART") or ""),
            bounce_domain=str(cfg.get("MAIL_DOMAIN") or ""),
            bounce_secret=str(cfg.get("SECRET_KEY") or "").encode(),
            dkim_domain=str(cfg.get("DKIM_DOMAIN") or cfg.get("MAIL_DOMAIN") or ""),
            dkim_selector=str(cfg.get("DKIM_SELECTOR") or "pbem"),
            dkim_key=Path(key_file).read_bytes() if key_file else b"",
        )


@dataclass
class DrainResult:
    sent: list[int] = field(default_factory=list)
    retry: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)


_T = OutboxEmail.__table__  # type: ignore[attr-defined]
_INSERT = insert(_T)


def enqueue(
    session: Session,
    *,
    kind: str,
    to_addr: str,
    subject: str,
    body_text: str,
    body_html: str | None,
    headers: dict[str, str],
    game_id: int | None = None,
    player_id: int | None = None,
    now: datetime | None = None,
    failed: str = "",
) -> OutboxEmail:
    """Insert one pending OutboxEmail row in the caller's transaction (no I/O here).
    `failed`: why it can never be sent; the row is recorded as failed (and never sent).

    A plain INSERT on the session's connection (no ORM unit of work: notify queues several
    per move). The row is written at once, so rows keep the order they were queued in; the
    returned object is a detached copy of it, with its id (none in a planning session, see
    pbem.store.db.planning: the row is written with the move)."""
    now = now or utcnow()
    if failed:  # never sent: nothing of it is needed, and its links must not rest here
        body_text, body_html, headers = "", None, kept_headers(headers)
    values: dict[str, Any] = {
        "game_id": game_id, "player_id": player_id, "to_addr": to_addr, "kind": kind,
        "subject": subject, "body_text": body_text, "body_html": body_html,
        "headers": dict(headers),
        "message_id": kept_message_id(headers) if failed else headers.get("Message-ID"),
        "status": "failed" if failed else "pending",
        "attempts": 0, "next_attempt_at": now, "claimed_by": None, "claimed_at": None,
        "last_error": failed or None, "created_at": now, "sent_at": None,
    }
    if is_planning(session):  # written with the move, after planning (its id unknown here)
        execute_write(session, _INSERT, values)
        return plain(OutboxEmail, values)  # as read back: no validation of what was built
    result = session.connection().execute(_INSERT, values)
    return plain(OutboxEmail, {"id": inserted_id(result), **values})


def backoff(attempts: int) -> timedelta:
    """Delay before retry number `attempts` (1, 2, 4, 8... minutes, at most an hour)."""
    delay: timedelta = BACKOFF_BASE * (2 ** min(max(attempts - 1, 0), 16))
    return min(delay, BACKOFF_CAP)


def default_worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def reclaim_stale(engine: Engine, now: datetime, stale_after: timedelta = STALE_AFTER) -> int:
    """Put rows left in "sending" by a crashed sender back to pending."""
    with transaction(engine) as session:
        result = session.exec(
            update(OutboxEmail)
            .where(col(OutboxEmail.status) == "sending",
                   col(OutboxEmail.claimed_at) < now - stale_after)
            .values(status="pending", claimed_by=None, claimed_at=None)
            .execution_options(synchronize_session=False)
        )
        return int(result.rowcount or 0)


@dataclass(frozen=True, slots=True)
class Claimed:
    """What sending one claimed row needs (returned by the claiming UPDATE itself)."""

    id: int
    to_addr: str
    subject: str
    body_text: str
    body_html: str | None
    headers: dict[str, str]
    attempts: int
    player_id: int | None


_CLAIMED_COLUMNS = [_T.c.id, _T.c.to_addr, _T.c.subject, _T.c.body_text, _T.c.body_html,
                    _T.c.headers, _T.c.attempts, _T.c.player_id]


def claim(engine: Engine, worker_id: str, batch: int, now: datetime) -> list[Claimed]:
    """Atomically move up to `batch` due pending rows to "sending" for this worker."""
    due = (
        select(OutboxEmail.id)
        .where(col(OutboxEmail.status) == "pending", col(OutboxEmail.next_attempt_at) <= now)
        .order_by(col(OutboxEmail.id))
        .limit(batch)
        .with_for_update(skip_locked=True)  # PostgreSQL; SQLite serializes writers anyway
        # A CTE is evaluated once; `id IN (subquery ... LIMIT)` may be re-run by PostgreSQL
        # per row and then claims more than `batch` rows.
        .cte("due")
    )
    with writing(engine), engine.begin() as conn:
        result = conn.execute(
            update(_T)
            .where(_T.c.id == due.c.id, _T.c.status == "pending")
            .values(status="sending", claimed_by=worker_id, claimed_at=now)
            .returning(*_CLAIMED_COLUMNS)
        )
        return sorted((Claimed(*row) for row in result), key=lambda r: r.id)


# Whether a drain has anything to do: a due pending row, a row left "sending" too long. One
# indexed read (status, next_attempt_at), built once: an idle outbox costs no write
# transaction (on SQLite, a BEGIN IMMEDIATE taking the writer lock) every few seconds.
_WORK = core_select(
    exists().where(_T.c.status == "pending", _T.c.next_attempt_at <= bindparam("now"))
    .label("due"),
    exists().where(_T.c.status == "sending", _T.c.claimed_at < bindparam("stale_before"))
    .label("stale"),
)


def outbox_work(engine: Engine, now: datetime,
                stale_after: timedelta = STALE_AFTER) -> tuple[bool, bool]:
    """(a due pending row exists, a stale "sending" row exists), read without a transaction."""
    [(due, stale)] = read_alone(engine, _WORK, {"now": now, "stale_before": now - stale_after})
    return bool(due), bool(stale)


def drain_outbox(
    engine: Engine,
    smtp_settings: SmtpSettings,
    batch: int = 100,
    worker_id: str | None = None,
    *,
    clock: Clock = utcnow,
    stale_after: timedelta = STALE_AFTER,
    stop: Callable[[], bool] = lambda: False,
) -> DrainResult:
    """Send one batch of due rows over one SMTP connection; return what happened to each.
    Once `stop()` is true (the worker is shutting down) the rest of the batch is handed back."""
    worker_id = worker_id or default_worker_id()
    result = DrainResult()
    due, stale = outbox_work(engine, clock(), stale_after)
    if stale:
        reclaim_stale(engine, clock(), stale_after)
    rows = claim(engine, worker_id, batch, clock()) if due or stale else []
    if not rows:
        return result
    with engine.connect() as conn:
        marks = Marks(conn, worker_id)
        try:
            with _connect(smtp_settings) as smtp:
                for row in rows:
                    if stop():
                        break
                    _send_one(marks, smtp, smtp_settings, row, clock, result)
        except (OSError, smtplib.SMTPException) as exc:  # server down or connection lost
            log.warning("SMTP connection failed: %s", exc)
            done = set(result.sent) | set(result.retry) | set(result.failed)
            for row in rows:
                if row.id not in done:
                    marks.retry(row, f"connection: {exc}", clock())
                    result.retry.append(row.id)
    if len(result.sent) + len(result.retry) + len(result.failed) < len(rows):
        hand_back(engine, worker_id)  # told to stop: the rest of the batch goes back
    return result


def drain_all(engine: Engine, smtp_settings: SmtpSettings, **kwargs: Any) -> DrainResult:
    """Drain batches until nothing due is left or nothing could be sent (for CLI and tests)."""
    total = DrainResult()
    stop: Callable[[], bool] = kwargs.get("stop", lambda: False)
    while True:
        result = drain_outbox(engine, smtp_settings, **kwargs)
        total.sent += result.sent
        total.retry += result.retry
        total.failed += result.failed
        if not result.sent or stop():
            return total


def hand_back(engine: Engine, worker_id: str) -> int:
    """Put the rows this worker claimed but did not send back to pending, at once (a worker
    that stops must not leave them "sending" for `stale_after`)."""
    with transaction(engine) as session:
        result: Any = session.execute(
            update(OutboxEmail)
            .where(col(OutboxEmail.status) == "sending", col(OutboxEmail.claimed_by) == worker_id)
            .values(status="pending", claimed_by=None, claimed_at=None)
            .execution_options(synchronize_session=False))
        return int(result.rowcount or 0)


def _connect(settings: SmtpSettings) -> smtplib.SMTP:
    smtp = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
    try:
        if settings.starttls:
            smtp.starttls()
        if settings.user:
            smtp.login(settings.user, settings.password)
    except BaseException:
        smtp.close()
        raise
    return smtp


def _send_one(
    marks: Marks, smtp: smtplib.SMTP, settings: SmtpSettings, row: Claimed, clock: Clock,
    result: DrainResult,
) -> None:
    try:
        # Raises ValueError (HeaderInjectionError included) if the bytes fail the header check.
        data = dkim_sign(settings, to_bytes(
            subject=row.subject, body_text=row.body_text, body_html=row.body_html,
            headers=row.headers, date=clock()))
        # Explicit envelope recipient: never derived from headers (no Bcc can sneak in).
        smtp.sendmail(_envelope_from(settings, row), [row.to_addr], data)
    except smtplib.SMTPServerDisconnected:
        raise
    except smtplib.SMTPRecipientsRefused as exc:
        code, text = next(iter(exc.recipients.values()))
        _on_response(marks, row, code, text, clock(), result, at_rcpt=True)
        return
    except smtplib.SMTPSenderRefused as exc:  # our problem, not the player's: retry later
        marks.retry(row, f"sender refused: {exc}", clock())
        result.retry.append(row.id)
        return
    except smtplib.SMTPDataError as exc:
        _on_response(marks, row, exc.smtp_code, exc.smtp_error, clock(), result)
        return
    except ValueError as exc:  # unusable row (e.g. header check failed): never send it
        marks.failed(row, f"invalid message: {exc}", clock(), blame=False)
        result.failed.append(row.id)
        return
    marks.sent(row, clock())
    result.sent.append(row.id)


_ENHANCED = re.compile(r"\s*([245])\.(\d{1,3})\.(\d{1,3})\b")


def recipient_refused(code: int, text: str, *, at_rcpt: bool) -> bool:
    """Whether a 5xx says this recipient's address is bad (RFC 3463: 5.1.x addressing, 5.2.1
    mailbox disabled), rather than something about the relay, the message or policy (5.7.x,
    5.3.x, 5.4.x, 5.5.x, 5.2.2 full...). Without an enhanced code, only a 550/551/553
    refusal of RCPT TO names the recipient; a refused DATA is about the message."""
    if not 500 <= code < 600:
        return False
    enhanced = _ENHANCED.match(text)
    if enhanced is not None:
        return enhanced.group(2) == "1" or enhanced.group(2, 3) == ("2", "1")
    return at_rcpt and code in {550, 551, 553}


def _on_response(
    marks: Marks, row: Claimed, code: int, text: bytes | str, now: datetime,
    result: DrainResult, *, at_rcpt: bool = False,
) -> None:
    words = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    reason = f"{code} {words}"
    if recipient_refused(code, words, at_rcpt=at_rcpt):
        marks.failed(row, reason, now, blame=True)  # the address is bad: stop mailing it
        result.failed.append(row.id)
    elif 500 <= code < 600:
        # The relay refuses this message (policy, content, its own trouble): this email
        # fails, the player's address is not blamed; `pbem mail retry` sends it again.
        marks.failed(row, reason, now, blame=False)
        result.failed.append(row.id)
    else:
        marks.retry(row, reason, now)
        result.retry.append(row.id)


# Signed with the key: what a player sees and what RFC 8058 requires (List-Unsubscribe and
# List-Unsubscribe-Post must be covered, or one-click unsubscribe is not trusted).
DKIM_HEADERS = (b"from", b"to", b"subject", b"date", b"message-id", b"reply-to",
                b"in-reply-to", b"references", b"list-unsubscribe", b"list-unsubscribe-post",
                b"mime-version", b"content-type")


def dkim_sign(settings: SmtpSettings, data: bytes) -> bytes:
    """The message with a DKIM-Signature header in front (unchanged without a key)."""
    if not settings.dkim_key:
        return data
    import dkim

    signature: bytes = dkim.sign(data, settings.dkim_selector.encode(),
                                 settings.dkim_domain.encode(), settings.dkim_key,
                                 include_headers=list(DKIM_HEADERS))
    return signature + data


def verp_tag(secret: bytes, row_id: int) -> str:
    return hmac.new(secret, f"bounce:{row_id}".encode(), hashlib.sha256).hexdigest()[:10]


def verp_address(settings: SmtpSettings, row_id: int) -> str:
    tag = verp_tag(settings.bounce_secret, row_id)
    return f"{settings.bounce_localpart}+{row_id}-{tag}@{settings.bounce_domain}"


_VERP = re.compile(r"[^+@\s]+\+(\d{1,18})-([0-9a-f]{10})@", re.IGNORECASE)


def verp_row_id(secret: bytes, address: str) -> int | None:
    """The outbox row a bounce to `address` returns (None unless its tag is ours)."""
    match = _VERP.match(address.strip().strip("<>"))
    if match is None:
        return None
    row_id = int(match.group(1))
    good = hmac.compare_digest(match.group(2).lower(), verp_tag(secret, row_id))
    return row_id if good else None


def verp_row_of(settings: MailSettings, address: str) -> int | None:
    """The outbox row whose bounce address (VERP) `address` is: our bounce local part and
    domain, and a tag made with our secret. None for any other address."""
    if not settings.bounce_local or not settings.bounce_secret:
        return None
    mailbox, _, domain = address.strip().strip("<>").rpartition("@")
    if mailbox.partition("+")[0].lower() != settings.bounce_local.lower() \
            or domain.lower() != settings.domain.lower():
        return None
    return verp_row_id(settings.bounce_secret, address)


def record_bounce(engine: Engine, row_id: int, reason: str, *, blame: bool = True) -> int | None:
    """A bounce came back for outbox row `row_id` (see `mark_bounced`), in its own transaction."""
    with transaction(engine) as session:
        return mark_bounced(session, row_id, reason, blame=blame)


def mark_bounced(session: Session, row_id: int, reason: str, *, blame: bool) -> int | None:
    """A permanent bounce for outbox row `row_id`: the email failed; with `blame` (the report
    says the address is bad) its recipient's address is marked failing too. Returns the
    player id (None: no such row or no player)."""
    row = session.get(OutboxEmail, row_id, with_for_update=True)
    if row is None:
        return None
    row.status, row.last_error = "failed", f"bounce: {reason}"[:2000]
    session.add(row)
    if blame and row.player_id is not None:
        session.execute(
            update(Player).where(col(Player.id) == row.player_id)
            .values(email_status="failing", email_status_reason=f"bounce: {reason}"[:2000])
            .execution_options(synchronize_session=False))
    return row.player_id


def emails_bounced(session: Session, message_ids: Sequence[str],
                   addresses: Sequence[str]) -> list[int]:
    """The outbox rows a delivery report without VERP returns: those whose Message-ID is one
    the report names (`message_ids`, as sent: a row keeps it without its reply token) and
    that went to one of the addresses it says failed. Empty for a report naming no email we
    sent to that address (anyone can write one: it must not stop a player's mail)."""
    wanted = {normalise_email(a) for a in addresses if a}
    ids = set(message_ids) | {without_tokens(i) for i in message_ids}
    if not wanted or not ids:
        return []
    rows = session.exec(select(OutboxEmail.id, OutboxEmail.to_addr).where(
        col(OutboxEmail.message_id).in_(sorted(ids))).order_by(col(OutboxEmail.id)))
    return [row_id for row_id, to_addr in rows
            if row_id is not None and normalise_email(to_addr) in wanted]


def _envelope_from(settings: SmtpSettings, row: Claimed) -> str:
    if settings.bounce_localpart and settings.bounce_domain:
        return verp_address(settings, row.id)
    if settings.envelope_from:
        return settings.envelope_from
    address = parseaddr(row.headers.get("From", ""))[1]
    if not address:
        raise ValueError("no From address and no envelope_from")
    return address


def _mine() -> Any:
    """UPDATE of one row still claimed by this worker (`row_id`, `worker` bound per call)."""
    return update(_T).where(_T.c.id == bindparam("row_id"), _T.c.status == "sending",
                            _T.c.claimed_by == bindparam("worker"))


def _at(name: str) -> Any:
    return bindparam(name, type_=_T.c.sent_at.type)


# What an email keeps once it is sent (or has failed for good): who it went to, what it was
# about and its Message-ID. Not its body, nor the headers that hold live tokens (Reply-To,
# References, List-Unsubscribe): a copy of the database must not hold usable links.
KEPT_HEADERS = ("Message-ID", "From", "To", "In-Reply-To")


def kept_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """The headers a sent or failed row keeps, their Message-IDs without reply tokens."""
    return {name: without_tokens(value) for name, value in headers.items()
            if name in KEPT_HEADERS}


def kept_message_id(headers: Mapping[str, str]) -> str | None:
    message_id = headers.get("Message-ID")
    return without_tokens(message_id) if message_id is not None else None


def _forget(status: str) -> Any:
    return (update(_T).where(_T.c.id == bindparam("row_id"), _T.c.status == status)
            .values(body_text="", body_html=None,
                    headers=bindparam("kept", type_=_T.c.headers.type),
                    message_id=bindparam("kept_id")))


_FORGET_SENT, _FORGET_FAILED = _forget("sent"), _forget("failed")
_SENT = _mine().values(status="sent", sent_at=_at("now"), attempts=bindparam("attempts"),
                       last_error=None)
_RETRY = _mine().values(status="pending", attempts=bindparam("attempts"),
                        next_attempt_at=_at("next_at"), last_error=bindparam("error"),
                        claimed_by=None, claimed_at=None)
_FAILED = _mine().values(status="failed", attempts=bindparam("attempts"),
                         last_error=bindparam("error"))
_FAILING = (update(Player.__table__)  # type: ignore[attr-defined]
            .where(Player.__table__.c.id == bindparam("player_id"))  # type: ignore[attr-defined]
            .values(email_status="failing", email_status_reason=bindparam("error")))


@dataclass
class Marks:
    """Records each row's outcome in its own committed transaction on one held connection."""

    conn: Connection
    worker_id: str

    def _commit(self, *steps: tuple[Any, dict[str, Any]]) -> None:
        with writing(self.conn.engine), self.conn.begin():  # SQLite: BEGIN IMMEDIATE
            for statement, params in steps:
                self.conn.execute(statement, params)

    def _params(self, row: Claimed, **extra: Any) -> dict[str, Any]:
        return {"row_id": row.id, "worker": self.worker_id, "attempts": row.attempts + 1,
                **extra}

    def sent(self, row: Claimed, now: datetime) -> None:
        self._commit((_SENT, self._params(row, now=now)), self._forget(_FORGET_SENT, row))

    @staticmethod
    def _forget(statement: Any, row: Claimed) -> tuple[Any, dict[str, Any]]:
        return statement, {"row_id": row.id, "kept": kept_headers(row.headers),
                           "kept_id": kept_message_id(row.headers)}

    def retry(self, row: Claimed, error: str, now: datetime) -> None:
        next_at = now + backoff(row.attempts + 1)
        self._commit((_RETRY, self._params(row, next_at=next_at, error=error[:2000])))

    def failed(self, row: Claimed, error: str, now: datetime, *, blame: bool) -> None:
        """A permanent failure: the row stays (status failed); the address is marked failing."""
        steps = [(_FAILED, self._params(row, error=error[:2000])),
                 self._forget(_FORGET_FAILED, row)]
        if blame and row.player_id is not None:
            steps.append((_FAILING, {"player_id": row.player_id, "error": error[:2000]}))
        self._commit(*steps)
        log.warning("outbox row %s failed permanently: %s", row.id, error)


def purge_sent(engine: Engine) -> int:
    """Empty the bodies and token headers of sent and failed rows still holding them (rows
    sent before sending forgot them). The worker runs it daily; returns how many."""
    with transaction(engine) as session:
        rows = session.exec(select(OutboxEmail.id, OutboxEmail.headers).where(
            col(OutboxEmail.status).in_(("sent", "failed")),
            or_(col(OutboxEmail.body_text) != "", col(OutboxEmail.body_html).is_not(None)))
        ).all()
        for row_id, headers in rows:
            session.connection().execute(
                update(_T).where(_T.c.id == row_id)
                .values(body_text="", body_html=None, headers=kept_headers(headers or {}),
                        message_id=kept_message_id(headers or {})))
        return len(rows)


def pending_count(engine: Engine) -> int:
    with transaction(engine, read_only=True) as session:
        query = select(OutboxEmail.id).where(
            or_(col(OutboxEmail.status) == "pending", col(OutboxEmail.status) == "sending"))
        return len(session.exec(query).all())


def retry_failed(engine: Engine, *, ids: list[int] | None = None,
                 now: datetime | None = None) -> int:
    """Failed emails back to pending, due now (all of them, or those in `ids`)."""
    query = (update(OutboxEmail).where(col(OutboxEmail.status) == "failed")
             .values(status="pending", next_attempt_at=now or utcnow(), claimed_by=None,
                     claimed_at=None)
             .execution_options(synchronize_session=False))
    if ids is not None:
        query = query.where(col(OutboxEmail.id).in_(ids))
    with transaction(engine) as session:
        return int(session.execute(query).rowcount or 0)  # type: ignore[attr-defined]


def reset_player(engine: Engine, player_id: int) -> int:
    """Clear the player's "failing" mark (they say their address works again)."""
    with transaction(engine) as session:
        result = session.execute(
            update(Player).where(col(Player.id) == player_id)
            .values(email_status="ok", email_status_reason=None)
            .execution_options(synchronize_session=False))
        return int(result.rowcount or 0)  # type: ignore[attr-defined]


def reset_address(engine: Engine, address: str) -> int:
    """Mail the player at `address` again (clears a "failing" mark); the number of players
    changed."""
    with transaction(engine) as session:
        result = session.execute(
            update(Player).where(col(Player.email) == normalise_email(address))
            .values(email_status="ok", email_status_reason=None)
            .execution_options(synchronize_session=False))
        return int(result.rowcount or 0)  # type: ignore[attr-defined]
