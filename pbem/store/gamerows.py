"""A game, its seats and their players read in one plain Core statement, for the hot paths
that only read them (a move's planning, a mail job's fan-out): no ORM query, no identity map.

The objects are table-model instances built straight from the rows (`plain`), as the ORM
would load them but in no session: read them; change one only with `set_committed_value`
(its copy, never written); a session must never `add` one (it would be inserted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    Text,
    bindparam,
    case,
    cast,
    exists,
    func,
    literal,
    null,
    select,
    union_all,
)
from sqlalchemy.orm import class_mapper
from sqlmodel import SQLModel

from pbem.store.db import read_now
from pbem.store.models import Away, Deadline, Event, Game, Player, Seat, Snapshot, Token

Model = TypeVar("Model", bound=SQLModel)

_G, _S = Game.__table__, Seat.__table__  # type: ignore[attr-defined]
_P, _A = Player.__table__, Away.__table__  # type: ignore[attr-defined]
_D = Deadline.__table__  # type: ignore[attr-defined]
_KEYS: dict[type, list[str]] = {Game: [column.key for column in _G.c],
                                 Seat: [column.key for column in _S.c],
                                 Player: [column.key for column in _P.c]}
_PLAYER_ID = _KEYS[Player].index("id")
_SEAT_NO = len(_KEYS[Game]) + _KEYS[Seat].index("seat_no")
# Whether each player has away dates (a seat asked next gets its deadline stretched by them).
_HAS_AWAY = exists().where(_A.c.player_id == _P.c.id).label("has_away")
_GAME_ROWS = (select(*_G.c, *_S.c, *_P.c, _HAS_AWAY)
              .select_from(_G.join(_S, _S.c.game_id == _G.c.id)
                           .outerjoin(_P, _S.c.player_id == _P.c.id))
              .where(_G.c.id == bindparam("game_id")).order_by(_S.c.seat_no))
# The same in one statement with the game's pending deadline rows (id, seat_no, kind): a
# move's `sync_deadlines` needs them (one round trip less). Three parts, padded with typed
# NULLs to one shape: the game's row (its columns only: its JSON is decoded once), its seats
# with their players, its pending deadlines; a row is the part whose first column is set.
_DEADLINE_COLUMNS = (_D.c.id, _D.c.seat_no, _D.c.kind)
_WIDTH = len(_G.c) + len(_S.c) + len(_P.c) + 1
_SEAT_ID = len(_G.c) + _KEYS[Seat].index("id")


def _nulls(columns: Any, prefix: str) -> list[Any]:
    return [cast(null(), column.type).label(f"{prefix}{n}") for n, column in enumerate(columns)]


_SEAT_PART = [*_S.c, *_P.c, _HAS_AWAY]
_GAME_AND_DEADLINES = union_all(
    select(*_G.c, *_nulls(_SEAT_PART, "s"), *_nulls(_DEADLINE_COLUMNS, "d"))
    .where(_G.c.id == bindparam("game_id")),
    select(*_nulls(_G.c, "g"), *_SEAT_PART, *_nulls(_DEADLINE_COLUMNS, "d"))
    .select_from(_S.outerjoin(_P, _S.c.player_id == _P.c.id))
    .where(_S.c.game_id == bindparam("game_id")),
    select(*_nulls([*_G.c, *_SEAT_PART], "g"), *_DEADLINE_COLUMNS)
    .where(_D.c.game_id == bindparam("game_id"), _D.c.status == "pending"))


def plain(model: type[Model], values: Mapping[str, Any]) -> Model:
    """An instance of the table model `model` holding `values` (its columns; one left out
    reads as None), built as the ORM builds a loaded row (no validation) but in no session."""
    make = _NEW_INSTANCE.get(model)
    if make is None:  # configures the mappers if not yet done
        make = _NEW_INSTANCE[model] = class_mapper(model).class_manager.new_instance
    instance: Model = make()
    instance.__dict__.update(values)
    return instance


_NEW_INSTANCE: dict[type, Any] = {}


@dataclass(frozen=True)
class GameRows:
    """A game as read: its row, its seats in order, their players by id, and which of those
    players have away dates."""

    game: Game
    seats: list[Seat]
    players: dict[int | None, Player]
    away: set[int | None]
    pending: list[PendingDeadline] | None = None  # read only if asked for


PendingDeadline = tuple[int, int, str]  # a pending deadline row's id, seat_no and kind


def read_game(connection: Connection, game_id: int, *,
              deadlines: bool = False) -> GameRows | None:
    """The game `game_id` with its seats and their players (one statement); None if there is
    no such game (every game has seats). `deadlines`: its pending deadline rows too, in the
    same statement."""
    if not deadlines:
        rows = read_now(connection, _GAME_ROWS, {"game_id": game_id})
        return _game_rows(rows[0], rows) if rows else None
    game_row, seat_rows, pending = None, [], []
    for row in read_now(connection, _GAME_AND_DEADLINES, {"game_id": game_id}):
        if row[0] is not None:
            game_row = row
        elif row[_SEAT_ID] is not None:
            seat_rows.append(row)
        else:
            pending.append((row[_WIDTH], row[_WIDTH + 1], row[_WIDTH + 2]))
    if game_row is None or not seat_rows:
        return None
    seat_rows.sort(key=lambda row: int(row[_SEAT_NO]))
    return replace(_game_rows(game_row, seat_rows), pending=pending)


def _game_rows(game_row: Any, seat_rows: Sequence[Any]) -> GameRows:
    """The game from `game_row`, its seats and players from `seat_rows` (in seat order),
    each laid out as `_GAME_ROWS`' rows."""
    game_end = len(_KEYS[Game])
    seat_end = game_end + len(_KEYS[Seat])
    player_end = seat_end + len(_KEYS[Player])
    game = plain(Game, dict(zip(_KEYS[Game], game_row[:game_end], strict=True)))
    seats: list[Seat] = []
    players: dict[int | None, Player] = {}
    away: set[int | None] = set()
    for row in seat_rows:
        seats.append(plain(Seat, dict(zip(_KEYS[Seat], row[game_end:seat_end], strict=True))))
        player_id = row[seat_end + _PLAYER_ID]
        if player_id is not None and player_id not in players:
            players[player_id] = plain(
                Player, dict(zip(_KEYS[Player], row[seat_end:player_end], strict=True)))
            if row[player_end]:
                away.add(player_id)
    return GameRows(game, seats, players, away)


