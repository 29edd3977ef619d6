"""Nudges: a waiting player nudges the one everybody waits for, at most every 12 hours."""

from __future__ import annotations

from datetime import date

import pytest

from pbem.service import NotAllowed, clear_away, nudge, pass_cards, set_away
from pbem.service.time import away_dates
from tests.scheduler.conftest import MakeTable


def test_a_waiting_player_nudges_the_one_everybody_waits_for_once_per_12_hours(
        make_table: MakeTable) -> None:
    t = make_table(humans=2, zones={0: "Europe/Paris"})
    pass_cards(t.ctx, t.game_id, 1, t.state().hand(1)[:3])
    t.clock.at(5)
    assert nudge(t.ctx, t.game_id, 1) == [0]
    (mail,) = t.mail_to("nudge", 0)
    assert "Bob gives you a friendly nudge" in mail.body_text
    assert "your pass" in mail.body_text and "(Europe/Paris)" in mail.body_text
    t.clock.at(16)
    with pytest.raises(NotAllowed, match="nudge_too_soon"):
        nudge(t.ctx, t.game_id, 1)
    t.clock.at(17)
    assert nudge(t.ctx, t.game_id, 1) == [0]
    assert len(t.mail("nudge")) == 2


def test_the_player_waited_for_cannot_nudge(make_table: MakeTable) -> None:
    t = make_table(humans=2)
    with pytest.raises(NotAllowed, match="own_move"):
        nudge(t.ctx, t.game_id, 0)
    with pytest.raises(NotAllowed, match="not_your_seat"):
        nudge(t.ctx, t.game_id, 2)  # a robot's seat


def test_away_dates_are_listed_and_cleared(make_table: MakeTable) -> None:
    t = make_table(humans=1)
    pid = t.player_id(0)
    set_away(t.ctx, pid, date(2026, 12, 20), date(2026, 12, 28))
    assert away_dates(t.ctx, pid) == [(date(2026, 12, 20), date(2026, 12, 28))]
    assert clear_away(t.ctx, pid) == 1
    assert away_dates(t.ctx, pid) == []
