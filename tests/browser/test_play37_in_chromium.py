"""Issue 37, in real Chromium at a phone's width (375 px) and a desktop's (1280 px): the site
header's navigation on the private page and the confirmation page, wrapping within the
viewport; the time left beside whoever is to move, there without JavaScript; and "End the
game now" against robots asked first: the button on the private page opens the
confirmation page, which changes nothing, and only its button ends the game. Screenshots of
each step are kept in the test's tmp_path."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from pbem.devmail.store import MailStore, body_parts
from tests.browser.conftest import LiveSite
from tests.web.support import seat_path, start_game, state

pytestmark = pytest.mark.browser
NAV = ("Home", "My games", "Lobby", "New game", "Sign in")


def _private_path(app: Any) -> str:
    """The private page's path, from the pass email as the catcher got it (a sent outbox row
    forgets its body: no link is kept readable)."""
    store = MailStore(Path(app.config["DEVMAIL_FOLDER"]))
    for _attempt in range(600):  # up to a minute: the first game's pump on a loaded machine
        for entry in store.entries():
            message = store.message(entry.id)
            text = body_parts(message)[0] if message is not None else None
            if text and "/s/" in text:
                return seat_path(text)
        time.sleep(0.1)
    raise AssertionError("no pass email")


def _width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def _header_fits(page: Any, width: int) -> None:
    from playwright.sync_api import expect

    nav = page.get_by_role("navigation", name="Site")
    for word in NAV:
        link = nav.get_by_role("link", name=word, exact=True)
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width, word
    assert _width(page) <= width


@pytest.mark.parametrize("width", [375, 1280])
def test_the_header_the_time_left_and_ending_the_game_asked_first(
        live_site: LiveSite, browser_page: Any, tmp_path: Path, width: int) -> None:
    from playwright.sync_api import expect

    app = live_site.app
    game = start_game(app)
    you = _private_path(app)
    page = browser_page
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(live_site.url + you)
    _header_fits(page, width)
    time_left = page.locator("#time-left time.due")
    expect(time_left).to_contain_text(re.compile(r"^due in "))
    assert re.match(r"\d{4}-\d\d-\d\dT", time_left.get_attribute("datetime") or "")
    page.screenshot(path=str(tmp_path / f"private-{width}.png"), full_page=True)

    page.get_by_role("link", name="End the game now").click()
    expect(page).to_have_url(re.compile(r"/s/[^/]+/end/confirm$"))
    expect(page.get_by_role("heading", name="End “Demo” now?")).to_be_visible()
    _header_fits(page, width)
    page.screenshot(path=str(tmp_path / f"confirm-{width}.png"), full_page=True)
    assert not state(app, game).game_over  # the confirmation page changes nothing

    page.get_by_role("button", name="End the game now").click()
    expect(page.get_by_role("status").first).to_contain_text("ended by agreement")
    assert state(app, game).ended_by_agreement
    expect(page.get_by_role("link", name="End the game now")).to_have_count(0)
    assert _width(page) <= width
    page.goto(f"{live_site.url}/lobby")
    _header_fits(page, width)
    page.screenshot(path=str(tmp_path / f"lobby-{width}.png"), full_page=True)
