"""A pipelined transaction (a planned move's write: on PostgreSQL its BEGIN, statements and
checks sent in one round trip) is one transaction: all of it commits, or none of it; a
failed check or a duplicate key leaves nothing behind, and the connection goes on working."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, bindparam, func, insert, select
from sqlalchemy.exc import IntegrityError

from pbem.store.db import (
    after_sync,
    deferred,
    execute_now,
    pipelined_transaction,
    sync,
)
from pbem.store.models import Event, Game
from tests.helpers import game_row

_EVENTS = Event.__table__  # type: ignore[attr-defined]
_GAMES = Game.__table__  # type: ignore[attr-defined]
_NAME = select(_GAMES.c.id, _GAMES.c.name).where(_GAMES.c.id == bindparam("game_id"))


class CheckFailed(Exception):
    pass



def _event(game_id: int, seq: int) -> dict[str, object]:
    return {"game_id": game_id, "seq": seq, "type": "x", "payload": {"n": seq},
            "created_at": datetime.now(UTC)}


def _events(engine: Engine, game_id: int) -> int:
    with engine.connect() as c:
        return int(c.execute(select(func.count()).select_from(_EVENTS)
                             .where(_EVENTS.c.game_id == game_id)).scalar_one())


def test_statements_and_their_checks_commit_together(engine: Engine) -> None:
    game_id = game_row(engine, "Pipe")
    with pipelined_transaction(engine) as s:
        read = deferred(s, _NAME, {"game_id": game_id})
        execute_now(s, insert(_EVENTS), [_event(game_id, 1), _event(game_id, 2)])
        seen: list[object] = []
        after_sync(s, lambda: seen.extend(read.rows()))
        sync(s)
        assert seen == [(game_id, "Pipe")]
        execute_now(s, insert(_EVENTS), _event(game_id, 3))  # after sync: as usual
    assert _events(engine, game_id) == 3


def test_a_failed_check_leaves_nothing_behind(engine: Engine) -> None:
    game_id = game_row(engine, "Pipe")

    def check() -> None:
        raise CheckFailed

    with pytest.raises(CheckFailed), pipelined_transaction(engine) as s:
        execute_now(s, insert(_EVENTS), _event(game_id, 1))
        after_sync(s, check)
    assert _events(engine, game_id) == 0
    with pipelined_transaction(engine) as s:  # the pooled connection goes on working
        execute_now(s, insert(_EVENTS), _event(game_id, 1))
    assert _events(engine, game_id) == 1


def test_a_duplicate_key_is_an_integrity_error_and_rolls_everything_back(
        engine: Engine) -> None:
    game_id = game_row(engine, "Pipe")
    with pytest.raises(IntegrityError), pipelined_transaction(engine) as s:
        execute_now(s, insert(_EVENTS), _event(game_id, 1))
        execute_now(s, insert(_EVENTS), _event(game_id, 2))
        execute_now(s, insert(_EVENTS), _event(game_id, 2))  # the unique (game_id, seq)
        execute_now(s, insert(_EVENTS), _event(game_id, 3))
    assert _events(engine, game_id) == 0
    with pipelined_transaction(engine) as s:
        execute_now(s, insert(_EVENTS), _event(game_id, 1))
    assert _events(engine, game_id) == 1
