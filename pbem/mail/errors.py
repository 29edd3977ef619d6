"""The answer to a move that couldn't be made: what was read, why not, and what is legal now."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from pbem.engine import (
    Ask,
    GameState,
    asked,
)
from pbem.mail.asks import card_links, choice_links
from pbem.mail.compose import MailSettings
from pbem.mail.gamemail import GameMail
from pbem.present import codes, views
from pbem.present.i18n import _
from pbem.store.models import Game, OutboxEmail


def send_error(
    session: Session, game: Game, state: GameState, seat: int, *, what_was_read: str,
    reason: str, settings: MailSettings | None = None, now: datetime | None = None,
    in_reply_to: str = "", language: str | None = None,
) -> OutboxEmail | None:
    """Answer a move that couldn't be made: what we read, why not (the engine error's
    sentence), and what is legal now (with fresh one-time links). `in_reply_to`: the
    Message-ID of the player's email; `language`: the language of their reply (the answer is
    written in it), else theirs."""
    mail = GameMail.load(session, game, settings, now)
    with mail.speaking(seat, language):
        return _send_error(mail, state, seat, what_was_read=what_was_read, reason=reason,
                           in_reply_to=in_reply_to, language=language)


def _send_error(mail: GameMail, state: GameState, seat: int, *, what_was_read: str,
                reason: str, in_reply_to: str, language: str | None) -> OutboxEmail | None:
    game = mail.game
    legal: list[views.CardView] = []
    choices: list[codes.Choice] = []
    question = asked(state, seat)
    if question.kind is Ask.PLAY:
        legal = card_links(mail, seat, question.cards, None)
    elif question.must_act:
        choices = choice_links(mail, state, seat, None)
    context = {"what_was_read": what_was_read, "reason": reason, "legal": legal,
               "choices": choices}
    return mail.send("error", seat, context, turn_seq=game.last_seq,
                     preheader=_("That move can't be made: %(reason)s", reason=reason),
                     in_reply_to=in_reply_to, language=language)
