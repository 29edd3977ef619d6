"""Fanning out mail jobs: the emails a command's events call for, worked out after it.

A command's transaction writes one mail job (pbem.store.mailjobs) instead of rendering its
emails under the lock. `fan_out` rebuilds the game as it was just before and just after the
command from the event log, and runs the same routing as ever (pbem.mail.notify) with the
job's seq as the tokens' turn_seq. `fan_out_pending` does that for the waiting jobs: each is
worked out without the writer lock (a planning session, pbem.store.db.planning), then its
outbox rows are written in one short transaction that also deletes the job, only if it is
still there and no earlier job of its game waits. So two workers never send a job's emails
twice (one deletes it, the other writes nothing), a crash before that commit leaves the job
to be done again, and each game's emails go out in seq order.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Engine
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session

from pbem.engine import acting_seat, apply_all, decode_event, replay
from pbem.mail.compose import MailSettings
from pbem.mail.sending import default_settings
from pbem.roster import Roster, roster_of
from pbem.service.core import notify_hook
from pbem.store.db import (
    collected_writes,
    is_planning,
    planned_engine,
    planning,
    run_writes,
    transaction,
)
from pbem.store.events import LoadedState, load_payloads, payloads_between, state_at
from pbem.store.gamerows import read_game
from pbem.store.mailjobs import Job, Rebuilt, finish_job, pending_jobs
from pbem.store.models import Game, OutboxEmail

log = logging.getLogger(__name__)


def fan_out(session: Session, job: Job, *, game: Game | None = None,
            rebuilt: Rebuilt | None = None, settings: MailSettings | None = None,
            **extra: Any) -> list[OutboxEmail]:
    """Queue the emails `job` calls for, in `session`'s transaction. `game` and `rebuilt`:
    what the command had in hand, when it fans out its own job at once (else read here).
    A seat that has moved since the job's command gets no stale ask for it."""
    moved_on: frozenset[int] = frozenset()
    if game is None:
        found = _game_at(session, job)
        if found is None:  # the game is gone: nobody to write to
            return []
        game, extra["roster"], moved_on = found
    if rebuilt is None:
        rebuilt = rebuild(session, job)
    if moved_on:
        extra["moved_on"] = moved_on
    if settings is not None:
        extra["settings"] = settings
    rows: list[OutboxEmail] = notify_hook()(
        session, game, rebuilt.before, rebuilt.after, rebuilt.events, actor=job.actor,
        echo=job.echo, now=job.made_at, deadline=job.deadline, **extra)
    return rows


def _game_at(session: Session, job: Job) -> tuple[Game, Roster, frozenset[int]] | None:
    """The job's game as its command left it (its last_seq is the tokens' turn_seq), its
    roster now, and the seats that have acted since (the game moved on while the job
    waited). Plain rows (pbem.store.gamerows): the fan-out only reads them."""
    found = read_game(session.connection(), job.game_id)
    if found is None:
        return None
    game = found.game
    roster = roster_of(found.seats, found.players)
    moved_on: frozenset[int] = frozenset()
    if game.last_seq > job.seq_after:
        later = [decode_event(p) for _seq, p in load_payloads(session, job.game_id,
                                                                job.seq_after)]
        moved_on = frozenset(seat for seat in map(acting_seat, later) if seat is not None)
    set_committed_value(game, "last_seq", job.seq_after)  # never written: a read-only copy
    return game, roster, moved_on


def rebuild(session: Session, job: Job) -> Rebuilt:
    """The states before and after the job's command, and its events, from the log (from
    the state this process rebuilt for the game's previous job, when it has it)."""
    rows = payloads_between(session, job.game_id, job.seq_before, job.seq_after)
    events = tuple(decode_event(payload) for _seq, payload in rows)
    if job.fresh:
        after = replay(list(events))
        before = None
    else:
        before = state_at(session, job.game_id, job.seq_before, _known(session, job.game_id))
        after = apply_all(before, events)
    _remember(session, job.game_id, LoadedState(after, job.seq_after, 0))
    return Rebuilt(before, after, events)


# The state after the last job each game fanned out in this process: the next job of the
# game starts where it ended (per engine, as pbem.store.events keeps the moves' states).
_AFTER: WeakKeyDictionary[Engine, OrderedDict[int, LoadedState]] = WeakKeyDictionary()
_AFTER_LOCK = threading.Lock()
GAMES_KEPT = 256


def _engine_of(session: Session) -> Engine | None:
    if is_planning(session):
        return planned_engine(session)
    bind = session.get_bind()
    return bind if isinstance(bind, Engine) else None


def _known(session: Session, game_id: int) -> LoadedState | None:
    engine = _engine_of(session)
    with _AFTER_LOCK:
        kept = _AFTER.get(engine) if engine is not None else None
        return kept.get(game_id) if kept is not None else None


def _remember(session: Session, game_id: int, loaded: LoadedState) -> None:
    engine = _engine_of(session)
    if engine is None:
        return
    with _AFTER_LOCK:
        kept = _AFTER.setdefault(engine, OrderedDict())
        kept[game_id] = loaded
        kept.move_to_end(game_id)
        while len(kept) > GAMES_KEPT:
            kept.popitem(last=False)


# --- the worker's step -------------------------------------------------------------------

def fan_out_pending(engine: Engine, *, game_id: int | None = None, most: int = 100,
                    settings: MailSettings | None = None,
                    stop: Callable[[], bool] = lambda: False) -> list[int]:
    """Fan out the waiting jobs (`game_id`: that game's only), each game's in seq order;
    returns the ids of the jobs this call fanned out. A job that fails is logged and left
    waiting, with the later jobs of its game."""
    with planning(engine) as session:  # a read (PostgreSQL: no BEGIN/ROLLBACK round trips)
        jobs = pending_jobs(session.connection(), game_id=game_id, most=most)
    if jobs and settings is None:
        settings = default_settings()  # once for the batch, not once per job
    done: list[int] = []
    broken: set[int] = set()
    for job in jobs:
        if stop():
            break
        if job.game_id in broken:
            continue
        try:
            if fan_out_one(engine, job, settings):
                assert job.id is not None
                done.append(job.id)
        except Exception:  # one broken game must not stop the others' mail
            log.exception("mail job %s of game %d failed", job.id, job.game_id)
            broken.add(job.game_id)
    return done


def fan_out_one(engine: Engine, job: Job, settings: MailSettings | None = None) -> bool:
    """Work out the job's emails without the writer lock, then write them and delete the
    job in one transaction; False (nothing written) if another worker did it first."""
    with planning(engine) as session:
        fan_out(session, job, settings=settings)
        writes = list(collected_writes(session))
    with transaction(engine) as session:
        if not finish_job(session.connection(), job):
            return False
        run_writes(session, writes)
    return True


def jobs_waiting(engine: Engine, game_ids: Sequence[int] | None = None) -> int:
    """How many jobs wait (for tests and benchmarks)."""
    with transaction(engine, read_only=True) as session:
        jobs = pending_jobs(session.connection(), most=1_000_000)
    return sum(1 for job in jobs if game_ids is None or job.game_id in game_ids)
