"""Open tables: games with seats anyone signed in may take (the lobby), quick play, and the
worker's top-up with robots.

A seat is open while its `invite_status` is "open" (no player, not a robot). Joining takes the
lowest open seat inside the game's locked transaction (`run`: FOR UPDATE on PostgreSQL, BEGIN
IMMEDIATE on SQLite), so two people racing for the last seat get one seat and one "full"; the
game starts (deals) in the same transaction when no seat is left open.

Quick play ("find me a table"): join the oldest quick table of the same preset and pace with a
seat open, or open a new one with the asker in seat 1; robots take the seats still open at the
table's `fill_by` (the asker's chosen wait), which the worker checks (`top_up_tables`). A game
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

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from pbem.engine import Event
from pbem.service.core import Context, Duplicate, Loaded, Outcome, mail_hook, run
from pbem.service.errors import BadRequest, NotAllowed, NotFound, NotOrganiser
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
from pbem.store.db import transaction
from pbem.store.models import Game, Player, Seat

OPEN = "open"
PACES = (1, 4, 12, 24, 48)  # hours per move offered for quick play
WAITS = (0, 5, 15, 60, 240, 1440)  # minutes a quick-play asker may wait for people
# Minutes a /new game's open and declined seats may wait for people, from the organiser's
# confirmation; None: they wait for people however long it takes (the organiser may still
# start now).
NEW_GAME_WAITS: tuple[int | None, ...] = (60, 240, 1440, 3 * 1440, None)
NEW_GAME_WAIT = 1440
TABLE_FULL = "This table is full: someone took the last seat just before you."
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
        games = session.exec(select(Game).where(Game.status == "inviting").where(
            col(Game.id).in_(select(Seat.game_id).where(Seat.invite_status == OPEN)))
            .order_by(col(Game.id))).all()
        return [_table(session, game) for game in games]


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


def join_table(ctx: Context, game_id: int, player_id: int,
               fill_by: datetime | None = None) -> Outcome:
    """Take the lowest open seat for the player. NotAllowed when none is left (or the game
    started); a player already seated gets "already" (nothing changes). `fill_by`: a quick
    player's own wait, which brings the robots' top-up forward if it is sooner."""
    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        if any(s.player_id == player_id and not s.is_bot for s in g.seats):
            return Duplicate("You already have a seat at this table.")
        free = [s for s in g.seats if s.invite_status == OPEN and not s.is_bot]
        if not free:
            raise NotAllowed(TABLE_FULL)
        if g.session.get(Player, player_id) is None:
            raise NotFound("There is no such player.")
        organiser = organiser_seat(g.game, g.seats)
        if organiser is not None and organiser.invite_status != "accepted":
            raise NotAllowed("This table isn't open yet: its organiser hasn't confirmed it.")
        seat = free[0]
        seat.player_id, seat.invite_status = player_id, "accepted"
        g.session.add(seat)
        if fill_by is not None and g.game.fill_by is not None:
            g.game.fill_by = min(g.game.fill_by, fill_by)  # the most impatient's wait counts
        start_if_everyone_is_in(g)
        return []

    try:
        return run(ctx, game_id, step, statuses=("inviting",))
    except NotAllowed as exc:
        if "already started" in str(exc):
            raise NotAllowed(TABLE_FULL) from exc
        raise


def open_table(ctx: Context, player_id: int, *, name: str, preset: str,
               options: dict[str, Any] | None = None, move_hours: int = 48,
               open_seats: int | None = None, wait_minutes: int = 60,
               quick: bool = False, robot_strength: str | None = None) -> int:
    """A new table organised by the player, in seat 1, `open_seats` open (default: all the
    others; the rest are robots) until `wait_minutes` from now, when robots take those still
    open."""
    if move_hours not in range(1, 24 * 30 + 1):
        raise BadRequest("The time per move is from 1 hour to 30 days.")
    if wait_minutes not in range(0, 7 * 24 * 60 + 1):
        raise BadRequest("The wait for players is from 0 minutes to a week.")
    with transaction(ctx.engine, read_only=True) as session:
        player = session.get(Player, player_id)
        if player is None:
            raise NotFound("There is no such player.")
    players = make_rules(preset, options).players
    others = list(range(1, players))
    count = len(others) if open_seats is None else open_seats
    if not 1 <= count <= len(others):
        raise BadRequest(f"A table of {players} has from 1 to {len(others)} open seats.")
    out = create_game(
        ctx, name=name, preset=preset, options=options,
        players=[Invitee(email=player.email, name=player.name, accepted=True)],
        bot_seats=others[count:], deadline_policy={"move_hours": move_hours},
        robot_strength=robot_strength or ("easy" if quick else "strong"),
        table=Table(tuple(others[:count]), ctx.clock() + timedelta(minutes=wait_minutes), quick),
        organiser=0)
    return out.game_id


def quick_play(ctx: Context, player_id: int, preset: str, move_hours: int,
               wait_minutes: int) -> int:
    """Find the player a table: a seat at the oldest quick table of this preset and pace,
    or a new quick table. The game id."""
    if move_hours not in PACES or wait_minutes not in WAITS:
        raise BadRequest("Choose one of the paces and waits offered.")
    make_rules(preset)
    wait_until = ctx.clock() + timedelta(minutes=wait_minutes)
    for table in open_tables(ctx):
        if table.quick and table.preset == preset and table.move_hours == move_hours:
            try:
                join_table(ctx, table.game_id, player_id, fill_by=wait_until)
            except NotAllowed:  # filled or started a moment ago: try the next one
                continue
            return table.game_id
    return open_table(ctx, player_id, name="Quick game", preset=preset, move_hours=move_hours,
                      wait_minutes=wait_minutes, quick=True)


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
            raise NotOrganiser("Only the organiser of this game, once they have confirmed "
                               "it, can start it with robots in the empty seats.")
        unanswered = {s.seat_no: s.player_id for s in g.seats if is_unanswered(s)}
        filled = _robots_fill(g, NOT_TAKEN)
        if unanswered:
            g.session.flush()
            mail_hook("send_invite_closed")(g.session, g.game, unanswered, now=ctx.clock())
        return filled

    return run(ctx, game_id, step, statuses=("inviting",))


def _robots_fill(g: Loaded, statuses: tuple[str, ...]) -> Sequence[Event] | Duplicate:
    """Robots take the seats whose invite status is one of `statuses` (a person invited
    there loses the seat), and the game starts if everyone is then in."""
    free = [s for s in g.seats if s.invite_status in statuses and not s.is_bot]
    if not free:
        return Duplicate("No seat is open.")
    for seat in free:
        seat.is_bot, seat.player_id, seat.invite_status = True, None, "accepted"
        g.session.add(seat)
    start_if_everyone_is_in(g)
    return []
