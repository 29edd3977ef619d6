"""Jobs of `pbem worker`: send the outbox, check deadlines, review finished games, the daily
digest, poll IMAP and purge old raw mail.

APScheduler 3 cannot share a job store between processes (NOTES.md), so jobs live in memory in
this one process and keep their durable state in pbem's own tables (outbox rows, deadline rows).
If a second worker is started anyway, a lease row in the database lets one of them act at a
time (another takes over when the holder stops renewing it); besides, every reminder and
timeout is done in its own transaction that re-checks its deadline row, so none happens twice.
"""

from __future__ import annotations

import importlib
import logging
import os
import signal
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask
from sqlalchemy import Engine, delete, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from pbem.mail.asks import send_reminder
from pbem.mail.compose import MailSettings
from pbem.mail.jobs import fan_out_all, retry_delay
from pbem.mail.outbox import DrainResult, SmtpSettings, drain_all, hand_back, purge_sent
from pbem.mail.reviews import review_mails
from pbem.scheduler.digest import send_digests
from pbem.service import (
    Context,
    PlayerMistake,
    games_awaiting_robots,
    games_to_play,
    play_robot_turns,
    timeout_move,
)
from pbem.service.deadlines import reminder_points
from pbem.service.invitations import remind_unanswered
from pbem.service.lobby import top_up_tables
from pbem.service.policy import DeadlinePolicy
from pbem.service.reviews import Review, games_to_review, mark_failed, review_game
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import Deadline, Game, WorkerLease
from pbem.store.types import utcnow

log = logging.getLogger(__name__)
OUTBOX_INTERVAL_SECONDS = 5
MAIL_JOBS_INTERVAL_SECONDS = 1
DEADLINE_INTERVAL_SECONDS = 60
LEASE_NAME = "scheduler"
LEASE_TTL = timedelta(seconds=DEADLINE_INTERVAL_SECONDS * 3)
RAW_MAIL_KEEP_DAYS = 30
IMAP_INTERVAL_SECONDS = 60
HEARTBEAT_INTERVAL_SECONDS = 15
# `pbem worker --check` fails once the last beat is older than this.
HEARTBEAT_MAX_AGE = timedelta(seconds=HEARTBEAT_INTERVAL_SECONDS * 4)
HEARTBEAT_PREFIX = "heartbeat:"
# The mail-in area's jobs, scheduled when their functions exist: (module, function).
PURGE_RAW_MAIL = ("pbem.mailin.receive", "purge_raw_mail")  # (engine, older_than) -> int
POLL_IMAP = ("pbem.mailin.imap", "poll_imap")  # (app) -> int
PROCESS_STALE_MAIL = ("pbem.mailin.process", "process_stale")  # (app) -> int
STALE_MAIL_INTERVAL_SECONDS = 60
PROCESS_NEW_MAIL = ("pbem.mailin.process", "process_new")  # (app) -> int
NEW_MAIL_INTERVAL_SECONDS = 1  # `pbem ingest` only spools: the worker plays within a second
REVIEW_INTERVAL_SECONDS = 30
ROBOTS_INTERVAL_SECONDS = 1  # games left to robots alone play on within a second
# How often the worker looks (one indexed read) for players waiting for robots' moves their
# command left to it: it starts on them within this, not within the second above.
ROBOTS_AWAITED_POLL_SECONDS = 0.25


