"""The Alembic migrations build exactly the schema the models describe."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, Engine, MetaData, Table, insert, inspect, text
from sqlalchemy.pool import NullPool

from pbem.service import Context
from pbem.service.reviews import games_to_review, mark_failed
from pbem.store.db import make_engine
from pbem.store.migrate import current_heads, downgrade, upgrade
from pbem.store.models import metadata
from pbem.store.testing import create_pg_schema, create_tables, drop_pg_schema


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with no tables at all."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'migrated.sqlite3'}"
        return
    base = os.environ.get("PBEM_TEST_DATABASE_URL")
    if base is None:
        pytest.skip("PBEM_TEST_DATABASE_URL is not set")
    schema, url = create_pg_schema(base, prefix="pbem_migr")
    yield url
    drop_pg_schema(base, schema)


def test_migrations_create_the_schema_the_models_describe(empty_db_url: str) -> None:
    upgrade(empty_db_url)
    engine = make_engine(empty_db_url, poolclass=NullPool)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
        assert context.get_current_heads() == current_heads(empty_db_url)
    engine.dispose()


def test_upgrade_twice_is_harmless(empty_db_url: str) -> None:
    upgrade(empty_db_url)
    upgrade(empty_db_url)
    engine = make_engine(empty_db_url, poolclass=NullPool)
    assert set(metadata.tables) <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_migrated_deadlines_accept_every_kind_the_models_know(empty_db_url: str) -> None:
    from pbem.store.models import DEADLINE_KINDS

    upgrade(empty_db_url)
    engine = make_engine(empty_db_url, poolclass=NullPool)
    checks = {c["name"]: c["sqltext"] for c in inspect(engine).get_check_constraints("deadline")}
    engine.dispose()
    assert all(f"'{kind}'" in checks["ck_deadline_kind"] for kind in DEADLINE_KINDS)


def test_the_migrations_form_one_line_of_unique_revisions() -> None:
    """Two branches that each add a migration numbered 0004 must not both land: every revision
    id is unique, each file's number is its revision, and there is exactly one head."""
    from alembic.script import ScriptDirectory

    from pbem.store.migrate import alembic_config

    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    files = sorted((Path(scripts.dir) / "versions").glob("[0-9]*.py"))
    ids = [path.name.split("_", 1)[0] for path in files]
    assert len(ids) == len(set(ids)), ids
    assert [r.revision for r in reversed(list(scripts.walk_revisions()))] == ids
    assert scripts.get_heads() == [ids[-1]]


def test_sqlite_tables_say_autoincrement_where_the_models_do(tmp_path: Path) -> None:
    """compare_metadata does not see AUTOINCREMENT: the migrated SQLite schema must say it on
    the same tables as `create_all` (the tables whose ids are never to be reused)."""
    migrated, created = (f"sqlite:///{tmp_path / name}" for name in ("m.sqlite3", "c.sqlite3"))
    upgrade(migrated)
    create_tables(created)
    assert _autoincrement_tables(migrated) == _autoincrement_tables(created)
    assert _autoincrement_tables(created) >= {"mail_job", "outbox_email"}


def _autoincrement_tables(url: str) -> set[str]:
    engine = make_engine(url, poolclass=NullPool)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
        names = {name for name, sql in rows if "AUTOINCREMENT" in sql.upper()}
    engine.dispose()
    return names


NEVER_REUSED = ("mail_job", "outbox_email")
WHEN = datetime(2026, 11, 24, 1, 0, tzinfo=UTC)


def test_0016_keeps_every_row_and_never_hands_a_used_id_out_again(empty_db_url: str) -> None:
    """Rows written before migration 0016 are all there after it, ids and all, and a new
    row's id is above every one of them, even once all were deleted: SQLite used to give
    the largest id plus one, 1 in an emptied table (PostgreSQL: 0016 changes nothing)."""
    upgrade(empty_db_url, "0015")
    engine = make_engine(empty_db_url, poolclass=NullPool)
    with engine.begin() as conn:
        _write_rows(conn, 3)
        before = _rows(conn)
    upgrade(empty_db_url)
    with engine.begin() as conn:
        assert _rows(conn) == before
        for name in NEVER_REUSED:
            conn.execute(text(f"DELETE FROM {name}"))
        _write_rows(conn, 1)
        after = _rows(conn)
    engine.dispose()
    for name in NEVER_REUSED:
        old_ids = [row[0] for row in before[name]]
        assert len(old_ids) == 3 and [row[0] for row in after[name]] == [max(old_ids) + 1]