# --- a link's whole read in one statement (issue 33: one read round trip a request) -------
# The token rows of a raw token's two candidate hashes; the game of that token with its
# seats, players and pending deadlines (as `_GAME_AND_DEADLINES`); the game's latest snapshot
# and every event after it or after the token's turn, whichever is earlier (its page and its
# move tell from those since the turn whether the link is still good). Whatever copy of the
# game's state the web process has, the state can be made from that: the copy folded with
# the events after it, or the snapshot folded with the events after it; never a second
# statement. The snapshot and the payloads come as JSON text: only what is used is decoded.
# Each row starts with its part's number; the other parts' columns are typed NULLs.
_T, _E = Token.__table__, Event.__table__  # type: ignore[attr-defined]
_SNAP = Snapshot.__table__  # type: ignore[attr-defined]
_TOKEN_KEYS = [column.key for column in _T.c]
_EVENT_COLUMNS = (_E.c.seq, cast(_E.c.payload, Text).label("payload"), _E.c.actor)
_SNAPSHOT_COLUMNS = (_SNAP.c.seq.label("snapshot_seq"), cast(_SNAP.c.state, Text).label("state"))
_MATCHES = _T.c.token_hash.in_([bindparam("first"), bindparam("second")])
_LINK_GAME = select(_T.c.game_id).where(_MATCHES).limit(1).scalar_subquery()
_LINK_TURN = select(func.coalesce(_T.c.turn_seq, 0)).where(_MATCHES).limit(1).scalar_subquery()
_LATEST_SNAPSHOT = (select(func.coalesce(func.max(_SNAP.c.seq), 0))
                    .where(_SNAP.c.game_id == _LINK_GAME).scalar_subquery())
