"""A write sent straight through the driver (`execute_now`: the planned writes of every move)
stores exactly what SQLAlchemy's own execution stores: the same text for a date on SQLite,
the same JSON, booleans and NULLs; and a duplicate key is SQLAlchemy's IntegrityError."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, insert, text
from sqlalchemy.exc import IntegrityError

from pbem.store.db import execute_now, transaction
from pbem.store.models import Event, MailJob
from tests.helpers import game_row

_JOBS = MailJob.__table__  # type: ignore[attr-defined]
_EVENTS = Event.__table__  # type: ignore[attr-defined]



def _job(game_id: int, seq: int, deadline: datetime | None) -> dict[str, Any]:
    made = datetime(2026, 11, 23, 20, 30, 1, 250_000, tzinfo=UTC)
    return {"game_id": game_id, "seq_before": seq, "seq_after": seq + 1, "actor": None,
            "echo": seq % 2 == 0, "deadline": deadline, "made_at": made, "fresh": False,
            "attempts": 0}


def test_rows_written_through_the_driver_are_stored_as_sqlalchemy_stores_them(
        engine: Engine) -> None:
    game_id = game_row(engine, "Now")
    due = datetime(2026, 11, 24, 8, 0, tzinfo=UTC) + timedelta(microseconds=7)
    paris = due.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Paris"))
    rows = [_job(game_id, 1, due), _job(game_id, 3, None), _job(game_id, 5, paris)]
    payload = {"type": "CardPlayed", "seat": 2, "cards": ["QS", "10H"], "note": None}
    with transaction(engine) as s:
        s.connection().execute(insert(_JOBS), rows)  # SQLAlchemy's way
        execute_now(s, insert(_JOBS), rows)  # executemany
        execute_now(s, insert(_JOBS), rows[0])  # one row
        s.connection().execute(insert(_EVENTS), {"game_id": game_id, "seq": 1,
                                                 "type": "x", "payload": payload,
                                                 "created_at": due})
        execute_now(s, insert(_EVENTS), {"game_id": game_id, "seq": 2, "type": "x",
                                          "payload": payload, "created_at": due})
    with engine.connect() as c:  # what is stored, as the database holds it
        jobs = c.execute(text("SELECT seq_before, actor, echo, deadline, made_at, fresh "
                              "FROM mail_job ORDER BY id")).all()
        events = c.execute(text("SELECT payload, created_at FROM event ORDER BY seq")).all()
    assert jobs[3:6] == jobs[0:3] and jobs[6] == jobs[0]
    assert events[1] == events[0]


def test_a_duplicate_key_through_the_driver_is_sqlalchemys_integrity_error(
        engine: Engine) -> None:
    game_id = game_row(engine, "Now")
    row = {"game_id": game_id, "seq": 1, "type": "x", "payload": {}, "created_at":
           datetime.now(UTC)}
    with pytest.raises(IntegrityError), transaction(engine) as s:
        execute_now(s, insert(_EVENTS), row)
        execute_now(s, insert(_EVENTS), row)
