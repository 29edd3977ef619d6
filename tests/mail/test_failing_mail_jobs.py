"""A mail job whose fan-out keeps failing must not silence its game: each failure is counted
once with its error, tried again after a growing back-off (not every second), then set aside
for an operator (logged at ERROR once), and the game's later jobs go out; an operator's retry
sends the set-aside job's emails once. Real failures (a renderer that raises for one state),
real threads, SQLite and PostgreSQL."""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from flask import Flask, current_app
from sqlalchemy import Engine
from sqlmodel import Session

from pbem.app import db_engine
from pbem.mail import notify as mail_notify
from pbem.mail.jobs import MAX_ATTEMPTS, fan_out_pending, jobs_waiting, retry_delay, retry_jobs
from pbem.service import Context, move
from pbem.store.db import transaction
from pbem.store.mailjobs import Job, listed_jobs
from pbem.store.types import utcnow
from tests.mail.test_mail_jobs import PLAYERS, later, next_command, outbox, what
from tests.mail.test_mail_jobs import new_game as start_game

LOGGER = "pbem.mail.jobs"


class RenderingBug(Exception):
    pass


@dataclass
class Renderer:
    """The real notify, raising for the states (game, seq) in `broken`; `tried` records
    every state it was asked to render."""

    broken: set[tuple[int, int]] = field(default_factory=set)
    tried: list[tuple[int, int]] = field(default_factory=list)


@pytest.fixture
def renderer() -> Iterator[Renderer]:
    real = mail_notify.notify
    made = Renderer()

    def rendering(session: Session, game: Any, *args: Any, **kwargs: Any) -> Any:
        state = (game.id, game.last_seq)  # the job's seq_after
        made.tried.append(state)
        if state in made.broken:
            raise RenderingBug(f"no words for game {game.id} at seq {game.last_seq}")
        return real(session, game, *args, **kwargs)

    mail_notify.notify = rendering  # type: ignore[assignment]
    yield made
    mail_notify.notify = real


@pytest.fixture
def engine(make_app: Callable[..., Flask], db_url: str) -> Iterator[Engine]:
    """The app's engine, within the app's context (its secret makes the seat links)."""
    with make_app(DATABASE_URL=db_url).app_context():
        yield db_engine()


def new_game(engine: Engine, name: str = "Poison") -> tuple[int, Any]:
    return start_game(later(engine), name)


def step(engine: Engine, game_id: int, state: Any) -> Any:
    out = move(later(engine), game_id, next_command(state))
    return out.state


def jobs_of(engine: Engine, game_id: int) -> list[Job]:
    with transaction(engine, read_only=True) as session:
        return [j for j in listed_jobs(session.connection()) if j.game_id == game_id]


def set_aside(engine: Engine, start: datetime) -> datetime:
    """Fan out at each failing job's next try until none is due any more."""
    now = start
    for _ in range(MAX_ATTEMPTS + 1):
        fan_out_pending(engine, now=now)
        now += RETRY_ALL
    return now


RETRY_ALL = timedelta(hours=1)  # past any back-off


def records(caplog: pytest.LogCaptureFixture, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == LOGGER and r.levelno == level]


