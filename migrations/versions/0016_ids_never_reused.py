"""ids never reused on SQLite: mail_job and outbox_email AUTOINCREMENT

Their rows are deleted (a fanned-out job; a leaving player's queued emails) while their ids
live on elsewhere: in operators' hands (`pbem mail retry-job ID`, `pbem mail retry ID`), in
logs, and in the bounce address (VERP) of every email sent. Without AUTOINCREMENT, SQLite
gives a new row the largest id plus one, so a deleted last row's id went to the next row.
PostgreSQL's sequences never hand an id out twice: nothing to do there.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-24 01:10:00

"""
from collections.abc import Sequence

from alembic import op

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ('mail_job', 'outbox_email')


def upgrade() -> None:
    _rebuild(autoincrement=True)


def downgrade() -> None:
    _rebuild(autoincrement=False)


def _rebuild(*, autoincrement: bool) -> None:
    """SQLite: copy each table into one made with (or without) AUTOINCREMENT. The copy keeps
    every row and id, and SQLite notes the largest id copied in sqlite_sequence, so the next
    id is above every id the table holds, even once all its rows are deleted."""
    if op.get_bind().dialect.name != 'sqlite':
        return
    for table in TABLES:
        with op.batch_alter_table(table, recreate='always',
                                  table_kwargs={'sqlite_autoincrement': autoincrement}):
            pass
