"""indexes for the worker's periodic scans: each reads the rows it looks for, not a whole table

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-29 04:00:00

- `game (status, fill_by)`: the tables whose wait for people is over (pbem.service.lobby
  `due_tables`, every minute), which read every game of the table before;
- `game (status, id)`: the games of one status in id order (the finished games not reviewed
  yet, pbem.service.reviews; the active games left to robots, pbem.service.robotturns);
- `game (status, robots_thinking_since)` in place of `game (robots_thinking_since)`: the
  games whose robots are thinking (4 times a second), which SQLite's planner, knowing no row
  counts, would otherwise answer from an index above by `status = 'active'`, every active
  game;
- `player (digest)`: the players who asked for the daily digest (every hour);
- `outbox_email (player_id, kind, created_at)`: whether a player's digest went out today,
  which read the whole outbox for each of them.

docs/scans.md lists every scan and the index it uses (tests/store/test_scan_plans.py checks
the plans on SQLite and PostgreSQL).
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0024'
down_revision: str | None = '0023'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_INDEXES = (
    ('game', 'ix_game_status_fill_by', ['status', 'fill_by']),
    ('game', 'ix_game_status_id', ['status', 'id']),
    ('game', 'ix_game_status_robots_thinking_since', ['status', 'robots_thinking_since']),
    ('player', 'ix_player_digest', ['digest']),
    ('outbox_email', 'ix_outbox_email_player_id_kind_created_at',
     ['player_id', 'kind', 'created_at']),
)


_REPLACED = ('game', 'ix_game_robots_thinking_since', ['robots_thinking_since'])


def upgrade() -> None:
    for table, name, columns in _INDEXES:
        op.create_index(name, table, columns, unique=False)
    op.drop_index(_REPLACED[1], table_name=_REPLACED[0])


def downgrade() -> None:
    op.create_index(_REPLACED[1], _REPLACED[0], _REPLACED[2], unique=False)
    for table, name, _columns in reversed(_INDEXES):
        op.drop_index(name, table_name=table)
