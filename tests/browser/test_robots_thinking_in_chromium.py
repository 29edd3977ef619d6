"""In real Chromium: after a move against strong robots, the private page says the robots are
thinking and reloads itself until the worker has played their moves (issue 15: their search
runs in the worker, not in the request), then shows the player's turn without a click."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlmodel import select

from pbem import service
from pbem.app import db_engine
from pbem.present.links import seat_link
from pbem.scheduler.worker import play_robot_games
from pbem.store.db import transaction
from pbem.store.models import Seat
from tests.browser.conftest import LiveSite

pytestmark = pytest.mark.browser
ANN = service.Invitee("ann@example.com", "Ann", accepted=True)


def anns_page(site: LiveSite) -> str:
    """A game of Ann against three strong robots, dealt; her private page's URL."""
    engine = db_engine(site.app)
    ctx = service.Context(engine=engine, rng=service.make_rng(seed=12))
    with site.app.app_context():
        game_id = service.create_game(ctx, name="Thinking", players=[ANN], bot_seats=(1, 2, 3),
                                      robot_strength="strong").game_id
    with transaction(engine) as session:
        seat = session.exec(select(Seat).where(Seat.game_id == game_id,
                                               Seat.seat_no == 0)).one()
        assert seat.player_id is not None
        token = seat_link(session, game_id, 0, seat.player_id,
                          secret=site.app.config["SECRET_KEY"])
    return f"{site.url}/s/{token}"


def test_the_page_says_the_robots_are_thinking_and_reloads_to_show_their_moves(
    live_site: LiveSite, browser_page: Any,
) -> None:
    from playwright.sync_api import expect

    assert live_site.pump is not None
    live_site.pump.stop()  # the robots wait for this test's own worker pass below
    page = browser_page
    url = anns_page(live_site)
    page.goto(url)
    expect(page.get_by_role("heading", name=re.compile("pass 3 cards"))).to_be_visible()
    for i in range(3):
        page.get_by_role("checkbox").nth(i).check()
    page.get_by_role("button", name="Pass these 3 cards").click()
    expect(page.get_by_role("status")).to_contain_text("Your cards are passed")
    expect(page.locator("#robots-thinking")).to_contain_text("The robots are thinking")
    expect(page.locator("#your-turn")).to_have_count(0)

    assert play_robot_games(live_site.app)  # the worker's pass: the robots pass, maybe lead
    expect(page.locator("#your-turn")).to_be_visible()  # no click: the page reloaded itself
    expect(page.locator("#robots-thinking")).to_have_count(0)
    assert page.url == url
