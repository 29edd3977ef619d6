"""Time zones typed by players, and days written as people write them (pbem.zones)."""

from __future__ import annotations

from datetime import date

import pytest

from pbem.zones import day_text, known_zone, zone_names


@pytest.mark.parametrize(("typed", "zone"), [
    ("Europe/Paris", "Europe/Paris"),
    ("europe/paris", "Europe/Paris"),
    ("  EUROPE/PARIS ", "Europe/Paris"),
    ("America/New York", "America/New_York"),
    ("utc", "UTC"),
    ("Mars/Olympus", None),
    ("", None),
])
def test_a_time_zone_is_known_in_any_case(typed: str, zone: str | None) -> None:
    assert known_zone(typed) == zone


@pytest.mark.parametrize(("typed", "zone"), [
    ("Berlin", "Europe/Berlin"),
    ("new york", "America/New_York"),
    ("Sydney", "Australia/Sydney"),
    ("GMT+1", "Etc/GMT-1"),  # Etc/ names count the other way: GMT+1 is an hour ahead
    ("UTC-5", "Etc/GMT+5"),
    ("utc+00:00", "UTC"),
    ("GMT+05:30", None),  # no fixed zone of half hours: the city's (Kolkata) is the way
    ("GMT+15", None),
])
def test_a_time_zone_is_known_by_its_city_or_an_offset_from_utc(
        typed: str, zone: str | None) -> None:
    """Issue 37.11: "Berlin" and "GMT+1" were refused."""
    assert known_zone(typed) == zone
    if zone is not None:
        assert zone in zone_names()


def test_every_zone_suggested_is_known_as_itself() -> None:
    assert len(zone_names()) > 300
    assert all(known_zone(name) == name for name in zone_names())


def test_days_have_no_leading_zero() -> None:
    assert day_text(date(2026, 12, 1)) == "1 December 2026"
    assert day_text(date(2026, 12, 1), weekday=True) == "Tuesday 1 December 2026"
    assert day_text(date(2026, 12, 24)) == "24 December 2026"
