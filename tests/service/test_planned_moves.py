"""A move is worked out (decided, robots, emails rendered) without holding the writer lock,
then written in a short transaction that finds the game as it was read, or plans again. Real
threads on SQLite and PostgreSQL (docs/moves.md, "Planned, then written")."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, func, update
from sqlmodel import col, select

from pbem.engine import CardsPassed, PassCards, decode_event
from pbem.mail import notify as mail_notify
from pbem.service import Context, Invitee, Known, create_game, make_rng, move
from pbem.store.db import WriteInPlanning, planning, transaction
from pbem.store.events import load_event_rows, load_state
from pbem.store.gamerows import read_game
from pbem.store.models import Game, OutboxEmail, Seat

PLAYERS = [Invitee(f"p{n}@example.org", f"P{n}", accepted=True) for n in range(4)]


@pytest.fixture
def listener() -> Iterator[Callable[[Callable[..., Any]], None]]:
    """Put a function where the move's emails are worked out (the notification hook)."""
    saved = mail_notify.notify

    def use(hook: Callable[..., Any]) -> None:
        def notify(*args: Any, **kwargs: Any) -> Any:
            hook()
            return saved(*args, **kwargs)

        mail_notify.notify = notify  # type: ignore[assignment]

    yield use
    mail_notify.notify = saved


def _game(engine: Engine) -> int:
    ctx = Context(engine=engine, rng=make_rng(seed=5))
    return create_game(ctx, name="planned", players=PLAYERS).game_id


def _pass(engine: Engine, game_id: int, seat: int) -> PassCards:
    with transaction(engine, read_only=True) as session:
        state = load_state(session, game_id).state
    return PassCards(seat, tuple(state.hand(seat)[:3]))


def test_while_a_move_is_worked_out_another_command_can_lock_the_game(
        engine: Engine, listener: Callable[[Callable[..., Any]], None]) -> None:
    """Rendering the emails (and the robots' thinking) holds no lock: a command that locks
    the game (SQLite: the database's writer lock; PostgreSQL: the game row) gets it at once."""
    game_id = _game(engine)
    locked: list[bool] = []

    def lock_the_game() -> None:
        with transaction(engine) as session:
            session.get(Game, game_id, with_for_update=True)
            locked.append(True)

    def during_the_move() -> None:
        other = threading.Thread(target=lock_the_game)
        other.start()
        other.join(timeout=10)
        assert locked, "another command could not lock the game while a move was planned"

    listener(during_the_move)
    outcome = move(Context(engine=engine), game_id, _pass(engine, game_id, 0))
    assert not outcome.duplicate and locked == [True]


def test_a_move_planned_on_a_game_that_moved_meanwhile_is_planned_again_and_made_once(
        engine: Engine, listener: Callable[[Callable[..., Any]], None]) -> None:
    """Seats 2 and 3 have passed. Seat 0's pass is being worked out when seat 1's pass is
    written: seat 0's write finds the game moved on, so it is planned again on the new state,
    where it is the last pass and play begins. Both passes are in the log once each, and the
    first trick's turn email is queued exactly once."""
    game_id = _game(engine)
    for seat in (2, 3):
        move(Context(engine=engine), game_id, _pass(engine, game_id, seat))
    first, second = _pass(engine, game_id, 0), _pass(engine, game_id, 1)
    plans: list[int] = []

    def during_the_move() -> None:
        plans.append(1)
        if len(plans) == 1:  # the first plan of seat 0's pass: seat 1 passes in between
            other = threading.Thread(target=lambda: move(Context(engine=engine), game_id,
                                                         second))
            other.start()
            other.join(timeout=30)

    listener(during_the_move)
    outcome = move(Context(engine=engine), game_id, first)
    assert not outcome.duplicate
    assert len(plans) == 3  # seat 0 planned, seat 1 planned (and written), seat 0 again
    with transaction(engine, read_only=True) as session:
        passes = [decode_event(row.payload) for row in load_event_rows(session, game_id)]
        turn_emails = session.exec(select(func.count()).select_from(OutboxEmail).where(
            OutboxEmail.kind == "turn")).one()
    assert sorted(e.seat for e in passes if isinstance(e, CardsPassed)) == [0, 1, 2, 3]
    assert turn_emails == 1  # the leader is asked once: by the plan that was written


