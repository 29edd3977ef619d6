"""Fixtures for the play pages: a game with one human against three robots, at its first turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.engine import Phase
from tests.web.support import (
    card_links,
    links,
    newest,
    pass_cards,
    post_link,
    start_game,
    state,
)
from tests.web.variant_support import variant_game


@dataclass
class Turn:
    game_id: int
    cards: dict[str, str]  # card code -> link path, from the newest turn email


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str) -> Flask:
    """The app on SQLite, and on PostgreSQL when PBEM_TEST_DATABASE_URL is set."""
    return make_app(DATABASE_URL=db_url)


@pytest.fixture
def game_id(app: Flask) -> int:
    return start_game(app)


@pytest.fixture
def turn(app: Flask, client: FlaskClient, game_id: int) -> Turn:
    """The human has passed (through the pass page) and it is their turn to play."""
    (path,) = links(newest(app, "pass").body_text)
    assert pass_cards(client, path).status_code == 200
    return Turn(game_id, card_links(newest(app, "turn").body_text))


@pytest.fixture
def choice(app: Flask, client: FlaskClient, turn: Turn) -> Turn:
    """A later turn at which the human has at least two legal cards."""
    while len(turn.cards) < 2:
        assert post_link(client, next(iter(turn.cards.values()))).status_code == 200
        turn = Turn(turn.game_id, card_links(newest(app, "turn").body_text))
    return turn


@pytest.fixture
def auction(app: Flask) -> int:
    """A four-player Auction game of humans, at its first bid."""
    game_id = variant_game(app, "auction")
    assert state(app, game_id).phase is Phase.BID
    return game_id