def default_holder() -> str:
    """Who this process is, for the lease: host, pid and a random part (pids get reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


# --- the lease ------------------------------------------------------------------------------

def acquire_lease(engine: Engine, holder: str, *, name: str = LEASE_NAME,
                  ttl: timedelta = LEASE_TTL, now: datetime | None = None) -> bool:
    """Take or renew the lease `name` for `holder`: one atomic UPDATE that succeeds only when
    the lease is free (expired) or already ours; the first holder ever inserts the row."""
    now = now or utcnow()
    with transaction(engine) as session:
        taken = session.execute(
            update(WorkerLease)
            .where(col(WorkerLease.name) == name,
                   or_(col(WorkerLease.expires_at) < now, col(WorkerLease.holder) == holder))
            .values(holder=holder, expires_at=now + ttl)
            .execution_options(synchronize_session=False))
        if taken.rowcount:  # type: ignore[attr-defined]
            return True
        if session.get(WorkerLease, name) is not None:
            return False
    try:
        with transaction(engine) as session:
            session.add(WorkerLease(name=name, holder=holder, expires_at=now + ttl))
        return True
    except IntegrityError:  # another worker inserted it first
        return False


def release_lease(engine: Engine, holder: str, *, name: str = LEASE_NAME) -> None:
    """Let another worker take over at once (on a clean shutdown)."""
    with transaction(engine) as session:
        session.execute(
            update(WorkerLease)
            .where(col(WorkerLease.name) == name, col(WorkerLease.holder) == holder)
            .values(expires_at=utcnow() - timedelta(seconds=1))
            .execution_options(synchronize_session=False))


@contextmanager
def lease(engine: Engine, name: str, holder: str, ttl: timedelta = LEASE_TTL,
          now: datetime | None = None) -> Iterator[bool]:
    """`with lease(engine, "scheduler", me) as held: if held: ...` (the lease is kept: the
    next run renews it; another worker takes over only once it has expired)."""
    yield acquire_lease(engine, holder, name=name, ttl=ttl, now=now)


# --- the heartbeat ---------------------------------------------------------------------------
# One row per host in worker_lease, named "heartbeat:<host>": its expires_at is the last beat.
# A health check runs on the worker's own host (or container, which has its own host name).

def heartbeat_name(host: str | None = None) -> str:
    return (HEARTBEAT_PREFIX + (host or socket.gethostname()))[:64]


def beat(engine: Engine, holder: str, now: datetime | None = None) -> None:
    """Record that this worker is alive (an upsert of its host's heartbeat row)."""
    now = now or utcnow()
    name = heartbeat_name()
    with transaction(engine) as session:
        row = session.get(WorkerLease, name, with_for_update=True)
        if row is None:
            session.add(WorkerLease(name=name, holder=holder, expires_at=now))
        else:
            row.holder, row.expires_at = holder, now
            session.add(row)


def forget_heartbeat(engine: Engine, holder: str) -> None:
    with transaction(engine) as session:
        session.execute(delete(WorkerLease).where(col(WorkerLease.name) == heartbeat_name(),
                                                  col(WorkerLease.holder) == holder))


def check_heartbeat(engine: Engine, max_age: timedelta = HEARTBEAT_MAX_AGE,
                    now: datetime | None = None) -> tuple[bool, str]:
    """(alive, a sentence): is a worker on this host beating?"""
    now = now or utcnow()
    with transaction(engine, read_only=True) as session:
        row = session.get(WorkerLease, heartbeat_name())
    if row is None:
        return False, f"no worker heartbeat from {socket.gethostname()}"
    age = (now - row.expires_at).total_seconds()
    if age > max_age.total_seconds():
        return False, f"worker {row.holder} last beat {age:.0f} s ago (limit {max_age.seconds} s)"
    return True, f"worker {row.holder} alive (last beat {age:.0f} s ago)"


# --- running and stopping --------------------------------------------------------------------

def run_worker(app: Flask, holder: str | None = None,
               signals: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGINT)) -> None:
    """Run the jobs until SIGTERM or SIGINT, then stop gracefully: running jobs finish the
    email or deadline in hand and hand the rest back, rows still "sending" go back to pending,
    the lease is released (another worker may act at once) and the heartbeat removed."""
    holder = holder or default_holder()
    engine = db_engine(app)
    stopping = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        log.info("worker %s: %s received, stopping after the jobs in hand", holder,
                 signal.Signals(signum).name)
        stopping.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in signals}
    scheduler = build_scheduler(app, BackgroundScheduler(timezone="UTC"), holder=holder,
                                stopping=stopping)
    beat(engine, holder)
    scheduler.start()
    log.info("worker %s started", holder)
    try:
        while not stopping.wait(1.0):
            pass
    finally:
        scheduler.shutdown(wait=True)  # the jobs in hand see `stopping` and end early
        handed = hand_back(engine, holder)
        release_lease(engine, holder)
        forget_heartbeat(engine, holder)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        log.info("worker %s stopped (%d emails handed back, lease released)", holder, handed)


