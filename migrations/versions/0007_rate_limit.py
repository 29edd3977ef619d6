"""per-client rate-limit counters

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 06:00:00

"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate writes sqlmodel.sql.sqltypes.AutoString)
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('rate_limit',
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=255), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('expires_at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_rate_limit'))
    )
    with op.batch_alter_table('rate_limit', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rate_limit_expires_at'), ['expires_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('rate_limit', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rate_limit_expires_at'))
    op.drop_table('rate_limit')
