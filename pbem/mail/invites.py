"""Invitations (accept and decline links) and their one reminder, the news that someone
declined, the organiser's word on who has not answered, and the word to an invitee whose seat
the organiser gave to a robot."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime

from sqlmodel import Session, select

from pbem.engine import (
    Rules,
)
from pbem.mail.compose import MailSettings
from pbem.mail.gamemail import GameMail
from pbem.mail.render import default_renderer
from pbem.mail.results import rules_sentences
from pbem.mail.sending import default_settings, deliverable, queue_mail
from pbem.mail.strangers import may_send, took_part
from pbem.present.i18n import _, using
from pbem.present.tokens import new_token
from pbem.present.words import deadline_words, list_words
from pbem.store.models import Game, OutboxEmail, Player, Seat


def send_invite(
    session: Session, game: Game, seat: int, player: Player, *, inviter: str,
    rules: Rules, players: Sequence[str], settings: MailSettings | None = None,
    now: datetime | None = None, organiser: bool = False, reminder: bool = False,
) -> OutboxEmail | None:
    """An invitation with accept and decline links (one "invite" token; the web acts on POST).
    `organiser`: the person who set the game up, asked to confirm it before anyone else is
    emailed. `reminder`: the invitation again, said to be a reminder (kind "invite_reminder",
    new links of the same kind: the first ones still work too)."""
    if not deliverable(player):
        return None
    known = took_part(session, player)
    if not may_send(session, player.email, known=known, now=now):
        return None  # the address had its share today: the seat waits, unmailed
    settings = settings or default_settings()
    raw = new_token(session, "invite", game_id=game.id, seat_no=seat, player_id=player.id,
                    now=now)
    stranger = organiser or not known  # then nothing anyone typed goes in (no names)
    with using(player.language):
        return _send_invite(session, game, player, raw, settings, inviter=inviter,
                            rules=rules, players=players, now=now, organiser=organiser,
                            reminder=reminder, stranger=stranger)


def _send_invite(session: Session, game: Game, player: Player, raw: str,
                 settings: MailSettings, *, inviter: str, rules: Rules,
                 players: Sequence[str], now: datetime | None, organiser: bool,
                 reminder: bool, stranger: bool) -> OutboxEmail:
    context = {"inviter": "" if stranger else inviter, "rules": rules_sentences(rules),
               "players": [] if stranger else list(players),
               "accept_url": settings.url(f"t/{raw}?a=accept"),
               "decline_url": settings.url(f"t/{raw}?a=decline"),
               "organiser": organiser, "stranger": stranger,
               "preheader": _invite_preheader("" if stranger else inviter, organiser,
                                              reminder)}
    return queue_mail(session, settings, default_renderer(),
                      "invite_reminder" if reminder else "invite", player,
                      context=context, game=game, now=now, stranger_text=stranger)


def _invite_preheader(inviter: str, organiser: bool, reminder: bool) -> str:
    if organiser:
        return _("Confirm your game of Hearts.")
    if not inviter:
        return _("An invitation to play Hearts by email.")
    if reminder:
        return _("A reminder: %(name)s invites you to play Hearts.", name=inviter)
    return _("%(name)s invites you to play Hearts.", name=inviter)


def send_invites(
    session: Session, game: Game, seats: Sequence[int], *, rules: Rules,
    settings: MailSettings | None = None, now: datetime | None = None, organiser: bool = False,
) -> list[OutboxEmail]:
    """Invitations to the human players of `seats` (the service calls this when it creates a
    game, or gives a seat to someone new, in the same transaction)."""
    mail = GameMail.load(session, game, settings, now)
    inviter = _inviter(session, mail)
    rows = [send_invite(session, game, seat, mail.players[seat], inviter=inviter, rules=rules,
                        players=mail.names, settings=mail.settings, now=mail.now,
                        organiser=organiser)
            for seat in seats if seat in mail.players]
    return [row for row in rows if row is not None]


def send_invite_reminder(
    session: Session, game: Game, seat: int, *, settings: MailSettings | None = None,
    now: datetime | None = None,
) -> OutboxEmail | None:
    """The one reminder to `seat`'s person, who has not answered their invitation: the
    invitation again with a reminder line (pbem.service.invitations decides when)."""
    mail = GameMail.load(session, game, settings, now)
    player = mail.players.get(seat)
    if player is None:
        return None
    return send_invite(session, game, seat, player, inviter=_inviter(session, mail),
                       rules=Rules.from_dict(game.rules), players=mail.names,
                       settings=mail.settings, now=mail.now, reminder=True)


def send_invites_unanswered(
    session: Session, game: Game, seat: int, waiting: Sequence[int], *,
    settings: MailSettings | None = None, now: datetime | None = None,
) -> OutboxEmail | None:
    """Tell the organiser (in `seat`) who has still not answered (`waiting`: their seats),
    pointing to the game page, where they may start it now with robots (a signed-in POST:
    nothing in this email acts)."""
    mail = GameMail.load(session, game, settings, now)
    organiser = mail.players.get(seat)
    if organiser is None or not deliverable(organiser) or not waiting:
        return None
    with using(organiser.language):
        names = list_words([mail.names[s] for s in waiting])
        context = {"waiting": names, "several": len(waiting) > 1,
                   "preheader": _("Still no answer from %(names)s.", names=names)}
        return queue_mail(session, mail.settings, mail.renderer, "invite_unanswered",
                          organiser, context=context, game=game, now=mail.now)


def send_declined(
    session: Session, game: Game, seat: int, *, settings: MailSettings | None = None,
    now: datetime | None = None, unaware: Collection[int] = (),
) -> list[OutboxEmail]:
    """Tell the other human players that `seat` declined its invitation, and what happens
    next: when a robot takes the seat (`game.fill_by`, in each one's time zone), or that the
    game waits until its organiser starts it; the organiser is told they may start it now
    from the game page. `unaware`: seats never told of the game (its organiser did not
    confirm it): no mail."""
    mail = GameMail.load(session, game, settings, now)
    statuses = _invite_statuses(session, game)
    unanswered = [s for s in sorted(mail.players) if s != seat and statuses.get(s) == "invited"]
    context = {"decliner": mail.names[seat], "seat_number": seat + 1,
               "organiser": _organiser_name(mail), "wait_over": game.fill_by is not None
               and game.fill_by <= mail.now}
    rows = []
    for other, player in sorted(mail.players.items()):
        if other != seat and other not in unaware and statuses.get(other) != "declined" \
                and deliverable(player) and took_part(session, player):
            with using(player.language):
                rows.append(queue_mail(
                    session, mail.settings, mail.renderer, "invite_declined", player,
                    game=game, now=mail.now, context={
                        **context, "waiting": _waiting_for(mail, unanswered, other),
                        "preheader": _("%(name)s declined the invitation.",
                                       name=mail.names[seat]),
                        "is_organiser": player.id is not None
                        and player.id == game.organiser_id,
                        "fill_by": deadline_words(game.fill_by, player.time_zone)}))
    return rows


def _waiting_for(mail: GameMail, unanswered: Sequence[int], reader: int) -> str:
    """Who has not answered yet, in words for `reader`: "you" first if they are one of them
    (not their own name, as if they were someone else)."""
    names = [mail.names[s] for s in unanswered if s != reader]
    return list_words([_("you"), *names] if reader in unanswered else names)


def send_invite_closed(
    session: Session, game: Game, invited: Mapping[int, int], *,
    settings: MailSettings | None = None, now: datetime | None = None,
) -> list[OutboxEmail]:
    """Tell each person whose invitation was still unanswered (`invited`: seat -> player id)
    that the organiser started the game with a robot in their seat: no link to act on, their
    invitation is closed (the game page's link stays, as in the invitation). Whoever declined
    is not in `invited`: like `send_declined`, we don't mail them about the game again."""
    mail = GameMail.load(session, game, settings, now)
    named = _organiser_name(mail)
    rows = []
    for seat, player_id in sorted(invited.items()):
        player = session.get(Player, player_id)
        if player is None or not deliverable(player) or not took_part(session, player):
            continue  # a stranger, who never answered, is not written to about it again
        with using(player.language):
            organiser = named or _("The organiser")
            context = {"organiser": organiser, "seat_number": seat + 1,
                       "preheader": _("%(name)s started the game with a robot in your seat.",
                                      name=organiser)}
            rows.append(queue_mail(session, mail.settings, mail.renderer, "invite_closed",
                                   player, context=context, game=game, now=mail.now))
    return rows


def _inviter(session: Session, mail: GameMail) -> str:
    """Who invites: the organiser, else the first player who accepted."""
    statuses = _invite_statuses(session, mail.game)
    return _organiser_name(mail) or next(
        (mail.names[s] for s in sorted(mail.players) if statuses.get(s) == "accepted"),
        _("The organiser"))


def _organiser_name(mail: GameMail) -> str | None:
    """The name of the person who set the game up (game.organiser_id), if they sit in it."""
    return next((mail.names[seat] for seat, player in sorted(mail.players.items())
                 if player.id is not None and player.id == mail.game.organiser_id), None)


def _invite_statuses(session: Session, game: Game) -> dict[int, str]:
    seats = session.exec(select(Seat).where(Seat.game_id == game.id))
    return {s.seat_no: s.invite_status for s in seats}
