"""The rules in words (issue 34): what the engine states as facts, worded for the reader."""

from __future__ import annotations

from pbem.engine import HOLD
from pbem.present.i18n import _


def offset_words(offset: int, players: int) -> str:
    """Where the cards go: ``left``, ``right``, ``across``, ``2 to the left``, or no pass."""
    if offset == HOLD:
        return _("no pass (hold)")
    if players % 2 == 0 and abs(offset) == players // 2:
        return _("across")
    if offset == 1:
        return _("left")
    if offset == -1:
        return _("right")
    if offset > 0:
        return _("%(num)s to the left", num=abs(offset))
    return _("%(num)s to the right", num=abs(offset))
