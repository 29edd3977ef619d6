"""A link's page and move read what they need in one statement (issue 33): the token, its
game with seats, players and pending deadlines, and the events since a little before the
link's turn (pbem.store.gamerows.read_link); the state from the web process's own copy folded
with those events, also when that copy is a few moves old (the moves went through another
web process). On SQLite and on PostgreSQL."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, event

from pbem.app import db_engine
from pbem.engine import Card
from pbem.present.tokens import hash_token, token_hashes
from pbem.store.db import planning, transaction
from pbem.store.events import load_events_by, load_state
from pbem.store.gamerows import READ_BACK, read_game, read_link
from pbem.store.models import Token
from tests.web.conftest import Turn
from tests.web.support import card_links, newest, post_link, state

_CSRF_VALUE = re.compile(r'name="csrf_token" value="[^"]+"')


@dataclass
class Counted:
    statements: int = 0


@contextmanager
def driver_statements(engine: Engine) -> Iterator[Counted]:
    """Every statement the driver runs on `engine`'s new connections meanwhile (pbem runs
    its hot reads straight through the driver, past SQLAlchemy's events): SQLite's trace
    callback, a counting psycopg cursor. The pool is emptied first."""
    counted = Counted()

    def count(sql: Any) -> None:
        if str(sql).split(None, 1)[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK"):
            counted.statements += 1

    def wrap(dbapi_connection: Any, _record: Any) -> None:
        if isinstance(dbapi_connection, sqlite3.Connection):
            dbapi_connection.set_trace_callback(count)
            return
        base = dbapi_connection.cursor_factory

        class Counting(base):  # type: ignore[misc, valid-type]
            def execute(self, query: Any, *args: Any, **kwargs: Any) -> Any:
                count(query if isinstance(query, str) else "SELECT")
                return super().execute(query, *args, **kwargs)

        dbapi_connection.cursor_factory = Counting

    engine.dispose(close=False)
    event.listen(engine.pool, "connect", wrap)
    try:
        yield counted
    finally:
        event.remove(engine.pool, "connect", wrap)
        engine.dispose()


def test_a_link_page_is_one_statement(app: Flask, client: FlaskClient, turn: Turn) -> None:
    path = next(iter(turn.cards.values()))
    assert client.get(path).status_code == 200  # the process now has the game's state
    with app.app_context(), driver_statements(db_engine(app)) as counted:
        page = client.get(path)
    assert page.status_code == 200 and "Play" in page.get_data(as_text=True)
    assert counted.statements == 1


def test_read_link_gives_what_the_separate_reads_give(app: Flask, client: FlaskClient,
                                                      turn: Turn) -> None:
    first = next(iter(turn.cards.values()))
    assert post_link(client, first).status_code == 200  # some events since its turn
    raw = first.rsplit("/", 1)[1]
    with app.app_context(), planning(db_engine(app)) as session:
        read = read_link(session.connection(), token_hashes(raw))
        (token,) = read.tokens
        assert token.game_id == turn.game_id and token.purpose == "card"
        apart = read_game(session.connection(), turn.game_id, deadlines=True)
        since = load_events_by(session, turn.game_id, token.turn_seq or 0)
        last = load_state(session, turn.game_id).seq
    assert apart is not None and read.game is not None
    assert read.game.game.model_dump() == apart.game.model_dump()
    assert [s.model_dump() for s in read.game.seats] == [s.model_dump() for s in apart.seats]
    assert read.game.players.keys() == apart.players.keys()
    assert read.game.away == apart.away and read.game.pending == apart.pending
    after_turn = [event for event in read.events if event[0] > (token.turn_seq or 0)]
    assert len(after_turn) == len(since) > 0
    assert [seq for seq, _payload, _by in read.events] == list(
        range(max(1, (token.turn_seq or 0) + 1 - READ_BACK), last + 1))
    assert [by or "" for _seq, _payload, by in after_turn] == [by for _e, by in since]


def test_an_unknown_token_reads_nothing(app: Flask, turn: Turn) -> None:
    with app.app_context(), planning(db_engine(app)) as session:
        read = read_link(session.connection(), token_hashes("no-such-token"))
    assert read.tokens == [] and read.game is None and read.events == []


def test_a_second_token_under_the_lower_cased_hash_still_opens_its_own_game(
        app: Flask, client: FlaskClient, turn: Turn) -> None:
    """A raw token and its lower-cased form may both be stored (reply tokens come back in
    capitals): the read may then find the other token's game, and the page reads its own."""
    raw = next(iter(turn.cards.values())).rsplit("/", 1)[1]
    assert raw != raw.lower()
    with app.app_context():
        with transaction(db_engine(app)) as session:
            session.add(Token(token_hash=hash_token(raw.lower()), purpose="reply",
                              game_id=None))
        page = client.get(f"/t/{raw}")
    assert page.status_code == 200
    assert "Play" in page.get_data(as_text=True)
    code = next(code for code, path in turn.cards.items() if path.endswith(raw))
    assert post_link(client, f"/t/{raw}").status_code == 200  # the seat's own move
    assert not state(app, turn.game_id).hands[0] & Card.parse(code).bit


def _page(client: FlaskClient, path: str) -> str:
    page = client.get(path)
    assert page.status_code == 200
    return _CSRF_VALUE.sub("", page.get_data(as_text=True))


def _moves(app: Flask, client: FlaskClient, turn: Turn, count: int) -> Turn:
    """The human's next `count` card plays by link (the robots answer each)."""
    for _ in range(count):
        assert post_link(client, next(iter(turn.cards.values()))).status_code == 200
        turn = Turn(turn.game_id, card_links(newest(app, "turn").body_text))
    return turn


def test_a_web_process_a_move_behind_reads_a_link_in_one_statement(
        make_app: Callable[..., Flask], db_url: str, app: Flask, client: FlaskClient,
        turn: Turn) -> None:
    """Two web processes on one database (two apps, each with its own copy of a game's
    state): the one that saw the game last a move ago (the move and the robots' answers
    went through the other) folds the events the link's read brings from before the link's
    turn, and shows the very page the other shows, in one statement."""
    behind = make_app(DATABASE_URL=db_url)
    behind_client = behind.test_client()
    _page(behind_client, next(iter(turn.cards.values())))  # its copy: the state then
    now = _moves(app, client, turn, 1)
    path = next(iter(now.cards.values()))
    with behind.app_context(), driver_statements(db_engine(behind)) as counted:
        seen_behind = _page(behind_client, path)
    assert counted.statements == 1
    assert seen_behind == _page(client, path)


def test_a_web_process_many_moves_behind_reads_the_state_again(
        make_app: Callable[..., Flask], db_url: str, app: Flask, client: FlaskClient,
        turn: Turn) -> None:
    """A copy older than the read's READ_BACK events is not used: the state is read again
    (more statements), and the page is still the other process's."""
    behind = make_app(DATABASE_URL=db_url)
    behind_client = behind.test_client()
    _page(behind_client, next(iter(turn.cards.values())))
    moves = READ_BACK // 4 + 2  # each move is the human's card and three robots' at least
    now = _moves(app, client, turn, moves)
    path = next(iter(now.cards.values()))
    with behind.app_context(), driver_statements(db_engine(behind)) as counted:
        seen_behind = _page(behind_client, path)
    assert counted.statements > 1
    assert seen_behind == _page(client, path)
    assert post_link(behind_client, path).status_code == 200  # and its move counts once
    assert not state(app, turn.game_id).hands[0] & Card.parse(
        next(iter(now.cards))).bit
