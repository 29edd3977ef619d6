"""Jobs of `pbem worker`: send the outbox, fan out the moves' mail jobs, play the robots'
moves, check deadlines, review finished games, the daily digest, poll IMAP and purge old raw
mail.

Every worker process runs every job (APScheduler 3 keeps its jobs in memory, one scheduler
per process: NOTES.md), and the work is claimed unit by unit before it is worked
(pbem.store.claims: a game's robot turns or timeout, a game's mail jobs, a review, a
reminder, one run of a job that works through a short list): several workers, on one host or
many, on one PostgreSQL take different units and add up instead of racing; a worker that
dies drops its claims with its connection (PostgreSQL) or its process (SQLite), and another
takes the unit at its next tick. Nothing is global any more: there is no lease. Each unit is
still written only if it is as read (a move's compare-and-set, a deadline's re-check), so a
claim lost in a database restart costs at most a plan, never a doubled move.
"""

from __future__ import annotations

import importlib
import logging
import os
import signal
import socket
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.mail.asks import send_reminder
from pbem.mail.compose import MailSettings
from pbem.mail.jobs import fan_out_all, retry_delay
from pbem.mail.outbox import DrainResult, SmtpSettings, drain_all, hand_back, purge_sent
from pbem.mail.reviews import review_mails
from pbem.scheduler import processes
from pbem.scheduler.digest import send_digests
from pbem.scheduler.processes import HEARTBEAT_INTERVAL_SECONDS, ProcessStats
from pbem.scheduler.quiet import quiet_skipped_runs
from pbem.scheduler.retention import purge_old_data
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
from pbem.service.reviews import (
    OnStored,
    Review,
    games_to_review,
    mark_failed,
    review_game,
)
from pbem.service.robotturns import set_robots_aside
from pbem.store.app_engine import db_engine
from pbem.store.claims import GAME, JOB, JOB_KEYS, REMINDER, REVIEW, Unit, claim
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import Deadline, Game
from pbem.store.tally import TALLY_INTERVAL_SECONDS, tally_events
from pbem.store.types import utcnow

log = logging.getLogger(__name__)
OUTBOX_INTERVAL_SECONDS = 5
MAIL_JOBS_INTERVAL_SECONDS = 1
DEADLINE_INTERVAL_SECONDS = 60
RAW_MAIL_KEEP_DAYS = 30
IMAP_INTERVAL_SECONDS = 60
# The mail-in area's jobs, scheduled when their functions exist: (module, function).
PURGE_RAW_MAIL = ("pbem.mailin.receive", "purge_raw_mail")  # (engine, older_than) -> int
POLL_IMAP = ("pbem.mailin.imap", "poll_imap")  # (app) -> int
PROCESS_STALE_MAIL = ("pbem.mailin.process", "process_stale")  # (app) -> int
STALE_MAIL_INTERVAL_SECONDS = 60
PROCESS_NEW_MAIL = ("pbem.mailin.process", "process_new")  # (app) -> int
NEW_MAIL_INTERVAL_SECONDS = 1  # `pbem ingest` only spools: the worker plays within a second
REVIEW_INTERVAL_SECONDS = 30
# A game whose robots' chunk raised this many times in a row (in one worker, with a growing
# back-off between: ~5 minutes in all) is set aside with the reason, for every worker.
ROBOTS_SET_ASIDE = 6
ROBOTS_INTERVAL_SECONDS = 1  # games left to robots alone play on within a second
# How often the worker looks (one indexed read) for players waiting for robots' moves their
# command left to it: it starts on them within this, not within the second above.
ROBOTS_AWAITED_POLL_SECONDS = 0.25