def test_a_failing_job_backs_off_counts_its_errors_then_lets_its_game_go_on(
        engine: Engine, renderer: Renderer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)
    game_id, state = new_game(engine)
    other, _ = new_game(engine, "Fine")
    (first,) = jobs_of(engine, game_id)
    renderer.broken.add((game_id, first.seq_after))
    seat = state.to_move[0]
    move(Context(engine=engine, mail_now=False, echo=True), game_id, next_command(state))
    (others,) = jobs_of(engine, other)
    start = utcnow()
    assert fan_out_pending(engine, now=start) == [others.id]  # the other game's mail goes
    (failed, later) = jobs_of(engine, game_id)
    assert (failed.attempts, failed.next_attempt_at) == (1, start + timedelta(seconds=5))
    assert failed.state == "retrying" and "RenderingBug: no words" in (failed.last_error or "")
    assert outbox(engine, game_id) == [] and later.attempts == 0  # held back: seq order

    assert fan_out_pending(engine, now=start + timedelta(seconds=4)) == []  # not every second
    assert renderer.tried.count((game_id, first.seq_after)) == 1

    gaps, now = [], start
    while (job := jobs_of(engine, game_id)[0]).set_aside_at is None:
        assert job.next_attempt_at is not None and job.id == first.id
        gaps.append((job.next_attempt_at - now).total_seconds())
        now = job.next_attempt_at
        fan_out_pending(engine, now=now)
    assert gaps == [5, 10, 20, 40, 80, 160, 320]  # ~10.6 minutes, then set aside
    assert job.attempts == MAX_ATTEMPTS and job.set_aside_at == now
    assert [j.id for j in jobs_of(engine, game_id)] == [first.id]  # the later job went out
    assert jobs_waiting(engine) == 0
    assert [(r.kind, r.to_addr) for r in outbox(engine, game_id)] == [
        ("move_confirmed", PLAYERS[seat].email)]  # the later job's email (a pass by email)
    assert len(records(caplog, logging.ERROR)) == 1  # set aside: once
    assert len(records(caplog, logging.WARNING)) == MAX_ATTEMPTS - 1
    fan_out_pending(engine, now=now + RETRY_ALL)
    assert renderer.tried.count((game_id, first.seq_after)) == MAX_ATTEMPTS  # left alone now
    assert len(records(caplog, logging.ERROR)) == 1


def _play(engine: Engine, game_id: int, state: Any, moves: int, fan_out: bool) -> Any:
    for _ in range(moves):
        state = step(engine, game_id, state)
        if fan_out:
            fan_out_pending(engine)
    return state


def test_after_a_set_aside_job_the_next_turn_mail_reaches_the_right_player(
        engine: Engine, renderer: Renderer) -> None:
    """The first card's job cannot be rendered; the second card's "your turn" still goes to
    the seat the game waits for, and the outbox is the unbroken game's less the first card's
    emails. Retried, the first card's job asks nobody (its seat has moved since): nothing twice."""
    reference, state = new_game(engine, "Same")
    fan_out_pending(engine)
    state = _play(engine, reference, state, 4, fan_out=True)  # the passes
    before_first = len(outbox(engine, reference))
    state = _play(engine, reference, state, 1, fan_out=True)
    first_card_mail = what(outbox(engine, reference)[before_first:])
    state = _play(engine, reference, state, 1, fan_out=True)

    game_id, state = new_game(engine, "Same")
    fan_out_pending(engine)
    state = _play(engine, game_id, state, 4, fan_out=True)
    state = _play(engine, game_id, state, 1, fan_out=False)
    (broken,) = jobs_of(engine, game_id)
    renderer.broken.add((game_id, broken.seq_after))
    state = _play(engine, game_id, state, 1, fan_out=False)
    set_aside(engine, utcnow())
    assert [j.state for j in jobs_of(engine, game_id)] == ["set aside"]
    rows = outbox(engine, game_id)
    assert rows[-1].kind == "turn" and rows[-1].to_addr == PLAYERS[state.to_move[0]].email
    assert first_card_mail and any(kind == "turn" for kind, _to, _s in first_card_mail)
    missing = Counter(what(outbox(engine, reference))) - Counter(what(rows))
    assert missing == Counter(first_card_mail)

    renderer.broken.clear()
    assert retry_jobs(engine, [broken.id]) == ([broken.id], [broken.id])
    assert outbox(engine, game_id) == rows and jobs_of(engine, game_id) == []
    assert retry_jobs(engine, [broken.id]) == ([], [])


