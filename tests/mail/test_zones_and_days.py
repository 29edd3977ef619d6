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


def test_every_zone_suggested_is_known_as_itself() -> None:
    assert len(zone_names()) > 300
    assert all(known_zone(name) == name for name in zone_names())


def test_days_have_no_leading_zero() -> None:
    assert day_text(date(2026, 12, 1)) == "1 December 2026"
    assert day_text(date(2026, 12, 1), weekday=True) == "Tuesday 1 December 2026"
    assert day_text(date(2026, 12, 24)) == "24 December 2026"
