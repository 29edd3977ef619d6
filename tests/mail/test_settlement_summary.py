"""The end-of-game summary says who pays whom under a settlement rule (club, chips, Howell)."""

from __future__ import annotations

from pbem.engine import ClaimAccepted, GameCreated, apply, preset, replay
from pbem.mail.render import render
from pbem.present.views import settlement_lines
from tests.engine.test_rules import deal_for

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def _game_over(name: str, prior: tuple[int, ...]):  # type: ignore[no-untyped-def]
    """Seat 0 claims every trick of a hand (a moon) in a game already near its end."""
    from dataclasses import replace

    rules = preset(name).replace(pass_count=0, pass_cycle=(0,))
    state = replace(replay([GameCreated(rules, 4, 3)]), totals=prior)
    state = apply(state, deal_for(rules, 3, {0: "2C"}))
    return apply(state, ClaimAccepted(0))


def test_settlement_lines_say_who_collects_and_who_pays() -> None:
    state = _game_over("h2g2", (0, 80, 70, 60))
    assert settlement_lines(state, NAMES) == []  # a plain score sheet: nothing to settle
    state = _game_over("chips", (0, 80, 70, 60))
    assert state.game_over
    lines = settlement_lines(state, NAMES)
    assert lines[0] == "Ann collects 78 chips"
    assert "Bob pays 26 chips" in lines


def test_summary_email_shows_the_settlement() -> None:
    state = _game_over("chips", (0, 80, 70, 60))
    rendered = render("summary", game_name="Club night", winners_text="Ann wins!",
                      standings=[], sheet=[], names=NAMES, totals=list(state.totals), moons=[],
                      settlement=settlement_lines(state, NAMES), player_name="Ann",
                      preheader="", unsubscribe_url="https://x/u/t", game_url="https://x/g/1")
    assert "Settlement:" in rendered.text and "Ann collects 78 chips" in rendered.text
    assert "Settlement</h2>" in rendered.html and "Ann collects 78 chips" in rendered.html
