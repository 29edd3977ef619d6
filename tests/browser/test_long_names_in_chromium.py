"""QA finding 16, in real Chromium at a phone's width (375 px): names stored before names were
capped (200 characters, no space to break at) and a long game name wrap instead of widening
the page: the game page, the summary (its ratings table included) and the lobby stay within
the viewport."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import update
from sqlmodel import select

from pbem import service
from pbem.app import db_engine
from pbem.service import lobby
from pbem.store.db import transaction
from pbem.store.models import Game, Player
from tests.browser.conftest import LiveSite
from tests.service.test_ratings import ANN, BOB, new_game, play_out

pytestmark = pytest.mark.browser
LONG = "W" * 200  # an old row: names were up to 200 characters
WIDTH = 375


def _page_width(page: Any, url: str) -> int:
    page.goto(url)
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_long_names_wrap_at_a_phones_width(live_site: LiveSite, browser_page: Any) -> None:
    engine = db_engine(live_site.app)
    with live_site.app.app_context():
        ctx, game_id = new_game(engine, [ANN, BOB])
        play_out(ctx, game_id)
    with transaction(engine) as session:
        session.execute(update(Player).values(name=LONG + "x"))  # ANN and BOB (distinct)
        session.execute(update(Player).where(Player.email == BOB.email)  # type: ignore[arg-type]
                        .values(name=LONG + "y"))
        session.execute(update(Game).values(name="G" * 200))
        ann_id = session.exec(select(Player.id).where(Player.email == ANN.email)).one()
    with live_site.app.app_context():
        table = lobby.open_table(service.Context(engine=engine), ann_id or 0, name="T" * 200,
                                 preset="standard", options={}, move_hours=24, open_seats=3,
                                 robot_strength="easy")
    page = browser_page
    page.set_viewport_size({"width": WIDTH, "height": 800})
    for path in (f"/games/{game_id}", f"/games/{game_id}/summary", f"/games/{table}",
                 "/lobby", "/leaderboard"):
        assert _page_width(page, live_site.url + path) <= WIDTH, path
    page.goto(f"{live_site.url}/games/{game_id}/summary")
    ratings_box = page.locator("#rating-changes").bounding_box()
    assert ratings_box is not None and ratings_box["x"] + ratings_box["width"] <= WIDTH
