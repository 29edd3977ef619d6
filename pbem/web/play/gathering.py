"""A game still gathering players, as its pages show it: its open seats, when robots take them
and the declined ones, and whether the viewer is its organiser, who may start it now with
robots (the game's page, and the page its organiser lands on after confirming it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_wtf.csrf import generate_csrf

from pbem.present.i18n import _, ngettext
from pbem.service.games import awaits_confirmation, is_organiser
from pbem.service.lobby import NOT_TAKEN, OPEN
from pbem.store.models import Player
from pbem.web.i18n import format_deadline
from pbem.web.play.common import Table


def gathering(table: Table, signed_in: Callable[[], Player | None],
              time_zone: str | None = None) -> dict[str, Any]:
    """The template values for a game still gathering players (none once it has started):
    its open seats (for the lobby), those robots take when the wait is over (open or declined).
    `signed_in`: who is signed in, if anyone, asked only while the game gathers players (no
    read for a game under way; `signed_in` in the values: whether there is one; if not, the
    pages offer the way to sign in); `time_zone`: the zone to say `fill_by` in, if not the
    viewer's. A CSRF token for the start-now form only when the viewer is the organiser."""
    if table.game.status != "inviting":
        return {}
    viewer = signed_in()
    organiser = is_organiser(table.game, table.seats, viewer.id if viewer else None)
    empty = [s for s in table.seats if s.invite_status in NOT_TAKEN and not s.is_bot]
    zone = time_zone or (viewer.time_zone if viewer else None)
    open_seats = sum(s.invite_status == OPEN for s in empty)
    declined = sum(s.invite_status == "declined" for s in empty)
    return {"open_seats": open_seats,
            "robot_seats": open_seats + declined,  # those robots take at `fill_by`
            "robots_take": robots_take(open_seats, declined),
            # without a wait: a declined seat is taken only when the organiser starts the game
            "organiser_starts": bool(declined) and table.game.organiser_id is not None,
            "only_open": all(s.invite_status == OPEN for s in empty),
            "fill_by": format_deadline(table.game.fill_by, zone),
            "is_organiser": organiser, "signed_in": viewer is not None,
            "unconfirmed": awaits_confirmation(table.game, table.seats),
            "csrf": generate_csrf() if organiser else ""}


def robots_take(open_seats: int, declined: int) -> str:
    """The seats robots take when the wait is over, in words."""
    if not declined:
        return _("the seats still open")
    if open_seats:
        return ngettext("the seats still open and the declined seat",
                        "the seats still open and the declined seats", declined)
    return ngettext("the declined seat", "the declined seats", declined)
