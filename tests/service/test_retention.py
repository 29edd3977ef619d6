"""Retention (issue 35): an installation aged past each limit forgets what the limit names and
keeps what it does not (finished games' scores and public record), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from apscheduler.schedulers.background import BackgroundScheduler
from flask import Flask
from sqlalchemy import func
from sqlmodel import col, select

from pbem import service
from pbem.app import db_engine
from pbem.devmail.server import start_catcher
from pbem.mail.outbox import SmtpSettings, drain_all
from pbem.mailin.process import deliver
from pbem.mailin.receive import purge_raw_mail
from pbem.scheduler.retention import purge_old_data
from pbem.scheduler.worker import build_scheduler
from pbem.service.retention import Retention, purge
from pbem.store.db import transaction
from pbem.store.models import Away, Event, Game, InboundMail, OutboxEmail, Player, Seat, Token
from pbem.store.types import utcnow
from tests.mailin.support import inbox
from tests.web.support import finish_game, free_port, outbox, seat_path, start_game

KEEP = Retention()  # the defaults: 180 days, 30, 90, 365
STRAY = (b"From: you@example.com\r\nTo: play+nosuchtoken@pbem.test\r\nSubject: Re: Hearts\r\n"
         b"Message-ID: <retention-1@example.com>\r\n\r\nQS\r\n")


@pytest.fixture
def installation(make_app: Callable[..., Flask], db_url: str,
                 tmp_path: Path) -> Iterator[Flask]:
    port = free_port()
    app = make_app(DATABASE_URL=db_url, SMTP_PORT=port)
    catcher = start_catcher(tmp_path / "caught", port=port)
    yield app
    catcher.stop()


def _count(app: Flask, table: type, *where: object) -> int:
    with transaction(db_engine(app), read_only=True) as session:
        return int(session.exec(select(func.count()).select_from(table)  # type: ignore[arg-type]
                                .where(*where)).one())


def _seat_link(app: Flask, game_id: int) -> str:
    rows = [r for r in outbox(app) if r.game_id == game_id and "/s/" in r.body_text]
    return seat_path(rows[-1].body_text)


def _send_all(app: Flask) -> None:
    drain_all(db_engine(app), SmtpSettings.from_config(app.config))
    assert _count(app, OutboxEmail, col(OutboxEmail.status) != "sent") == 0


def _set_up(app: Flask) -> tuple[int, int, str, str]:
    """A finished game and a running one, their emails sent, a stray reply in the mail log,
    away dates: (finished, running, their private pages)."""
    finished = start_game(app, seed=3)
    finished_page = _seat_link(app, finished)
    assert finish_game(app, finished).game_over
    running = start_game(app, seed=4, name="Running")
    running_page = _seat_link(app, running)
    deliver(inbox(db_engine(app)), STRAY)
    with app.app_context():
        player_id = _player_id(app)
        service.set_away(service.Context(engine=db_engine(app)), player_id,
                         date.today(), date.today() + timedelta(days=3))
    _send_all(app)
    return finished, running, finished_page, running_page


def _player_id(app: Flask) -> int:
    with transaction(db_engine(app), read_only=True) as session:
        player = session.exec(select(Player).where(Player.email == "you@example.com")).one()
    assert player.id is not None
    return player.id


def test_an_installation_aged_past_each_limit_forgets_that_and_keeps_the_public_record(
        installation: Flask) -> None:
    app, engine, now = installation, db_engine(installation), utcnow()
    finished, running, finished_page, running_page = _set_up(app)
    client = app.test_client()
    events = _count(app, Event, col(Event.game_id) == finished)
    emails, tokens = _count(app, OutboxEmail), _count(app, Token)

    def at(days: int) -> dict[str, int]:
        return purge(engine, KEEP, now=now + timedelta(days=days))

    assert not any(at(1).values())  # nothing is old yet
    assert _count(app, Token) == tokens

    at(KEEP.token_days + 5)  # links dead for a month: the turn links of the finished game
    assert 0 < _count(app, Token) < tokens
    assert client.get(finished_page).status_code == 200  # a private page lives a year
    assert client.get(running_page).status_code == 200

    purge_raw_mail(engine, timedelta(days=30), now=now + timedelta(days=31))
    assert _count(app, InboundMail, col(InboundMail.raw) != b"") == 0
    assert _count(app, InboundMail) == 1  # the row stays: a late copy is still known

    assert _count(app, OutboxEmail) == emails
    assert at(KEEP.outbox_days + 1)["outbox"] == emails  # sent emails' rows
    assert _count(app, OutboxEmail) == 0

    assert at(KEEP.finished_game_days - 1)["finished_game_links"] == 0
    assert client.get(finished_page).status_code == 200
    assert at(KEEP.finished_game_days + 1)["finished_game_links"] > 0
    assert _count(app, Token, col(Token.game_id) == finished) == 0
    assert client.get(finished_page).status_code == 404  # its private link expired
    assert client.get(running_page).status_code == 200  # a running game keeps its links
    assert _count(app, Event, col(Event.game_id) == finished) == events  # the public record
    assert _count(app, Seat, col(Seat.game_id) == finished) == 4
    assert _count(app, Game, col(Game.status) == "finished") == 1
    summary = client.get(f"/games/{finished}/summary")
    assert summary.status_code == 200 and "You" in summary.get_data(as_text=True)

    assert _count(app, Away) == 1 and _count(app, InboundMail) == 1
    done = at(KEEP.log_days + 5)
    assert done["inbound_mail"] == 1 and done["away"] == 1
    assert _count(app, Away) == 0 and _count(app, InboundMail) == 0
    assert _count(app, Player) >= 1 and _count(app, Game) == 2  # accounts and games stay


def test_zero_keeps_for_ever(installation: Flask) -> None:
    _set_up(installation)
    never = Retention(finished_game_days=0, token_days=0, outbox_days=0, log_days=0)
    assert purge(db_engine(installation), never, now=utcnow() + timedelta(days=9999)) == {}


def test_the_worker_purges_daily_with_the_settings(make_app: Callable[..., Flask],
                                                   db_url: str) -> None:
    app = make_app(DATABASE_URL=db_url, KEEP_TOKEN_DAYS="7")
    assert Retention.from_config(app.config).token_days == 7
    assert Retention.from_config(make_app(DATABASE_URL=db_url).config) == KEEP
    scheduler = build_scheduler(app, BackgroundScheduler(timezone="UTC"), holder="me")
    job = scheduler.get_job("purge_old_data")
    assert job is not None and "hour='4'" in str(job.trigger)
    start_game(app)
    assert not any(purge_old_data(app).values())  # nothing old on day one


def test_a_first_purge_of_many_rows_goes_in_short_batches(installation: Flask) -> None:
    from pbem.service import retention

    engine = db_engine(installation)
    old = datetime(2020, 1, 1, tzinfo=UTC)
    with transaction(engine) as session:
        for n in range(retention.BATCH * 2 + 3):
            session.add(Token(token_hash=f"{n:064d}", purpose="signin", expires_at=old))
    assert purge(engine, KEEP)["tokens"] == retention.BATCH * 2 + 3


def test_a_closed_seat_link_outlives_the_token_limit_but_a_used_signin_link_does_not(
        installation: Flask) -> None:
    """A private link closed when its player left says "you left, on ..." until its game's
    data goes; a used sign-in link is only a row."""
    engine, now = db_engine(installation), utcnow()
    with transaction(engine) as session:
        session.add(Token(token_hash="s" * 64, purpose="seat", used_at=now,
                          expires_at=now + timedelta(days=365)))
        session.add(Token(token_hash="i" * 64, purpose="signin", used_at=now,
                          expires_at=now + timedelta(minutes=20)))
    assert purge(engine, KEEP, now=now + timedelta(days=KEEP.token_days + 1))["tokens"] == 1
    assert _count(installation, Token, col(Token.purpose) == "seat") == 1
