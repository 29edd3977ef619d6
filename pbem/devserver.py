"""`pbem dev`: the whole service on one machine — SQLite, a mail catcher, a demo game.

It creates or upgrades the schema, starts the SMTP catcher (caught mail is shown at /mail),
plays the replies `pbem ingest` spooled, the robots' moves, fans out the moves' mail jobs and
sends the outbox to it four times a second from a background thread (the pump: quicker than
the worker's five-second outbox, so the demo's next email comes at once), runs the worker's
other jobs on their schedule (deadlines and reminders, timeouts, open seats given to robots,
reviews, digests), creates a demo game (you against three computer seats) when no game is
running, and serves the web app.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import click
from aiosmtpd.controller import Controller
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy import Engine
from sqlmodel import col, select
from werkzeug.serving import run_simple

from pbem import service
from pbem.devmail import mail_folder
from pbem.devmail.server import start_catcher
from pbem.mail.compose import MailSettings
from pbem.mail.jobs import fan_out_pending
from pbem.mail.outbox import SmtpSettings, drain_all
from pbem.mailin.process import process_new
from pbem.scheduler.worker import ROBOTS_AWAITED_POLL_SECONDS, build_scheduler, play_robot_games
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.migrate import upgrade
from pbem.store.models import Game

log = logging.getLogger(__name__)

DEMO_NAME = "Demo: you against three robots"
DEMO_PLAYER = service.Invitee(email="you@example.com", name="You", accepted=True)
DEMO_BOT_SEATS = (1, 2, 3)
DEMO_OPTIONS = {"target": 26}  # the standard rules, but over in a few hands
RUNNING = ("inviting", "active", "paused")
# The worker's jobs the pump does (more often): the dev scheduler runs all the others.
PUMPED_JOBS = ("send_outbox", "fan_out_mail", "play_robot_games", "play_new_inbound_mail")
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


# --- the demo game ------------------------------------------------------------------------

def running_game_id(engine: Engine) -> int | None:
    with transaction(engine, read_only=True) as session:
        game = session.exec(select(Game).where(col(Game.status).in_(RUNNING))
                            .order_by(col(Game.id))).first()
        return game.id if game else None


def create_demo_game(engine: Engine) -> int:
    """One human seat (auto-accepted) against three computer seats; returns the game id."""
    outcome = service.create_game(
        service.Context(engine=engine), name=DEMO_NAME, preset="standard",
        options=DEMO_OPTIONS, players=[DEMO_PLAYER], bot_seats=DEMO_BOT_SEATS)
    return outcome.game_id


def ensure_demo_game(engine: Engine, *, new: bool = False) -> tuple[int, bool]:
    """(game id, created?): the running game, or a new demo game when none is running."""
    existing = None if new else running_game_id(engine)
    if existing is not None:
        return existing, False
    return create_demo_game(engine), True


# --- the outbox sender --------------------------------------------------------------------

@dataclass
class OutboxPump:
    """A daemon thread that, every `interval` seconds, plays the replies `pbem ingest` spooled
    and sends the outbox over SMTP."""

    engine: Engine
    smtp: SmtpSettings
    interval: float = 1.0
    # given: spooled replies are played, games left to robots played on and the moves' mail
    # jobs fanned out first, as the worker does
    app: Flask | None = None
    stop_event: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def start(self) -> OutboxPump:
        self.thread = threading.Thread(target=self._loop, name="pbem-outbox", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
        if self.thread is not None:
            self.thread.join(timeout=10)

    def _loop(self) -> None:
        while not self.stop_event.is_set():
            self.pump_once()
            self.stop_event.wait(self.interval)

    def pump_once(self) -> int:
        try:
            if self.app is not None:
                process_new(self.app)  # what `pbem ingest` spooled, as the worker does
                play_robot_games(self.app)  # games left to robots play on, as in the worker
                with self.app.app_context():
                    fan_out_pending(self.engine, settings=MailSettings.from_config(self.app.config))
            return len(drain_all(self.engine, self.smtp, batch=50).sent)
        except Exception:  # keep the dev server alive; the row is retried with backoff
            log.exception("sending the outbox failed")
            return 0


def dev_scheduler(app: Flask, stopping: threading.Event) -> BaseScheduler:
    """The worker's scheduler less the jobs the pump does (not started): deadlines,
    reminders and timeouts, open seats given to robots, reviews, digests run in `pbem dev`
    as in production."""
    scheduler = build_scheduler(app, BackgroundScheduler(timezone="UTC"), stopping=stopping)
    for job_id in PUMPED_JOBS:
        scheduler.remove_job(job_id)
    return scheduler


# --- the command --------------------------------------------------------------------------

def start_dev_catcher(app: Flask) -> Controller | None:
    """Start the catcher on SMTP_HOST:SMTP_PORT, unless mail goes to a real relay."""
    host, port = str(app.config["SMTP_HOST"]), int(app.config["SMTP_PORT"])
    if host not in LOOPBACK:
        click.echo(f"Mail goes to {host}:{port} (PBEM_SMTP_HOST); no mail catcher started.")
        return None
    try:
        return start_catcher(mail_folder(app), host=host, port=port)
    except (OSError, RuntimeError) as exc:
        raise click.ClickException(
            f"cannot start the mail catcher on {host}:{port} ({exc}). Is another `pbem dev` "
            "running? Stop it, or choose another port with PBEM_SMTP_PORT.") from exc


def web_address(app: Flask) -> tuple[str, int]:
    """Where to serve: the host and port of BASE_URL (the links in emails point there)."""
    parts = urlsplit(app.config["BASE_URL"])
    return parts.hostname or "127.0.0.1", parts.port or 5000


def banner(app: Flask, game_id: int, created: bool, catcher: bool) -> str:
    base = app.config["BASE_URL"]
    what = "created" if created else "still running"
    lines = [
        "", "pbem is running in development mode.",
        f"  Web app:       {base}/",
    ]
    if game_id:
        lines.append(f"  Demo game:     {base}/games/{game_id} ({what})")
    if catcher:
        lines.append(f"  Caught mail:   {base}/mail   <- start here: open your turn email")
    lines += [f"  Database:      {app.config['DATABASE_URL']}", "Press Ctrl+C to stop.", ""]
    return "\n".join(lines)


@click.command("dev", help="Run the service locally: SQLite, a mail catcher and a demo game.")
@click.option("--new-demo", is_flag=True, help="Start a new demo game even if one is running.")
@click.option("--no-demo", is_flag=True, help="Don't create a demo game.")
@with_appcontext
def dev(new_demo: bool, no_demo: bool) -> None:
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    if app.config["PBEM_ENV"] != "development":
        raise click.ClickException("`pbem dev` is for development (PBEM_ENV=development) only.")
    upgrade(app.config["DATABASE_URL"])
    engine = db_engine(app)
    catcher = start_dev_catcher(app)
    # as often as the worker looks for players waiting for robots: the demo's robots answer
    # a move a few tenths of a second after they have decided
    pump = OutboxPump(engine, SmtpSettings.from_config(app.config), app=app,
                      interval=ROBOTS_AWAITED_POLL_SECONDS).start()
    stopping = threading.Event()
    scheduler = dev_scheduler(app, stopping)
    scheduler.start()
    try:
        game_id, created = (0, False) if no_demo else ensure_demo_game(engine, new=new_demo)
        click.echo(banner(app, game_id, created, catcher is not None))
        host, port = web_address(app)
        # app.run() refuses to run inside a `flask`-style CLI command; run_simple is what it calls.
        run_simple(host, port, app, use_reloader=False, use_debugger=False, threaded=True)
    finally:
        stopping.set()
        scheduler.shutdown(wait=False)
        pump.stop()
        if catcher is not None:
            catcher.stop()


commands: list[click.Command] = [dev]
