"""The timeout command: a deadline passed, so the game's policy acts for the absent player.

Run by the worker (pbem.scheduler.worker.check_deadlines) like a move: planned without the
writer lock (the robot's decision, the emails), then written in one short checked transaction
(pbem.service.core `run(planned=True)`). The deadline row must still be pending and its turn
still the game's, so a move that raced in first wins and the timeout does nothing."""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import select

from pbem.bots import robot_event
from pbem.engine import Event
from pbem.service.core import (
    NOBODY,
    TIMEOUT,
    Context,
    Duplicate,
    Loaded,
    Outcome,
    run,
    update_seat,
)
from pbem.service.deadlines import away_periods, close_deadline, is_away
from pbem.service.moves import Turn, command_of, is_stale, move_step
from pbem.service.notices import TimedOut
from pbem.service.policy import DeadlinePolicy
from pbem.store.events import set_game_status
from pbem.store.models import Deadline, Player
from pbem.zones import player_zone


def timeout_move(ctx: Context, game_id: int, seat_no: int, turn_seq: int) -> Outcome:
    """Apply the policy for the expired deadline of (`seat_no`, `turn_seq`): the bot moves for
    the player (default), the game pauses, or the seat opens for a new player. Safe to repeat:
    a deadline already handled, or no longer pending, is answered as a duplicate."""

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        now = ctx.clock()
        row = g.session.exec(select(Deadline).where(
            Deadline.game_id == game_id, Deadline.seat_no == seat_no,
            Deadline.turn_seq == turn_seq)).first()
        if row is None or row.status != "pending":
            return Duplicate("deadline_handled")
        seat = g.seat(seat_no)
        turn = Turn(issued_seq=turn_seq)
        if seat_no not in g.state.to_move or seat.is_bot or is_stale(g, seat_no, turn):
            close_deadline(g.session, row, "cancelled", now)
            return Duplicate("seat_not_waited")
        if now < row.grace_until:
            return Duplicate("deadline_not_passed")
        close_deadline(g.session, row, "expired", now)
        return _apply_policy(ctx, g, seat_no, turn)

    # Planned like a move: the robot decides and the emails are rendered without the lock.
    return run(ctx, game_id, step, actor=NOBODY, by=TIMEOUT, planned=True)


def _apply_policy(ctx: Context, g: Loaded, seat_no: int, turn: Turn) -> Sequence[Event]:
    now = ctx.clock()
    policy = DeadlinePolicy.from_dict(g.game.deadline_policy)
    seat = g.seat(seat_no)
    player = g.session.get(Player, seat.player_id) if seat.player_id else None
    zone = player_zone(player.time_zone if player else None)
    away = policy.vacation == "bot" and is_away(away_periods(g.session, seat.player_id),
                                                now, zone)
    if away:
        outcome = "away"  # covering for a holiday is no timeout: nothing is counted
    else:
        outcome = policy.on_timeout
        missed = seat.timeouts_in_row + 1
        holding = (seat.bot_holding or outcome == "open_seat"
                   or missed >= policy.bot_after_timeouts)
        update_seat(g.session, seat, timeouts_in_row=missed, bot_holding=holding)
    if outcome == "pause":
        set_game_status(g.session, g.game, "paused")
        ctx.notify(g.session, TimedOut(g.game, seat_no, outcome, None, False, now))
        return []
    event = robot_event(g.state, seat_no, g.game.robot_strength, g.game_id, ctx.robot_seconds)
    ctx.notify(g.session, TimedOut(g.game, seat_no, outcome, event, seat.bot_holding, now))
    made = move_step(g, command_of(event), turn)  # the one move path, as for any channel
    assert not isinstance(made, Duplicate)  # the seat is waited for at this very turn
    return made
