"""Mail jobs: a command writes one row saying which emails its events call for; the mail
layer fans it out into outbox rows later (pbem.mail.jobs), deleting the row in the same
transaction, so a job is fanned out exactly once and is never lost (a crash leaves it here).
A job whose fan-out fails counts its attempts and waits out a back-off (its game's later jobs
wait with it: each game's emails go out in seq order) until it is set aside: kept, with its
error, for an operator, and no longer holding back the jobs after it.

A job of a game whose robots are still thinking (a command left their moves to the worker:
`game.robots_thinking_since`) is not due until they have moved (their chunk writes its own job
and clears the mark), or for HOLD_FOR_ROBOTS at most (a stalled or failing robot pass holds no
mail longer): the game's jobs then go out together, and a reply's move is said in the email
the robots' moves bring its player (pbem.mail.jobs), not in a confirmation already out of date.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    bindparam,
    case,
    delete,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlmodel import Session

from pbem.store.db import Deferred, after_sync, deferred, execute_write, read_now
from pbem.store.models import Game, MailJob
from pbem.store.types import utcnow

if TYPE_CHECKING:
    from pbem.engine import Event, GameState

_J = MailJob.__table__  # type: ignore[attr-defined]
_G = Game.__table__  # type: ignore[attr-defined]
_EARLIER = _J.alias("earlier")
_INSERT = insert(_J)
_COLUMNS = [_J.c.id, _J.c.game_id, _J.c.seq_before, _J.c.seq_after, _J.c.actor, _J.c.echo,
            _J.c.deadline, _J.c.made_at, _J.c.fresh, _J.c.attempts, _J.c.last_error,
            _J.c.next_attempt_at, _J.c.set_aside_at]
_KEYS = tuple(column.key for column in _COLUMNS)


def _holds_back(job: Any) -> ColumnElement[bool]:
    """An earlier job of the same game still to be done: not set aside."""
    return and_(job.c.game_id == _J.c.game_id, job.c.seq_after < _J.c.seq_after,
                job.c.set_aside_at.is_(None))


# How long a job waits at most for its game's robots to move (they answer within a second
# or two when the worker's robot pass runs): then it goes out anyway.
HOLD_FOR_ROBOTS = timedelta(seconds=20)

# Due: not set aside, neither it nor an earlier job of its game waits out a back-off, and its
# game's robots are not still thinking (for HOLD_FOR_ROBOTS after the job was made at most).
_BACKING_OFF = _EARLIER.c.next_attempt_at > bindparam("now")
_HELD_FOR_ROBOTS = exists().where(_G.c.id == _J.c.game_id,
                                  _G.c.robots_thinking_since.is_not(None),
                                  _J.c.made_at > bindparam("held_since"))
_DUE = and_(_J.c.set_aside_at.is_(None),
            or_(_J.c.next_attempt_at.is_(None), _J.c.next_attempt_at <= bindparam("now")),
            ~exists().where(_holds_back(_EARLIER), _BACKING_OFF), ~_HELD_FOR_ROBOTS)
_PENDING = (select(*_COLUMNS).where(_DUE).order_by(_J.c.game_id, _J.c.seq_after)
            .limit(bindparam("most")))
_PENDING_OF_GAME = (select(*_COLUMNS).where(_J.c.game_id == bindparam("game_id"), _DUE)
                    .order_by(_J.c.seq_after))
# A job as read, by its id and what it is for: ids are not handed out twice (on SQLite since
# migration 0016; before it a new row took the largest id plus one, 1 again in an empty
# table), but a sequence set back by hand must not make a done job's id another's either.
_THE_JOB = and_(_J.c.id == bindparam("job_id"), _J.c.game_id == bindparam("job_game"),
                _J.c.seq_after == bindparam("job_seq"))
# Done: the row goes, if it is still there (else another worker fanned it out) and no earlier
# job of its game waits (each game's emails go out in seq order; a set-aside one does not).
_FINISH = delete(_J).where(
    _THE_JOB,
    ~exists().where(_EARLIER.c.game_id == bindparam("game_id"),
                    _EARLIER.c.seq_after < bindparam("seq_after"),
                    _EARLIER.c.set_aside_at.is_(None)))
# A failed attempt counts once: only if nobody counted it (or fanned the job out) meanwhile.
_FAILED = (update(_J).where(_THE_JOB, _J.c.attempts == bindparam("seen"),
                            _J.c.set_aside_at.is_(None))
           .values(attempts=bindparam("attempts"), last_error=bindparam("error"),
                   next_attempt_at=bindparam("next_at"), set_aside_at=bindparam("aside_at")))
_LISTED = select(*_COLUMNS).order_by(_J.c.game_id, _J.c.seq_after)


@dataclass(frozen=True)
class Job:
    """One command's emails to work out: in effect the arguments of its `notify`."""

    game_id: int
    seq_before: int
    seq_after: int
    actor: int | None
    echo: bool
    deadline: datetime | None
    made_at: datetime
    fresh: bool = False  # the command created the game: there is no state before
    id: int | None = None  # None until written
    attempts: int = 0  # failed fan-outs so far
    last_error: str | None = None
    next_attempt_at: datetime | None = None  # a back-off after a failure (None: due now)
    set_aside_at: datetime | None = None  # failed too often: waits for an operator

    @property
    def state(self) -> str:
        """waiting, retrying (failed, waiting out its back-off) or set aside."""
        if self.set_aside_at is not None:
            return "set aside"
        return "retrying" if self.attempts else "waiting"


