"""Open tables: games with seats anyone signed in may take (the lobby), quick play, and the
worker's top-up with robots.

A seat is open while its `invite_status` is "open" (no player, not a robot). Joining takes the
lowest open seat inside the game's locked transaction (`run`: FOR UPDATE on PostgreSQL, BEGIN
IMMEDIATE on SQLite), so two people racing for the last seat get one seat and one "full"; the
game starts (deals) in the same transaction when no seat is left open.

Quick play ("find me a table"): join the oldest quick table of the same preset and pace with a
seat open, or open a new one with the asker in seat 1; robots take the seats still open at the
table's `fill_by` (the asker's chosen wait), which the worker checks (`top_up_tables`). A
player waits at one quick table at a time: asking again sends them back to it (a double
submit, a second tab), and a second quick table is refused until it starts.

People take lobby seats one transaction at a time (`_seating`: PostgreSQL: an advisory lock
held to the transaction's end; SQLite: BEGIN IMMEDIATE serializes write transactions
anyway): quick play's look for a table and its join or new table are one transaction, so two
people asking at once end up at one table, and one person asking twice at once gets one seat. A game
made on /new gets its `fill_by` when its organiser confirms it (their chosen wait, or none),
whether it has open seats or only invitations; robots then take its declined seats too, while
unanswered invitations still wait.

The organiser (`game.organiser_id`: whoever set the game up on /new, asked for quick play or
a rematch) may also start their game at once (`start_now`): robots take every seat nobody
has taken yet, open or invited; in the same locked transaction as a join, so the two race
safely for the last seat. Whoever had not answered their invitation is told, in the same
transaction, that a robot has their seat (those who declined get no more mail of the game).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import text
from sqlmodel import Session, col, select

from pbem.engine import Event
from pbem.service.core import Context, Duplicate, Loaded, Outcome, run, run_in
from pbem.service.errors import (
    BadRequest,
    NotAllowed,
    NotFound,
    NotOrganiser,
    SomeoneMovedFirst,
)
from pbem.service.games import (
    Invitee,
    Table,
    create_game,
    is_organiser,
    is_unanswered,
    make_rules,
    organiser_seat,
    start_if_everyone_is_in,
)
from pbem.service.names import QUICK_GAME
from pbem.service.notices import InvitationsClosed
from pbem.store.db import transaction
from pbem.store.events import ConcurrencyConflict
from pbem.store.models import Game, Player, Seat

OPEN = "open"
PACES = (1, 4, 12, 24, 48)  # hours per move offered for quick play
WAITS = (0, 5, 15, 60, 240, 1440)  # minutes a quick-play asker may wait for people
# Minutes a /new game's open and declined seats may wait for people, from the organiser's
# confirmation; None: they wait for people however long it takes (the organiser may still
# start now).
NEW_GAME_WAITS: tuple[int | None, ...] = (60, 240, 1440, 3 * 1440, None)
NEW_GAME_WAIT = 1440
TABLE_FULL = "table_full"  # someone took the last seat just before
ONE_QUICK_TABLE = "one_quick_table"  # one quick table at a time, until it starts
NOT_TAKEN = (OPEN, "invited", "declined")  # the seats robots take when the organiser starts
WAIT_OVER = (OPEN, "declined")  # ... and when the wait is over (unanswered ones still wait)


@dataclass(frozen=True)
class OpenTable:
    """A game looking for players, as the lobby lists it."""

    game_id: int
    name: str
    preset: str
    rules: dict[str, Any]
    move_hours: int
    seats: int
    free: int
    players: tuple[tuple[int, str], ...]  # (player id, name) of those seated
    fill_by: datetime | None
    quick: bool


def open_tables(ctx: Context) -> list[OpenTable]:
    """Games still gathering players with at least one open seat, oldest first."""
    with transaction(ctx.engine, read_only=True) as session:
        return [_table(session, game) for game in _open_games(session)]


def _open_games(session: Session) -> list[Game]:
    return list(session.exec(select(Game).where(Game.status == "inviting").where(
        col(Game.id).in_(select(Seat.game_id).where(Seat.invite_status == OPEN)))
        .order_by(col(Game.id))))


def _table(session: Session, game: Game) -> OpenTable:
    assert game.id is not None
    rows = session.exec(select(Seat, Player).outerjoin(
        Player, col(Player.id) == col(Seat.player_id)).where(Seat.game_id == game.id)
        .order_by(col(Seat.seat_no))).all()
    players = tuple((p.id or 0, p.name) for s, p in rows if p is not None and not s.is_bot
                    and s.invite_status == "accepted")
    return OpenTable(game.id, game.name, game.preset, game.rules,
                     int(game.deadline_policy.get("move_hours", 48)), len(rows),
                     sum(s.invite_status == OPEN and not s.is_bot for s, _ in rows),
                     players, game.fill_by, game.quick)


# PostgreSQL: people take lobby seats one transaction at a time (the lock is the schema's,
# released when the transaction ends). SQLite's write transactions are one at a time anyway.
_LOBBY_LOCK = text("select pg_advisory_xact_lock(hashtext('pbem-lobby:' || current_schema()))")


@contextmanager
def _seating(ctx: Context) -> Iterator[Session]:
    """A write transaction in which nobody else takes a lobby seat meanwhile."""
    with transaction(ctx.engine) as session:
        if session.get_bind().dialect.name == "postgresql":
            session.connection().execute(_LOBBY_LOCK)
        yield session


def join_table(ctx: Context, game_id: int, player_id: int,
               fill_by: datetime | None = None) -> Outcome:
    """Take the lowest open seat for the player. NotAllowed when none is left (or the game
    started), or when the table is a quick one and the player waits at another; a player
    already seated gets "already" (nothing changes). `fill_by`: a quick player's own wait,
    which brings the robots' top-up forward if it is sooner."""
    for _attempt in range(2):
        try:
            with _seating(ctx) as session:
                return _join(ctx, session, game_id, player_id, fill_by)
        except ConcurrencyConflict:
            continue
    raise SomeoneMovedFirst()


