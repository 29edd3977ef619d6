"""A game, its seats and their players read in one plain Core statement, for the hot paths
that only read them (a move's planning, a mail job's fan-out): no ORM query, no identity map.

The objects are table-model instances built straight from the rows (`plain`), as the ORM
would load them but in no session: read them; change one only with `set_committed_value`
(its copy, never written); a session must never `add` one (it would be inserted).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, bindparam, exists, select
from sqlalchemy.orm import class_mapper
from sqlmodel import SQLModel

from pbem.store.models import Away, Game, Player, Seat

Model = TypeVar("Model", bound=SQLModel)

_G, _S = Game.__table__, Seat.__table__  # type: ignore[attr-defined]
_P, _A = Player.__table__, Away.__table__  # type: ignore[attr-defined]
_KEYS: dict[type, list[str]] = {Game: [column.key for column in _G.c],
                                 Seat: [column.key for column in _S.c],
                                 Player: [column.key for column in _P.c]}
_PLAYER_ID = _KEYS[Player].index("id")
# Whether each player has away dates (a seat asked next gets its deadline stretched by them).
_HAS_AWAY = exists().where(_A.c.player_id == _P.c.id).label("has_away")
_GAME_ROWS = (select(*_G.c, *_S.c, *_P.c, _HAS_AWAY)
              .select_from(_G.join(_S, _S.c.game_id == _G.c.id)
                           .outerjoin(_P, _S.c.player_id == _P.c.id))
              .where(_G.c.id == bindparam("game_id")).order_by(_S.c.seat_no))


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


def read_game(connection: Connection, game_id: int) -> GameRows | None:
    """The game `game_id` with its seats and their players (one statement); None if there is
    no such game (every game has seats)."""
    rows = connection.execute(_GAME_ROWS, {"game_id": game_id}).all()
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
