"""Mail about time: a timeout (the bot moved, the game paused, the seat is open) and nudges.

Rendered and queued like every other email (pbem.mail.gamemail.GameMail and
pbem.mail.sending.queue_mail), in the caller's transaction."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from pbem.engine import (
    Event,
)
from pbem.mail.compose import MailSettings
from pbem.mail.gamemail import GameMail
from pbem.mail.render import default_renderer
from pbem.mail.sending import deliverable
from pbem.present import views
from pbem.present.i18n import _
from pbem.present.refusals import awaited_words
from pbem.present.tokens import new_token
from pbem.present.words import deadline_words
from pbem.store.models import Game, OutboxEmail


def game_mail(session: Session, game: Game, now: datetime,
              settings: MailSettings | None = None) -> GameMail:
    return GameMail.load(session, game, settings, now, default_renderer())


def send_timeout(
    session: Session, game: Game, seat: int, *, outcome: str, event: Event | None,
    holding: bool, seat_url: str | None = None, now: datetime,
    settings: MailSettings | None = None,
) -> list[OutboxEmail]:
    """Tell every player that `seat` ran out of time and what happened: outcome "bot" (the
    robot moved for them), "away" (they are away; the robot covers), "pause", "open_seat"."""
    mail = game_mail(session, game, now, settings)
    name = mail.names[seat]
    rows = []
    for other in sorted(mail.players):
        you = other == seat
        with mail.speaking(other):
            context = {"absent": _("you") if you else name, "is_you": you, "outcome": outcome,
                       "move": _what_the_robot_did(event, you, game), "holding": holding,
                       "seat_number": seat + 1, "seat_url": None if you else seat_url}
            pre = (_("The time for your move ran out.") if you
                   else _("%(name)s ran out of time.", name=name))
            if outcome == "away":
                pre = (_("You are away: the robot moved for you.") if you
                       else _("%(name)s is away.", name=name))
            row = mail.send("timeout", other, context, turn_seq=game.last_seq, preheader=pre)
        if row is not None:
            rows.append(row)
    return rows


def _what_the_robot_did(event: Event | None, you: bool, game: Game) -> str | None:
    """What the robot did, as others may know it (a pass's cards are the player's secret)."""
    if event is None:
        return None
    return views.move_words(event, int(game.rules.get("moon_points", 26)), cards_shown=you)


def seat_link(session: Session, game: Game, seat_no: int, now: datetime,
              settings: MailSettings | None = None) -> str:
    """A link for someone to take the seat over: /join/<token>, a "seat" token bound to no
    player (pbem.web.takeover)."""
    raw = new_token(session, "seat", game_id=game.id, seat_no=seat_no, now=now)
    return (settings or game_mail(session, game, now).settings).url(f"join/{raw}")


def send_nudge(
    session: Session, game: Game, seat: int, from_seat: int, *, waiting_for: str,
    deadline: datetime | None, now: datetime, settings: MailSettings | None = None,
) -> OutboxEmail | None:
    mail = game_mail(session, game, now, settings)
    player = mail.players.get(seat)
    if player is None or not deliverable(player):
        return None
    with mail.speaking(seat):
        waiting_for = awaited_words(waiting_for)  # the service passes the engine's code
        context = {"nudger": mail.names[from_seat], "waiting_for": waiting_for,
                   "deadline": deadline_words(deadline, player.time_zone)}
        return mail.send("nudge", seat, context, turn_seq=game.last_seq,
                         preheader=_("%(name)s is waiting for %(what)s.",
                                     name=mail.names[from_seat], what=waiting_for))
