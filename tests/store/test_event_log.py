"""The event log: ordered appends, optimistic concurrency, append-only rows."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, delete
from sqlmodel import select

from pbem.store.db import transaction
from pbem.store.events import (
    ConcurrencyConflict,
    GameNotFound,
    append_event_dicts,
    current_seq,
    load_event_rows,
)
from pbem.store.models import AppendOnlyViolation, Event, Game
from tests.helpers import game_row


def ev(n: int) -> dict[str, object]:
    return {"type": "Test", "v": 1, "n": n}


def test_appended_events_load_in_order_with_consecutive_seqs(engine: Engine) -> None:
    game_id = game_row(engine)
    with transaction(engine) as s:
        assert append_event_dicts(s, game_id, 0, [ev(1), ev(2)]) == 2
    with transaction(engine) as s:
        assert append_event_dicts(s, game_id, 2, [ev(3)]) == 3
    with transaction(engine, read_only=True) as s:
        rows = load_event_rows(s, game_id)
        assert [(r.seq, r.payload["n"], r.type) for r in rows] == [
            (1, 1, "Test"), (2, 2, "Test"), (3, 3, "Test"),
        ]
        assert [r.seq for r in load_event_rows(s, game_id, after_seq=1)] == [2, 3]
        assert current_seq(s, game_id) == 3


def test_games_have_separate_sequences(engine: Engine) -> None:
    a, b = game_row(engine), game_row(engine)
    with transaction(engine) as s:
        append_event_dicts(s, a, 0, [ev(1)])
        append_event_dicts(s, b, 0, [ev(1), ev(2)])
    with transaction(engine) as s:
        assert (current_seq(s, a), current_seq(s, b)) == (1, 2)


def test_append_with_stale_seq_conflicts_and_changes_nothing(engine: Engine) -> None:
    game_id = game_row(engine)
    with transaction(engine) as s:
        append_event_dicts(s, game_id, 0, [ev(1)])
    with pytest.raises(ConcurrencyConflict), transaction(engine) as s:
        append_event_dicts(s, game_id, 0, [ev(99)])
    with transaction(engine) as s:
        assert [r.payload["n"] for r in load_event_rows(s, game_id)] == [1]
        assert current_seq(s, game_id) == 1


def test_seq_ahead_of_the_log_conflicts(engine: Engine) -> None:
    game_id = game_row(engine)
    with pytest.raises(ConcurrencyConflict), transaction(engine) as s:
        append_event_dicts(s, game_id, 5, [ev(6)])


def test_unique_game_seq_is_the_backstop(engine: Engine) -> None:
    """A row written without moving game.last_seq still makes a second seq 1 fail cleanly."""
    game_id = game_row(engine)
    with transaction(engine) as s:
        s.add(Event(game_id=game_id, seq=1, type="Test", payload=ev(1)))
    with pytest.raises(ConcurrencyConflict), transaction(engine) as s:
        append_event_dicts(s, game_id, 0, [ev(2)])


def test_loaded_game_sees_the_new_last_seq(engine: Engine) -> None:
    game_id = game_row(engine)
    with transaction(engine) as s:
        game = s.get(Game, game_id)
        assert game is not None
        append_event_dicts(s, game_id, 0, [ev(1), ev(2)])
        assert game.last_seq == 2
        assert game not in s.dirty


def test_empty_append_is_a_no_op(engine: Engine) -> None:
    game_id = game_row(engine)
    with transaction(engine) as s:
        assert append_event_dicts(s, game_id, 0, []) == 0


def test_unknown_game_is_reported(engine: Engine) -> None:
    with pytest.raises(GameNotFound), transaction(engine) as s:
        current_seq(s, 12345)


def test_events_cannot_be_updated(engine: Engine) -> None:
    game_id = game_row(engine)
    with transaction(engine) as s:
        append_event_dicts(s, game_id, 0, [ev(1)])
    with pytest.raises(AppendOnlyViolation), transaction(engine) as s:
        row = load_event_rows(s, game_id)[0]
        row.payload = ev(2)
        row.type = "Changed"
    with transaction(engine) as s:
        assert load_event_rows(s, game_id)[0].type == "Test"


def test_events_cannot_be_deleted(engine: Engine) -> None:
    game_id = game_row(engine)
    with transaction(engine) as s:
        append_event_dicts(s, game_id, 0, [ev(1)])
    with pytest.raises(AppendOnlyViolation), transaction(engine) as s:
        s.delete(load_event_rows(s, game_id)[0])
    with transaction(engine) as s:
        assert len(load_event_rows(s, game_id)) == 1


def test_bulk_delete_of_events_is_refused(engine: Engine) -> None:
    game_id = game_row(engine)
    with transaction(engine) as s:
        append_event_dicts(s, game_id, 0, [ev(1)])
    with pytest.raises(AppendOnlyViolation), transaction(engine) as s:
        s.exec(delete(Event))  # type: ignore[call-overload]
    with transaction(engine) as s:
        assert len(s.exec(select(Event)).all()) == 1