def _write_rows(conn: Connection, count: int) -> None:
    """`count` rows of each table (and a game and player for them), ids as the database
    gives them."""
    tables = MetaData()
    game, player, job, email = (Table(name, tables, autoload_with=conn) for name in
                                ("game", "player", "mail_job", "outbox_email"))
    game_id = conn.execute(insert(game).returning(game.c.id), {
        "name": "Kept", "preset": "standard", "rules": {}, "engine_version": "1",
        "status": "active", "deadline_policy": {}, "created_at": WHEN, "last_seq": 4,
        "robot_strength": "easy", "quick": False}).scalar_one()
    player_id = conn.execute(insert(player).returning(player.c.id), {
        "email": f"kept{game_id}@example.org", "name": "Kept", "time_zone": "UTC",
        "notify": "each_hand", "digest": False, "email_status": "ok", "unsubscribed": False,
        "created_at": WHEN, "review_games": True, "on_leaderboard": True}).scalar_one()
    for n in range(count):
        conn.execute(insert(job), {
            "game_id": game_id, "seq_before": n, "seq_after": n + 1, "actor": n % 4,
            "echo": n % 2 == 0, "deadline": WHEN, "made_at": WHEN, "fresh": n == 0,
            "attempts": n, "last_error": f"error {n}", "next_attempt_at": None,
            "set_aside_at": WHEN if n == 2 else None})
        conn.execute(insert(email), {
            "game_id": game_id, "player_id": player_id, "to_addr": "kept@example.org",
            "kind": "turn", "subject": f"Your turn {n}", "body_text": "Play.",
            "body_html": "<p>Play.</p>", "headers": {"Message-ID": f"<{n}@x>"},
            "message_id": f"<{n}@x>", "status": "failed" if n else "pending", "attempts": n,
            "next_attempt_at": WHEN, "last_error": None, "created_at": WHEN})


