"""Mail jobs: a command writes one row saying which emails its events call for; the mail
layer fans it out into outbox rows later (pbem.mail.jobs), deleting the row in the same
transaction, so a job is fanned out exactly once and is never lost (a crash leaves it here).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, bindparam, delete, exists, insert, select
from sqlmodel import Session

from pbem.store.db import execute_write
from pbem.store.models import MailJob

if TYPE_CHECKING:
    from pbem.engine import Event, GameState

_J = MailJob.__table__  # type: ignore[attr-defined]
_EARLIER = _J.alias("earlier")
_INSERT = insert(_J)
_COLUMNS = [_J.c.id, _J.c.game_id, _J.c.seq_before, _J.c.seq_after, _J.c.actor, _J.c.echo,
            _J.c.deadline, _J.c.made_at, _J.c.fresh]
_PENDING = select(*_COLUMNS).order_by(_J.c.game_id, _J.c.seq_after).limit(bindparam("most"))
_PENDING_OF_GAME = (select(*_COLUMNS).where(_J.c.game_id == bindparam("game_id"))
                    .order_by(_J.c.seq_after))
# Done: the row goes, if it is still there (else another worker fanned it out) and no earlier
# job of its game waits (each game's emails go out in seq order).
_FINISH = delete(_J).where(
    _J.c.id == bindparam("job_id"),
    ~exists().where(_EARLIER.c.game_id == bindparam("game_id"),
                    _EARLIER.c.seq_after < bindparam("seq_after")))


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
        "made_at": job.made_at, "fresh": job.fresh})


def pending_jobs(connection: Connection, *, game_id: int | None = None,
                 most: int = 100) -> list[Job]:
    """The jobs waiting, each game's in seq order (`game_id`: only that game's)."""
    if game_id is not None:
        rows = connection.execute(_PENDING_OF_GAME, {"game_id": game_id})
    else:
        rows = connection.execute(_PENDING, {"most": most})
    return [_job(row._mapping) for row in rows]


def finish_job(connection: Connection, job: Job) -> bool:
    """Delete the job in the transaction that writes its outbox rows: False if it is gone
    already (fanned out by another worker) or an earlier job of its game still waits."""
    done = connection.execute(_FINISH, {"job_id": job.id, "game_id": job.game_id,
                                        "seq_after": job.seq_after})
    return done.rowcount == 1


def _job(row: Any) -> Job:
    return Job(**{column.key: row[column.key] for column in _COLUMNS})
