"""The outbox: rows written in the game's transaction, then claimed and sent over SMTP.

Delivery is at-least-once with a tiny window: a row is claimed atomically (one claimer wins;
PostgreSQL uses FOR UPDATE SKIP LOCKED, SQLite's writes are serialized by BEGIN IMMEDIATE),
sent, and marked sent right after the server accepts it. Only a crash between those two steps
can make a row go out twice, after `stale_after` has passed.
"""

from __future__ import annotations

import logging
import os
import smtplib
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

from sqlalchemy import Engine, or_, update
from sqlmodel import Session, col, select

from pbem.mail.compose import serialize, to_message
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail, Player
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

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any]) -> SmtpSettings:
        return cls(
            host=str(cfg.get("SMTP_HOST", "127.0.0.1")), port=int(cfg.get("SMTP_PORT", 1025)),
            user=str(cfg.get("SMTP_USER", "")), password=str(cfg.get("SMTP_PASSWORD", "")),
            starttls=bool(cfg.get("SMTP_STARTTLS", False)),
        )


@dataclass
class DrainResult:
    sent: list[int] = field(default_factory=list)
    retry: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)


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
) -> OutboxEmail:
    """Add one pending OutboxEmail row in the caller's transaction (no I/O here)."""
    now = now or utcnow()
    row = OutboxEmail(
        game_id=game_id, player_id=player_id, to_addr=to_addr, kind=kind, subject=subject,
        body_text=body_text, body_html=body_html, headers=dict(headers),
        message_id=headers.get("Message-ID"), status="pending", attempts=0,
        next_attempt_at=now, created_at=now,
    )
    session.add(row)
    return row


def backoff(attempts: int) -> timedelta:
    """Delay before retry number `attempts` (1, 2, 4, 8... minutes, at most an hour)."""
    return min(BACKOFF_BASE * (2 ** min(max(attempts - 1, 0), 16)), BACKOFF_CAP)


def default_worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def reclaim_stale(engine: Engine, now: datetime, stale_after: timedelta = STALE_AFTER) -> int:
    """Put rows left in "sending" by a crashed sender back to pending."""
    with transaction(engine) as session:
        result = session.execute(
            update(OutboxEmail)
            .where(col(OutboxEmail.status) == "sending",
                   col(OutboxEmail.claimed_at) < now - stale_after)
            .values(status="pending", claimed_by=None, claimed_at=None)
            .execution_options(synchronize_session=False)
        )
        return int(result.rowcount or 0)


def claim(engine: Engine, worker_id: str, batch: int, now: datetime) -> list[OutboxEmail]:
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
    with transaction(engine) as session:
        result = session.execute(
            update(OutboxEmail)
            .where(col(OutboxEmail.id) == due.c.id, col(OutboxEmail.status) == "pending")
            .values(status="sending", claimed_by=worker_id, claimed_at=now)
            .returning(OutboxEmail.id)
            .execution_options(synchronize_session=False)
        )
        ids = sorted(row[0] for row in result)
        if not ids:
            return []
        rows = session.exec(select(OutboxEmail).where(col(OutboxEmail.id).in_(ids)))
        return sorted(rows, key=lambda r: r.id or 0)


def drain_outbox(
    engine: Engine,
    smtp_settings: SmtpSettings,
    batch: int = 100,
    worker_id: str | None = None,
    *,
    clock: Clock = utcnow,
    stale_after: timedelta = STALE_AFTER,
) -> DrainResult:
    """Send one batch of due rows over one SMTP connection; return what happened to each."""
    worker_id = worker_id or default_worker_id()
    reclaim_stale(engine, clock(), stale_after)
    rows = claim(engine, worker_id, batch, clock())
    result = DrainResult()
    if not rows:
        return result
    try:
        with _connect(smtp_settings) as smtp:
            for row in rows:
                _send_one(engine, smtp, smtp_settings, row, worker_id, clock, result)
    except (OSError, smtplib.SMTPException) as exc:  # server down or connection lost
        log.warning("SMTP connection failed: %s", exc)
        done = set(result.sent) | set(result.retry) | set(result.failed)
        for row in rows:
            if row.id not in done:
                _mark_retry(engine, row, worker_id, f"connection: {exc}", clock())
                result.retry.append(row.id or 0)
    return result


