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
it as any move does (status, ratings, the summary emails)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import exists
from sqlmodel import col, select

from pbem.engine import Event
from pbem.service.core import (
    NOBODY,
    ROBOT,
    Context,
    Duplicate,
    Loaded,
    Outcome,
    robots_have_moves,
    run,
)
from pbem.store.db import transaction
from pbem.store.models import Deadline, Game

_PENDING_DEADLINE = exists().where(col(Deadline.game_id) == col(Game.id),
                                   col(Deadline.status) == "pending")
_NOBODY_WAITED_FOR = (select(Game.id).where(col(Game.status) == "active", ~_PENDING_DEADLINE)
                      .order_by(col(Game.id)))


def games_left_to_robots(ctx: Context) -> list[int]:
    """Active games no human is waited for (no pending deadline row): the robots (or the
    dealer, or a forced play) have the next move. Oldest first."""
    with transaction(ctx.engine, read_only=True) as session:
        return [game_id for game_id in session.exec(_NOBODY_WAITED_FOR).all() if game_id]


def play_robot_turns(ctx: Context, game_id: int) -> Outcome:
    """Play one bounded chunk of the robots' moves in `game_id` (as `advance` plays after any
    command); a duplicate Outcome, writing nothing, when there is nothing to play."""

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        if not robots_have_moves(g.state, g.seats) and not _asked_without_deadline(g):
            return Duplicate("The robots have nothing to play in this game.")
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
