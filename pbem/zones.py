"""Time zones in one place: a player's zone (UTC when unset or unknown) and a deadline in it.

Low in the layers (the service, the scheduler and the presentation all use it), so it imports
nothing of pbem.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def player_zone(time_zone: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def deadline_text(deadline: datetime | None, time_zone: str | None) -> str | None:
    """`Saturday 1 March 2025, 13:00 CET (Europe/Paris)` in the player's own zone."""
    if deadline is None:
        return None
    zone = player_zone(time_zone)
    local = (deadline if deadline.tzinfo else deadline.replace(tzinfo=UTC)).astimezone(zone)
    when = f"{local:%A} {local.day} {local:%B %Y, %H:%M %Z}"
    # "UTC (UTC)" says nothing twice: the zone's name only when the abbreviation isn't it.
    return when if local.tzname() == zone.key else f"{when} ({zone.key})"
