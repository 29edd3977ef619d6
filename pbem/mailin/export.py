"""`export` by reply (issue 35): the answer is a one-time sign-in link to "Download my data",
mailed to the player's account address (pbem.mail.export), whichever of their addresses the
request came from; rate-limited as every answer (replies.may_answer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlmodel import Session

from pbem.mail.export import send_export_link
from pbem.mailin import replies
from pbem.mailin.route import Route
from pbem.store.models import Player

if TYPE_CHECKING:
    from pbem.mailin.process import Inbox


def export_answer(inbox: Inbox, route: Route) -> Callable[[Session], None]:
    def answer(session: Session) -> None:
        player = session.get(Player, route.player_id)
        now = inbox.clock()
        if player is not None and replies.may_answer(session, player, now):
            send_export_link(session, player, now, inbox.settings)

    return answer
