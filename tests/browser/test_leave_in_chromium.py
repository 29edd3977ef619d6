"""In real Chromium: a player leaves a game from their private page. The page asks first (GET
only shows what leaving means), the button leaves (POST with CSRF); the link then says they
left, the public table shows a robot in the seat, and the other person gets an email saying so."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pbem import service
from pbem.app import db_engine
from pbem.present.links import seat_link
from pbem.store.db import transaction
from tests.browser.conftest import LiveSite
from tests.browser.test_play_in_chromium import open_newest_mail

pytestmark = pytest.mark.browser


def test_leaving_a_game_from_the_private_page(live_site: LiveSite, browser_page: Any) -> None:
    from playwright.sync_api import expect

    page, app = browser_page, live_site.app
    with app.app_context():
        ctx = service.Context(engine=db_engine(app), rng=service.make_rng(5))
        game_id = service.create_game(ctx, name="Leavers", players=[
            service.Invitee("ann@example.org", "Ann", accepted=True),
            service.Invitee("bob@example.org", "Bob", accepted=True)],
            bot_seats=(2, 3), robot_strength="easy").game_id
        with transaction(db_engine(app)) as session:
            raw = seat_link(session, game_id, 0, 1)
    page.goto(f"{live_site.url}/s/{raw}")
    page.get_by_role("link", name="Leave this game").click()
    expect(page).to_have_url(re.compile(r"/s/.+/leave$"))
    expect(page.get_by_role("heading", name="Leave “Leavers”?")).to_be_visible()
    expect(page.get_by_text("a robot plays your seat from now on")).to_be_visible()
    page.get_by_role("button", name="Leave this game").click()
    expect(page).to_have_url(f"{live_site.url}/s/{raw}")
    expect(page.get_by_role("status")).to_contain_text(re.compile(r"You left this game on \d"))
    page.get_by_role("link", name="The public table").click()
    seats = page.locator(".felt .seat .who")  # the seats around the table
    expect(seats.filter(has_text="Robot 1")).to_have_count(1)
    expect(seats.filter(has_text="Ann")).to_have_count(0)
    told = open_newest_mail(page, live_site, "Ann left")
    expect(told.locator("body")).to_contain_text("A robot plays seat 1 from now on")
