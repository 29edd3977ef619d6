"""A move by reply against strong robots gets its player one email: the turn the robots'
moves bring back, saying the move ("Got your reply"), not first a confirmation out of date a
second later (QA finding 4). As in production: the commands leave their emails and the strong
robots' moves to the worker; the game's mail jobs wait while its robots think (for
HOLD_FOR_ROBOTS at most), then go out together. On SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem import service
from pbem.engine import GameState, Phase
from pbem.mail import notify as mail_notify
from pbem.mail.jobs import fan_out_pending, jobs_waiting, retry_delay
from pbem.mailin.process import deliver
from pbem.scheduler.worker import carry_on_robot_games
from pbem.service import core
from pbem.store.db import transaction
from pbem.store.mailjobs import HOLD_FOR_ROBOTS
from pbem.store.models import Game, InboundMail, OutboxEmail
from pbem.store.types import utcnow
from tests.mailin.support import ANN, BOB, inbox, latest_token, legal, reply, state_of

ANN_AT = "ann@example.org"
BOB_AT = "bob@example.org"


@pytest.fixture(autouse=True)
def _as_in_production(engine: Engine) -> None:
    """Commands leave strong robots' moves and their emails to the worker."""
    core.wire(engine, replace(core.wiring_of(engine), robots_now=False, mail_now=False))


def robots_game(engine: Engine, humans: list[service.Invitee], seed: int = 5) -> int:
    ctx = service.Context(engine=engine, rng=service.make_rng(seed))
    return service.create_game(ctx, name="Friday night", players=humans,
                               bot_seats=range(len(humans), 4),
                               robot_strength="strong").game_id


def robots_move(engine: Engine) -> list[int]:
    """The worker's robot pass (`play_robot_games`)."""
    return carry_on_robot_games(service.Context(engine=engine, rng=service.make_rng(9),
                                                robots_now=True))


def thinking(engine: Engine, game_id: int) -> bool:
    with transaction(engine, read_only=True) as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game.robots_thinking_since is not None


def mails_to(engine: Engine, to: str, after: int = 0) -> list[OutboxEmail]:
    with transaction(engine, read_only=True) as session:
        return list(session.exec(select(OutboxEmail).where(
            OutboxEmail.to_addr == to, col(OutboxEmail.id) > after)
            .order_by(col(OutboxEmail.id))))


def last_id(engine: Engine) -> int:
    with transaction(engine, read_only=True) as session:
        found = session.exec(select(OutboxEmail.id).order_by(col(OutboxEmail.id).desc())).first()
        return found or 0


def worker_until_quiet(engine: Engine) -> None:
    """The worker's seconds: robots and mail until neither has anything left."""
    for _second in range(10):
        robots_move(engine)
        fan_out_pending(engine)
        if not jobs_waiting(engine):
            return
    raise AssertionError("mail jobs still waiting")


def send(engine: Engine, to: str, body: str, kind: str | None = None) -> None:
    stored = deliver(inbox(engine), reply(latest_token(engine, to, kind), body,
                                          sender=f"X <{to}>"))
    with transaction(engine, read_only=True) as session:
        row = session.get(InboundMail, stored.id)
        assert row is not None and row.status == "processed", row and row.reason


def the_pass(state: GameState, seat: int) -> str:
    return "pass " + " ".join(str(c) for c in state.hand(seat)[:3])


def test_a_reply_against_strong_robots_gets_one_email_the_turn(engine: Engine) -> None:
    game = robots_game(engine, [ANN])
    worker_until_quiet(engine)  # the robots pass; Ann has her game_started and pass emails
    assert [m.kind for m in mails_to(engine, ANN_AT)] == ["game_started", "pass"]

    state = state_of(engine, game)
    seen = last_id(engine)
    send(engine, ANN_AT, the_pass(state, 0), "pass")
    replies = 1
    state = state_of(engine, game)
    robots_owed = thinking(engine, game)
    fan_out_pending(engine)  # the worker's mail step before its robots'
    if robots_owed:  # her job waits for the robots' answers: nothing sent yet
        assert mails_to(engine, ANN_AT, seen) == [] and jobs_waiting(engine) == 1
    worker_until_quiet(engine)
    got = mails_to(engine, ANN_AT, seen)
    assert [m.kind for m in got] == ["turn"], [m.kind for m in got]
    assert "Got your reply: You passed" in got[0].body_text

    while replies < 6:  # her cards, each answered by the robots' moves and one email
        state = state_of(engine, game)
        if state.phase is not Phase.PLAY or state.to_move != (0,):
            break
        seen = last_id(engine)
        card = legal(state, 0)
        send(engine, ANN_AT, str(card), "turn")
        replies += 1
        left_to_robots = thinking(engine, game)
        worker_until_quiet(engine)
        got = mails_to(engine, ANN_AT, seen)
        assert [m.kind for m in got] == ["turn"], [m.kind for m in got]
        said = got[0].body_text.split("Got your reply: ", 1)[1].split("\n", 1)[0]
        assert said.startswith("You played") and f"({card})" in said
        if left_to_robots:  # the robots' cards are in the email that says hers
            assert state_of(engine, game).to_move == (0,)
    assert replies >= 3
    assert not any(m.kind == "move_confirmed" for m in mails_to(engine, ANN_AT))


