"""A game read as plain rows (the hot paths' read) holds what the ORM loads, and a pooled
PostgreSQL connection dropped while idle is replaced before use."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import Engine, text
from sqlmodel import col, select

from pbem.store import db as store_db
from pbem.store.db import make_engine, transaction
from pbem.store.gamerows import plain, read_game
from pbem.store.models import Away, Deadline, Game, OutboxEmail, Player, Seat
from pbem.store.types import utcnow


def _columns(row: object) -> dict[str, object]:
    """Each column's value and its type (a boolean read as 0 would equal False)."""
    values = {c.key: getattr(row, c.key) for c in type(row).__table__.c}  # type: ignore[attr-defined]
    return {key: (value, type(value)) for key, value in values.items()}


def _table(engine: Engine) -> int:
    """A game with a player at seat 0 (who has away dates), a robot at 1, the same player
    at seat 2, and another player at 3."""
    with transaction(engine) as s:
        ann = Player(email="ann@example.org", name="Ann", time_zone="Europe/Paris")
        bob = Player(email="bob@example.org", name="Bob")
        game = Game(name="Rows", preset="standard", engine_version="1",
                    deadline_policy={"move_hours": 12}, rules={"target": 50})
        s.add_all([ann, bob, game])
        s.flush()
        assert ann.id is not None and game.id is not None
        s.add(Away(player_id=ann.id, starts_on=date(2030, 1, 1), ends_on=date(2030, 1, 9)))
        for seat_no, player in enumerate([ann, None, ann, bob]):
            s.add(Seat(game_id=game.id, seat_no=seat_no, is_bot=player is None,
                       player_id=player.id if player else None, timeouts_in_row=seat_no))
        return game.id


def test_read_game_holds_what_the_orm_loads(engine: Engine) -> None:
    game_id = _table(engine)
    with transaction(engine, read_only=True) as s:
        found = read_game(s.connection(), game_id)
        game = s.get(Game, game_id)
        seats = s.exec(select(Seat).where(Seat.game_id == game_id)
                       .order_by(col(Seat.seat_no))).all()
        players = {p.id: p for p in s.exec(select(Player)).all()}
        assert found is not None and game is not None
        assert _columns(found.game) == _columns(game)
        assert [_columns(seat) for seat in found.seats] == [_columns(seat) for seat in seats]
        assert {k: _columns(p) for k, p in found.players.items()} == \
            {k: _columns(p) for k, p in players.items()}
        ann = next(p.id for p in players.values() if p.name == "Ann")
        assert found.away == {ann}
        assert found.pending is None  # not asked for
        assert read_game(s.connection(), game_id + 1000) is None
        assert read_game(s.connection(), game_id + 1000, deadlines=True) is None


def test_read_game_with_deadlines_adds_exactly_the_pending_rows(engine: Engine) -> None:
    game_id = _table(engine)
    now = utcnow()
    with transaction(engine) as s:
        for turn, (seat_no, kind, status) in enumerate([
                (0, "play", "pending"), (3, "pass", "pending"), (3, "play", "done"),
                (2, "play", "expired")]):
            s.add(Deadline(game_id=game_id, seat_no=seat_no, kind=kind, turn_seq=turn,
                           started_at=now, due_at=now, grace_until=now, status=status))
    with transaction(engine, read_only=True) as s:
        plain_read = read_game(s.connection(), game_id)
        found = read_game(s.connection(), game_id, deadlines=True)
        pending = s.exec(select(Deadline).where(Deadline.game_id == game_id,
                                                Deadline.status == "pending")).all()
    assert found is not None and plain_read is not None
    assert sorted(found.pending or []) == sorted((d.id, d.seat_no, d.kind) for d in pending)
    assert [seat.seat_no for seat in found.seats] == [0, 1, 2, 3]
    assert [_columns(seat) for seat in found.seats] == \
        [_columns(seat) for seat in plain_read.seats]
    assert _columns(found.game) == _columns(plain_read.game)
    assert found.players.keys() == plain_read.players.keys() and found.away == plain_read.away


def test_plain_rows_belong_to_no_session_and_leave_unset_columns_none() -> None:
    row = plain(OutboxEmail, {"subject": "Hearts", "status": "pending"})
    assert (row.id, row.subject, row.status, row.headers) == (None, "Hearts", "pending", None)
    from sqlmodel import Session

    assert Session.object_session(row) is None


@pytest.mark.postgres
def test_a_pooled_connection_dropped_while_idle_is_replaced_before_use(
    pg_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = make_engine(pg_url, pool_size=1, max_overflow=0)
    admin = make_engine(pg_url)
    try:
        with engine.connect() as conn:
            pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
        with admin.begin() as conn:  # the server drops the idle pooled connection
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        monkeypatch.setattr(store_db, "PING_AFTER_IDLE_S", 0.0)  # it has been idle "long"
        with engine.connect() as conn:
            assert conn.execute(text("SELECT pg_backend_pid()")).scalar_one() != pid
    finally:
        engine.dispose()
        admin.dispose()
