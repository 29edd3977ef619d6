"""A player's data, for "Download my data" on /me and the `export` reply (issue 35).

Everything the installation keeps about the player: the account and its settings, every
address, away dates, the rating, and every game they sat in with each of their own moves (who
made it: themselves, or a robot for their seat). A game still going shows only what the
player could see (their own moves: no other hand); a finished game also carries its whole
event log, which its public summary shows anyway, for the readable record (pbem.web.export).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from pbem.engine import Event, GameState
from pbem.roster import load_roster
from pbem.service.core import Context
from pbem.service.errors import NotFound
from pbem.store.db import transaction
from pbem.store.events import load_events_by, load_state
from pbem.store.models import Away, Game, Player, PlayerAddress, Rating, Seat
from pbem.store.models import Event as EventRow

FORMAT = "pbem-export/1"
NOT_MOVES = frozenset({"game_created", "hand_dealt"})  # no seat's move: the deal is nobody's


@dataclass
class GameData:
    """One game of the player's: its JSON part, and what its readable record is made from."""

    data: dict[str, Any]
    state: GameState
    names: list[str]
    seat_no: int
    log: list[Event] = field(default_factory=list)  # finished games only


@dataclass
class PlayerData:
    data: dict[str, Any]
    games: list[GameData]


def player_data(ctx: Context, player_id: int) -> PlayerData:
    """The player's data in one read transaction (NotFound for no such player)."""
    with transaction(ctx.engine, read_only=True) as session:
        player = session.get(Player, player_id)
        if player is None:
            raise NotFound("no_player")
        games = [_game(session, game, seat) for seat, game in session.exec(
            select(Seat, Game).join(Game, col(Game.id) == col(Seat.game_id))
            .where(Seat.player_id == player_id, col(Seat.is_bot).is_(False))
            .order_by(col(Game.id)))]
        data = {"format": FORMAT, "exported_at": _when(ctx.clock()),
                "account": _account(player), "addresses": _addresses(session, player),
                "away": [{"from": a.starts_on.isoformat(), "to": a.ends_on.isoformat()}
                         for a in session.exec(select(Away).where(Away.player_id == player_id))],
                "rating": _rating(session, player_id),
                "games": [g.data for g in games]}
    return PlayerData(data, games)


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _account(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "email": player.email,
            "created_at": _when(player.created_at),
            "settings": {"time_zone": player.time_zone, "mail": player.notify,
                         "daily_digest": player.digest, "unsubscribed": player.unsubscribed,
                         "game_reviews": player.review_games,
                         "on_leaderboard": player.on_leaderboard},
            "email_status": player.email_status}


def _addresses(session: Session, player: Player) -> list[dict[str, Any]]:
    others = session.exec(select(PlayerAddress).where(PlayerAddress.player_id == player.id)
                          .order_by(col(PlayerAddress.id)))
    return [{"email": player.email, "main": True, "added_at": _when(player.created_at)},
            *({"email": a.email, "main": False, "added_at": _when(a.created_at)}
              for a in others)]


def _rating(session: Session, player_id: int) -> dict[str, Any] | None:
    rating = session.get(Rating, player_id)
    return None if rating is None else rating.model_dump(mode="json", exclude={"player_id"})


def _game(session: Session, game: Game, seat: Seat) -> GameData:
    assert game.id is not None
    state = load_state(session, game.id).state
    table = session.exec(select(Seat).where(Seat.game_id == game.id)
                         .order_by(col(Seat.seat_no))).all()
    names = list(load_roster(session, table).names)
    logged = load_events_by(session, game.id)
    finished = state.game_over
    data = {"id": game.id, "name": game.name, "preset": game.preset, "status": game.status,
            "created_at": _when(game.created_at), "rules": game.rules,
            "your_seat": seat.seat_no, "players": names,
            "scores": list(state.totals) if finished else None,
            "moves": _moves(session, game.id, seat.seat_no)}
    return GameData(data, state, names, seat.seat_no,
                    [event for event, _by in logged] if finished else [])


def _moves(session: Session, game_id: int, seat_no: int) -> list[dict[str, Any]]:
    """The seat's own moves from the event log: what, when, and who made it."""
    rows = session.exec(select(EventRow).where(EventRow.game_id == game_id)
                        .order_by(col(EventRow.seq)))
    return [{"seq": row.seq, "at": _when(row.created_at), "by": row.actor,
             **{k: v for k, v in row.payload.items() if k not in ("v", "seat")}}
            for row in rows
            if row.type not in NOT_MOVES and row.payload.get("seat") == seat_no]
