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

A game's jobs worked out together carry a reply's echo forward (pbem.mail.notify `carried`):
the move a player sent by email is said in the first email any of them sends that player (the
turn the robots' moves bring back, in the robots' job that follows the reply's), and only the
last job of the batch sends a confirmation for an echo no email said, with what the game
waits for then. (A game's jobs wait while its robots think: pbem.store.mailjobs.) A job whose
echo went forward is written only with the job that says it: if that one is not written now,
neither is the job, and the next batch works both out again.

A job whose fan-out raises (a rendering bug for one state, bad data) must not silence its
game: each failure is counted on the job with its error (once, however many workers tried),
the job is tried again after a growing back-off, and after MAX_ATTEMPTS it is set aside, kept
for an operator (`pbem mail jobs`, `pbem mail retry-job`), logged at ERROR once; the game's
later jobs then go out, each worked out from its own states, so a later "your turn" reaches
whoever the game waits for then. A set-aside job retried later sends its emails once (the
usual delete-with-write), and asks no seat that has moved since.
"""

from __future__ import annotations

import logging
import threading
import traceback
from collections import OrderedDict
from collections.abc import Callable, Sequence
from contextlib import closing
from datetime import datetime, timedelta
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Engine
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session

from pbem.engine import acting_seat, apply_all, decode_event, replay
from pbem.mail import notify
from pbem.mail.compose import MailSettings
from pbem.mail.sending import default_settings
from pbem.roster import Roster, roster_of
from pbem.store.claims import MAIL, claim
from pbem.store.db import (
    Write,
    all_plain,
    collected_writes,
    is_planning,
    pipelined_transaction,
    planned_engine,
    planning,
    reading_connection,
    run_writes,
    transaction,
)
from pbem.store.events import LoadedState, payloads_after, payloads_between, state_at
from pbem.store.gamerows import GameRows, plain, read_game
from pbem.store.mailjobs import (
    Job,
    JobGone,
    Rebuilt,
    count_failure,
    finish_job,
    listed_jobs,
    pending_jobs,
    requeue_jobs,
)
from pbem.store.models import Game, OutboxEmail
from pbem.store.types import utcnow

log = logging.getLogger(__name__)


def fan_out(session: Session, job: Job, *, game: Game | None = None,
            rebuilt: Rebuilt | None = None, settings: MailSettings | None = None,
            read: GameRows | None = None, **extra: Any) -> list[OutboxEmail]:
    """Queue the emails `job` calls for, in `session`'s transaction. `game` and `rebuilt`:
    what the command had in hand, when it fans out its own job at once (else read here).
    `read`: the game's rows as read in this session for a group of its jobs (else read here).
    A seat that has moved since the job's command gets no stale ask for it."""
    moved_on: frozenset[int] = frozenset()
    if game is None:
        found = _game_at(session, job, read)
        if found is None:  # the game is gone: nobody to write to
            return []
        game, extra["roster"], moved_on = found
    if rebuilt is None:
        rebuilt = rebuild(session, job)
    if moved_on:
        extra["moved_on"] = moved_on
    if settings is not None:
        extra["settings"] = settings
    rows: list[OutboxEmail] = notify.notify(
        session, game, rebuilt.before, rebuilt.after, rebuilt.events, actor=job.actor,
        echo=job.echo, now=job.made_at, deadline=job.deadline, **extra)
    return rows


def _game_at(session: Session, job: Job,
             read: GameRows | None = None) -> tuple[Game, Roster, frozenset[int]] | None:
    """The job's game as its command left it (its last_seq is the tokens' turn_seq), its
    roster now, and the seats that have acted since (the game moved on while the job
    waited). Plain rows (pbem.store.gamerows): the fan-out only reads them. From `read`
    when given (a copy of its game: each job sets its own last_seq)."""
    found = read or read_game(session.connection(), job.game_id)
    if found is None:
        return None
    game = plain(Game, {key: value for key, value in vars(found.game).items()
                        if not key.startswith("_sa_")}) if read else found.game
    roster = roster_of(found.seats, found.players)
    moved_on: frozenset[int] = frozenset()
    if game.last_seq > job.seq_after:
        moved_on = _acted_since(session, job, len(found.seats))
    set_committed_value(game, "last_seq", job.seq_after)  # never written: a read-only copy
    return game, roster, moved_on


def _acted_since(session: Session, job: Job, seats: int) -> frozenset[int]:
    """The seats that acted after the job's command. Read in order and only until every seat
    has: a worker that lags behind a busy game (hundreds of moves since) must not decode them
    all for each of its jobs, which made each job cost as much as its backlog."""
    acted: set[int] = set()
    with closing(payloads_after(session, job.game_id, job.seq_after)) as payloads:
        for payload in payloads:
            seat = acting_seat(decode_event(payload))
            if seat is not None:
                acted.add(seat)
                if len(acted) >= seats:
                    break
    return frozenset(acted)


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

# A failing job is tried again after 5 s, 10 s, 20 s ... (at most 10 minutes apart), then set
# aside at its 8th failure, about 10 minutes after the first: its game's later jobs wait for
# it until then (each game's emails in seq order), and go out after it.
RETRY_FIRST = timedelta(seconds=5)
RETRY_CAP = timedelta(minutes=10)
MAX_ATTEMPTS = 8
ERROR_KEPT = 4000  # characters of the traceback kept on the job


def retry_delay(attempts: int) -> timedelta:
    """How long a job that has failed `attempts` times waits before its next try."""
    delay: timedelta = RETRY_FIRST * (2 ** min(max(attempts - 1, 0), 16))
    return min(delay, RETRY_CAP)


def fan_out_pending(engine: Engine, *, game_id: int | None = None, most: int = 100,
                    settings: MailSettings | None = None,
                    stop: Callable[[], bool] = lambda: False,
                    now: datetime | None = None) -> list[int]:
    """Fan out the jobs due (`game_id`: that game's only), each game's in seq order; returns
    the ids of the jobs this call fanned out. A job that fails is counted and tried again
    after a back-off (its game's later jobs wait), and set aside after MAX_ATTEMPTS."""
    now = now or utcnow()
    with reading_connection(engine) as connection:  # PostgreSQL: no BEGIN/ROLLBACK either
        jobs = pending_jobs(connection, now=now, game_id=game_id, most=most)
    if jobs and settings is None:
        settings = default_settings()  # once for the batch, not once per job
    done: list[int] = []
    held: set[int] = set()  # games whose earlier job failed: their later jobs wait
    for group in _by_game(jobs):
        if stop():
            break
        with claim(engine, MAIL, group[0].game_id) as mine:
            if mine:  # else another worker fans this game's jobs out now
                done += _fan_out_group(engine, _still_due(engine, group, now), settings, now,
                                       held)
    return done


def _still_due(engine: Engine, group: list[Job], now: datetime) -> list[Job]:
    """`group` as it is now that its game's mail is claimed: another worker may have fanned
    some of it out between the listing and the claim (one indexed read, then no job is
    worked out twice)."""
    with reading_connection(engine) as connection:
        due = {job.id for job in pending_jobs(connection, now=now, game_id=group[0].game_id)}
    return [job for job in group if job.id in due]


# A game's jobs fanned out together: one planning session and one write transaction for up
# to this many (SQLite's writer lock is held for all their rows at once: a few ms at most).
GROUP_MOST = 20


def _by_game(jobs: Sequence[Job]) -> list[list[Job]]:
    """The jobs (each game's together, in seq order) in runs of one game, GROUP_MOST at most."""
    groups: list[list[Job]] = []
    for job in jobs:
        if groups and groups[-1][0].game_id == job.game_id and len(groups[-1]) < GROUP_MOST:
            groups[-1].append(job)
        else:
            groups.append([job])
    return groups


# Each job with its writes, and whether it left an echo to a later job (said there, or in
# the last job's confirmation: written only with it).
Planned = list[tuple[Job, list[Write], bool]]


def _fan_out_group(engine: Engine, jobs: list[Job], settings: MailSettings | None,
                   now: datetime, held: set[int]) -> list[int]:
    """One game's jobs, in seq order: all worked out in one planning session, then written
    in one transaction, each job's rows with its deletion (`finish_job`, as `fan_out_one`
    does), so the per-job reads and transactions are paid once a group (issue 15). A job
    that fails while worked out is counted as in `fan_out_pending`, after the jobs before it
    are written; anything else that fails (the write transaction, the planning session
    itself) sends the group one job at a time, each in its own transactions, as before."""
    done: list[int] = []
    while jobs and jobs[0].game_id not in held:
        try:
            planned, failed = _plan(engine, jobs, settings)
            written, complete = _write(engine, planned)
        except Exception:  # which job is to blame is unknown here: one at a time finds it
            return done + _one_by_one(engine, jobs, settings, now, held)
        done += written
        if failed is None or not complete:
            return done
        job, exc = failed
        if not job_failed(engine, job, exc, now):
            held.add(job.game_id)
        jobs = jobs[jobs.index(job) + 1:]
    return done


def _plan(engine: Engine, jobs: list[Job],
          settings: MailSettings | None) -> tuple[Planned, tuple[Job, Exception] | None]:
    """Each job's writes, worked out in one planning session, up to the first that fails
    (less the jobs just before it that left it an echo to say)."""
    planned: Planned = []
    carried: dict[int, str] = {}  # seat -> a reply's echo no email has said yet
    with planning(engine) as session:
        writes = collected_writes(session)
        read = read_game(session.connection(), jobs[0].game_id)  # once for the group
        for number, job in enumerate(jobs, 1):
            start = len(writes)
            try:
                if read is not None:  # else the game is gone: nothing to write
                    fan_out(session, job, settings=settings, read=read, carried=carried,
                            confirm=number == len(jobs))
            except Exception as exc:
                del writes[start:]
                return _saying_all(planned), (job, exc)
            planned.append((job, writes[start:], bool(carried)))
    return planned, None


def _saying_all(planned: Planned) -> Planned:
    """`planned` less its last jobs if they left an echo to a job not in it."""
    end = len(planned)
    while end and planned[end - 1][2]:
        end -= 1
    return planned[:end]


def _write(engine: Engine, planned: Planned) -> tuple[list[int], bool]:
    """The planned jobs' rows, each with its job's deletion, in one transaction: on
    PostgreSQL its BEGIN, deletions and rows sent in one round trip, then the COMMIT
    (pbem.store.db.pipelined_transaction). If a job's deletion finds it gone (another worker
    did it) or held (an earlier job of its game waits), nothing is kept, and the jobs before
    it are written again without it (False: the group stops there)."""
    complete = True
    while planned:
        try:
            _write_jobs(engine, planned)
        except JobGone as gone:
            kept = planned[:[job for job, _, _ in planned].index(gone.job)]
            planned, complete = _saying_all(kept), False
            continue
        return [_job_id(job) for job, _writes, _left in planned], complete
    return [], complete


def _write_jobs(engine: Engine, planned: Planned) -> None:
    every = [write for _job, writes, _left in planned for write in writes]
    with pipelined_transaction(engine, all_plain(every)) as session:
        for job, writes, _left in planned:
            finish_job(session, job)
            run_writes(session, writes)


def _job_id(job: Job) -> int:
    assert job.id is not None
    return job.id


def _one_by_one(engine: Engine, jobs: list[Job], settings: MailSettings | None,
                now: datetime, held: set[int]) -> list[int]:
    done: list[int] = []
    for job in jobs:
        if job.game_id in held:
            continue
        try:
            if fan_out_one(engine, job, settings):
                done.append(_job_id(job))
        except Exception as exc:  # one broken game must not stop the others' mail
            if not job_failed(engine, job, exc, now):
                held.add(job.game_id)
    return done


def fan_out_all(engine: Engine, *, most: int = 100, settings: MailSettings | None = None,
                stop: Callable[[], bool] = lambda: False) -> list[int]:
    """Fan out batches of due jobs until a batch finds fewer than `most` (the worker's step:
    one batch a tick fell behind any game making more than `most` moves a second, and every
    job of a late game then waits longer still)."""
    done: list[int] = []
    while True:
        batch = fan_out_pending(engine, most=most, settings=settings, stop=stop)
        done += batch
        if len(batch) < most or stop():
            return done


def job_failed(engine: Engine, job: Job, exc: Exception, now: datetime) -> bool:
    """Count the failed attempt: a back-off, or at MAX_ATTEMPTS the job set aside (logged at
    ERROR, once). True if it was set aside now: its game's later jobs may go on."""
    attempts = job.attempts + 1
    aside = attempts >= MAX_ATTEMPTS
    error = "".join(traceback.format_exception(exc))[-ERROR_KEPT:]
    try:
        with transaction(engine) as session:
            counted = count_failure(
                session.connection(), job, error=error,
                next_attempt_at=None if aside else now + retry_delay(attempts),
                set_aside_at=now if aside else None)
    except Exception:  # the database itself is failing: the job stays as it was
        log.exception("mail job %s of game %d failed, and so did counting it", job.id,
                      job.game_id)
        return False
    if not counted:  # another worker counted this attempt (or fanned the job out)
        log.debug("mail job %s failed here, counted elsewhere: %s", job.id, exc)
        return False
    _log_failure(job, exc, attempts, aside)
    return aside


def _log_failure(job: Job, exc: Exception, attempts: int, aside: bool) -> None:
    if aside:
        log.error("mail job %s of game %d set aside after %d failed attempts (%s: %s): the "
                  "game's later emails go on without it; `pbem mail retry-job %s` once fixed",
                  job.id, job.game_id, attempts, type(exc).__name__, exc, job.id,
                  exc_info=exc)
    else:
        log.warning("mail job %s of game %d failed (attempt %d of %d), retrying in %s",
                    job.id, job.game_id, attempts, MAX_ATTEMPTS, retry_delay(attempts),
                    exc_info=exc)


def fan_out_one(engine: Engine, job: Job, settings: MailSettings | None = None) -> bool:
    """Work out the job's emails without the writer lock, then write them and delete the
    job in one transaction; False (nothing written) if another worker did it first."""
    with planning(engine) as session:
        fan_out(session, job, settings=settings)
        writes = list(collected_writes(session))
    written, _complete = _write(engine, [(job, writes, False)])
    return bool(written)


def jobs_waiting(engine: Engine, game_ids: Sequence[int] | None = None) -> int:
    """How many jobs wait, due or retrying, not set aside (for tests and benchmarks)."""
    with transaction(engine, read_only=True) as session:
        jobs = listed_jobs(session.connection())
    return sum(1 for job in jobs if job.set_aside_at is None
               and (game_ids is None or job.game_id in game_ids))


def retry_jobs(engine: Engine, ids: Sequence[int] | None,
               settings: MailSettings | None = None) -> tuple[list[int], list[int]]:
    """An operator's retry: make the jobs `ids` (None: every set-aside one) due now with a
    fresh count of attempts, then fan out their games' due jobs at once. Returns the ids
    requeued and, of those, the ones fanned out now (the rest failed again and back off).
    Nothing goes twice: a job's emails are written only with its deletion."""
    with transaction(engine) as session:
        again = requeue_jobs(session.connection(), ids)
    done: list[int] = []
    for game_id in sorted(set(again.values())):
        done += fan_out_pending(engine, game_id=game_id, settings=settings)
    requeued = sorted(again)
    return requeued, [job_id for job_id in requeued if job_id in done]