# --- deadlines -------------------------------------------------------------------------------

@dataclass
class DeadlineReport:
    acted: bool = True  # False: another worker holds the lease
    reminders: list[int] = field(default_factory=list)  # deadline ids reminded
    timeouts: list[int] = field(default_factory=list)  # deadline ids acted on
    failed: list[int] = field(default_factory=list)


def process_deadlines(ctx: Context, settings: MailSettings, now: datetime,
                      stop: Callable[[], bool] = lambda: False) -> DeadlineReport:
    """Act on expired deadlines, then send due reminders; each in its own transaction, so a
    crash in the middle loses nothing and a second run repeats nothing. Once `stop()` is
    true the rest waits for the next run (of this worker or another)."""
    report = DeadlineReport()
    with transaction(ctx.engine, read_only=True) as session:
        expired = session.exec(select(Deadline).where(
            Deadline.status == "pending", col(Deadline.grace_until) <= now)
            .order_by(col(Deadline.grace_until))).all()
        reminders = session.exec(select(Deadline.id).where(
            Deadline.status == "pending", col(Deadline.next_reminder_at) <= now,
            col(Deadline.grace_until) > now).order_by(col(Deadline.next_reminder_at))).all()
    for row in expired:
        assert row.id is not None
        if stop():
            return report
        _guarded(report, row.id, partial(_time_out, ctx, row, now), report.timeouts)
    for deadline_id in reminders:
        assert deadline_id is not None
        if stop():
            return report
        _guarded(report, deadline_id,
                 partial(send_due_reminder, ctx.engine, deadline_id, settings, now),
                 report.reminders)
    return report


def _guarded(report: DeadlineReport, deadline_id: int, action: Callable[[], bool],
             done: list[int]) -> None:
    try:
        if action():
            done.append(deadline_id)
    except Exception:  # one broken game must not stop the others
        log.exception("deadline %d failed", deadline_id)
        report.failed.append(deadline_id)


def _time_out(ctx: Context, row: Deadline, now: datetime) -> bool:
    try:
        return not timeout_move(ctx, row.game_id, row.seat_no, row.turn_seq).duplicate
    except PlayerMistake:  # the game is paused or over: this deadline is moot
        with transaction(ctx.engine) as session:
            fresh = session.get(Deadline, row.id, with_for_update=True)
            if fresh is not None and fresh.status == "pending":
                fresh.status, fresh.closed_at = "cancelled", now
                session.add(fresh)
        return False


def send_due_reminder(engine: Engine, deadline_id: int, settings: MailSettings,
                      now: datetime) -> bool:
    """Queue the reminder for one deadline if it is still due; the outbox row and the
    deadline's reminder count change in one transaction. Several reminder points passed
    together (the worker was down) give one reminder."""
    with transaction(engine) as session:
        row = session.get(Deadline, deadline_id, with_for_update=True, populate_existing=True)
        if row is None or row.status != "pending" or row.next_reminder_at is None \
                or row.next_reminder_at > now or row.grace_until <= now:
            return False
        game = session.get(Game, row.game_id)
        assert game is not None and game.id is not None
        points = reminder_points(row, DeadlinePolicy.from_dict(game.deadline_policy))
        row.reminders_sent = max(row.reminders_sent + 1, sum(p <= now for p in points))
        row.next_reminder_at = (points[row.reminders_sent]
                                if row.reminders_sent < len(points) else None)
        session.add(row)
        if game.status != "active":
            return False
        state = load_state(session, game.id).state
        send_reminder(session, game, state, row.seat_no, deadline=row.due_at,
                      settings=settings, now=now)
        return True


