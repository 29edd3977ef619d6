"""`pbem dev`'s parts: the demo game, the pump (replies `pbem ingest` spooled, the outbox into
the catcher), the command's guard."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from flask import Flask
from sqlmodel import col, select

from pbem.app import db_engine
from pbem.devmail.server import start_catcher
from pbem.devmail.store import MailStore
from pbem.devserver import (
    DEMO_PLAYER,
    PUMPED_JOBS,
    OutboxPump,
    banner,
    dev_scheduler,
    ensure_demo_game,
    web_address,
)
from pbem.engine import CardPlayed, Phase
from pbem.mail.outbox import SmtpSettings, pending_count
from pbem.service import Context, games_left_to_robots, make_rng, resign
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.store.models import Deadline, Game, InboundMail, Seat
from tests.mailin.support import latest_token, legal, reply, state_of, to_play, two_human_game
from tests.settings import PRODUCTION_SAFE
from tests.web.support import free_port


def test_demo_game_is_you_against_three_robots_created_once(app: Flask) -> None:
    engine = db_engine(app)
    with app.app_context():
        game_id, created = ensure_demo_game(engine)
        again, created_again = ensure_demo_game(engine)
    assert created and not created_again and again == game_id
    with transaction(engine, read_only=True) as session:
        game = session.get(Game, game_id)
        seats = session.exec(select(Seat).where(Seat.game_id == game_id)
                             .order_by(col(Seat.seat_no))).all()
    assert game is not None and game.status == "active" and game.rules["target"] <= 30
    assert [s.is_bot for s in seats] == [False, True, True, True]
    assert seats[0].invite_status == "accepted"


def test_new_demo_starts_another_game(app: Flask) -> None:
    with app.app_context():
        first, _ = ensure_demo_game(db_engine(app))
        second, created = ensure_demo_game(db_engine(app), new=True)
    assert created and second != first


def test_pump_sends_the_outbox_to_the_catcher(make_app: Callable[..., Flask],
                                              tmp_path: Path) -> None:
    port = free_port()
    folder = tmp_path / "caught"
    app = make_app(SMTP_PORT=port, DEVMAIL_FOLDER=str(folder))
    catcher = start_catcher(folder, port=port)
    pump = OutboxPump(db_engine(app), SmtpSettings.from_config(app.config), interval=0.1)
    try:
        with app.app_context():
            ensure_demo_game(db_engine(app))
        pump.start()
        deadline = time.monotonic() + 10
        while pending_count(db_engine(app)) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        pump.stop()
        catcher.stop()
    caught = MailStore(folder).entries()
    assert pending_count(db_engine(app)) == 0
    assert caught and all(m.rcpt_tos == [DEMO_PLAYER.email] for m in caught)


def test_pump_plays_a_reply_pbem_ingest_spooled_without_another_command(app: Flask) -> None:
    engine = db_engine(app)
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    raw = reply(latest_token(engine, me, "turn"), str(legal(state, seat)), sender=me)
    Path(app.config["SPOOL_DIR"]).parent.mkdir(parents=True, exist_ok=True)  # the instance
    spooled = app.test_cli_runner().invoke(args=["ingest"], input=raw)
    assert spooled.exit_code == 0 and spooled.output.startswith("spooled "), spooled.output
    pump = OutboxPump(engine, SmtpSettings(port=free_port(), timeout=2), app=app)
    pump.pump_once()  # as its thread does every second
    with transaction(engine, read_only=True) as session:
        assert [m.status for m in session.exec(select(InboundMail))] == ["processed"]
        assert load_events(session, game).count(CardPlayed(seat, legal(state, seat))) == 1


def test_pump_plays_on_the_demo_game_after_its_player_resigns(app: Flask) -> None:
    """Resigning leaves the demo to its robots: the request plays one bounded chunk, and `pbem
    dev` (which runs no worker) plays the rest, as the worker's robot-games job does."""
    engine = db_engine(app)
    with app.app_context():
        game_id, _ = ensure_demo_game(engine)
    resign(Context(engine=engine, rng=make_rng(seed=4)), game_id, 0)
    assert games_left_to_robots(Context(engine=engine)) == [game_id]
    pump = OutboxPump(engine, SmtpSettings(port=free_port(), timeout=2), app=app)
    pump.pump_once()  # as its thread does every second
    with transaction(engine, read_only=True) as session:
        game = session.get(Game, game_id)
        assert game is not None and game.status == "finished"
    assert games_left_to_robots(Context(engine=engine)) == []


def test_pump_survives_a_missing_smtp_server(app: Flask) -> None:
    with app.app_context():
        ensure_demo_game(db_engine(app))
    pump = OutboxPump(db_engine(app), SmtpSettings(port=free_port(), timeout=2))
    assert pump.pump_once() == 0  # rows go back to pending with a backoff; no exception


def test_dev_refuses_to_run_in_production(make_app: Callable[..., Flask]) -> None:
    app = make_app(**PRODUCTION_SAFE)
    result = app.test_cli_runner().invoke(args=["dev"])
    assert result.exit_code != 0
    assert "development" in result.output


def test_dev_command_is_on_the_pbem_cli(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["dev", "--help"])
    assert result.exit_code == 0 and "mail catcher" in result.output


def test_banner_and_address_follow_base_url(make_app: Callable[..., Flask]) -> None:
    app = make_app(BASE_URL="http://127.0.0.1:5055")
    assert web_address(app) == ("127.0.0.1", 5055)
    text = banner(app, 3, True, True)
    assert "http://127.0.0.1:5055/mail" in text and "/games/3" in text


def test_dev_runs_the_worker_s_other_jobs_on_their_schedule(app: Flask) -> None:
    """Deadlines, reminders, timeouts, robots filling open seats and reviews happen in `pbem
    dev` as in production: its scheduler is the worker's, less what the pump does."""
    ids = {job.id for job in dev_scheduler(app, threading.Event()).get_jobs()}
    assert {"check_deadlines", "review_finished_games", "daily_digests"} <= ids
    assert not ids & set(PUMPED_JOBS)


def test_dev_s_scheduler_times_out_a_passed_deadline(app: Flask) -> None:
    """A pass deadline gone by: the dev scheduler's deadline job has the robot pass for the
    absent player, with no `pbem worker` running."""
    engine = db_engine(app)
    game_id = two_human_game(engine)
    with transaction(engine) as session:
        for deadline in session.exec(select(Deadline).where(Deadline.game_id == game_id)):
            deadline.due_at = deadline.grace_until = datetime(2020, 1, 1, tzinfo=UTC)
            session.add(deadline)
    stopping = threading.Event()
    scheduler = dev_scheduler(app, stopping)
    scheduler.start()
    try:
        scheduler.modify_job("check_deadlines", next_run_time=datetime.now(UTC))
        timed_out = time.monotonic() + 20
        while state_of(engine, game_id).phase is Phase.PASS and time.monotonic() < timed_out:
            time.sleep(0.1)
    finally:
        stopping.set()
        scheduler.shutdown()
    assert state_of(engine, game_id).phase is Phase.PLAY  # both absent players passed by robot
