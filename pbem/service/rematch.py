"""Rematch: "play again with the same players". Any person who sat in a finished game may ask;
a new game with the same rules, pace, robots and seats is made (one per finished game: the
`rematch_of` key), the asker has accepted, the other people are invited by email, robots
accept at once, and it starts when everyone has accepted (the invitations' usual path). The
asker is its organiser, wherever they sit: they may start it at once with robots in the seats
of those who have not accepted (pbem.service.lobby.start_now)."""

from __future__ import annotations

from contextlib import suppress

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from pbem.engine import ALL_PRESETS
from pbem.service.accounts import is_former
from pbem.service.core import Context
from pbem.service.errors import NotAllowed, NotFound
from pbem.service.games import Invitee, Table, accept_invite, create_game
from pbem.store.db import transaction
from pbem.store.models import Game, Player, Seat

NOT_A_PLAYER = "rematch_not_player"  # only the people who played it


def may_ask(ctx: Context, game_id: int, player_id: int) -> bool:
    """Whether this player sat in the game to the end (a person, not replaced by a robot):
    only they may ask for its rematch."""
    with transaction(ctx.engine, read_only=True) as session:
        return session.exec(select(Seat.id).where(
            Seat.game_id == game_id, Seat.player_id == player_id,
            col(Seat.is_bot).is_(False))).first() is not None


def rematch_of(ctx: Context, game_id: int) -> int | None:
    """The id of the game that replays `game_id`, if someone asked for it."""
    with transaction(ctx.engine, read_only=True) as session:
        return _existing(session, game_id)


def _existing(session: Session, game_id: int) -> int | None:
    return session.exec(select(Game.id).where(Game.rematch_of == game_id)).first()


def ask_rematch(ctx: Context, game_id: int, player_id: int) -> int:
    """The rematch of a finished game (made now, or the one already asked for)."""
    with transaction(ctx.engine, read_only=True) as session:
        game = session.get(Game, game_id)
        if game is None:
            raise NotFound("no_game")
        existing = _existing(session, game_id)
        rows = session.exec(select(Seat, Player).outerjoin(
            Player, col(Player.id) == col(Seat.player_id)).where(Seat.game_id == game_id)
            .order_by(col(Seat.seat_no))).all()
    people = [(s.seat_no, p) for s, p in rows
              if p is not None and not s.is_bot and not is_former(p)]  # former: a robot
    if player_id not in {p.id for _, p in people}:
        raise NotAllowed(NOT_A_PLAYER)
    if existing is not None:
        return _accepted(ctx, existing, player_id)
    if game.status != "finished":
        raise NotAllowed("rematch_not_over")
    try:
        return create_game(
            ctx, name=game.name, preset=game.preset, options=_options(game),
            players=[Invitee(p.email, p.name, accepted=p.id == player_id) for _, p in people],
            bot_seats=[s.seat_no for s, p in rows if p is None or s.is_bot or is_former(p)],
            deadline_policy=game.deadline_policy, robot_strength=game.robot_strength,
            table=Table(rematch_of=game_id),
            organiser=[p.id for _, p in people].index(player_id)).game_id
    except IntegrityError:  # someone else asked at the same moment: theirs is the rematch
        found = rematch_of(ctx, game_id)
        if found is None:
            raise
        return _accepted(ctx, found, player_id)


def _accepted(ctx: Context, game_id: int, player_id: int) -> int:
    """Asking for a rematch that exists accepts its invitation."""
    with transaction(ctx.engine, read_only=True) as session:
        seat = session.exec(select(Seat).where(Seat.game_id == game_id,
                                               Seat.player_id == player_id)).first()
    if seat is not None and seat.invite_status == "invited":
        with suppress(NotAllowed):  # it started meanwhile
            accept_invite(ctx, game_id, seat.seat_no, player_id=player_id)
    return game_id


def _options(game: Game) -> dict[str, object]:
    """The game's rule options that differ from its preset's."""
    preset = ALL_PRESETS.get(game.preset)
    if preset is None:
        return {}
    base = preset.rules.to_dict()
    return {k: v for k, v in game.rules.items() if k in base and base[k] != v}