def check_deadlines(app: Flask, holder: str, now: datetime | None = None,
                    stopping: threading.Event | None = None) -> DeadlineReport:
    """Every minute: under the lease, time out expired deadlines and send due reminders, fill
    open tables whose wait is over, and remind unanswered invitations (and their organisers)."""
    engine = db_engine(app)
    now = now or utcnow()
    if not acquire_lease(engine, holder, now=now):
        return DeadlineReport(acted=False)
    with app.app_context():
        ctx = Context(engine=engine, clock=lambda: now)
        report = process_deadlines(ctx, MailSettings.from_config(app.config), now,
                                   stop=stopping.is_set if stopping else lambda: False)
        started = top_up_tables(ctx)  # open tables whose wait is over: robots fill them
        reminded = remind_unanswered(ctx)  # invitations unanswered for 48 h, organisers 72 h
    if started:
        log.info("open tables filled with robots and started: %s", started)
    if reminded:
        log.info("unanswered invitations: %d reminders queued", len(reminded))
    if report.reminders or report.timeouts or report.failed:
        log.info("deadlines: %d reminders, %d timeouts, %d failed", len(report.reminders),
                 len(report.timeouts), len(report.failed))
    return report


# --- games left to robots ----------------------------------------------------------------------

def carry_on_robot_games(ctx: Context, stop: Callable[[], bool] = lambda: False,
                         games: Callable[[Context], list[int]] = games_to_play) -> list[int]:
    """Play the robots' moves the commands left to the worker and play on the games no human
    is waited for, one bounded chunk of robot moves per game and transaction
    (pbem.service.robotturns), until none has a move left or `stop()`; the ids of the games
    played, once per chunk. One chunk at a time, then the games are listed again: a game
    where someone waits for the robots goes before any game left to robots alone (whose
    chunks take up to a second with strong robots), and those take turns (the fewest chunks
    this pass first). Safe beside another worker or a player's command: a chunk is written
    only on the game as it was read. A game found with nothing to play is left out until
    its seq or seats change (`games_to_play`): an idle pass is one query. A game whose chunk
    raised is tried again after a growing back-off (5 s doubling, at most 10 min, as a
    failing mail job: `retry_delay`), not at every pass. `games` lists the games to play
    (`games_awaiting_robots`: only those where a player waits)."""
    played: list[int] = []
    chunks: dict[int, int] = {}
    passed_over: set[int] = set()  # played nothing this pass: not tried again in it
    failing = _failing(ctx.engine)
    while not stop():
        due = [game_id for game_id in games(ctx)
               if game_id not in passed_over and failing.due(game_id, ctx.clock())]
        if not due:
            break
        game_id = due[min(range(len(due)), key=lambda n: (chunks.get(due[n], 0), n))]
        if _robot_chunk(ctx, game_id, failing):
            played.append(game_id)
            chunks[game_id] = chunks.get(game_id, 0) + 1
        else:
            passed_over.add(game_id)
    return played


