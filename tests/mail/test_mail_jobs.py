"""A command writes a mail job; its emails are worked out after it (pbem.mail.jobs), exactly
once, in seq order, and never lost: real threads and processes on SQLite and PostgreSQL."""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Engine, func, text, update
from sqlmodel import Session, col, select

from pbem.app import db_engine
from pbem.engine import GameState, PassCards, Phase, PlayCard, legal_cards
from pbem.mail import jobs as mail_jobs
from pbem.mail import notify as mail_notify
from pbem.mail.jobs import fan_out_all, fan_out_one, fan_out_pending, jobs_waiting, retry_delay
from pbem.scheduler.worker import (
    MAIL_JOBS_INTERVAL_SECONDS,
    build_scheduler,
    fan_out_and_send,
    fan_out_mail,
)
from pbem.service import Context, Invitee, create_game, make_rng, move
from pbem.store.db import defer_write, make_engine, transaction
from pbem.store.mailjobs import listed_jobs, pending_jobs
from pbem.store.models import MailJob, OutboxEmail, Token
from pbem.store.types import utcnow
from tests.mail.mailtest_support import SmtpServer, free_port

PLAYERS = [Invitee(f"p{n}@example.org", f"P{n}", accepted=True) for n in range(4)]


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str) -> Iterator[Flask]:
    """The app (its secret makes the private seat links), its context pushed."""
    built = make_app(DATABASE_URL=db_url)
    with built.app_context():
        yield built


@pytest.fixture
def engine(app: Flask) -> Engine:  # the app's own engine
    return db_engine(app)


def later(engine: Engine, seed: int = 3) -> Context:
    """A context that leaves its commands' emails to the worker, as production does."""
    return Context(engine=engine, rng=make_rng(seed), mail_now=False)


def now(engine: Engine, seed: int = 3) -> Context:
    return Context(engine=engine, rng=make_rng(seed), mail_now=True)


def new_game(ctx: Context, name: str = "Jobs") -> tuple[int, GameState]:
    out = create_game(ctx, name=name, players=PLAYERS)
    assert out.state is not None
    return out.game_id, out.state


def next_command(state: GameState) -> PlayCard | PassCards:
    seat = state.to_move[0]
    if state.phase is Phase.PASS:
        return PassCards(seat, tuple(state.hand(seat)[:3]))
    return PlayCard(seat, legal_cards(state, seat)[0])


def play(ctx: Context, game_id: int, state: GameState, moves: int) -> GameState:
    for _ in range(moves):
        out = move(ctx, game_id, next_command(state))
        assert out.state is not None
        state = out.state
    return state


def outbox(engine: Engine, game_id: int | None = None) -> list[OutboxEmail]:
    with transaction(engine, read_only=True) as session:
        query = select(OutboxEmail).order_by(col(OutboxEmail.id))
        if game_id is not None:
            query = query.where(OutboxEmail.game_id == game_id)
        return list(session.exec(query))


def what(rows: list[OutboxEmail]) -> list[tuple[str, str, str]]:
    """The emails without their random parts (tokens)."""
    return [(r.kind, r.to_addr, r.subject) for r in rows]


def test_a_move_leaves_a_pending_job_and_no_outbox_rows_until_fanned_out(
        engine: Engine) -> None:
    game_id, state = new_game(later(engine))
    assert outbox(engine) == [] and jobs_waiting(engine) == 1  # the game's start: one job
    assert len(fan_out_pending(engine)) == 1
    started = outbox(engine)
    assert Counter(r.kind for r in started) == {"game_started": 4, "pass": 4}
    move(later(engine), game_id, next_command(state))
    assert len(outbox(engine)) == len(started) and jobs_waiting(engine) == 1
    assert len(fan_out_pending(engine)) == 1
    assert fan_out_pending(engine) == []  # nothing twice
    assert jobs_waiting(engine) == 0


def test_worked_out_later_the_emails_are_those_worked_out_at_once(engine: Engine) -> None:
    """The fan-out rebuilds the states from the log: same emails, same order, as when the
    command routes them itself (same seeds, two games)."""
    at_once, state = new_game(now(engine), "Same")
    play(now(engine), at_once, state, 30)
    deferred, state = new_game(later(engine), "Same")
    ctx = later(engine)
    for _ in range(30):  # the worker keeping up: a job fanned out after each move
        fan_out_pending(engine)
        state = play(ctx, deferred, state, 1)
    fan_out_pending(engine)
    assert what(outbox(engine, deferred)) == what(outbox(engine, at_once))
    assert len(outbox(engine, deferred)) > 30