def default_holder() -> str:
    """Who this process is: host, pid and a random part (pids get reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


# --- running and stopping --------------------------------------------------------------------

def run_worker(app: Flask, holder: str | None = None,
               signals: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGINT)) -> None:
    """Run the jobs until SIGTERM or SIGINT, then stop gracefully: running jobs finish the
    email or deadline in hand and hand the rest back, rows still "sending" go back to pending,
    its claims are given back as its jobs end, and its process row removed."""
    holder = holder or default_holder()
    engine = db_engine(app)
    stopping = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        log.info("worker %s: %s received, stopping after the jobs in hand", holder,
                 signal.Signals(signum).name)
        stopping.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in signals}
    stats = ProcessStats()
    scheduler = build_scheduler(app, BackgroundScheduler(timezone="UTC"), holder=holder,
                                stopping=stopping, stats=stats)
    processes.start(engine, holder)
    scheduler.start()
    log.info("worker %s started", holder)
    try:
        while not stopping.wait(1.0):
            pass
    finally:
        scheduler.shutdown(wait=True)  # the jobs in hand see `stopping` and end early
        handed = hand_back(engine, holder)
        processes.stop(engine, holder)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        log.info("worker %s stopped (%d emails handed back, %d plans discarded)", holder,
                 handed, stats.plans_discarded)


# --- deadlines -------------------------------------------------------------------------------

@dataclass
class DeadlineReport:
    skipped: list[int] = field(default_factory=list)  # claimed by another worker meanwhile
    reminders: list[int] = field(default_factory=list)  # deadline ids reminded
    timeouts: list[int] = field(default_factory=list)  # deadline ids acted on
    failed: list[int] = field(default_factory=list)


def process_deadlines(ctx: Context, settings: MailSettings, now: datetime,
                      stop: Callable[[], bool] = lambda: False) -> DeadlineReport:
    """Act on expired deadlines, then send due reminders; each claimed (a timeout: its game,
    as the robots' turns are; a reminder: its deadline) and done in its own transaction, so
    a crash in the middle loses nothing, a second run repeats nothing, and workers running
    this together share the rows out. Once `stop()` is true the rest waits for the next run
    (of this worker or another)."""
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
        _claimed(ctx.engine, (GAME, row.game_id), report, row.id,
                 partial(_time_out, ctx, row, now), report.timeouts)
    for deadline_id in reminders:
        assert deadline_id is not None
        if stop():
            return report
        _claimed(ctx.engine, (REMINDER, deadline_id), report, deadline_id,
                 partial(send_due_reminder, ctx.engine, deadline_id, settings, now),
                 report.reminders)
    return report


def _claimed(engine: Engine, unit: Unit, report: DeadlineReport, deadline_id: int,
             action: Callable[[], bool], done: list[int]) -> None:
    with claim(engine, *unit) as mine:
        if mine:
            _guarded(report, deadline_id, action, done)
        else:
            report.skipped.append(deadline_id)


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


def check_deadlines(app: Flask, now: datetime | None = None,
                    stopping: threading.Event | None = None,
                    stats: ProcessStats | None = None) -> DeadlineReport:
    """Every minute, in every worker: time out expired deadlines and send due reminders (each
    claimed), fill open tables whose wait is over, and remind unanswered invitations (and
    their organisers) (each of those two a claimed run: a short list, re-checked row by row
    in its own transaction)."""
    engine = db_engine(app)
    now = now or utcnow()
    with app.app_context():
        ctx = Context(engine=engine, clock=lambda: now, on_discarded=_counter(stats),
                      robot_seconds=robot_seconds(app))
        report = process_deadlines(ctx, MailSettings.from_config(app.config), now,
                                   stop=stopping.is_set if stopping else lambda: False)
        started = _claimed_run(engine, "top_up", partial(top_up_tables, ctx))  # robots fill
        # open tables whose wait is over; invitations unanswered for 48 h, organisers 72 h:
        reminded = _claimed_run(engine, "invitations", partial(remind_unanswered, ctx))
    if started:
        log.info("open tables filled with robots and started: %s", started)
    if reminded:
        log.info("unanswered invitations: %d reminders queued", len(reminded))
    if report.reminders or report.timeouts or report.failed:
        log.info("deadlines: %d reminders, %d timeouts, %d failed", len(report.reminders),
                 len(report.timeouts), len(report.failed))
    return report


def _claimed_run(engine: Engine, job: str, run: Callable[[], list[int]]) -> list[int]:
    """One run of a periodic job that works through a short list, by one worker at a time
    (the others skip it: the next minute's run, theirs or this one's, does what is left)."""
    with claim(engine, JOB, JOB_KEYS[job]) as mine:
        return run() if mine else []


def robot_seconds(app: Flask) -> float | None:
    """A strong robot's wall-clock limit a decision in the worker (PBEM_ROBOT_SECONDS; 0:
    none): under load it plays the best choice found by then, so no chunk holds its game's
    claim for long."""
    seconds = float(app.config.get("ROBOT_SECONDS") or 0)
    return seconds or None


def _counter(stats: ProcessStats | None) -> Callable[[], None] | None:
    return stats.discarded if stats is not None else None


# --- games left to robots ----------------------------------------------------------------------

def carry_on_robot_games(ctx: Context, stop: Callable[[], bool] = lambda: False,
                         games: Callable[[Context], list[int]] = games_to_play) -> list[int]:
    """Play the robots' moves the commands left to the worker and play on the games no human
    is waited for, one bounded chunk of robot moves per game and transaction
    (pbem.service.robotturns), until none has a move left or `stop()`; the ids of the games
    played, once per chunk. One chunk at a time, then the games are listed again: a game
    where someone waits for the robots goes before any game left to robots alone (whose
    chunks take up to a second with strong robots), and those take turns (the fewest chunks
    this pass first). Each game is claimed for its chunk (pbem.store.claims): a game another
    worker holds is passed over, and this worker takes the next one, so workers share the
    games out instead of planning the same one. Safe beside a player's command too: a chunk
    is written only on the game as it was read. A game found with nothing to play is left out until
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
        with claim(ctx.engine, GAME, game_id) as mine:
            if mine and _robot_chunk(ctx, game_id, failing):
                played.append(game_id)
                chunks[game_id] = chunks.get(game_id, 0) + 1
            else:  # nothing to play, or another worker's now: the next pass looks again
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
        if attempts >= ROBOTS_SET_ASIDE:
            log.exception("the robots' moves in game %d failed %d times in a row: set aside "
                          "(pbem robots retry %d puts it back)", game_id, attempts, game_id)
            set_robots_aside(ctx, game_id, traceback.format_exc())
            failing.succeeded(game_id)
        else:
            log.exception("the robots' moves in game %d failed (%d in a row); next try in "
                          "%d s", game_id, attempts, wait.total_seconds())
        return False
    failing.succeeded(game_id)
    return played


