"""The daily digest: at 8 in the morning in their own time zone, players who chose it get one
email listing their games and what each is waiting for."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import Engine, true
from sqlmodel import Session, col, select

from pbem.engine import asked, list_in_words
from pbem.mail.compose import MailSettings
from pbem.mail.digest import DigestLine, send_digest
from pbem.roster import load_roster
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import Game, OutboxEmail, Player, Seat
from pbem.zones import player_zone

DIGEST_HOUR = 8  # local time
OPEN_GAMES = ("active", "paused")


def send_digests(engine: Engine, settings: MailSettings, now: datetime) -> int:
    """Queue today's digest for every player whose local hour is DIGEST_HOUR; returns how many.
    Safe to run every hour, or twice: a player gets at most one digest a day."""
    sent = 0
    with transaction(engine) as session:
        # `= true` on its index (PostgreSQL uses no index for `IS true`)
        players = session.exec(select(Player).where(col(Player.digest) == true())).all()
        for player in players:
            if _due(session, player, now):
                lines = digest_lines(session, player, settings)
                sent += send_digest(session, player, lines, settings=settings, now=now) is not None
    return sent


def _due(session: Session, player: Player, now: datetime) -> bool:
    if now.astimezone(player_zone(player.time_zone)).hour != DIGEST_HOUR:
        return False
    recent = session.exec(select(OutboxEmail.id).where(
        OutboxEmail.player_id == player.id, OutboxEmail.kind == "digest",
        col(OutboxEmail.created_at) > now - timedelta(hours=20))).first()
    return recent is None


def digest_lines(session: Session, player: Player, settings: MailSettings) -> list[DigestLine]:
    """One line per open game the player sits in: whose move it is."""
    seats = session.exec(select(Seat).join(Game, col(Game.id) == col(Seat.game_id)).where(
        Seat.player_id == player.id, col(Seat.is_bot).is_(False),
        col(Game.status).in_(OPEN_GAMES))).all()
    return [_line(session, seat, settings) for seat in seats]


def _line(session: Session, seat: Seat, settings: MailSettings) -> DigestLine:
    game = session.get(Game, seat.game_id)
    assert game is not None and game.id is not None
    state = load_state(session, game.id).state
    table = session.exec(select(Seat).where(Seat.game_id == game.id)
                         .order_by(col(Seat.seat_no))).all()
    names = load_roster(session, table).names
    totals = ", ".join(f"{names[s]} {t}" for s, t in enumerate(state.totals))
    now = asked(state, seat.seat_no)
    if now.must_act:
        status = f"your move (hand {state.hand_number}; {totals})"
    elif now.waiting_for:
        status = f"waiting for {list_in_words([names[s] for s in now.waiting_for])} ({totals})"
    else:
        status = f"between hands ({totals})"
    return DigestLine(game.name, status, settings.url(f"games/{game.id}"))
