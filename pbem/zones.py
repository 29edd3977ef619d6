"""Time zones in one place: a player's zone (UTC when unset or unknown) and a deadline in it.

Low in the layers (the service, the scheduler and the presentation all use it), so it imports
nothing of pbem.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones


def player_zone(time_zone: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


@cache
def zone_names() -> tuple[str, ...]:
    """Every time zone's name, sorted (what a form suggests)."""
    return tuple(sorted(available_timezones()))


@cache
def _names_by_key() -> dict[str, str]:
    return {_key(name): name for name in zone_names()}


def _key(text: str) -> str:
    return text.strip().replace(" ", "_").casefold()


def known_zone(text: str) -> str | None:
    """The time zone named by what a player typed, in any case and with spaces for
    underscores ("europe/paris", "America/New York"), by its city alone ("Berlin", "new york")
    or as an offset from UTC ("GMT+1", "UTC-05:00": a fixed offset, Etc/GMT-1, with no
    summer time); None if there is none such."""
    key = _key(text)
    return _names_by_key().get(key) or _cities().get(key) or _offset_zone(key)


# Regions first when a city's name is in several (America/Louisville, not Kentucky/...).
_REGIONS = ("europe", "america", "asia", "africa", "australia", "pacific", "atlantic",
            "indian", "antarctica")
_OFFSET = re.compile(r"^(?:gmt|utc)(?:_*([+-])_*(\d{1,2})(?::?(\d{2}))?)?$")


@cache
def _cities() -> dict[str, str]:
    found: dict[str, str] = {}
    ranked = sorted((name for name in zone_names() if "/" in name and not
                     name.startswith(("Etc/", "SystemV/", "posix/", "right/"))),
                    key=lambda name: (_rank(name), name))
    for name in ranked:
        found.setdefault(_key(name.rsplit("/", 1)[1]), name)
    return found


def _rank(name: str) -> int:
    region = name.split("/", 1)[0].casefold()
    return _REGIONS.index(region) if region in _REGIONS else len(_REGIONS)


def _offset_zone(key: str) -> str | None:
    found = _OFFSET.match(key)
    if found is None:
        return None
    sign, hours, minutes = found.groups()
    if sign is None or int(hours) == 0:
        return "UTC"
    if minutes not in (None, "00") or int(hours) > 14:
        return None  # Etc/ zones are whole hours; India's +05:30 is Asia/Kolkata
    name = f"Etc/GMT{'-' if sign == '+' else '+'}{int(hours)}"  # Etc/ signs are inverted
    return name if name in zone_names() else None


def day_text(day: date, weekday: bool = False) -> str:
    """`1 December 2026` (no leading zero), `Tuesday 1 December 2026` with the weekday."""
    text = f"{day.day} {day:%B %Y}"
    return f"{day:%A} {text}" if weekday else text


def deadline_text(deadline: datetime | None, time_zone: str | None) -> str | None:
    """`Saturday 1 March 2025, 13:00 CET (Europe/Paris)` in the player's own zone."""
    if deadline is None:
        return None
    zone = player_zone(time_zone)
    local = (deadline if deadline.tzinfo else deadline.replace(tzinfo=UTC)).astimezone(zone)
    when = f"{local:%A} {local.day} {local:%B %Y, %H:%M %Z}"
    # "UTC (UTC)" says nothing twice: the zone's name only when the abbreviation isn't it.
    return when if local.tzname() == zone.key else f"{when} ({zone.key})"
