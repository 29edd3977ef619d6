"""worker processes with their claims, and metric totals kept as work happens

Revision ID: 0027
Revises: 0025
Create Date: 2026-11-29 12:00:00

`worker_process`: one row per running `pbem worker` process (host, pid, last beat, the units
of work it holds, the plans it threw away), written by its heartbeat, deleted when it stops
cleanly; `pbem worker --check` reads its host's rows. The per-host heartbeat rows in
`worker_lease` ("heartbeat:<host>") are no longer written; the lease rows are no longer
taken (work is claimed unit by unit: pbem.store.claims), so the table is dropped.

`game.robots_error` / `robots_error_at`: a game whose robots' chunk keeps raising is set
aside with the reason (the worker passes it over until `pbem robots retry`).

`metric_total`: the totals /metrics reports (events by type), advanced by the worker from a
cursor (the last event id counted), so a scrape reads a few rows instead of counting the
event table. The first tally after this revision counts the events already stored.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from pbem.store.types import UTCDateTime

revision: str = '0027'
down_revision: str | None = '0025'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'worker_process',
        sa.Column('id', sa.String(length=120), nullable=False),
        sa.Column('host', sa.String(length=64), nullable=False),
        sa.Column('pid', sa.Integer(), nullable=False),
        sa.Column('started_at', UTCDateTime(), nullable=False),
        sa.Column('beat_at', UTCDateTime(), nullable=False),
        sa.Column('holding', sa.String(length=1000), nullable=False),
        sa.Column('plans_discarded', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_worker_process')),
    )
    with op.batch_alter_table('worker_process', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_worker_process_host'), ['host'], unique=False)
    op.create_table(
        'metric_total',
        sa.Column('name', sa.String(length=64), nullable=False),
        sa.Column('label', sa.String(length=64), nullable=False),
        sa.Column('value', sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint('name', 'label', name=op.f('pk_metric_total')),
    )
    op.drop_table('worker_lease')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('robots_error', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('robots_error_at', UTCDateTime(), nullable=True))
        batch_op.create_index('ix_game_robots_error_at', ['robots_error_at'], unique=False)


def downgrade() -> None:
    # An older worker takes its lease and writes its host's heartbeat row afresh; games set
    # aside are tried again (with its per-process back-off).
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index('ix_game_robots_error_at')
        batch_op.drop_column('robots_error_at')
        batch_op.drop_column('robots_error')
    op.create_table(
        'worker_lease',
        sa.Column('name', sa.String(length=64), nullable=False),
        sa.Column('holder', sa.String(length=200), nullable=False),
        sa.Column('expires_at', UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('name', name=op.f('pk_worker_lease')),
    )
    op.drop_table('metric_total')
    with op.batch_alter_table('worker_process', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_worker_process_host'))
    op.drop_table('worker_process')