def play_robot_games(app: Flask, stopping: threading.Event | None = None,
                     awaited_only: bool = False, stats: ProcessStats | None = None) -> list[int]:
    """Every second: carry on the games left to robots, and play the robots' moves the
    commands left to the worker (`robots_thinking_since`; `awaited_only`: only those, as
    `RobotPasses` does between the seconds) (every worker: each game is claimed for its
    chunk; a game a worker found with nothing to play is left out only while its seq and
    seats are as found, when any worker would find the same)."""
    with app.app_context():
        ctx = Context(engine=db_engine(app), robots_now=True, on_discarded=_counter(stats),
                      robot_seconds=robot_seconds(app))
        played = carry_on_robot_games(ctx,
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
    stats: ProcessStats | None = None

    def tick(self) -> list[int]:
        if not self.running.acquire(blocking=False):
            return []  # a pass is under way: it lists the waiting games before each chunk
        try:
            now = self.clock()
            if self.last is not None and now - self.last < self.every:
                return play_robot_games(self.app, self.stopping, awaited_only=True,
                                        stats=self.stats)
            self.last = now
            return play_robot_games(self.app, self.stopping, stats=self.stats)
        finally:
            self.running.release()


# --- reviews ----------------------------------------------------------------------------------

def review_finished_games(app: Flask, stopping: threading.Event | None = None) -> list[int]:
    """Every half minute, in every worker: review the games that ended since, each claimed
    (workers review different games side by side), weighed outside any transaction, then
    stored with its review emails in one; the ids reviewed."""
    engine = db_engine(app)
    settings = MailSettings.from_config(app.config)

    def mail(session: Any, game: Game, review: Review) -> None:
        review_mails(session, game, review, settings)

    done: list[int] = []
    with app.app_context():
        ctx = Context(engine=engine)
        for game_id in games_to_review(ctx):
            if stopping is not None and stopping.is_set():
                break
            with claim(engine, REVIEW, game_id) as mine:
                if mine and _reviewed(ctx, game_id, mail):
                    done.append(game_id)
    return done


def _reviewed(ctx: Context, game_id: int, mail: OnStored) -> bool:
    """Review one game (None back: another worker stored its review first)."""
    try:
        review = review_game(ctx, game_id, on_stored=mail)
    except Exception:  # one broken game must not stop the others
        log.exception("the review of game %d failed", game_id)
        mark_failed(ctx, game_id)
        return False
    if review is None:
        return False
    log.info("game %d reviewed: %d decisions in %.1f s of CPU", game_id, len(review.verdicts),
             review.cpu_seconds)
    return True


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


def fan_out_and_send(app: Flask, holder: str | None = None,
                     stopping: threading.Event | None = None) -> list[int]:
    """Every second: fan the mail jobs out, then send at once what they queued, so the next
    turn email leaves within about a second of the move (the outbox's own tick, every
    `OUTBOX_INTERVAL_SECONDS`, still sends retries and what other processes queued)."""
    done = fan_out_mail(app, stopping)
    if done and not (stopping and stopping.is_set()):
        send_outbox(app, holder, stopping)
    return done


def send_daily_digests(app: Flask, now: datetime | None = None) -> int:
    """Hourly: queue the digests of players for whom it is now 8 in the morning (one worker's
    run at a time; a player gets at most one a day however many run it)."""
    engine = db_engine(app)
    with claim(engine, JOB, JOB_KEYS["digests"]) as mine, app.app_context():
        if not mine:
            return 0
        return send_digests(engine, MailSettings.from_config(app.config), now or utcnow())


def purge_raw_mail(app: Flask) -> int:
    """Daily: forget the raw bytes of inbound mail handled long ago (one worker's run)."""
    purge = optional_function(PURGE_RAW_MAIL)
    engine = db_engine(app)
    days = int(app.config.get("INBOUND_KEEP_DAYS", RAW_MAIL_KEEP_DAYS))
    with claim(engine, JOB, JOB_KEYS["purge_raw_mail"]) as mine:
        purged: int = purge(engine, timedelta(days=days)) if mine and purge is not None else 0
    return purged


def poll_imap(app: Flask) -> int:
    """Every minute: fetch new replies from the IMAP mailbox (one mailbox: one worker polls
    it at a time; a message fetched twice is stored once)."""
    poll = optional_function(POLL_IMAP)
    with claim(db_engine(app), JOB, JOB_KEYS["imap"]) as mine, app.app_context():
        fetched: int = poll(app) if mine and poll is not None else 0
    return fetched


def purge_sent_mail(app: Flask) -> int:
    """Daily: empty sent emails still holding bodies and token headers (sending forgets them
    at once; this catches rows sent before it did)."""
    with claim(db_engine(app), JOB, JOB_KEYS["purge_sent_mail"]) as mine:
        return purge_sent(db_engine(app)) if mine else 0


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
    spools it): each worker takes in its own machine's spool, and is safe beside the
    others (a file is stored once, each message claimed before it is processed)."""
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
                    holder: str | None = None, stopping: threading.Event | None = None,
                    stats: ProcessStats | None = None) -> BaseScheduler:
    """The worker's scheduler with its jobs added (not started). Jobs that work through a
    list end early once `stopping` is set. Every worker process runs all of them; the work
    in each is claimed (see the module's docstring)."""
    scheduler = scheduler or BlockingScheduler(timezone="UTC")
    holder = holder or default_holder()
    quiet_skipped_runs()
    engine = db_engine(app)

    def every(func: Callable[..., Any], seconds: float, args: list[Any], job_id: str,
              grace: float, instances: int = 1) -> None:
        scheduler.add_job(func, "interval", args=args, seconds=seconds, id=job_id,
                          max_instances=instances, coalesce=True, misfire_grace_time=grace)

    def daily(func: Callable[..., Any], job_id: str, **when: int) -> None:
        scheduler.add_job(func, "cron", args=[app], id=job_id, max_instances=1, coalesce=True,
                          misfire_grace_time=6 * 3600, **when)

    every(send_outbox, OUTBOX_INTERVAL_SECONDS, [app, holder, stopping], "send_outbox",
          OUTBOX_INTERVAL_SECONDS * 6)
    every(fan_out_and_send, MAIL_JOBS_INTERVAL_SECONDS, [app, holder, stopping], "fan_out_mail",
          OUTBOX_INTERVAL_SECONDS * 6)
    every(processes.beat, HEARTBEAT_INTERVAL_SECONDS, [engine, holder, stats], "heartbeat",
          HEARTBEAT_INTERVAL_SECONDS)
    every(tally_events, TALLY_INTERVAL_SECONDS, [engine], "tally", TALLY_INTERVAL_SECONDS)
    every(check_deadlines, DEADLINE_INTERVAL_SECONDS, [app, None, stopping, stats],
          "check_deadlines", DEADLINE_INTERVAL_SECONDS * 5)
    every(RobotPasses(app, stopping, stats=stats).tick, ROBOTS_AWAITED_POLL_SECONDS, [],
          "play_robot_games", 60, instances=2)
    every(review_finished_games, REVIEW_INTERVAL_SECONDS, [app, stopping],
          "review_finished_games", REVIEW_INTERVAL_SECONDS * 10)
    scheduler.add_job(send_daily_digests, "cron", args=[app], minute=0, id="daily_digests",
                      max_instances=1, coalesce=True, misfire_grace_time=30 * 60)
    if optional_function(POLL_IMAP) is not None:
        every(poll_imap, IMAP_INTERVAL_SECONDS, [app], "poll_imap", IMAP_INTERVAL_SECONDS * 5)
    daily(purge_sent_mail, "purge_sent_mail", hour=3, minute=45)
    every(finish_inbound_mail, STALE_MAIL_INTERVAL_SECONDS, [app], "finish_inbound_mail",
          STALE_MAIL_INTERVAL_SECONDS * 5)
    every(play_new_inbound_mail, NEW_MAIL_INTERVAL_SECONDS, [app], "play_new_inbound_mail", 60)
    if optional_function(PURGE_RAW_MAIL) is not None:
        daily(purge_raw_mail, "purge_raw_mail", hour=3, minute=30)
    daily(purge_old_data, "purge_old_data", hour=4, minute=15)  # retention (issue 35)
    return scheduler