@dataclass
class FailingRobotGames:
    """The games whose robots' chunk raised in this process: how often in a row, and when to
    try again. A chunk that plays (or finds nothing to play) forgets its game."""

    tries: dict[int, tuple[int, datetime]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def due(self, game_id: int, now: datetime) -> bool:
        with self.lock:
            failed = self.tries.get(game_id)
        return failed is None or now >= failed[1]

    def failed(self, game_id: int, now: datetime) -> tuple[int, timedelta]:
        """Count a failure of `game_id`'s chunk at `now`: its failures in a row, and the wait."""
        with self.lock:
            attempts = self.tries.get(game_id, (0, now))[0] + 1
            wait = retry_delay(attempts)
            self.tries[game_id] = (attempts, now + wait)
        return attempts, wait

    def succeeded(self, game_id: int) -> None:
        with self.lock:
            self.tries.pop(game_id, None)


_FAILING: WeakKeyDictionary[Engine, FailingRobotGames] = WeakKeyDictionary()
_FAILING_LOCK = threading.Lock()


def _failing(engine: Engine) -> FailingRobotGames:
    with _FAILING_LOCK:
        return _FAILING.setdefault(engine, FailingRobotGames())


def _robot_chunk(ctx: Context, game_id: int, failing: FailingRobotGames) -> bool:
    try:
        played = not play_robot_turns(ctx, game_id).duplicate
    except PlayerMistake:  # it ended, paused or someone moved first: the next pass sees
        played = False
    except Exception:  # one broken game must not stop the others, nor flood the log
        attempts, wait = failing.failed(game_id, ctx.clock())
        log.exception("the robots' moves in game %d failed (%d in a row); next try in %d s",
                      game_id, attempts, wait.total_seconds())
        return False
    failing.succeeded(game_id)
    return played


def play_robot_games(app: Flask, stopping: threading.Event | None = None,
                     awaited_only: bool = False) -> list[int]:
    """Every second: carry on the games left to robots, and play the robots' moves the
    commands left to the worker (`robots_thinking_since`; `awaited_only`: only those, as
    `RobotPasses` does between the seconds) (not behind the lease: each chunk is
    checked against the game as read, so two workers never play one twice; a game a worker
    found with nothing to play is left out only while its seq and seats are as found, when
    any worker would find the same)."""
    with app.app_context():
        played = carry_on_robot_games(Context(engine=db_engine(app), robots_now=True),
                                      stopping.is_set if stopping else lambda: False,
                                      games_awaiting_robots if awaited_only else games_to_play)
    if played:
        log.info("robots played on in games %s", sorted(set(played)))
    return played


@dataclass
class RobotPasses:
    """When the worker's robot pass (`play_robot_games`) runs: every `every` seconds in full,
    and at each `tick` in between (the scheduler's, every ROBOTS_AWAITED_POLL_SECONDS) for the
    games where a player waits for robots' moves (one indexed read when there are none): their
    page shows the moves a few tenths of a second after the robots have decided. While a
    full pass runs, those games go before the games left to robots alone at each chunk, and
    the ticks that fall meanwhile return at once (the job allows two instances, so the
    scheduler never finds it still running and warns, four times a second, that it skipped
    one)."""

    app: Flask
    stopping: threading.Event | None = None
    every: float = ROBOTS_INTERVAL_SECONDS
    clock: Callable[[], float] = time.monotonic
    last: float | None = None
    running: threading.Lock = field(default_factory=threading.Lock)

    def tick(self) -> list[int]:
        if not self.running.acquire(blocking=False):
            return []  # a pass is under way: it lists the waiting games before each chunk
        try:
            now = self.clock()
            if self.last is not None and now - self.last < self.every:
                return play_robot_games(self.app, self.stopping, awaited_only=True)
            self.last = now
            return play_robot_games(self.app, self.stopping)
        finally:
            self.running.release()


# --- reviews ----------------------------------------------------------------------------------

def review_finished_games(app: Flask, holder: str,
                          stopping: threading.Event | None = None) -> list[int]:
    """Every half minute: under the lease, review the games that ended since (each weighed
    outside any transaction, then stored with its review emails in one); the ids reviewed."""
    engine = db_engine(app)
    if not acquire_lease(engine, holder):
        return []
    settings = MailSettings.from_config(app.config)

    def mail(session: Any, game: Game, review: Review) -> None:
        review_mails(session, game, review, settings)

    done: list[int] = []
    with app.app_context():
        ctx = Context(engine=engine)
        for game_id in games_to_review(ctx):
            if stopping is not None and stopping.is_set():
                break
            try:
                review = review_game(ctx, game_id, on_stored=mail)
            except Exception:  # one broken game must not stop the others
                log.exception("the review of game %d failed", game_id)
                mark_failed(ctx, game_id)
                continue
            if review is not None:
                log.info("game %d reviewed: %d decisions in %.1f s of CPU", game_id,
                         len(review.verdicts), review.cpu_seconds)
                done.append(game_id)
    return done


# --- the other jobs ------------------------------------------------------------------------

def send_outbox(app: Flask, holder: str | None = None,
                stopping: threading.Event | None = None) -> DrainResult:
    """Send every due email of the outbox (safe to run in several processes: rows are claimed).
    Rows are claimed under `holder`, so a stopping worker hands back exactly its own."""
    result = drain_all(db_engine(app), SmtpSettings.from_config(app.config), worker_id=holder,
                       stop=stopping.is_set if stopping else lambda: False)
    if result.sent or result.retry or result.failed:
        log.info("outbox: %d sent, %d to retry, %d failed",
                 len(result.sent), len(result.retry), len(result.failed))
    return result


def fan_out_mail(app: Flask, stopping: threading.Event | None = None) -> list[int]:
    """Every second: fan the commands' mail jobs out into outbox rows (safe to run in several
    processes: a job's rows are written with its deletion, by whoever deletes it first)."""
    with app.app_context():
        done = fan_out_all(db_engine(app), settings=MailSettings.from_config(app.config),
                               stop=stopping.is_set if stopping else lambda: False)
    if done:
        log.debug("mail jobs fanned out: %d", len(done))
    return done


def send_daily_digests(app: Flask, holder: str | None = None) -> int:
    """Hourly: queue the digests of players for whom it is now 8 in the morning (under the
    lease when `holder` is given)."""
    if holder is not None and not acquire_lease(db_engine(app), holder):
        return 0
    with app.app_context():
        return send_digests(db_engine(app), MailSettings.from_config(app.config), utcnow())


def purge_raw_mail(app: Flask, holder: str) -> int:
    """Daily: forget the raw bytes of inbound mail handled long ago (under the lease)."""
    purge = optional_function(PURGE_RAW_MAIL)
    engine = db_engine(app)
    if purge is None or not acquire_lease(engine, holder):
        return 0
    days = int(app.config.get("INBOUND_KEEP_DAYS", RAW_MAIL_KEEP_DAYS))
    purged: int = purge(engine, timedelta(days=days))
    return purged


def poll_imap(app: Flask, holder: str) -> int:
    """Every minute: fetch new replies from the IMAP mailbox (under the lease)."""
    poll = optional_function(POLL_IMAP)
    if poll is None or not acquire_lease(db_engine(app), holder):
        return 0
    with app.app_context():
        fetched: int = poll(app)
    return fetched


def purge_sent_mail(app: Flask) -> int:
    """Daily: empty sent emails still holding bodies and token headers (sending forgets them
    at once; this catches rows sent before it did)."""
    return purge_sent(db_engine(app))


def finish_inbound_mail(app: Flask) -> int:
    """Every minute: process stored mail a crashed receiver or worker left pending
    (safe in several processes: each message is claimed before it is processed)."""
    finish = optional_function(PROCESS_STALE_MAIL)
    if finish is None:
        return 0
    done: int = finish(app)
    if done:
        log.info("inbound mail: %d messages left pending were processed", done)
    return done


def play_new_inbound_mail(app: Flask) -> int:
    """Every second: store and play the mail `pbem ingest` spooled (an MTA pipe's process only
    spools it); not behind the lease: each worker takes in its own machine's spool, and is
    safe beside the others (a file is stored once, each message claimed before it is
    processed)."""
    play = optional_function(PROCESS_NEW_MAIL)
    done: int = play(app) if play is not None else 0
    return done


def optional_function(where: tuple[str, str]) -> Callable[..., Any] | None:
    """A function of an area that may not be written yet (None then)."""
    module_name, name = where
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            return None
        raise
    found: Callable[..., Any] | None = getattr(module, name, None)
    return found


def build_scheduler(app: Flask, scheduler: BaseScheduler | None = None,
                    holder: str | None = None,
                    stopping: threading.Event | None = None) -> BaseScheduler:
    """The worker's scheduler with its jobs added (not started). Jobs that work through a
    list end early once `stopping` is set."""
    scheduler = scheduler or BlockingScheduler(timezone="UTC")
    holder = holder or default_holder()
    scheduler.add_job(send_outbox, "interval", args=[app, holder, stopping],
                      seconds=OUTBOX_INTERVAL_SECONDS,
                      id="send_outbox", max_instances=1, coalesce=True,
                      misfire_grace_time=OUTBOX_INTERVAL_SECONDS * 6)
    scheduler.add_job(fan_out_mail, "interval", args=[app, stopping],
                      seconds=MAIL_JOBS_INTERVAL_SECONDS, id="fan_out_mail", max_instances=1,
                      coalesce=True, misfire_grace_time=OUTBOX_INTERVAL_SECONDS * 6)
    scheduler.add_job(beat, "interval", args=[db_engine(app), holder],
                      seconds=HEARTBEAT_INTERVAL_SECONDS, id="heartbeat", max_instances=1,
                      coalesce=True, misfire_grace_time=HEARTBEAT_INTERVAL_SECONDS)
    scheduler.add_job(check_deadlines, "interval", args=[app, holder, None, stopping],
                      seconds=DEADLINE_INTERVAL_SECONDS, id="check_deadlines", max_instances=1,
                      coalesce=True, misfire_grace_time=DEADLINE_INTERVAL_SECONDS * 5)
    scheduler.add_job(RobotPasses(app, stopping).tick, "interval",
                      seconds=ROBOTS_AWAITED_POLL_SECONDS, id="play_robot_games",
                      max_instances=2, coalesce=True, misfire_grace_time=60)
    scheduler.add_job(review_finished_games, "interval", args=[app, holder, stopping],
                      seconds=REVIEW_INTERVAL_SECONDS, id="review_finished_games",
                      max_instances=1, coalesce=True,
                      misfire_grace_time=REVIEW_INTERVAL_SECONDS * 10)
    scheduler.add_job(send_daily_digests, "cron", args=[app, holder], minute=0, id="daily_digests",
                      max_instances=1, coalesce=True, misfire_grace_time=30 * 60)
    if optional_function(POLL_IMAP) is not None:
        scheduler.add_job(poll_imap, "interval", args=[app, holder],
                          seconds=IMAP_INTERVAL_SECONDS, id="poll_imap", max_instances=1,
                          coalesce=True, misfire_grace_time=IMAP_INTERVAL_SECONDS * 5)
    scheduler.add_job(purge_sent_mail, "cron", args=[app], hour=3, minute=45,
                      id="purge_sent_mail", max_instances=1, coalesce=True,
                      misfire_grace_time=6 * 3600)
    scheduler.add_job(finish_inbound_mail, "interval", args=[app],
                      seconds=STALE_MAIL_INTERVAL_SECONDS, id="finish_inbound_mail",
                      max_instances=1, coalesce=True,
                      misfire_grace_time=STALE_MAIL_INTERVAL_SECONDS * 5)
    scheduler.add_job(play_new_inbound_mail, "interval", args=[app],
                      seconds=NEW_MAIL_INTERVAL_SECONDS, id="play_new_inbound_mail",
                      max_instances=1, coalesce=True, misfire_grace_time=60)
    if optional_function(PURGE_RAW_MAIL) is not None:
        scheduler.add_job(purge_raw_mail, "cron", args=[app, holder], hour=3, minute=30,
                          id="purge_raw_mail", max_instances=1, coalesce=True,
                          misfire_grace_time=6 * 3600)
    from pbem.scheduler.retention import purge_old_data  # retention (issue 35)
    scheduler.add_job(purge_old_data, "cron", args=[app, holder], hour=4, minute=15,
                      id="purge_old_data", max_instances=1, coalesce=True,
                      misfire_grace_time=6 * 3600)
    return scheduler
