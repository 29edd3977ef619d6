"""`pbem backup` of a live installation mid-game, `pbem restore` elsewhere, and the game plays on
there with the links its players already have (issue 35), on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from pbem.engine import Phase
from tests.conftest import pg_base_url
from tests.web.support import (
    card_links,
    count_events,
    finish_game,
    links,
    outbox,
    pass_cards,
    post_link,
    seat_path,
    start_game,
    state,
)

HUMAN = "you@example.com"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def two_databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two empty databases (no tables): the live installation's and the one restored into."""
    if request.param == "sqlite":
        yield (f"sqlite:///{tmp_path / 'live.sqlite3'}",
               f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}")
        return
    base = pg_base_url()
    if base is None:
        pytest.skip("PBEM_TEST_DATABASE_URL is not set")
    names = [f"pbem_backup_{uuid.uuid4().hex[:10]}" for _ in range(2)]
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        for name in names:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(base)
    yield tuple(url.set(database=n).render_as_string(hide_password=False)  # type: ignore[misc]
                for n in names)
    with admin.connect() as conn:
        for name in names:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def _newest_text(app: Flask, words: str) -> str:
    rows = [r for r in outbox(app) if r.to_addr == HUMAN and words in r.body_text]
    assert rows, f"no email to {HUMAN} with {words!r}"
    return rows[-1].body_text


def _installed(make_app: Callable[..., Flask], url: str) -> Flask:
    app = make_app(DATABASE_URL=url)
    done = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert done.exit_code == 0, done.output
    return app


def _mid_game(app: Flask) -> tuple[int, dict[str, str], str]:
    """A game with its pass and first card played by links: (id, the links of the turn email
    now waiting, the player's private page)."""
    game_id = start_game(app, seed=3)
    client = app.test_client()
    (pass_path,) = links(_newest_text(app, "Choose 3 cards to pass"))
    assert pass_cards(client, pass_path).status_code == 200
    now = state(app, game_id)
    assert now.phase is Phase.PLAY and 0 in now.to_move, "the robots did not answer the pass"
    first = card_links(_newest_text(app, "your turn"))
    assert post_link(client, next(iter(first.values()))).status_code == 200
    text_now = _newest_text(app, "your turn")
    return game_id, card_links(text_now), seat_path(text_now)


def _back_up_while_writing(app: Flask, file: Path) -> None:
    """`pbem backup` while another thread keeps creating games: the service is live."""
    stop = threading.Event()
    made: list[int] = []

    def write() -> None:
        while not stop.is_set():
            made.append(start_game(app, seed=len(made), name="Busy"))

    writer = threading.Thread(target=write)
    writer.start()
    try:
        while not made:  # the writer is under way
            stop.wait(0.01)
        done = app.test_cli_runner().invoke(args=["backup", str(file)])
    finally:
        stop.set()
        writer.join()
    assert done.exit_code == 0, done.output
    assert file.is_file() and "backed up" in done.output


def test_a_backup_taken_mid_game_restores_elsewhere_and_the_game_plays_on_by_the_same_links(
        make_app: Callable[..., Flask], two_databases: tuple[str, str], tmp_path: Path) -> None:
    live_url, elsewhere_url = two_databases
    live = _installed(make_app, live_url)
    game_id, turn_links, private_page = _mid_game(live)
    events_then = count_events(live, game_id)
    file = tmp_path / "backups" / "pbem.backup"
    _back_up_while_writing(live, file)

    elsewhere = make_app(DATABASE_URL=elsewhere_url)
    done = elsewhere.test_cli_runner().invoke(args=["restore", str(file)])
    assert done.exit_code == 0, done.output
    assert count_events(elsewhere, game_id) == events_then

    client = elsewhere.test_client()
    assert client.get(private_page).status_code == 200  # the link the player has
    code, path = next(iter(turn_links.items()))
    played = post_link(client, path)
    assert played.status_code == 200 and code in played.get_data(as_text=True)
    assert count_events(elsewhere, game_id) > events_then
    card_links(_newest_text(elsewhere, "your turn"))  # the next turn email, restored side
    assert finish_game(elsewhere, game_id).game_over
    assert client.get(f"/games/{game_id}/summary").status_code == 200


def test_restore_refuses_a_database_that_holds_games_unless_told_to_replace_it(
        make_app: Callable[..., Flask], two_databases: tuple[str, str], tmp_path: Path) -> None:
    live_url, elsewhere_url = two_databases
    live = _installed(make_app, live_url)
    start_game(live)
    file = tmp_path / "one.backup"
    assert live.test_cli_runner().invoke(args=["backup", str(file)]).exit_code == 0
    again = live.test_cli_runner().invoke(args=["backup", str(file)])
    assert again.exit_code != 0 and "already exists" in again.output  # never overwritten

    other = _installed(make_app, elsewhere_url)
    start_game(other, name="Other")
    refused = other.test_cli_runner().invoke(args=["restore", str(file)])
    assert refused.exit_code != 0 and "already holds games" in refused.output
    replaced = other.test_cli_runner().invoke(args=["restore", "--replace", str(file)])
    assert replaced.exit_code == 0, replaced.output
    assert _game_names(other) == ["Demo"]


def _game_names(app: Flask) -> list[str]:
    from sqlmodel import select

    from pbem.app import db_engine
    from pbem.store.db import transaction
    from pbem.store.models import Game

    with transaction(db_engine(app), read_only=True) as session:
        return [g.name for g in session.exec(select(Game))]
