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

from sqlalchemy import Connection, bindparam, cast, exists, null, select, union_all
from sqlalchemy.orm import class_mapper
from sqlmodel import SQLModel

from pbem.store.models import Away, Deadline, Game, Player, Seat

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
# The same, followed by the game's pending deadline rows (id, seat_no, kind) in the same
# statement (a move's `sync_deadlines` needs them: one round trip less). The two parts are
# padded with typed NULLs to one shape; a row is a deadline's when its last columns are set.
_DEADLINE_COLUMNS = (_D.c.id, _D.c.seat_no, _D.c.kind)
_WIDTH = len(_G.c) + len(_S.c) + len(_P.c) + 1


def _nulls(columns: Any, prefix: str) -> list[Any]:
    return [cast(null(), column.type).label(f"{prefix}{n}") for n, column in enumerate(columns)]


_GAME_AND_DEADLINES = union_all(
    select(*_G.c, *_S.c, *_P.c, _HAS_AWAY, *_nulls(_DEADLINE_COLUMNS, "d"))
    .select_from(_G.join(_S, _S.c.game_id == _G.c.id).outerjoin(_P, _S.c.player_id == _P.c.id))
    .where(_G.c.id == bindparam("game_id")),
    select(*_nulls([*_G.c, *_S.c, *_P.c, _HAS_AWAY], "g"), *_DEADLINE_COLUMNS)
    .where(_D.c.game_id == bindparam("game_id"), _D.c.status == "pending"))


def plain(model: type[Model], values: Mapping[str, Any]) -> Model:
    """An instance of the table model `model` holding `values` (its columns; one left out
    reads as None), built as the ORM builds a loaded row (no validation) but in no session."""
    mapper = class_mapper(model)  # configures the mappers if not yet done
    instance: Model = mapper.class_manager.new_instance()
    instance.__dict__.update(values)
    return instance


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
        return _game_rows(connection.execute(_GAME_ROWS, {"game_id": game_id}).all())
    rows = connection.execute(_GAME_AND_DEADLINES, {"game_id": game_id}).all()
    pending = [(row[_WIDTH], row[_WIDTH + 1], row[_WIDTH + 2]) for row in rows
               if row[_WIDTH] is not None]
    found = _game_rows(sorted((row for row in rows if row[_WIDTH] is None),
                              key=lambda row: int(row[_SEAT_NO])))
    return None if found is None else replace(found, pending=pending)


def _game_rows(rows: Sequence[Any]) -> GameRows | None:
    if not rows:
        return None
    game_end = len(_KEYS[Game])
    seat_end = game_end + len(_KEYS[Seat])
    player_end = seat_end + len(_KEYS[Player])
    game = plain(Game, dict(zip(_KEYS[Game], rows[0][:game_end], strict=True)))
    seats: list[Seat] = []
    players: dict[int | None, Player] = {}
    away: set[int | None] = set()
    for row in rows:
        seats.append(plain(Seat, dict(zip(_KEYS[Seat], row[game_end:seat_end], strict=True))))
        player_id = row[seat_end + _PLAYER_ID]
        if player_id is not None and player_id not in players:
            players[player_id] = plain(
                Player, dict(zip(_KEYS[Player], row[seat_end:player_end], strict=True)))
            if row[player_end]:
                away.add(player_id)
    return GameRows(game, seats, players, away)