def test_a_late_job_uses_its_own_seq_and_asks_no_seat_that_moved_since(
        engine: Engine) -> None:
    """The worker lagged: three moves' jobs wait. Each job's tokens carry its own seq (not
    the game's newest), and no seat is asked for a move it has made since."""
    game_id, state = new_game(later(engine))
    fan_out_pending(engine)
    state = play(later(engine), game_id, state, 4)  # the passes: play begins
    fan_out_pending(engine)
    first = len(outbox(engine, game_id))
    state = play(later(engine), game_id, state, 3)  # three cards, three jobs waiting
    with transaction(engine, read_only=True) as session:
        jobs = pending_jobs(session.connection())
    assert len(jobs) == 3
    fan_out_pending(engine)
    rows = outbox(engine, game_id)[first:]
    turns = [r for r in rows if r.kind == "turn"]
    assert len(turns) == 1  # only the last job's ask still stands
    with transaction(engine, read_only=True) as session:
        seqs = set(session.exec(select(Token.turn_seq).where(
            Token.game_id == game_id, Token.purpose == "reply",
            col(Token.turn_seq) > jobs[0].seq_before)))
    assert {job.seq_after for job in jobs} >= seqs and jobs[-1].seq_after in seqs


def test_a_worker_far_behind_catches_up_in_batches_and_asks_only_the_last_seat(
        engine: Engine) -> None:
    """Nine cards' jobs wait (every seat has played since the first), more than a batch: the
    worker's step fans out batch after batch until none is left, and only the last job's
    ask still stands (the earlier jobs' seats have all moved on)."""
    game_id, state = new_game(later(engine))
    state = play(later(engine), game_id, state, 4)  # the passes: play begins
    fan_out_pending(engine)
    first = len(outbox(engine, game_id))
    play(later(engine), game_id, state, 9)
    assert len(fan_out_all(engine, most=2)) == 9
    assert jobs_waiting(engine) == 0
    turns = [r for r in outbox(engine, game_id)[first:] if r.kind == "turn"]
    assert len(turns) == 1


def test_an_echoed_move_still_reaches_the_player(engine: Engine) -> None:
    game_id, state = new_game(later(engine))
    fan_out_pending(engine)
    ctx = Context(engine=engine, mail_now=False, echo=True)
    seat = state.to_move[0]
    move(ctx, game_id, next_command(state))
    assert outbox(engine, game_id)[-1].kind == "pass"  # not yet
    fan_out_pending(engine)
    mine = [r for r in outbox(engine, game_id) if r.to_addr == PLAYERS[seat].email]
    assert mine[-1].kind == "move_confirmed"
    assert "You passed" in mine[-1].body_text or "you passed" in mine[-1].body_text.lower()


def test_each_games_jobs_fan_out_in_seq_order(engine: Engine) -> None:
    game_id, state = new_game(later(engine))
    play(later(engine), game_id, state, 2)
    with transaction(engine, read_only=True) as session:
        first, second, third = pending_jobs(session.connection())
    assert fan_out_one(engine, third) is False  # earlier jobs wait: nothing written
    assert outbox(engine) == [] and jobs_waiting(engine) == 3
    assert fan_out_pending(engine) == [first.id, second.id, third.id]


def test_the_worker_fans_out_every_second(app: Flask, engine: Engine) -> None:
    game_id, _state = new_game(later(engine))
    assert fan_out_mail(app) != [] and len(outbox(engine, game_id)) == 8
    job = build_scheduler(app).get_job("fan_out_mail")
    assert job is not None
    assert job.trigger.interval.total_seconds() == MAIL_JOBS_INTERVAL_SECONDS == 1


def test_the_worker_sends_what_it_fanned_out_in_the_same_second(
        make_app: Callable[..., Flask], db_url: str) -> None:
    """The next turn email leaves within the fan-out's own second, not at the outbox's tick."""
    server = SmtpServer(free_port())
    server.start()
    try:
        app = make_app(DATABASE_URL=db_url, SMTP_HOST="127.0.0.1", SMTP_PORT=server.port)
        with app.app_context():
            game_id, _state = new_game(later(db_engine(app)))
            assert fan_out_and_send(app) != []
            sent = outbox(db_engine(app), game_id)
        assert len(sent) == 8 and {row.status for row in sent} == {"sent"}
        assert len(server.messages) == 8
        assert fan_out_and_send(app) == [] and len(server.messages) == 8  # nothing twice
    finally:
        server.stop()


def _racing_games(engine: Engine, games: int, moves: int) -> list[int]:
    made = []
    for n in range(games):
        ctx = later(engine, seed=n)
        game_id, state = new_game(ctx, f"Race {n}")
        play(ctx, game_id, state, moves)
        made.append(game_id)
    return made