def test_a_reply_whose_game_waits_for_another_human_still_gets_its_confirmation(
    engine: Engine,
) -> None:
    """Ann and Bob against two strong robots: a reply after which the game waits for the
    other human (at once, or once the robots have moved) gets its confirmation, naming whom
    the game waits for after the robots' moves; one email, never the robots' names."""
    game = robots_game(engine, [ANN, BOB])
    worker_until_quiet(engine)
    state = state_of(engine, game)
    assert set(state.to_move) == {0, 1}  # the robots have passed
    seen = last_id(engine)
    send(engine, ANN_AT, the_pass(state, 0), "pass")
    worker_until_quiet(engine)
    got = mails_to(engine, ANN_AT, seen)
    assert [m.kind for m in got] == ["move_confirmed"]
    assert waiting_line(got[0]) == "Now waiting for Bob."
    assert mails_to(engine, BOB_AT, seen) == []  # Bob was asked already, once
    send(engine, BOB_AT, the_pass(state_of(engine, game), 1), "pass")
    worker_until_quiet(engine)

    after_robots = 0
    for _move in range(12):
        state = state_of(engine, game)
        if state.phase is not Phase.PLAY:
            break
        seat = state.to_move[0]
        me, other = (ANN_AT, BOB_AT)[seat], ("Bob", "Ann")[seat]
        seen = last_id(engine)
        send(engine, me, str(legal(state, seat)), "turn")
        left_to_robots = thinking(engine, game)
        worker_until_quiet(engine)
        got = mails_to(engine, me, seen)
        assert len(got) == 1, [m.kind for m in got]
        if seat not in state_of(engine, game).to_move:
            assert got[0].kind == "move_confirmed"
            assert waiting_line(got[0]) == f"Now waiting for {other}."
            after_robots += left_to_robots
    assert after_robots  # some confirmation went out after the robots' cards


def waiting_line(mail: OutboxEmail) -> str:
    return next(line for line in mail.body_text.splitlines()
                if line.startswith("Now waiting for"))


def test_a_stalled_robot_pass_holds_mail_for_a_bound_only(engine: Engine) -> None:
    """No robot pass runs (a worker whose robots fail): the job goes out once
    HOLD_FOR_ROBOTS has passed, with its confirmation, exactly once."""
    game = robots_game(engine, [ANN])
    worker_until_quiet(engine)
    state = state_of(engine, game)
    seen = last_id(engine)
    send(engine, ANN_AT, the_pass(state, 0), "pass")
    assert thinking(engine, game)
    assert fan_out_pending(engine) == [] and mails_to(engine, ANN_AT, seen) == []
    soon: datetime = utcnow() + HOLD_FOR_ROBOTS - timedelta(seconds=2)
    assert fan_out_pending(engine, now=soon) == []
    late = utcnow() + HOLD_FOR_ROBOTS + timedelta(seconds=1)
    assert len(fan_out_pending(engine, now=late)) == 1
    assert fan_out_pending(engine, now=late) == []  # never twice
    got = mails_to(engine, ANN_AT, seen)
    assert [m.kind for m in got] == ["move_confirmed"]
    assert "Now waiting for Robot" in got[0].body_text


def test_a_failing_robots_job_loses_no_echo(engine: Engine) -> None:
    """The robots' job fails while worked out: the reply's job, which left its echo to it, is
    not written without it; at the next try it goes alone, with its confirmation, and the
    robots' job later sends the turn: each email once, none lost."""
    game = robots_game(engine, [ANN])
    worker_until_quiet(engine)
    seen = last_id(engine)
    send(engine, ANN_AT, the_pass(state_of(engine, game), 0), "pass")
    robots_move(engine)
    with transaction(engine, read_only=True) as session:
        robots_seq = session.get(Game, game).last_seq  # type: ignore[union-attr]
    real = mail_notify.notify

    def failing(session: Any, game_row: Any, *args: Any, **kwargs: Any) -> Any:
        if game_row.last_seq == robots_seq:
            raise RuntimeError("no words for this state")
        return real(session, game_row, *args, **kwargs)

    mail_notify.notify = failing  # type: ignore[assignment]
    try:
        assert fan_out_pending(engine) == []  # the reply's job waits with the robots'
        assert mails_to(engine, ANN_AT, seen) == []
        assert len(fan_out_pending(engine)) == 1  # alone now: the robots' backs off
    finally:
        mail_notify.notify = real
    got = mails_to(engine, ANN_AT, seen)
    assert [m.kind for m in got] == ["move_confirmed"]
    assert len(fan_out_pending(engine, now=utcnow() + retry_delay(1))) == 1
    assert [m.kind for m in mails_to(engine, ANN_AT, seen)] == ["move_confirmed", "turn"]
    assert jobs_waiting(engine) == 0
