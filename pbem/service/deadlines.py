"""Deadline rows kept in step with each game: one per pending action of a human seat.

`sync_deadlines` runs inside every command's transaction (pbem.service.core.commit): it closes
the rows of seats that are no longer to move and opens rows for seats that now are. The due
time follows the game's policy (pbem.service.policy): time per move, weekends skipped in
the player's own zone if asked, away days added (vacation "stretch") or the bot covering at
once (vacation "bot"), then a grace period before the timeout acts.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import bindparam, insert, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from pbem.engine import Ask, EndVoted, Event, GameState, HandDealt, asked
from pbem.service.policy import DeadlinePolicy
from pbem.store.db import execute_write, inserted_id, is_planning
from pbem.store.gamerows import PendingDeadline
from pbem.store.models import Away, Deadline, Game, Player, Seat
from pbem.zones import player_zone

# The deadline row's kind for each kind of question a seat is asked (`asked`).
KINDS = {Ask.PASS: "pass", Ask.PLAY: "play", Ask.MOON: "moon", Ask.BID: "bid",
         Ask.NAME_SUIT: "suit"}
Period = tuple[date, date]  # inclusive away dates


# --- computing a due time ------------------------------------------------------------------

def add_time(start: datetime, hours: float, zone: ZoneInfo, skip_weekends: bool) -> datetime:
    """`start` + `hours`; with `skip_weekends`, only Monday-Friday time (local) counts."""
    if not skip_weekends:
        return start + timedelta(hours=hours)
    left = timedelta(hours=hours)
    moment = start.astimezone(zone)
    while True:
        day_end = datetime.combine(moment.date() + timedelta(days=1), time(), zone)
        if moment.weekday() >= 5:  # Saturday, Sunday: jump to the next day
            moment = day_end
            continue
        span = day_end - moment
        if left <= span:
            return (moment + left).astimezone(UTC)
        left -= span
        moment = day_end


def stretch(start: datetime, due: datetime, periods: Iterable[Period],
            zone: ZoneInfo) -> datetime:
    """`due` pushed back so that the time from `start` counts only outside away periods."""
    remaining = due - start
    cursor = start
    for away_from, away_to in _intervals(periods, zone):
        if away_to <= cursor:
            continue
        if away_from > cursor:
            if remaining <= away_from - cursor:
                break
            remaining -= away_from - cursor
        cursor = max(cursor, away_to)
    return (cursor + remaining).astimezone(UTC)


def _intervals(periods: Iterable[Period], zone: ZoneInfo) -> list[tuple[datetime, datetime]]:
    """Away dates as sorted, merged [from, to) moments."""
    merged: list[tuple[datetime, datetime]] = []
    for first, last in sorted(periods):
        low = datetime.combine(first, time(), zone)
        high = datetime.combine(last + timedelta(days=1), time(), zone)
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def is_away(periods: Iterable[Period], now: datetime, zone: ZoneInfo) -> bool:
    today = now.astimezone(zone).date()
    return any(a <= today <= b for a, b in periods)


def away_periods(session: Session, player_id: int | None) -> list[Period]:
    if player_id is None:
        return []
    rows = session.exec(select(Away).where(Away.player_id == player_id))
    return [(r.starts_on, r.ends_on) for r in rows]


@dataclass
class OpenedDeadline:
    """A deadline row as opened by `sync_deadlines` (a plain value: no ORM object is built
    on a move's path); the columns of `Deadline`."""

    game_id: int
    seat_no: int
    kind: str
    turn_seq: int
    started_at: datetime
    due_at: datetime
    grace_until: datetime
    reminders_sent: int = 0
    next_reminder_at: datetime | None = None
    status: str = "pending"
    closed_at: datetime | None = None
    id: int | None = None


def schedule(row: Deadline | OpenedDeadline, policy: DeadlinePolicy, zone: ZoneInfo,
             periods: Sequence[Period], now: datetime) -> None:
    """Set the row's due time, grace end and next reminder from its start."""
    start = row.started_at
    if policy.vacation == "bot" and is_away(periods, start, zone):
        due = start  # the bot covers for an away player as soon as the worker looks
    else:
        due = add_time(start, policy.move_hours, zone, policy.skip_weekends)
        if policy.vacation == "stretch" and periods:
            due = stretch(start, due, periods, zone)
    row.due_at = due
    row.grace_until = due + timedelta(minutes=policy.grace_minutes)
    points = reminder_points(row, policy)
    row.reminders_sent = min(row.reminders_sent, len(points))
    row.next_reminder_at = points[row.reminders_sent] if row.reminders_sent < len(points) else None


def reminder_points(row: Deadline | OpenedDeadline, policy: DeadlinePolicy) -> list[datetime]:
    """When reminders are due: the policy's fractions of the time between start and due."""
    if row.due_at <= row.started_at:
        return []
    span = row.due_at - row.started_at
    return [row.started_at + span * f for f in policy.reminders]


# --- keeping rows in step with the game ----------------------------------------------------

_DEADLINES = Deadline.__table__  # type: ignore[attr-defined]
_DEADLINE_COLUMNS = [column.key for column in _DEADLINES.c if column.key != "id"]
_AWAY = Away.__table__  # type: ignore[attr-defined]
_PENDING = (select(_DEADLINES.c.id, _DEADLINES.c.seat_no, _DEADLINES.c.kind)
            .where(_DEADLINES.c.game_id == bindparam("game_id"),
                   _DEADLINES.c.status == "pending"))
_INSERT = insert(_DEADLINES)
_AWAY_DATES = select(_AWAY.c.starts_on, _AWAY.c.ends_on).where(
    _AWAY.c.player_id == bindparam("player_id"))
# Only a row still pending: a row the command closed otherwise already (a timeout marks its
# own row expired) keeps that status.
_CLOSE = (update(_DEADLINES).where(_DEADLINES.c.id == bindparam("row_id"),
                                   _DEADLINES.c.status == "pending")
          .values(status=bindparam("new_status"), closed_at=bindparam("closed")))


def sync_deadlines(session: Session, game: Game, state: GameState, events: Sequence[Event],
                   now: datetime, seats: Sequence[Seat] | None = None,
                   players: Mapping[int | None, Player] | None = None,
                   away: Container[int | None] | None = None,
                   pending: Sequence[PendingDeadline] | None = None) -> list[OpenedDeadline]:
    """Close the rows of actions no longer pending, open rows for new ones (human seats only);
    returns the rows opened (detached copies, with their ids). Call after the events are
    appended (game.last_seq moved).

    It runs in every command, so it reads and writes with plain statements on the session's
    connection (no ORM unit of work); pending ORM changes are flushed first, as an ORM query
    would, and Deadline objects the session holds are kept in step with the rows closed.
    `players`: the seats' players, if the caller has them (else read); `away`: which of
    them have away dates, if the caller knows (else each opened row reads its player's);
    `pending`: the game's pending rows (id, seat_no, kind), if read in this transaction
    already (pbem.store.gamerows), else read here. In a planning session
    (pbem.store.db.planning) the writes are collected, and the rows opened have no id."""
    assert game.id is not None
    if seats is None:
        seats = session.exec(select(Seat).where(Seat.game_id == game.id)).all()
    by_no = {s.seat_no: s for s in seats}
    questions = [asked(state, n) for n in range(state.seats)]
    # every seat asked now is asked the same kind of question (one phase at a time)
    kind = next((KINDS[q.kind] for q in questions if q.kind in KINDS), None)
    waiting = {q.seat for q in questions if q.must_act} if game.status == "active" and kind \
        else set()
    waiting = {n for n in waiting if _needs_deadline(by_no.get(n))}
    new_hand = any(isinstance(e, HandDealt) for e in events)
    # A vote to end the game (seed 003) is nobody's move: the voter's deadline runs on.
    moved = {getattr(e, "seat", None) for e in events if not isinstance(e, EndVoted)}
    if session.autoflush:
        session.flush()
    connection = session.connection()
    if pending is None:
        pending = connection.execute(_PENDING, {"game_id": game.id}).all()
    kept: set[int] = set()
    closing: list[dict[str, Any]] = []
    for row_id, seat_no, row_kind in pending:
        if seat_no in waiting and row_kind == kind and not new_hand and seat_no not in moved:
            kept.add(seat_no)
            continue
        closing.append({"row_id": row_id, "closed": now,
                        "new_status": "done" if seat_no in moved else "cancelled"})
    if closing:
        execute_write(session, _CLOSE, closing)
        for values in closing:
            held = session.identity_map.get(session.identity_key(Deadline, values["row_id"]))
            if held is not None:  # keep a loaded row in step, without dirtying it
                set_committed_value(held, "status", values["new_status"])
                set_committed_value(held, "closed_at", now)
    policy = DeadlinePolicy.from_dict(game.deadline_policy)
    return [_open(session, game, by_no[n], kind or "play", policy, now, players, away)
            for n in sorted(waiting - kept)]


def close_deadline(session: Session, row: Deadline, status: str, now: datetime) -> None:
    """Close one pending deadline row (`status`: expired, cancelled, done), in the session's
    transaction or, when planning, with the command's writes; `row` too."""
    execute_write(session, _CLOSE, {"row_id": row.id, "new_status": status, "closed": now})
    set_committed_value(row, "status", status)
    set_committed_value(row, "closed_at", now)


def _needs_deadline(seat: Seat | None) -> bool:
    return seat is not None and not seat.is_bot and not seat.bot_holding \
        and seat.player_id is not None


def _open(session: Session, game: Game, seat: Seat, kind: str, policy: DeadlinePolicy,
          now: datetime, players: Mapping[int | None, Player] | None = None,
          away: Container[int | None] | None = None) -> OpenedDeadline:
    assert game.id is not None
    player = players.get(seat.player_id) if players is not None else None
    if player is None:  # not given, or the seat's player just changed
        player = session.get(Player, seat.player_id)
    zone = player_zone(player.time_zone if player else None)
    row = OpenedDeadline(game_id=game.id, seat_no=seat.seat_no, kind=kind,
                         turn_seq=game.last_seq, started_at=now, due_at=now, grace_until=now)
    known_home = (away is not None and players is not None and seat.player_id in players
                  and seat.player_id not in away)  # read together by the caller: no dates
    schedule(row, policy, zone, [] if known_home else _away_rows(session, seat.player_id), now)
    values = {column: getattr(row, column) for column in _DEADLINE_COLUMNS}
    if is_planning(session):  # written with the move, after planning (its id unknown here)
        execute_write(session, _INSERT, values)
    else:
        row.id = inserted_id(session.connection().execute(_INSERT, values))
    return row


def _away_rows(session: Session, player_id: int | None) -> list[Period]:
    """`away_periods`, read as plain rows."""
    if player_id is None:
        return []
    rows = session.connection().execute(_AWAY_DATES, {"player_id": player_id})
    return [(first, last) for first, last in rows]


def reschedule_player(session: Session, player_id: int, now: datetime) -> list[Deadline]:
    """Recompute the pending deadlines of a player's seats (after their away dates changed)."""
    player = session.get(Player, player_id)
    if player is None:
        return []
    rows = session.exec(select(Deadline).join(Seat, (col(Seat.game_id) == col(Deadline.game_id))
                                              & (col(Seat.seat_no) == col(Deadline.seat_no)))
                        .where(Seat.player_id == player_id, Deadline.status == "pending")).all()
    zone, periods = player_zone(player.time_zone), away_periods(session, player_id)
    for row in rows:
        game = session.get(Game, row.game_id)
        assert game is not None
        schedule(row, DeadlinePolicy.from_dict(game.deadline_policy), zone, periods, now)
        session.add(row)
    return list(rows)


def held_since(session: Session, game_id: int, seat_no: int, missed: int,
               policy: DeadlinePolicy) -> datetime | None:
    """Since when the robot holds the seat whose player missed their last `missed` deadlines
    in a row: the timeout that made it hold (the first of the run under "open_seat", else the
    `bot_after_timeouts`-th), from the seat's expired deadline rows; None if unknown."""
    if missed <= 0:
        return None
    rows = session.exec(select(Deadline.closed_at).where(
        Deadline.game_id == game_id, Deadline.seat_no == seat_no,
        Deadline.status == "expired").order_by(col(Deadline.closed_at).desc())
        .limit(missed)).all()
    run = [closed for closed in reversed(rows) if closed is not None]
    if not run:
        return None
    first = 1 if policy.on_timeout == "open_seat" else policy.bot_after_timeouts
    return run[min(max(first, 1), len(run)) - 1]
