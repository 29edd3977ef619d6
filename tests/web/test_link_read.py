"""A link's page and move read what they need in one statement (issue 33): the token, its
game with seats, players, pending deadlines and latest snapshot, and the events since that
snapshot or the link's turn, whichever is earlier (pbem.store.gamerows.read_link); the state
from the web process's own copy folded with the events after it, or from that snapshot when
the process has no copy that recent (the game's moves went through another web process).
On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
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
from pbem.engine import snapshot as snapshot_of
from pbem.present.tokens import hash_token, token_hashes
from pbem.store.db import planning, transaction
from pbem.store.events import latest_snapshot, load_events_by, load_state
from pbem.store.gamerows import read_game, read_link
from pbem.store.models import Snapshot, Token
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
        snap = latest_snapshot(session, turn.game_id)
    assert apart is not None and read.game is not None
    assert read.game.game.model_dump() == apart.game.model_dump()
    assert [s.model_dump() for s in read.game.seats] == [s.model_dump() for s in apart.seats]
    assert read.game.players.keys() == apart.players.keys()
    assert read.game.away == apart.away and read.game.pending == apart.pending
    assert (read.snapshot[0], json.loads(read.snapshot[1])) == (snap.seq, snap.state) \
        if snap is not None else read.snapshot is None
    turn_seq = token.turn_seq or 0
    assert read.complete_after == min(snap.seq if snap is not None else 0, turn_seq)
    assert [seq for seq, _payload, _by in read.events] == list(
        range(read.complete_after + 1, last + 1))
    after_turn = [event for event in read.events if event[0] > turn_seq]
    assert len(after_turn) == len(since) > 0
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
    went through the other) folds the events read after its copy, and shows the very page
    the other shows, in one statement."""
    behind = make_app(DATABASE_URL=db_url)
    behind_client = behind.test_client()
    _page(behind_client, next(iter(turn.cards.values())))  # its copy: the state then
    now = _moves(app, client, turn, 1)
    path = next(iter(now.cards.values()))
    with behind.app_context(), driver_statements(db_engine(behind)) as counted:
        seen_behind = _page(behind_client, path)
    assert counted.statements == 1
    assert seen_behind == _page(client, path)


def test_a_web_process_older_than_the_snapshot_reads_a_link_in_one_statement(
        make_app: Callable[..., Flask], db_url: str, app: Flask, client: FlaskClient,
        turn: Turn) -> None:
    """A copy older than the game's latest snapshot is left aside: the state is the
    snapshot (read in the same statement) folded with the events after it; the page is the
    other process's, and the move made there counts once."""
    behind = make_app(DATABASE_URL=db_url)
    behind_client = behind.test_client()
    _page(behind_client, next(iter(turn.cards.values())))
    copy_seq = _last_seq(app, turn.game_id)
    now = turn
    for _ in range(12):  # the snapshot comes every 40 events (a move is 4 or more)
        now = _moves(app, client, now, 1)
        if _snapshot_seq(app, turn.game_id) > copy_seq:
            break
    assert _snapshot_seq(app, turn.game_id) > copy_seq
    path = next(iter(now.cards.values()))
    with behind.app_context(), driver_statements(db_engine(behind)) as counted:
        seen_behind = _page(behind_client, path)
    assert counted.statements == 1
    assert seen_behind == _page(client, path)
    assert post_link(behind_client, path).status_code == 200
    assert not state(app, turn.game_id).hands[0] & Card.parse(next(iter(now.cards))).bit


def test_a_web_process_new_to_the_game_reads_a_link_in_one_statement(
        make_app: Callable[..., Flask], db_url: str, app: Flask, client: FlaskClient,
        turn: Turn) -> None:
    fresh = make_app(DATABASE_URL=db_url)
    path = next(iter(turn.cards.values()))
    with fresh.app_context(), driver_statements(db_engine(fresh)) as counted:
        seen_fresh = _page(fresh.test_client(), path)
    assert counted.statements == 1
    assert seen_fresh == _page(client, path)


def test_a_snapshot_of_an_older_form_is_not_taken_by_a_link(
        make_app: Callable[..., Flask], db_url: str, app: Flask, client: FlaskClient,
        turn: Turn) -> None:
    """Snapshots are a cache: the newest one in an older form (version 1) is not restored
    by a link's read; the state is replayed from the events (more statements), and the page
    is as ever."""
    with app.app_context(), transaction(db_engine(app)) as session:
        loaded = load_state(session, turn.game_id)
        stale = {**snapshot_of(loaded.state), "v": 1, "hands": [0, 0, 0, 0]}
        session.add(Snapshot(game_id=turn.game_id, seq=loaded.seq, state=stale))
    fresh = make_app(DATABASE_URL=db_url)
    path = next(iter(turn.cards.values()))
    with fresh.app_context(), driver_statements(db_engine(fresh)) as counted:
        seen_fresh = _page(fresh.test_client(), path)
    assert counted.statements > 1
    assert seen_fresh == _page(client, path)


def _last_seq(app: Flask, game_id: int) -> int:
    with app.app_context(), transaction(db_engine(app), read_only=True) as session:
        return load_state(session, game_id).seq


def _snapshot_seq(app: Flask, game_id: int) -> int:
    with app.app_context(), transaction(db_engine(app), read_only=True) as session:
        snap = latest_snapshot(session, game_id)
    return snap.seq if snap is not None else 0