def _rows(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
    return {name: [tuple(row) for row in conn.execute(text(f"SELECT * FROM {name} ORDER BY id"))]
            for name in NEVER_REUSED}


def test_0018_stores_each_games_organiser_as_seat_one_s_person(empty_db_url: str) -> None:
    """Games made before migration 0018 get seat 1's person as their organiser (as they were
    read until then); none when a robot sits there. Down and up again gives the same."""
    upgrade(empty_db_url, "0017")
    engine = make_engine(empty_db_url, poolclass=NullPool)
    with engine.begin() as conn:
        ann, bob = (_player(conn, name) for name in ("Ann", "Bob"))
        by_ann = _game(conn, [(0, ann, False), (1, bob, False), (2, None, True)])
        by_robot = _game(conn, [(0, None, True), (1, bob, False)])
        resigned = _game(conn, [(0, ann, True), (1, bob, False)])  # Ann left: a robot plays
    upgrade(empty_db_url)
    expected = {by_ann: ann, by_robot: None, resigned: None}
    assert _organisers(engine) == expected
    with engine.begin() as conn:
        conn.execute(text("UPDATE game SET organiser_id = :bob WHERE id = :id"),
                     {"bob": bob, "id": by_robot})  # as a rematch Bob asked for would be
    downgrade(empty_db_url, "0017")
    with engine.connect() as conn:
        assert "organiser_id" not in {c["name"] for c in inspect(conn).get_columns("game")}
    upgrade(empty_db_url)
    assert _organisers(engine) == expected
    engine.dispose()


def _player(conn: Connection, name: str) -> int:
    player = Table("player", MetaData(), autoload_with=conn)
    return int(conn.execute(insert(player).returning(player.c.id), {
        "email": f"{name.lower()}@example.org", "name": name, "time_zone": "UTC",
        "notify": "each_hand", "digest": False, "email_status": "ok", "unsubscribed": False,
        "created_at": WHEN, "review_games": True, "on_leaderboard": True}).scalar_one())


def _game(conn: Connection, seats: list[tuple[int, int | None, bool]]) -> int:
    """A game with these (seat number, player id, robot?) seats."""
    tables = MetaData()
    game, seat = (Table(name, tables, autoload_with=conn) for name in ("game", "seat"))
    game_id = int(conn.execute(insert(game).returning(game.c.id), {
        "name": "Old", "preset": "standard", "rules": {}, "engine_version": "1",
        "status": "inviting", "deadline_policy": {}, "created_at": WHEN, "last_seq": 0,
        "robot_strength": "easy", "quick": False}).scalar_one())
    for seat_no, player_id, is_bot in seats:
        conn.execute(insert(seat), {
            "game_id": game_id, "seat_no": seat_no, "player_id": player_id, "is_bot": is_bot,
            "invite_status": "accepted", "timeouts_in_row": 0, "bot_holding": False})
    return game_id


def _organisers(engine: Engine) -> dict[int, int | None]:
    with engine.connect() as conn:
        return {game_id: organiser for game_id, organiser in
                conn.execute(text("SELECT id, organiser_id FROM game"))}


def test_0019_adds_the_seats_invitation_reminder_time_indexed(empty_db_url: str) -> None:
    """Seats made before migration 0019 have no reminder due (their invitations' dates were
    never stored: no burst of late reminders); the worker's query on it has an index. Down
    drops both, keeping the seats; up again gives the same."""
    upgrade(empty_db_url, "0018")
    engine = make_engine(empty_db_url, poolclass=NullPool)
    with engine.begin() as conn:
        game_id = _game(conn, [(0, _player(conn, "Ann"), False), (1, None, True)])
    upgrade(empty_db_url)
    assert _reminders(engine) == [(game_id, 0, None), (game_id, 1, None)]
    with engine.connect() as conn:
        indexes = {i["name"] for i in inspect(conn).get_indexes("seat")}
    assert "ix_seat_invite_reminder_at" in indexes
    downgrade(empty_db_url, "0018")
    with engine.connect() as conn:
        assert "invite_reminder_at" not in {c["name"] for c in inspect(conn).get_columns("seat")}
        assert "ix_seat_invite_reminder_at" not in {
            i["name"] for i in inspect(conn).get_indexes("seat")}
        assert conn.execute(text("SELECT count(*) FROM seat")).scalar_one() == 2
    upgrade(empty_db_url)
    assert _reminders(engine) == [(game_id, 0, None), (game_id, 1, None)]
    engine.dispose()


def _reminders(engine: Engine) -> list[tuple[int, int, datetime | None]]:
    with engine.connect() as conn:
        return [tuple(row) for row in conn.execute(text(  # type: ignore[misc]
            "SELECT game_id, seat_no, invite_reminder_at FROM seat ORDER BY game_id, seat_no"))]


def test_0023_adds_seat_names_and_cleans_invisible_characters_out_of_old_names(
        empty_db_url: str) -> None:
    """Seats made before migration 0023 have no typed name (their player's own is shown, as
    before); player and game names lose their invisible format characters (a bidi override
    reversed the text around them), keeping their visible text, ZWJ and ZWNJ. Down drops the
    column and keeps the seats; up again gives the same."""
    upgrade(empty_db_url, "0022")
    engine = make_engine(empty_db_url, poolclass=NullPool)
    with engine.begin() as conn:
        mallory = _player(conn, "Mallory\u202e")
        persian = _player(conn, "Mi\u200cNa")  # a ZWNJ stays
        plain = _player(conn, "Ann")
        game_id = _game(conn, [(0, mallory, False), (1, persian, False), (2, plain, False)])
        conn.execute(text("UPDATE game SET name = :name"), {"name": "\u2066Evil\u2069 game"})
    upgrade(empty_db_url)

    def names() -> tuple[dict[int, str], str, list[tuple[int, str | None]]]:
        with engine.connect() as conn:
            players = dict(conn.execute(text("SELECT id, name FROM player")).all())
            game = conn.execute(text("SELECT name FROM game")).scalar_one()
            seats = [tuple(r) for r in conn.execute(text(
                "SELECT seat_no, name FROM seat ORDER BY seat_no"))]
        return players, game, seats  # type: ignore[return-value]

    expected = ({mallory: "Mallory", persian: "Mi\u200cNa", plain: "Ann"}, "Evil game",
                [(0, None), (1, None), (2, None)])
    assert names() == expected
    downgrade(empty_db_url, "0022")
    with engine.connect() as conn:
        assert "name" not in {c["name"] for c in inspect(conn).get_columns("seat")}
        assert conn.execute(text("SELECT count(*) FROM seat WHERE game_id = :g"),
                            {"g": game_id}).scalar_one() == 3
    upgrade(empty_db_url)
    assert names() == expected
    engine.dispose()


def _deadline(conn: Connection, game_id: int, seat_no: int, status: str) -> int:
    deadline = Table("deadline", MetaData(), autoload_with=conn)
    return int(conn.execute(insert(deadline).returning(deadline.c.id), {
        "game_id": game_id, "seat_no": seat_no, "kind": "play", "turn_seq": seat_no,
        "started_at": WHEN, "due_at": WHEN, "grace_until": WHEN, "reminders_sent": 0,
        "status": status}).scalar_one())


def _pending_counts(engine: Engine) -> dict[int, tuple[int, int]]:
    """Each game's kept count beside the count of its pending deadline rows."""
    with engine.connect() as conn:
        return {game_id: (kept, counted) for game_id, kept, counted in conn.execute(text(
            "SELECT id, pending_deadlines, (SELECT count(*) FROM deadline WHERE "
            "deadline.game_id = game.id AND deadline.status = 'pending') FROM game"))}


def test_0029_counts_each_games_pending_deadlines_and_keeps_the_count(
        empty_db_url: str) -> None:
    """Games made before 0029 get their count from their rows; after it, the triggers keep
    it through inserts, closes, reopens, a row moved to another game, and deletes."""
    upgrade(empty_db_url, "0028")
    engine = make_engine(empty_db_url, poolclass=NullPool)
    with engine.begin() as conn:
        waiting, idle = _game(conn, [(0, None, False)]), _game(conn, [(0, None, True)])
        _deadline(conn, waiting, 0, "pending")
        _deadline(conn, waiting, 1, "pending")
        _deadline(conn, idle, 0, "done")
    upgrade(empty_db_url)
    assert _pending_counts(engine) == {waiting: (2, 2), idle: (0, 0)}
    with engine.begin() as conn:
        row = _deadline(conn, idle, 2, "pending")
        conn.execute(text("UPDATE deadline SET status = 'done' WHERE game_id = :g"),
                     {"g": waiting})
        conn.execute(text("UPDATE deadline SET reminders_sent = 1"))  # no status change
    assert _pending_counts(engine) == {waiting: (0, 0), idle: (1, 1)}
    with engine.begin() as conn:
        conn.execute(text("UPDATE deadline SET game_id = :g WHERE id = :id"),
                     {"g": waiting, "id": row})
        conn.execute(text("UPDATE deadline SET status = 'pending' WHERE game_id = :g "
                          "AND seat_no = 0"), {"g": idle})
    assert _pending_counts(engine) == {waiting: (1, 1), idle: (1, 1)}
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM deadline WHERE status = 'pending'"))
    assert _pending_counts(engine) == {waiting: (0, 0), idle: (0, 0)}
    downgrade(empty_db_url, "0028")
    with engine.connect() as conn:
        assert "pending_deadlines" not in {c["name"] for c in inspect(conn).get_columns("game")}
    upgrade(empty_db_url)
    assert _pending_counts(engine) == {waiting: (0, 0), idle: (0, 0)}
    engine.dispose()


def test_0030_marks_the_finished_games_not_reviewed_as_due_and_the_listing_reads_them(
        empty_db_url: str) -> None:
    """Games finished before 0030 with no review are due, those reviewed and those still
    playing are not; the worker's listing then finds exactly the due ones, and a review
    stored clears the mark."""
    upgrade(empty_db_url, "0029")
    engine = make_engine(empty_db_url, poolclass=NullPool)
    with engine.begin() as conn:
        unreviewed, reviewed, playing = (_game(conn, []) for _ in range(3))
        conn.execute(text("UPDATE game SET status = 'finished' WHERE id IN (:a, :b)"),
                     {"a": unreviewed, "b": reviewed})
        conn.execute(text("INSERT INTO game_review (game_id, status, decisions, cpu_seconds, "
                          "created_at) VALUES (:g, 'done', 0, 0.0, :at)"),
                     {"g": reviewed, "at": WHEN})
    upgrade(empty_db_url)
    with engine.connect() as conn:
        due = dict(conn.execute(text("SELECT id, review_due FROM game")).all())
    assert due == {unreviewed: True, reviewed: False, playing: False}
    ctx = Context(engine=engine)
    assert games_to_review(ctx) == [unreviewed]
    mark_failed(ctx, unreviewed)
    assert games_to_review(ctx) == []
    downgrade(empty_db_url, "0029")
    with engine.connect() as conn:
        assert "review_due" not in {c["name"] for c in inspect(conn).get_columns("game")}
    engine.dispose()