def _join(ctx: Context, session: Session, game_id: int, player_id: int,
          fill_by: datetime | None) -> Outcome:
    """join_table's seat, in the caller's `_seating` transaction."""
    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        if any(s.player_id == player_id and not s.is_bot for s in g.seats):
            return Duplicate("have_table_seat")
        free = [s for s in g.seats if s.invite_status == OPEN and not s.is_bot]
        if not free:
            raise NotAllowed(TABLE_FULL)
        if g.session.get(Player, player_id) is None:
            raise NotFound("no_player")
        organiser = organiser_seat(g.game, g.seats)
        if organiser is not None and organiser.invite_status != "accepted":
            raise NotAllowed("table_unconfirmed")
        if g.game.quick and _waiting_quick(g.session, player_id):
            raise NotAllowed(ONE_QUICK_TABLE)
        seat = free[0]
        seat.player_id, seat.invite_status = player_id, "accepted"
        g.session.add(seat)
        if fill_by is not None and g.game.fill_by is not None:
            g.game.fill_by = min(g.game.fill_by, fill_by)  # the most impatient's wait counts
        start_if_everyone_is_in(g)
        return []

    try:
        return run_in(ctx, session, game_id, step, statuses=("inviting",))
    except NotAllowed as exc:
        if exc.code in {"game_active", "started_without_you"}:
            raise NotAllowed(TABLE_FULL) from exc
        raise


def _waiting_quick(session: Session, player_id: int) -> list[Game]:
    """The quick tables still gathering players where the player has a seat."""
    return list(session.exec(select(Game).where(
        Game.status == "inviting", col(Game.quick).is_(True),
        col(Game.id).in_(select(Seat.game_id).where(
            Seat.player_id == player_id, col(Seat.is_bot).is_(False))))
        .order_by(col(Game.id))))


def open_table(ctx: Context, player_id: int, *, name: str, preset: str,
               options: dict[str, Any] | None = None, move_hours: int = 48,
               open_seats: int | None = None, wait_minutes: int = 60,
               quick: bool = False, robot_strength: str | None = None) -> int:
    """A new table organised by the player, in seat 1, `open_seats` open (default: all the
    others; the rest are robots) until `wait_minutes` from now, when robots take those still
    open."""
    with transaction(ctx.engine) as session:
        return _open(ctx, session, player_id, name=name, preset=preset, options=options,
                     move_hours=move_hours, open_seats=open_seats, wait_minutes=wait_minutes,
                     quick=quick, robot_strength=robot_strength)


def _open(ctx: Context, session: Session, player_id: int, *, name: str, preset: str,
          options: dict[str, Any] | None, move_hours: int, open_seats: int | None,
          wait_minutes: int, quick: bool, robot_strength: str | None) -> int:
    """open_table, in the caller's write transaction."""
    if move_hours not in range(1, 24 * 30 + 1):
        raise BadRequest("pace_range")
    if wait_minutes not in range(0, 7 * 24 * 60 + 1):
        raise BadRequest("wait_range")
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound("no_player")
    players = make_rules(preset, options).players
    others = list(range(1, players))
    count = len(others) if open_seats is None else open_seats
    if not 1 <= count <= len(others):
        raise BadRequest("open_seats", players=players, most=len(others))
    out = create_game(
        ctx, name=name, preset=preset, options=options,
        players=[Invitee(email=player.email, name=player.name, accepted=True)],
        bot_seats=others[count:], deadline_policy={"move_hours": move_hours},
        robot_strength=robot_strength or ("easy" if quick else "strong"),
        table=Table(tuple(others[:count]), ctx.clock() + timedelta(minutes=wait_minutes), quick),
        organiser=0, session=session)
    return out.game_id


