"""Unroutable replies: no live reply token leads to a seat. A player is told why, with their
games and links (no silence for people); strangers get nothing (no backscatter), and the raw
mail stays stored with the reason either way."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from email.message import Message
from typing import Any

from sqlmodel import Session, col, select

from pbem.mail.compose import MailSettings, answered_id
from pbem.mailin import replies
from pbem.mailin.language import language_of
from pbem.mailin.parse import reply_text
from pbem.mailin.route import candidate_tokens, players_with_address
from pbem.present.i18n import lazy, using
from pbem.store.models import Game, Player, Seat

Answer = Callable[[Session], None]

NO_TOKEN = lazy("We couldn't tell which game your email was for: it didn't answer one of our "
                "emails (or your mail program left out the part that says which), so nothing "
                "was played.")
EXPIRED = lazy("The email you answered is too old to answer (its reply address has expired), "
               "so nothing was played.")


def unroutable(settings: MailSettings, now: datetime, message: Message,
               sender: str) -> tuple[str, list[Answer]]:
    """The reason recorded with the mail, and the answer to queue (to a player only)."""
    expired = bool(candidate_tokens(message, settings))  # tokens, but none live
    reason = "expired reply token" if expired else "no reply token in the address or references"
    said = EXPIRED if expired else NO_TOKEN
    heard = _heard(message)

    def answer(session: Session) -> None:
        for player in players_with_address(session, [sender])[:1]:
            if replies.may_answer(session, player, now):
                with using(heard or player.language):
                    sentence = str(said)
                    replies.queue_reply(session, settings, "unroutable", player, now=now,
                                        in_reply_to=answered_id(message.get("Message-ID")),
                                        language=heard, context={
                                            "why": sentence, "preheader": sentence,
                                            "games": games_of(session, player, settings,
                                                              now)})

    return f"{reason}: a player is told, a stranger is not", [answer]


def _heard(message: Message) -> str | None:
    """The language the email is written in, if its words say (the answer is in it)."""
    try:
        return language_of(reply_text(message) or "")
    except (LookupError, UnicodeError, ValueError, TypeError, RecursionError,
            AttributeError):  # unreadable: the answer is in the player's language
        return None


def games_of(session: Session, player: Player, settings: MailSettings,
             now: datetime) -> list[dict[str, Any]]:
    """The player's games not yet finished, newest first, each with their private link."""
    rows = session.exec(
        select(Seat, Game).join(Game, col(Game.id) == col(Seat.game_id))
        .where(Seat.player_id == player.id, col(Game.status).in_(("active", "inviting")))
        .order_by(col(Game.id).desc()).limit(20))
    found = []
    for seat, game in rows:
        url = replies.game_link(session, settings, game, seat.seat_no, player, now)
        found.append({"name": game.name, "url": url, "status": game.status})
    return found
