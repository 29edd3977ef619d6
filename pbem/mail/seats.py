"""Mail about who plays a seat: a player left their game (`send_left`, to the other people),
or someone else took over their seat (`send_replaced`, to the player who had it).

Queued in the caller's transaction (the command that changed the seat), like every email."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from pbem.mail.compose import MailSettings
from pbem.mail.gamemail import GameMail
from pbem.mail.render import default_renderer
from pbem.mail.sending import deliverable, queue_mail
from pbem.present.i18n import _, using
from pbem.store.models import Game, OutboxEmail, Player, Seat


def send_left(session: Session, game: Game, seat: int, *, now: datetime,
              settings: MailSettings | None = None) -> list[OutboxEmail]:
    """Tell the other human players that the player of `seat` left and a robot plays their
    seat from now on (called while the seat still bears their name)."""
    mail = GameMail.load(session, game, settings, now, default_renderer())
    name = mail.names[seat]
    rows = []
    for other in sorted(mail.players):
        if other == seat:
            continue
        with mail.speaking(other):
            row = mail.send("player_left", other, {"leaver": name, "seat_number": seat + 1},
                            turn_seq=game.last_seq,
                            preheader=_("%(name)s left the game.", name=name))
        if row is not None:
            rows.append(row)
    return rows


def send_replaced(session: Session, game: Game, seat_no: int, player_id: int, *,
                  held: bool = False, now: datetime,
                  settings: MailSettings | None = None) -> OutboxEmail | None:
    """Tell `player_id`, who had `seat_no` until now, that someone else plays it (the seat's
    new player, or a robot): they are no longer in the game. `held`: a robot was keeping it
    for them (they had timed out). No reply token: there is nothing to answer; their games
    are linked (/me)."""
    player = session.get(Player, player_id)
    seat = session.exec(select(Seat).where(Seat.game_id == game.id,
                                           Seat.seat_no == seat_no)).first()
    if player is None or seat is None or not deliverable(player):
        return None
    mail = GameMail.load(session, game, settings, now, default_renderer())
    newcomer = mail.names[seat_no] if seat.player_id is not None and not seat.is_bot else None
    with using(player.language):
        return queue_mail(session, mail.settings, mail.renderer, "seat_taken_over", player,
                          game=game, now=now, context={
                              "newcomer": newcomer, "seat_number": seat_no + 1, "held": held,
                              "games_url": mail.settings.url("me"),
                              "preheader": _("Someone else plays your seat now.")})