def test_a_retried_set_aside_job_sends_what_still_stands_once(
        engine: Engine, renderer: Renderer) -> None:
    """The game's start cannot be rendered; one seat passes meanwhile. Retried once fixed,
    the start goes out: four 'game started' emails, and the pass asked of the other three."""
    game_id, state = new_game(engine)
    (start,) = jobs_of(engine, game_id)
    renderer.broken.add((game_id, start.seq_after))
    seat = state.to_move[0]
    step(engine, game_id, state)  # that seat passes
    set_aside(engine, utcnow())
    sent = outbox(engine, game_id)
    assert not any(r.kind in {"game_started", "pass"} for r in sent)

    renderer.broken.clear()
    assert retry_jobs(engine, None) == ([start.id], [start.id])
    new = Counter((r.kind, r.to_addr) for r in outbox(engine, game_id)[len(sent):])
    assert new == Counter([("game_started", p.email) for p in PLAYERS]
                          + [("pass", p.email) for n, p in enumerate(PLAYERS) if n != seat])
    count = len(outbox(engine, game_id))
    assert retry_jobs(engine, None) == ([], []) and len(outbox(engine, game_id)) == count


def _race(engine: Engine, now: datetime, threads: int = 4) -> list[int]:
    done: list[int] = []
    barrier = threading.Barrier(threads)

    def worker() -> None:
        barrier.wait()
        done.extend(fan_out_pending(engine, now=now))

    started = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join(timeout=120)
    return done


def test_racing_fan_outs_count_a_failure_once_and_set_aside_once(
        engine: Engine, renderer: Renderer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)
    reference, state = new_game(engine, "Same")
    _play(engine, reference, state, 2, fan_out=False)
    fan_out_pending(engine)
    game_id, state = new_game(engine, "Same")
    (broken,) = jobs_of(engine, game_id)
    renderer.broken.add((game_id, broken.seq_after))
    _play(engine, game_id, state, 2, fan_out=False)

    now = utcnow()
    assert _race(engine, now) == []
    assert jobs_of(engine, game_id)[0].attempts == 1  # four workers failed: one attempt
    assert len(records(caplog, logging.WARNING)) == 1
    for attempt in range(2, MAX_ATTEMPTS):  # up to the last attempt but one
        now += retry_delay(attempt - 1)
        fan_out_pending(engine, now=now)
    assert jobs_of(engine, game_id)[0].attempts == MAX_ATTEMPTS - 1

    later_ids = [j.id for j in jobs_of(engine, game_id)[1:]]
    done = _race(engine, now + RETRY_ALL)
    assert sorted(done) == sorted(later_ids) and len(done) == len(set(done))
    (aside,) = jobs_of(engine, game_id)
    assert (aside.id, aside.attempts, aside.state) == (broken.id, MAX_ATTEMPTS, "set aside")
    assert len(records(caplog, logging.ERROR)) == 1

    renderer.broken.clear()
    both: list[tuple[list[int], list[int]]] = []
    barrier = threading.Barrier(2)

    def operator() -> None:
        barrier.wait()
        both.append(retry_jobs(engine, [broken.id]))

    operators = [threading.Thread(target=operator) for _ in range(2)]
    for thread in operators:
        thread.start()
    for thread in operators:
        thread.join(timeout=120)
    assert jobs_of(engine, game_id) == []
    assert sorted(what(outbox(engine, game_id))) == sorted(what(outbox(engine, reference)))


