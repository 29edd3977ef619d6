"""The worker carries on games the robots play on their own (issue 18: robot seats are played
in the worker's own transactions, never an unbounded number in a request).

In a game no human plays any more (the last human resigned or deleted their account, every
human seat is held by the robot, or every seat is a robot's), one call of `advance` makes at
most `robot_budget` robot decisions (pbem.service.core), so the command returns after one
bounded chunk, with no deadline row pending. The worker finds such games (active, no
pending deadline) and plays each on, one chunk per short transaction, with `play_robot_turns`:
planned like a timeout (the robots decide without the writer lock), then written only if the
game is still as read, so a second worker or a player's command racing with it is never
applied twice: the loser plans again on the new state. The chunk that ends the game finishes
it as any move does (status, ratings, the summary emails).

It also plays the strong robots' answers in games people play (issue 15: no request stalls
the others): a command outside the worker's robot pass never asks a strong robot (~50 ms of
search a decision, `Context.robots_now`); it writes the player's move, marks the
game `robots_thinking_since`, and the pass plays the robots up to the next human question
within a second (their pages refresh until then)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from weakref import WeakKeyDictionary

from sqlalchemy import Engine, bindparam, union, update
from sqlalchemy import select as sql_select

from pbem.engine import Event
from pbem.service.core import (
    NOBODY,
    ROBOT,
    Context,
    Duplicate,
    Loaded,
    Outcome,
    SeatsSeen,
    robots_have_moves,
    run,
)
from pbem.store.db import planning, read_alone, transaction
from pbem.store.events import set_robots_thinking
from pbem.store.models import Game, Seat

# Games whose robots may have a move: no human waited for (no pending deadline: the count
# the database keeps on the game, pbem.store.triggers), or marked as robots to move (a
# command left a strong robot's move to the worker: the game may wait for another human at
# the same time, as a pass does). Each of the two is an index range of `game` (status
# first), read apart and united: asked with OR, SQLite's planner walks every active game.
_G, _S = Game.__table__, Seat.__table__  # type: ignore[attr-defined]
_ROBOTS_MAY_MOVE = union(
    sql_select(_G.c.id).where(_G.c.status == "active", _G.c.pending_deadlines == 0,
                              _G.c.robots_error.is_(None)),
    sql_select(_G.c.id).where(_G.c.status == "active", _G.c.robots_thinking_since.is_not(None),
                              _G.c.robots_error.is_(None)),
).subquery("robots_may_move")
_NOBODY_WAITED_FOR = sql_select(_ROBOTS_MAY_MOVE.c.id).order_by(_ROBOTS_MAY_MOVE.c.id)
# The same games, each with what decides whether the robots have a move in it (its seq and
# its seats: who holds each), one row per seat.
_WITH_SEATS = (sql_select(_G.c.id, _G.c.last_seq, _S.c.seat_no, _S.c.player_id, _S.c.is_bot,
                          _S.c.bot_holding)
               .join_from(_ROBOTS_MAY_MOVE, _G, _G.c.id == _ROBOTS_MAY_MOVE.c.id)
               .join(_S, _S.c.game_id == _G.c.id)
               .order_by(_G.c.robots_thinking_since.is_(None), _G.c.robots_thinking_since,
                         _G.c.id, _S.c.seat_no))

Seen = tuple[int, SeatsSeen]  # a game's last seq and its seats (seat_no, player, robot, held)
# The active games whose players wait for robots' moves left to the worker, the longest
# waiting first (the index on robots_thinking_since answers it).
_AWAITING_ROBOTS = (sql_select(_G.c.id)
                    .where(_G.c.robots_thinking_since.is_not(None), _G.c.status == "active",
                           _G.c.robots_error.is_(None))
                    .order_by(_G.c.robots_thinking_since, _G.c.id))


def games_awaiting_robots(ctx: Context) -> list[int]:
    """The games where a command left robots' moves to the worker (`robots_thinking_since`:
    a player waits to see them), the longest waiting first: one indexed read (a planning
    read, straight through the driver), which the worker makes several times a second."""
    return [int(game_id) for (game_id,) in read_alone(ctx.engine, _AWAITING_ROBOTS, {})]


def games_left_to_robots(ctx: Context) -> list[int]:
    """Active games no human is waited for (no pending deadline row), or whose robots were
    left a move (`robots_thinking_since`): the robots (or the dealer, or a forced play) may
    have the next move. Oldest first."""
    with transaction(ctx.engine, read_only=True) as session:
        return [game_id for (game_id,) in session.connection().execute(_NOBODY_WAITED_FOR)
                if game_id]


def games_to_play(ctx: Context) -> list[int]:
    """The games left to robots (as `games_left_to_robots`) less those this process found
    with nothing to play and that are still as found (same seq, same seats): such a game
    waits for something else, and planning it again every second would find the same. One
    query (a planning read: on PostgreSQL no BEGIN). The games where people wait for their
    robots (`robots_thinking_since`) first, the longest waiting first, then the others,
    oldest first."""
    with planning(ctx.engine) as session:
        rows = session.connection().execute(_WITH_SEATS).all()
    now: dict[int, Seen] = {}
    for game_id, seq, *seat in rows:
        _seq, seats = now.get(game_id, (seq, ()))
        now[game_id] = (seq, (*seats, _seat(*seat)))
    with _IDLE_LOCK:
        idle = _IDLE.setdefault(ctx.engine, {})
        for game_id in [game_id for game_id, seen in idle.items() if now.get(game_id) != seen]:
            del idle[game_id]  # moved on, or no longer left to robots: forgotten
        return [game_id for game_id in now if game_id not in idle]


# The games each process (per engine) found with nothing for the robots to play, and what it
# found them as. Whether the robots have a move is decided by the state at the game's seq
# and by who holds each seat, with no deadline pending (pbem.service.core
# `robots_have_moves`, `_asked_without_deadline`): while those stay the same, so does the
# answer, whoever asks; so a second worker is never misled by the first's finding, nor the
# other way round, and any move, seat change or new deadline makes the game planned again.
_IDLE: WeakKeyDictionary[Engine, dict[int, Seen]] = WeakKeyDictionary()
_IDLE_LOCK = threading.Lock()


def _seat(seat_no: int, player_id: int | None, is_bot: bool,
          bot_holding: bool) -> tuple[int, int | None, bool, bool]:
    return int(seat_no), player_id, bool(is_bot), bool(bot_holding)


def _found_idle(engine: Engine, g: Loaded) -> None:
    """Remember that the robots have nothing to play in `g` as read (only when no deadline
    is pending: else a human is waited for, and the game is not left to robots)."""
    if g.pending_deadlines:
        return
    seats = tuple(sorted(_seat(s.seat_no, s.player_id, s.is_bot, s.bot_holding)
                         for s in g.seats))
    with _IDLE_LOCK:
        _IDLE.setdefault(engine, {})[g.game_id] = (g.game.last_seq, seats)


def play_robot_turns(ctx: Context, game_id: int) -> Outcome:
    """Play one bounded chunk of the robots' moves in `game_id` (as `advance` plays after any
    command); a duplicate Outcome, writing nothing, when there is nothing to play (then
    `games_to_play` leaves the game out until its seq or its seats change)."""

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        if not robots_have_moves(g.state, g.seats) and not _asked_without_deadline(g):
            if g.game.robots_thinking_since is not None:  # not theirs any more: unmarked
                set_robots_thinking(g.session, g.game, None)
            _found_idle(ctx.engine, g)
            return Duplicate("robots_idle")
        return []  # `commit` lets the table move on (the robots' chunk), and opens deadlines

    return run(ctx, game_id, step, actor=NOBODY, by=ROBOT, planned=True)


def _asked_without_deadline(g: Loaded) -> bool:
    """Whether a human is to move with no deadline pending: a player who took their held seat
    back (pbem.service.core `take_seat_back`) while the game was left to robots, at their own
    turn. The chunk then appends nothing but opens their deadline, as every command does."""
    pending = {row[1] for row in g.pending_deadlines or ()}
    return any(not seat.is_bot and not seat.bot_holding and seat.player_id is not None
               and seat.seat_no in g.state.to_move and seat.seat_no not in pending
               for seat in g.seats)


# --- games whose robots keep failing ------------------------------------------------------

_SET_ASIDE = (update(_G).where(_G.c.id == bindparam("game_id"))
              .values(robots_error=bindparam("reason"), robots_error_at=bindparam("at")))
ERROR_KEPT = 4000  # characters of the traceback kept on the game


def set_robots_aside(ctx: Context, game_id: int, reason: str) -> None:
    """The robots' moves in `game_id` keep raising: keep why, and leave the game out of the
    worker's passes (every worker's) until an operator retries it."""
    with transaction(ctx.engine) as session:
        session.connection().execute(_SET_ASIDE, {"game_id": game_id,
                                                  "reason": reason[-ERROR_KEPT:],
                                                  "at": ctx.clock()})


def retry_robots(ctx: Context, game_id: int) -> bool:
    """Put a set-aside game back in the worker's passes; False if it was not set aside."""
    with transaction(ctx.engine) as session:
        done = session.connection().execute(
            update(_G).where(_G.c.id == game_id, _G.c.robots_error.is_not(None))
            .values(robots_error=None, robots_error_at=None))
        return bool(done.rowcount)


def robots_set_aside(ctx: Context) -> list[tuple[int, str]]:
    """The games set aside (id, the reason's last line), oldest first."""
    with transaction(ctx.engine, read_only=True) as session:
        rows = session.connection().execute(
            sql_select(_G.c.id, _G.c.robots_error).where(_G.c.robots_error.is_not(None))
            .order_by(_G.c.robots_error_at)).all()
    return [(int(game_id), (reason or "").strip().splitlines()[-1] if reason else "")
            for game_id, reason in rows]
