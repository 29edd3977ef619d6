"""The review email: after a game's review is stored, each player who wants reviews and made a
real mistake gets the one or two largest of each hand (the summary page's lines for them), with
a link to the whole review.

It follows the summary email rather than holding it back: the result goes out with the last
card, the review a minute or so later when the worker has weighed the game (docs/robots.md).
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from pbem.engine import Rules
from pbem.mail.compose import MailSettings
from pbem.mail.gamemail import GameMail
from pbem.present.i18n import _
from pbem.present.review import top_for
from pbem.service.reviews import Review
from pbem.store.models import Game, OutboxEmail


def review_mails(session: Session, game: Game, review: Review,
                 settings: MailSettings | None = None,
                 now: datetime | None = None) -> list[OutboxEmail]:
    """Queue the review emails of `game` in the caller's transaction."""
    mail = GameMail.load(session, game, settings, now)
    rules = Rules.from_dict(game.rules)
    rows: list[OutboxEmail | None] = []
    for seat in mail.players:
        with mail.speaking(seat):
            lines = top_for(review.verdicts, rules, seat)
            if lines:
                context = {"lines": lines,
                           "summary_url": mail.settings.url(f"games/{game.id}/summary")}
                rows.append(mail.send("review", seat, context,
                                      preheader=_("Your largest mistakes of the game.")))
    return [row for row in rows if row is not None]