def test_operators_list_and_retry_set_aside_jobs(engine: Engine, renderer: Renderer) -> None:
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    game_id, _state = new_game(engine)
    (job,) = jobs_of(engine, game_id)
    renderer.broken.add((game_id, job.seq_after))
    set_aside(engine, utcnow())
    runner = app.test_cli_runner()

    listed = runner.invoke(args=["mail", "jobs", "--set-aside"])
    assert listed.exit_code == 0, listed.output
    assert f"{job.id}  set aside  game={game_id}  seq={job.seq_after}  tries=8" in listed.output
    assert "RenderingBug: no words" in listed.output and "1 shown" in listed.output
    full = runner.invoke(args=["mail", "jobs", "--errors"]).output
    assert "Traceback (most recent call last)" in full
    metrics = app.test_client().get("/metrics").get_data(as_text=True)
    assert 'pbem_mail_jobs{state="set_aside"} 1.0' in metrics

    assert runner.invoke(args=["mail", "retry-job"]).exit_code == 2  # ids or --all
    again = runner.invoke(args=["mail", "retry-job", str(job.id)])
    assert f"{job.id}  retrying  game={game_id}" in again.output  # failed again: backs off
    assert "0 fanned out, 1 still waiting" in again.output
    assert [(j.state, j.attempts) for j in jobs_of(engine, game_id)] == [("retrying", 1)]

    renderer.broken.clear()
    fixed = runner.invoke(args=["mail", "retry-job", str(job.id)])
    assert "1 fanned out, 0 still waiting" in fixed.output and len(outbox(engine, game_id)) == 8
    gone = runner.invoke(args=["mail", "retry-job", str(job.id)])
    assert gone.exit_code == 1 and f"no mail job {job.id}: fanned out already" in gone.output
    assert len(outbox(engine, game_id)) == 8
    for bad in ("0", str(2**63), "x"):  # a clear usage error, not a traceback
        wrong = runner.invoke(args=["mail", "retry-job", bad])
        assert wrong.exit_code == 2 and wrong.exception is not None
        assert "Invalid value for '[IDS]...'" in wrong.output, wrong.output


def test_a_stale_retry_job_id_leaves_the_job_made_since_alone(
        engine: Engine, renderer: Renderer) -> None:
    """A job is fanned out (its row deleted), then another game's first job fails once and
    backs off. An operator's `retry-job` with the first job's id (from a log, say) says there
    is no such job and leaves the second as it was: SQLite used to give a new row the largest
    id plus one (1 again in an emptied table), so the stale id was the second job's, and the
    retry reset its count and back-off and fanned it out again."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    done_game, _state = new_game(engine, "Done")
    (done,) = jobs_of(engine, done_game)
    start = utcnow()
    assert fan_out_pending(engine, now=start) == [done.id]
    failing_game, _state = new_game(engine, "Failing")
    (job,) = jobs_of(engine, failing_game)
    renderer.broken.add((failing_game, job.seq_after))
    assert fan_out_pending(engine, now=start) == []
    (failed,) = jobs_of(engine, failing_game)
    assert failed.attempts == 1 and failed.next_attempt_at == start + timedelta(seconds=5)

    stale = app.test_cli_runner().invoke(args=["mail", "retry-job", str(done.id)])
    assert jobs_of(engine, failing_game) == [failed]  # its count and back-off as they were
    assert renderer.tried.count((failing_game, job.seq_after)) == 1 and job.id != done.id
    assert stale.exit_code == 1, stale.output
    assert f"no mail job {done.id}: fanned out already" in stale.output
    assert "0 fanned out, 0 still waiting" in stale.output


def test_a_job_failing_mid_group_keeps_the_jobs_before_it_and_holds_the_ones_after(
        engine: Engine, renderer: Renderer) -> None:
    """A game's waiting jobs are worked out together (one session, one write transaction):
    one that fails there leaves the jobs before it written, and its game's later jobs
    waiting for it, as when each job went alone."""
    game_id, state = new_game(engine)
    fan_out_pending(engine)
    for _ in range(3):
        state = step(engine, game_id, state)
    first, broken, last = jobs_of(engine, game_id)
    renderer.broken.add((game_id, broken.seq_after))
    assert fan_out_pending(engine) == [first.id]
    assert renderer.tried[-2:] == [(game_id, first.seq_after), (game_id, broken.seq_after)]
    failed, waiting = jobs_of(engine, game_id)
    assert (failed.id, failed.attempts, waiting.id, waiting.attempts) == (broken.id, 1,
                                                                          last.id, 0)
