"""Retention: what an installation forgets, and when (issue 35; docs/running/retention.md).

Kept for good: games, seats, the event log (every finished game's public record: its summary,
score sheet and hands replayed), ratings, reviews, player accounts (until deleted).
Forgotten, each after its setting's days (PBEM_KEEP_*; 0 keeps it for ever):

- a finished or cancelled game's private data, `finished_game_days` after its last event: its
  links (seat pages, reply addresses, card and invitation links), deadlines, mail jobs and
  emails: the private links expire, the public pages stay;
- links (tokens) of any game `token_days` after they expired or were used (a closed private
  seat link, which says since when its player left, stays until its game's data goes);
- sent and failed emails (outbox rows) `outbox_days` after they were sent (their bodies and
  links are already emptied when they are sent);
- the mail log (inbound mail rows, whose raw bytes go after PBEM_INBOUND_KEEP_DAYS), away
  dates that ended, and mail jobs set aside, `log_days` later.

The worker runs `purge` daily (pbem.scheduler.retention). Rows go in batches, each its own
short transaction, so a first purge of years of rows never holds SQLite's writer lock long.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Engine, and_, delete, func, or_
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

from pbem.config import SETTINGS
from pbem.store.db import transaction
from pbem.store.models import (
    Away,
    Deadline,
    Event,
    Game,
    InboundMail,
    MailJob,
    OutboxEmail,
    Token,
)
from pbem.store.types import utcnow

BATCH = 500  # rows a transaction
ENDED = ("finished", "cancelled")
CONFIG_KEYS = {"finished_game_days": "KEEP_FINISHED_GAME_DAYS", "token_days": "KEEP_TOKEN_DAYS",
               "outbox_days": "KEEP_OUTBOX_DAYS", "log_days": "KEEP_LOG_DAYS"}
# The settings' defaults (pbem.config.SETTINGS: the one table the docs' reference is made from).
DEFAULTS = {name: int(next(s.default for s in SETTINGS if s.key == key) or 0)
            for name, key in CONFIG_KEYS.items()}


@dataclass(frozen=True)
class Retention:
    """Days each kind of row is kept (0: for ever)."""

    finished_game_days: int = DEFAULTS["finished_game_days"]
    token_days: int = DEFAULTS["token_days"]
    outbox_days: int = DEFAULTS["outbox_days"]
    log_days: int = DEFAULTS["log_days"]

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Retention:
        return cls(**{name: int(config.get(key, DEFAULTS[name]))
                      for name, key in CONFIG_KEYS.items()})


def purge(engine: Engine, keep: Retention, *, now: datetime | None = None) -> dict[str, int]:
    """Forget what `keep` says is old at `now`: rows deleted, by kind."""
    now = now or utcnow()
    done: dict[str, int] = {}
    if keep.finished_game_days:
        done |= _ended_games(engine, now - timedelta(days=keep.finished_game_days))
    if keep.token_days:
        cutoff = now - timedelta(days=keep.token_days)
        done["tokens"] = _delete(engine, Token, or_(
            col(Token.expires_at) < cutoff,
            # a closed seat link says "you left, on ..." until its game's data goes
            and_(col(Token.used_at) < cutoff, col(Token.purpose) != "seat")))
    if keep.outbox_days:
        cutoff = now - timedelta(days=keep.outbox_days)
        done["outbox"] = _delete(engine, OutboxEmail, col(OutboxEmail.status).in_(
            ("sent", "failed")), func.coalesce(OutboxEmail.sent_at, OutboxEmail.created_at)
            < cutoff)
    if keep.log_days:
        done |= _logs(engine, now - timedelta(days=keep.log_days))
    return done


def _ended_games(engine: Engine, cutoff: datetime) -> dict[str, int]:
    """The private rows of games that ended before `cutoff`."""
    ended = ended_before(cutoff)
    return {
        "finished_game_links": _delete(engine, Token, col(Token.game_id).in_(ended)),
        "finished_game_deadlines": _delete(engine, Deadline, col(Deadline.game_id).in_(ended)),
        "finished_game_mail_jobs": _delete(engine, MailJob, col(MailJob.game_id).in_(ended)),
        "finished_game_emails": _delete(engine, OutboxEmail, col(OutboxEmail.game_id).in_(ended),
                                        col(OutboxEmail.status).in_(("sent", "failed"))),
    }


def ended_before(cutoff: datetime) -> SelectOfScalar[int | None]:
    """The ids of finished and cancelled games whose last event (or creation, with none) is
    older than `cutoff`."""
    last_event = (select(Event.created_at)
                  .where(col(Event.game_id) == Game.id, col(Event.seq) == Game.last_seq)
                  .scalar_subquery())
    ended_at = func.coalesce(last_event, Game.created_at)
    return select(col(Game.id)).where(col(Game.status).in_(ENDED), ended_at < cutoff)


def _logs(engine: Engine, cutoff: datetime) -> dict[str, int]:
    return {
        "inbound_mail": _delete(engine, InboundMail, col(InboundMail.status) != "pending",
                                col(InboundMail.received_at) < cutoff),
        "away": _delete(engine, Away, col(Away.ends_on) < _day(cutoff)),
        "set_aside_mail_jobs": _delete(engine, MailJob, col(MailJob.set_aside_at) < cutoff),
    }


def _day(moment: datetime) -> date:
    return moment.date()


def _delete(engine: Engine, table: Any, *where: ColumnElement[bool]) -> int:
    """Delete the rows of `table` matching `where`, BATCH a transaction; how many."""
    total = 0
    while True:
        with transaction(engine) as session:
            ids = list(session.exec(select(table.id).where(*where).limit(BATCH)))
            if ids:
                session.execute(delete(table).where(table.id.in_(ids)))
        total += len(ids)
        if len(ids) < BATCH:
            return total