def test_an_orm_write_while_planning_is_refused_not_lost(engine: Engine) -> None:
    """Planning collects writes as statements; an ORM change there would be dropped with the
    read transaction, so it is refused instead (on flush, and when planning ends)."""
    game_id = _game(engine)
    with pytest.raises(WriteInPlanning), planning(engine) as session:
        game = session.get(Game, game_id)
        assert game is not None
        game.name = "renamed"
        session.flush()
    with pytest.raises(WriteInPlanning), planning(engine) as session:
        game = session.get(Game, game_id)
        assert game is not None
        game.name = "renamed"
    with transaction(engine, read_only=True) as session:
        game = session.get(Game, game_id)
        assert game is not None and game.name == "planned"


def test_a_seat_taken_over_while_a_move_is_planned_makes_it_planned_again(
        engine: Engine, listener: Callable[[Callable[..., Any]], None]) -> None:
    """The write checks the seats too, not only the game's seq: seat 3's player goes away
    (the robot holds the seat) while seat 0's pass is worked out. The first plan's writes
    (sent together with the check on PostgreSQL) are rolled back; the move is planned
    again, where the robot passes for seat 3 in the same write. Each seat passed once."""
    game_id = _game(engine)
    plans: list[int] = []

    def hold_seat_3() -> None:
        with transaction(engine) as session:
            session.connection().execute(
                update(Seat).where(col(Seat.game_id) == game_id, col(Seat.seat_no) == 3)
                .values(bot_holding=True))

    def during_the_move() -> None:
        plans.append(1)
        if len(plans) == 1:
            other = threading.Thread(target=hold_seat_3)
            other.start()
            other.join(timeout=30)

    listener(during_the_move)
    outcome = move(Context(engine=engine), game_id, _pass(engine, game_id, 0))
    assert not outcome.duplicate and len(plans) == 2
    with transaction(engine, read_only=True) as session:
        rows = load_event_rows(session, game_id)
        jobs_or_mails = session.exec(select(func.count()).select_from(OutboxEmail)).one()
    passes = [decode_event(row.payload) for row in rows]
    assert sorted(e.seat for e in passes if isinstance(e, CardsPassed)) == [0, 3]
    assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
    assert rows[-1].seq == outcome.seq and jobs_or_mails > 0


def _known(engine: Engine, game_id: int) -> Known:
    """The game as a link's page reads it (pbem.web.play.links.load_link)."""
    with planning(engine) as session:
        rows = read_game(session.connection(), game_id, deadlines=True)
        assert rows is not None
        return Known(rows, load_state(session, game_id, rows.game.last_seq))


def test_a_move_from_the_game_as_its_caller_read_it_writes_it_once(engine: Engine) -> None:
    """A link's move starts from the game as the link's page read it (`Context.known`): no
    second read, the move and the caller's own write (`on_applied`) in one transaction."""
    game_id = _game(engine)
    applied: list[int] = []
    ctx = Context(engine=engine, known=_known(engine, game_id),
                  on_applied=lambda _session, outcome: applied.append(outcome.seq))
    outcome = move(ctx, game_id, _pass(engine, game_id, 2))
    assert not outcome.duplicate and applied == [outcome.seq]
    assert outcome.game is not None and outcome.game.last_seq == outcome.seq
    with transaction(engine, read_only=True) as session:
        assert session.get(Game, game_id).last_seq == outcome.seq  # type: ignore[union-attr]


def test_a_move_from_a_read_the_game_has_moved_past_is_planned_again_and_made_once(
        engine: Engine, listener: Callable[[Callable[..., Any]], None]) -> None:
    """The caller's read is stale (seat 3 passed since): the write finds the game moved on,
    so the move is planned again, once, from a fresh read; each pass is in the log once."""
    game_id = _game(engine)
    stale = _known(engine, game_id)
    move(Context(engine=engine), game_id, _pass(engine, game_id, 3))
    plans: list[int] = []
    listener(lambda: plans.append(1))
    outcome = move(Context(engine=engine, known=stale), game_id, _pass(engine, game_id, 2))
    assert not outcome.duplicate
    with transaction(engine, read_only=True) as session:
        events = [decode_event(row.payload) for row in load_event_rows(session, game_id)]
        assert session.get(Game, game_id).last_seq == outcome.seq  # type: ignore[union-attr]
    assert sorted(e.seat for e in events if isinstance(e, CardsPassed)) == [2, 3]
    assert len(plans) == 2  # on the stale read (not written), then on a fresh one
