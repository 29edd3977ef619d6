"""The daily digest: one email listing a player's games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from pbem.mail.compose import MailSettings
from pbem.mail.render import default_renderer
from pbem.mail.sending import default_settings, deliverable, queue_mail
from pbem.present.i18n import ngettext, using
from pbem.store.models import OutboxEmail, Player


@dataclass(frozen=True)
class DigestLine:
    name: str
    status: str  # e.g. "your turn", "waiting for Bob", "finished: Ann won"
    url: str


def send_digest(
    session: Session, player: Player, games: Sequence[DigestLine], *,
    settings: MailSettings | None = None, now: datetime | None = None,
) -> OutboxEmail | None:
    """The daily digest for a player with `digest` on (the scheduler picks the games)."""
    if not games or not deliverable(player):
        return None
    settings = settings or default_settings()
    with using(player.language):
        context = {"games": list(games),
                   "preheader": ngettext("%(num)d game.", "%(num)d games.", len(games)),
                   "me_url": settings.url("me")}
        return queue_mail(session, settings, default_renderer(), "digest",
                          player, context=context, now=now)