_EVENTS_AFTER = case((_LATEST_SNAPSHOT < _LINK_TURN, _LATEST_SNAPSHOT), else_=_LINK_TURN)
_LINK_PARTS: list[list[Any]] = [list(_T.c), list(_G.c), _SEAT_PART, list(_DEADLINE_COLUMNS),
                                list(_EVENT_COLUMNS), list(_SNAPSHOT_COLUMNS)]
_STARTS = [1 + sum(len(p) for p in _LINK_PARTS[:n]) for n in range(len(_LINK_PARTS) + 1)]


def _link_part(number: int, where: Any, joined: Any = None) -> Any:
    columns: list[Any] = [literal(number).label("part")]
    for n, part in enumerate(_LINK_PARTS):
        columns.extend(part if n == number else _nulls(part, f"p{n}_"))
    query = select(*columns)
    return (query.select_from(joined) if joined is not None else query).where(*where)


_LINK_READ = union_all(
    _link_part(0, [_MATCHES]),
    _link_part(1, [_G.c.id == _LINK_GAME]),
    _link_part(2, [_S.c.game_id == _LINK_GAME], _S.outerjoin(_P, _S.c.player_id == _P.c.id)),
    _link_part(3, [_D.c.game_id == _LINK_GAME, _D.c.status == "pending"]),
    _link_part(4, [_E.c.game_id == _LINK_GAME, _E.c.seq > _EVENTS_AFTER]),
    _link_part(5, [_SNAP.c.game_id == _LINK_GAME, _SNAP.c.seq == _LATEST_SNAPSHOT]))


def plain_token(row: Sequence[Any]) -> Token:
    """A token row (the table's columns in order) as a plain Token (see `plain`)."""
    return plain(Token, dict(zip(_TOKEN_KEYS, row, strict=True)))


@dataclass(frozen=True)
class LinkRows:
    """What a link's page and move read: the token rows found for its hashes (plain Tokens,
    in no session), the token's game (None if the statement found none), its latest snapshot
    as (seq, JSON text) (None: it has none yet), and its events after that snapshot or after
    the token's turn, whichever is earlier, as (seq, payload's JSON text, actor), in order.
    With one token row, every event after `complete_after` is in `events`."""

    tokens: list[Token]
    game: GameRows | None
    events: list[tuple[int, str, str | None]]
    snapshot: tuple[int, str] | None = None

    @property
    def complete_after(self) -> int:
        turn = (self.tokens[0].turn_seq or 0) if self.tokens else 0
        return min(self.snapshot[0] if self.snapshot else 0, turn)


def read_link(connection: Connection, hashes: Sequence[str]) -> LinkRows:
    """The rows of a link's read in one statement: its tokens by `hashes` (one or two
    candidates), the game of the first with its latest snapshot and its events after that
    snapshot or after the token's turn. With two token rows found the game and the turn
    are either's: the caller reads its own token's apart."""
    tokens, game_row, seat_rows, pending, events = [], None, [], [], []
    snapshot: tuple[int, str] | None = None
    params = {"first": hashes[0], "second": hashes[-1]}
    for row in read_now(connection, _LINK_READ, params):
        part = row[0]
        values = row[_STARTS[part]:_STARTS[part + 1]]
        if part == 0:
            tokens.append(plain_token(values))
        elif part == 1:
            game_row = values
        elif part == 2:
            seat_rows.append(values)
        elif part == 3:
            pending.append((values[0], values[1], values[2]))
        elif part == 4:
            events.append((values[0], values[1], values[2]))
        else:
            snapshot = (values[0], values[1])
    events.sort(key=lambda event: int(event[0]))
    if game_row is None or not seat_rows:
        return LinkRows(tokens, None, events, snapshot)
    seat_rows.sort(key=lambda row: int(row[_KEYS[Seat].index("seat_no")]))
    laid_out = [(*game_row, *seat) for seat in seat_rows]
    game = replace(_game_rows(game_row, laid_out), pending=pending)
    return LinkRows(tokens, game, events, snapshot)