@dataclass(frozen=True)
class Rebuilt:
    """The game just before a job's command (None: the command created it), just after it,
    and the events the command appended."""

    before: GameState | None
    after: GameState
    events: tuple[Event, ...]


def queue_job(session: Session, job: Job) -> None:
    """Write the job in the command's transaction (or with its writes, when planning)."""
    execute_write(session, _INSERT, {
        "game_id": job.game_id, "seq_before": job.seq_before, "seq_after": job.seq_after,
        "actor": job.actor, "echo": job.echo, "deadline": job.deadline,
        "made_at": job.made_at, "fresh": job.fresh, "attempts": job.attempts})


def pending_jobs(connection: Connection, *, now: datetime | None = None,
                 game_id: int | None = None, most: int = 100) -> list[Job]:
    """The jobs due at `now`, each game's in seq order (`game_id`: only that game's): not
    set aside, no job of their game before them (or they) waiting out a back-off, and not
    made in the last HOLD_FOR_ROBOTS while their game's robots are thinking."""
    now = now or utcnow()
    times = {"now": now, "held_since": now - HOLD_FOR_ROBOTS}
    if game_id is not None:  # (straight through the driver: the worker reads it every second)
        rows = read_now(connection, _PENDING_OF_GAME, {"game_id": game_id, **times})
    else:
        rows = read_now(connection, _PENDING, {"most": most, **times})
    return [Job(**dict(zip(_KEYS, row, strict=True))) for row in rows]


class JobGone(Exception):
    """A job's deletion found nothing: another worker fanned it out already, or an earlier
    job of its game still waits. Raised before the COMMIT: nothing of the transaction is
    kept (the outbox rows written with the deletion go with it)."""

    def __init__(self, job: Job) -> None:
        super().__init__(f"mail job {job.id} of game {job.game_id} is done or held")
        self.job = job


def finish_job(session: Session, job: Job) -> None:
    """Delete the job in the transaction that writes its outbox rows; JobGone (the
    transaction rolled back) if it is gone already or an earlier job of its game still
    waits. In a `pipelined_transaction` (pbem.store.db) the DELETE goes to PostgreSQL with
    the rows and its count is checked at `sync`, before the COMMIT; elsewhere at once."""
    done = deferred(session, _FINISH, {"job_id": job.id, "job_game": job.game_id,
                                       "job_seq": job.seq_after, "game_id": job.game_id,
                                       "seq_after": job.seq_after})
    after_sync(session, partial(_deleted, done, job))


def _deleted(done: Deferred, job: Job) -> None:
    if done.rowcount() != 1:
        raise JobGone(job)


def count_failure(connection: Connection, job: Job, *, error: str,
                  next_attempt_at: datetime | None, set_aside_at: datetime | None) -> bool:
    """Record a failed attempt at `job` (as read: its `attempts`) with when to try again, or
    that it is set aside. False: another worker counted this attempt or fanned the job out."""
    counted = connection.execute(_FAILED, {
        "job_id": job.id, "job_game": job.game_id, "job_seq": job.seq_after,
        "seen": job.attempts, "attempts": job.attempts + 1, "error": error,
        "next_at": next_attempt_at, "aside_at": set_aside_at})
    return counted.rowcount == 1


def listed_jobs(connection: Connection, *, set_aside_only: bool = False) -> list[Job]:
    """Every job still here, each game's in seq order (or only the set-aside ones)."""
    query = _LISTED.where(_J.c.set_aside_at.is_not(None)) if set_aside_only else _LISTED
    return [_job(row._mapping) for row in connection.execute(query)]


def requeue_jobs(connection: Connection, ids: Sequence[int] | None) -> dict[int, int]:
    """Make the jobs `ids` (None: every set-aside one) due now with a fresh count of attempts:
    an operator retrying them once the cause is fixed. {job id: its game id}, of those still
    here."""
    chosen = _J.c.set_aside_at.is_not(None) if ids is None else _J.c.id.in_(list(ids))
    again = (update(_J).where(chosen)
             .values(attempts=0, next_attempt_at=None, set_aside_at=None)
             .returning(_J.c.id, _J.c.game_id))
    return {row.id: row.game_id for row in connection.execute(again)}


def job_counts(connection: Connection) -> dict[str, int]:
    """How many jobs are waiting, retrying and set aside (for /metrics)."""
    state = case((_J.c.set_aside_at.is_not(None), "set_aside"), (_J.c.attempts > 0, "retrying"),
                 else_="waiting")
    rows = connection.execute(select(state, func.count()).group_by(state))
    return {"waiting": 0, "retrying": 0, "set_aside": 0} | {str(s): int(n) for s, n in rows}


def _job(row: Any) -> Job:
    return Job(**{column.key: row[column.key] for column in _COLUMNS})