def test_two_workers_racing_send_each_email_exactly_once(engine: Engine) -> None:
    """Four threads fan out the same waiting jobs at once: every job is done by one of
    them, and the outbox holds what one worker alone writes for the same games."""
    alone = _racing_games(engine, 3, 6)
    for game_id in alone:
        fan_out_pending(engine, game_id=game_id)
    games = _racing_games(engine, 3, 6)
    waiting = jobs_waiting(engine)
    assert waiting == 3 * 7
    done: list[list[int]] = []
    barrier = threading.Barrier(4)

    def worker() -> None:
        barrier.wait()
        done.append(fan_out_pending(engine))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    ids = [job for jobs in done for job in jobs]
    assert len(ids) == len(set(ids)) == waiting and jobs_waiting(engine) == 0
    rows = outbox(engine)
    for game_id, ref_id in zip(games, alone, strict=True):
        assert what([r for r in rows if r.game_id == game_id]) == what(outbox(engine, ref_id))


def _meanwhile(monkeypatch: pytest.MonkeyPatch, other: Callable[[], object]) -> None:
    """Run `other` (another worker, an operator) once, after this worker has worked its jobs
    out and before it writes them (pbem.mail.jobs._write: on PostgreSQL pipelined). The
    other worker does not see this one's claim on the game's mail: the path when claims are
    lost (a database restart drops them) and the write's own check is all there is."""
    real, ran = mail_jobs._write, []

    def write(engine: Engine, planned: Any) -> Any:
        if not ran:  # (the other worker's own write is the real one)
            ran.append(True)
            with monkeypatch.context() as unclaimed:
                unclaimed.setattr(mail_jobs, "claim", _unclaimed)
                other()
        return real(engine, planned)

    monkeypatch.setattr(mail_jobs, "_write", write)


@contextmanager
def _unclaimed(*_unit: Any) -> Iterator[bool]:
    yield True


