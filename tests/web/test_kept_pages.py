"""Rendered HTML kept per process (pbem/web/play/kept.py): a finished game's summary and the
score sheet of the hands played are rendered once, and never served stale: a name, a bouncing
address or a new hand changes what is shown at once."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update
from sqlmodel import select

from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.models import Player, Seat
from pbem.web.play.kept import RenderedPages
from tests.web.support import finish_game, human_move, state


def _rename(app: Flask, game_id: int, seat_no: int, name: str) -> None:
    with app.app_context(), transaction(db_engine()) as session:
        seat = session.exec(
            select(Seat).where(Seat.game_id == game_id, Seat.seat_no == seat_no)).one()
        session.execute(update(Player).where(Player.id == seat.player_id).values(name=name))


def test_a_finished_games_summary_is_kept_and_served_the_same(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    finish_game(app, game_id)
    first = client.get(f"/games/{game_id}/summary").get_data(as_text=True)
    kept = app.extensions["pbem.kept_html"]
    entries = len(kept)
    assert client.get(f"/games/{game_id}/summary").get_data(as_text=True) == first
    assert client.get(f"/games/{game_id}").get_data(as_text=True) == first
    assert len(kept) == entries  # served from what was kept, nothing new rendered


def test_a_renamed_player_shows_at_once_on_a_kept_summary(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    finish_game(app, game_id)
    before = client.get(f"/games/{game_id}/summary").get_data(as_text=True)
    assert "Zelda" not in before
    _rename(app, game_id, 0, "Zelda")
    after = client.get(f"/games/{game_id}/summary").get_data(as_text=True)
    assert after.count("Zelda") >= state(app, game_id).hand_number  # every hand names her


def test_the_kept_score_sheet_grows_with_each_hand_and_follows_names(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    def sheet_rows() -> int:
        html = client.get(f"/games/{game_id}").get_data(as_text=True)
        return len(re.findall(r'<tr><th scope="row">\d+</th>', html))

    while len(state(app, game_id).sheet) < 2:
        assert sheet_rows() == len(state(app, game_id).sheet)
        human_move(app, game_id)
    assert sheet_rows() == 2
    _rename(app, game_id, 0, "Zelda")
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert re.search(r'<th scope="col" class="num"><bdi>Zelda</bdi></th>', html)


def test_kept_pages_are_bounded_by_size_dropping_the_least_recently_used() -> None:
    pages = RenderedPages(limit_chars=10)
    pages.put("a", "1234")
    pages.put("b", "1234")
    assert pages.get("a") == "1234"  # now "b" is the least recently used
    pages.put("c", "1234")
    assert (pages.get("a"), pages.get("b"), pages.get("c")) == ("1234", None, "1234")
    pages.put("huge", "x" * 11)  # larger than the whole store: never kept
    assert pages.get("huge") is None and len(pages) == 2
