"""Commands about time: away dates (vacation), nudging the player everyone waits for, and
resuming a game a timeout paused."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta

from sqlmodel import Session, col, delete, select

from pbem.engine import Event, asked
from pbem.service.core import Context, Duplicate, Loaded, Outcome, run
from pbem.service.deadlines import reschedule_player, sync_deadlines
from pbem.service.errors import BadRequest, NotAllowed, NotFound
from pbem.service.notices import Nudged, TurnsAskedAgain
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import Away, Deadline, Game, OutboxEmail, Player, Seat
from pbem.zones import player_zone

MAX_AWAY_DAYS = 92
NUDGE_EVERY = timedelta(hours=12)  # at most one nudge per player waited for, per game


def set_away(ctx: Context, player_id: int, start: date, end: date) -> Away:
    """The player is away from `start` to `end` (inclusive, their own dates). By each game's
    policy their pending and future deadlines stretch over those days, or the bot covers."""
    if end < start:
        raise BadRequest("away_order")
    if (end - start).days >= MAX_AWAY_DAYS:
        raise BadRequest("away_span", days=MAX_AWAY_DAYS)
    with transaction(ctx.engine) as session:
        player = _player(session, player_id)
        if end < _today(player, ctx.clock()):
            raise BadRequest("away_past")
        away = Away(player_id=player_id, starts_on=start, ends_on=end, created_at=ctx.clock())
        session.add(away)
        session.flush()
        reschedule_player(session, player_id, ctx.clock())
        return away


def clear_away(ctx: Context, player_id: int) -> int:
    """Forget the player's current and future away dates; returns how many were removed."""
    with transaction(ctx.engine) as session:
        player = _player(session, player_id)
        result = session.exec(delete(Away).where(
            col(Away.player_id) == player_id, col(Away.ends_on) >= _today(player, ctx.clock())))
        reschedule_player(session, player_id, ctx.clock())
        return int(result.rowcount or 0)


def away_dates(ctx: Context, player_id: int) -> list[tuple[date, date]]:
    """The player's current and future away dates, in order."""
    with transaction(ctx.engine, read_only=True) as session:
        player = _player(session, player_id)
        rows = session.exec(select(Away).where(
            Away.player_id == player_id, col(Away.ends_on) >= _today(player, ctx.clock()))
            .order_by(col(Away.starts_on))).all()
        return [(r.starts_on, r.ends_on) for r in rows]


def _player(session: Session, player_id: int) -> Player:
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound("no_player")
    return player


def _today(player: Player, now: datetime) -> date:
    return now.astimezone(player_zone(player.time_zone)).date()


# --- nudges ---------------------------------------------------------------------------------

def nudge(ctx: Context, game_id: int, from_seat: int, *, player_id: int | None = None) -> list[int]:
    """A friendly email to the player(s) everyone waits for; returns the seats nudged.
    Each of them gets at most one nudge per game every 12 hours, whoever sends it."""
    now = ctx.clock()
    with transaction(ctx.engine) as session:
        game = session.get(Game, game_id, with_for_update=True)
        if game is None:
            raise NotFound("no_game")
        if game.status != "active":
            raise NotAllowed("not_waiting")
        seats = {s.seat_no: s for s in session.exec(select(Seat).where(Seat.game_id == game_id))}
        nudger = seats.get(from_seat)
        if nudger is None or nudger.is_bot or (player_id is not None
                                               and nudger.player_id != player_id):
            raise NotAllowed("not_your_seat")
        state = load_state(session, game_id).state
        if asked(state, from_seat).must_act:
            raise NotAllowed("own_move")
        targets = [s for s in seats if asked(state, s).must_act
                   and not seats[s].is_bot and seats[s].player_id is not None]
        if not targets:
            raise NotAllowed("nobody_to_nudge")
        last = {s: _last_nudge(session, game_id, seats[s]) for s in targets}
        fresh = [s for s, t in last.items() if t is None or t <= now - NUDGE_EVERY]
        if not fresh:
            raise _too_soon(session, last, nudger)
        what = asked(state, fresh[0]).awaited
        nudged = []
        for seat_no in fresh:
            due = _due(session, game_id, seat_no)
            if ctx.notify(session, Nudged(game, seat_no, from_seat, what, due, now)):
                nudged.append(seat_no)
        return nudged


def _last_nudge(session: Session, game_id: int, seat: Seat) -> datetime | None:
    return session.exec(select(OutboxEmail.created_at).where(
        OutboxEmail.game_id == game_id, OutboxEmail.player_id == seat.player_id,
        OutboxEmail.kind == "nudge").order_by(col(OutboxEmail.created_at).desc())).first()


def _too_soon(session: Session, last_nudges: dict[int, datetime | None],
              nudger: Seat) -> NotAllowed:
    """A nudge went less than NUDGE_EVERY ago: the next may go `after` (in the nudger's
    time `zone`)."""
    last = min(t for t in last_nudges.values() if t is not None)
    player = session.get(Player, nudger.player_id)
    return NotAllowed("nudge_too_soon", after=last + NUDGE_EVERY,
                      zone=player.time_zone if player else None)


def _due(session: Session, game_id: int, seat_no: int) -> datetime | None:
    return session.exec(select(Deadline.due_at).where(
        Deadline.game_id == game_id, Deadline.seat_no == seat_no,
        Deadline.status == "pending")).first()


# --- a paused game --------------------------------------------------------------------------

def resume_game(ctx: Context, game_id: int) -> Outcome:
    """Start a paused game again: the players waited for get fresh deadlines and, in the same
    transaction, an email asking for their move again."""

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        if g.game.status == "active":  # resumed by someone else since the page was shown
            return Duplicate("not_paused")
        g.game.status = "active"
        g.session.add(g.game)
        opened = sync_deadlines(g.session, g.game, g.state, (), ctx.clock(), g.seats)
        ctx.notify(g.session, TurnsAskedAgain(g.game, g.state, ctx.clock(),
                                              min((d.due_at for d in opened), default=None)))
        return []

    return run(ctx, game_id, step, statuses=("paused", "active"))