def test_a_job_fanned_out_by_another_worker_between_plan_and_write_is_written_once(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """This worker's write (its deletion sent with the rows, checked before the COMMIT) finds
    the job gone: none of its rows are kept, and the job's emails are the other's, once."""
    game_id, _state = new_game(later(engine))
    others: list[list[int]] = []
    _meanwhile(monkeypatch, lambda: others.append(fan_out_pending(engine)))
    assert fan_out_pending(engine) == []
    assert len(others) == 1 and len(others[0]) == 1 and jobs_waiting(engine) == 0
    assert Counter(r.kind for r in outbox(engine, game_id)) == {"game_started": 4, "pass": 4}
    assert len(outbox(engine)) == 8


def test_a_job_whose_id_was_reused_meanwhile_is_not_taken_for_it(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between this worker's plan and write, another worker fans the job out, and a move in
    another game queues a job that takes the same id (as SQLite did before migration 0016
    made mail_job AUTOINCREMENT: the largest id plus one, 1 again in an empty table; here
    the id is handed out again on purpose). This worker's write must not delete that job as
    if it were its own (and write its own emails a second time): the new game's job stays,
    and is fanned out once, by the next pass."""
    first_game, _state = new_game(later(engine, seed=1), "First")
    other_game: list[int] = []

    def other_worker_then_a_new_game() -> None:
        (gone,) = fan_out_pending(engine)
        _next_id_is(engine, "mail_job", gone)
        other_game.append(new_game(later(engine, seed=2), "Second")[0])

    _meanwhile(monkeypatch, other_worker_then_a_new_game)
    with transaction(engine, read_only=True) as session:
        (mine,) = pending_jobs(session.connection())
    assert fan_out_pending(engine) == []  # (its own pass: the first game's job is gone)
    with transaction(engine, read_only=True) as session:
        (waiting,) = pending_jobs(session.connection())
    assert waiting.game_id == other_game[0]
    assert waiting.id == mine.id  # the id was reused: the case this test is about
    assert len(outbox(engine, first_game)) == 8  # once
    monkeypatch.undo()
    assert fan_out_pending(engine) == [waiting.id]
    assert len(outbox(engine, other_game[0])) == 8 and len(outbox(engine, first_game)) == 8


def _next_id_is(engine: Engine, table: str, next_id: int) -> None:
    """Make the next row of `table` take `next_id` (one it had before: the ids' counter set
    back, by hand or on an old SQLite table)."""
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.execute(text("UPDATE sqlite_sequence SET seq = :seq WHERE name = :table"),
                         {"seq": next_id - 1, "table": table})
        else:
            conn.execute(text("SELECT setval(pg_get_serial_sequence(:table, 'id'), :id, false)"),
                         {"table": table, "id": next_id})


def test_a_job_gone_mid_group_keeps_the_jobs_before_it_written_once(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three jobs of a game worked out together; meanwhile the first is set aside and another
    worker fans out the two after it. This worker's write finds the second gone: the
    transaction is rolled back whole and the first job written again alone. Every email of
    the three jobs is in the outbox once, as one worker alone writes them."""
    alone, state = new_game(later(engine, seed=5), "Gone")
    play(later(engine, seed=5), alone, state, 2)
    fan_out_pending(engine, game_id=alone)
    game_id, state = new_game(later(engine, seed=5), "Gone")
    play(later(engine, seed=5), game_id, state, 2)
    with transaction(engine, read_only=True) as session:
        first, second, third = pending_jobs(session.connection(), game_id=game_id)

    def other_worker() -> list[int]:
        with transaction(engine) as session:
            session.connection().execute(update(MailJob).where(col(MailJob.id) == first.id)
                                         .values(set_aside_at=utcnow()))
        return fan_out_pending(engine, game_id=game_id)

    _meanwhile(monkeypatch, other_worker)
    assert fan_out_pending(engine, game_id=game_id) == [first.id]
    with transaction(engine, read_only=True) as session:
        assert pending_jobs(session.connection()) == [] and listed_jobs(
            session.connection()) == []
    assert sorted(what(outbox(engine, game_id))) == sorted(what(outbox(engine, alone)))
    rows = outbox(engine, game_id)  # the first job's (this worker's) written last, asking
    kinds = [r.kind for r in rows]  # only the two seats that have not passed since
    assert Counter(kinds[-6:]) == {"game_started": 4, "pass": 2}
    assert "game_started" not in kinds[:-6]


def test_a_failure_mid_fan_out_loses_nothing(engine: Engine,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, _state = new_game(later(engine))
    real = mail_notify.notify

    def failing(session: Session, *args: Any, **kwargs: Any) -> Any:
        rows = real(session, *args, **kwargs)
        defer_write(session, _boom)  # after the outbox rows, in the job's transaction
        return rows

    monkeypatch.setattr(mail_notify, "notify", failing)
    assert fan_out_pending(engine) == []  # counted, the job left waiting (backing off)
    monkeypatch.undo()
    assert outbox(engine) == [] and jobs_waiting(engine) == 1
    assert len(fan_out_pending(engine, now=utcnow() + retry_delay(1))) == 1
    assert Counter(r.kind for r in outbox(engine, game_id)) == {"game_started": 4, "pass": 4}


def _boom(_session: Session) -> None:
    raise RuntimeError("the worker fails after writing the outbox rows")


def _die_mid_fan_out(url: str, secret: str) -> None:
    """In a child process: fan out, and die (no clean-up at all) inside the write
    transaction, right after the outbox rows are inserted."""
    from pbem.app import create_app

    app = create_app({"DATABASE_URL": url, "SECRET_KEY": secret, "TESTING": True})
    real = mail_notify.notify

    def dying(session: Session, *args: Any, **kwargs: Any) -> Any:
        rows = real(session, *args, **kwargs)
        defer_write(session, lambda _writing: os._exit(9))
        return rows

    mail_notify.notify = dying  # type: ignore[assignment]
    with app.app_context():
        fan_out_pending(make_engine(url))


def test_a_process_killed_mid_fan_out_loses_nothing(app: Flask, engine: Engine) -> None:
    game_id, _state = new_game(later(engine))
    child = multiprocessing.get_context("fork").Process(
        target=_die_mid_fan_out, args=(app.config["DATABASE_URL"], app.config["SECRET_KEY"]))
    child.start()
    child.join(timeout=120)
    assert child.exitcode == 9
    assert outbox(engine) == [] and jobs_waiting(engine) == 1
    assert len(fan_out_pending(engine)) == 1
    with transaction(engine, read_only=True) as session:
        count = session.exec(select(func.count()).select_from(OutboxEmail)).one()
    assert count == 8 == len(outbox(engine, game_id))


def test_any_past_state_is_rebuilt_from_the_snapshot_before_it(engine: Engine) -> None:
    """A job's states are rebuilt at its own seqs: from the latest snapshot at or before the
    seq (a fresh worker process knows no state), or from a state it knows, never a later one."""
    from pbem.engine import decode_event, replay
    from pbem.store.events import LoadedState, load_payloads, state_at

    ctx = now(engine)
    game_id, state = new_game(ctx)
    play(ctx, game_id, state, 100)  # snapshots every 40 events
    with transaction(engine, read_only=True) as session:
        events = [decode_event(p) for _seq, p in load_payloads(session, game_id)]
        for seq in (1, 39, 40, 41, 80, 95, len(events)):
            expected = replay(events[:seq])
            assert state_at(session, game_id, seq) == expected
            known = LoadedState(replay(events[:seq - 1]), seq - 1, 0) if seq > 1 else None
            assert state_at(session, game_id, seq, known) == expected
            later = LoadedState(replay(events[:seq + 1]), seq + 1, 0)
            assert state_at(session, game_id, seq, later) == expected