def quick_play(ctx: Context, player_id: int, preset: str, move_hours: int,
               wait_minutes: int) -> int:
    """Find the player a table: a seat at the oldest quick table of this preset and pace,
    or a new quick table. The game id. A player already waiting at a quick table of this
    preset and pace is sent back to it; at another one, NotAllowed (ONE_QUICK_TABLE).

    All in one `_seating` transaction: two people asking at once end up at one table, and
    one person asking twice at once (a double submit) gets one seat."""
    if move_hours not in PACES or wait_minutes not in WAITS:
        raise BadRequest("choose_pace")
    make_rules(preset)
    wait_until = ctx.clock() + timedelta(minutes=wait_minutes)

    def fits(game: Game) -> bool:
        return game.quick and game.preset == preset \
            and int(game.deadline_policy.get("move_hours", 48)) == move_hours

    for _attempt in range(2):
        try:
            with _seating(ctx) as session:
                waiting = _waiting_quick(session, player_id)
                if waiting:
                    if not fits(waiting[0]):
                        raise NotAllowed(ONE_QUICK_TABLE)
                    assert waiting[0].id is not None
                    return waiting[0].id
                for game in _open_games(session):
                    if fits(game):
                        assert game.id is not None
                        try:
                            _join(ctx, session, game.id, player_id, wait_until)
                        except NotAllowed:  # full, or started by its organiser: the next
                            continue
                        return game.id
                return _open(ctx, session, player_id, name=QUICK_GAME, preset=preset,
                             options=None, move_hours=move_hours, open_seats=None,
                             wait_minutes=wait_minutes, quick=True, robot_strength=None)
        except ConcurrencyConflict:
            continue
    raise SomeoneMovedFirst()


def top_up_tables(ctx: Context) -> list[int]:
    """The worker's job: robots take the open and declined seats of tables whose wait is
    over, and those games start (unless an invitation is still unanswered). The ids of the
    games robots sat down in."""
    started = []
    for game_id in due_tables(ctx):
        try:
            out = run(ctx, game_id, lambda g: _robots_fill(g, WAIT_OVER),
                      statuses=("inviting",))
        except NotAllowed:
            continue  # it started meanwhile (the last person joined)
        if not out.duplicate:
            started.append(game_id)
    return started


def due_tables(ctx: Context) -> list[int]:
    """The games whose wait is over and that have a seat robots then take (open, or declined):
    a game left waiting on an unanswered invitation is not picked again every tick (each pick
    is a write transaction: SQLite's writer lock), until someone declines."""
    seats_to_fill = select(Seat.id).where(
        Seat.game_id == Game.id, col(Seat.invite_status).in_(WAIT_OVER),
        col(Seat.is_bot).is_(False))
    with transaction(ctx.engine, read_only=True) as session:
        due = session.exec(select(Game.id).where(
            Game.status == "inviting", col(Game.fill_by).is_not(None),
            col(Game.fill_by) <= ctx.clock(), seats_to_fill.exists())
            .order_by(col(Game.id))).all()
    return [game_id for game_id in due if game_id is not None]


def start_now(ctx: Context, game_id: int, player_id: int) -> Outcome:
    """The organiser starts their game without waiting any longer: robots take the open
    seats and those whose invitation is not accepted (unanswered or declined; the invitation
    is then closed), and it deals. Those who had not answered are told by email. NotOrganiser
    for anyone else; NotAllowed once started."""
    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        if not is_organiser(g.game, g.seats, player_id):
            raise NotOrganiser("start_with_robots")
        unanswered = {s.seat_no: s.player_id for s in g.seats
                      if is_unanswered(s) and s.player_id is not None}
        filled = _robots_fill(g, NOT_TAKEN)
        if unanswered:
            g.session.flush()
            ctx.notify(g.session, InvitationsClosed(g.game, unanswered, ctx.clock()))
        return filled

    return run(ctx, game_id, step, statuses=("inviting",))


def _robots_fill(g: Loaded, statuses: tuple[str, ...]) -> Sequence[Event] | Duplicate:
    """Robots take the seats whose invite status is one of `statuses` (a person invited
    there loses the seat), and the game starts if everyone is then in."""
    free = [s for s in g.seats if s.invite_status in statuses and not s.is_bot]
    if not free:
        return Duplicate("no_open_seat")
    for seat in free:
        seat.is_bot, seat.player_id, seat.invite_status = True, None, "accepted"
        g.session.add(seat)
    start_if_everyone_is_in(g)
    return []