def drain_all(engine: Engine, smtp_settings: SmtpSettings, **kwargs: Any) -> DrainResult:
    """Drain batches until nothing due is left or nothing could be sent (for CLI and tests)."""
    total = DrainResult()
    while True:
        result = drain_outbox(engine, smtp_settings, **kwargs)
        total.sent += result.sent
        total.retry += result.retry
        total.failed += result.failed
        if not result.sent:
            return total


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
    engine: Engine, smtp: smtplib.SMTP, settings: SmtpSettings, row: OutboxEmail,
    worker_id: str, clock: Clock, result: DrainResult,
) -> None:
    row_id = row.id or 0
    try:
        msg = _message(row, clock())
        data = serialize(msg)  # raises HeaderInjectionError (a ValueError) on injected headers
        # Explicit envelope recipient: never derived from headers (no Bcc can sneak in).
        smtp.sendmail(_envelope_from(settings, msg), [row.to_addr], data)
    except smtplib.SMTPServerDisconnected:
        raise
    except smtplib.SMTPRecipientsRefused as exc:
        code, text = next(iter(exc.recipients.values()))
        _on_response(engine, row, worker_id, code, text, clock(), result)
        return
    except smtplib.SMTPSenderRefused as exc:  # our problem, not the player's: retry later
        _mark_retry(engine, row, worker_id, f"sender refused: {exc}", clock())
        result.retry.append(row_id)
        return
    except smtplib.SMTPDataError as exc:
        _on_response(engine, row, worker_id, exc.smtp_code, exc.smtp_error, clock(), result)
        return
    except ValueError as exc:  # unusable row (e.g. header check failed): never send it
        _mark_failed(engine, row, worker_id, f"invalid message: {exc}", clock(), blame=False)
        result.failed.append(row_id)
        return
    _mark_sent(engine, row, worker_id, clock())
    result.sent.append(row_id)


def _on_response(
    engine: Engine, row: OutboxEmail, worker_id: str, code: int, text: bytes | str,
    now: datetime, result: DrainResult,
) -> None:
    reason = f"{code} {text.decode('utf-8', 'replace') if isinstance(text, bytes) else text}"
    if 500 <= code < 600:
        _mark_failed(engine, row, worker_id, reason, now, blame=True)
        result.failed.append(row.id or 0)
    else:
        _mark_retry(engine, row, worker_id, reason, now)
        result.retry.append(row.id or 0)


def _message(row: OutboxEmail, now: datetime) -> EmailMessage:
    return to_message(subject=row.subject, body_text=row.body_text, body_html=row.body_html,
                      headers=row.headers, date=now)


def _envelope_from(settings: SmtpSettings, msg: EmailMessage) -> str:
    if settings.envelope_from:
        return settings.envelope_from
    return msg["From"].addresses[0].addr_spec


def _mine(row: OutboxEmail, worker_id: str) -> Any:
    return update(OutboxEmail).where(
        col(OutboxEmail.id) == row.id, col(OutboxEmail.status) == "sending",
        col(OutboxEmail.claimed_by) == worker_id,
    ).execution_options(synchronize_session=False)


def _mark_sent(engine: Engine, row: OutboxEmail, worker_id: str, now: datetime) -> None:
    with transaction(engine) as session:
        session.execute(_mine(row, worker_id).values(
            status="sent", sent_at=now, attempts=row.attempts + 1, last_error=None))


def _mark_retry(
    engine: Engine, row: OutboxEmail, worker_id: str, error: str, now: datetime
) -> None:
    attempts = row.attempts + 1
    with transaction(engine) as session:
        session.execute(_mine(row, worker_id).values(
            status="pending", attempts=attempts, next_attempt_at=now + backoff(attempts),
            last_error=error[:2000], claimed_by=None, claimed_at=None))


def _mark_failed(
    engine: Engine, row: OutboxEmail, worker_id: str, error: str, now: datetime, *, blame: bool
) -> None:
    """A permanent failure: the row stays (status failed); the address is marked failing."""
    with transaction(engine) as session:
        session.execute(_mine(row, worker_id).values(
            status="failed", attempts=row.attempts + 1, last_error=error[:2000]))
        if blame and row.player_id is not None:
            session.execute(
                update(Player).where(col(Player.id) == row.player_id)
                .values(email_status="failing", email_status_reason=error[:2000])
                .execution_options(synchronize_session=False)
            )
    log.warning("outbox row %s failed permanently: %s", row.id, error)


def pending_count(engine: Engine) -> int:
    with transaction(engine, read_only=True) as session:
        query = select(OutboxEmail.id).where(
            or_(col(OutboxEmail.status) == "pending", col(OutboxEmail.status) == "sending"))
        return len(session.exec(query).all())
