"""deadlines for Auction Hearts' bids and named suit

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21 11:00:00

"""
from collections.abc import Sequence

from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _kinds(kinds: str) -> None:
    with op.batch_alter_table('deadline', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_deadline_kind'), type_='check')
        batch_op.create_check_constraint(batch_op.f('ck_deadline_kind'), f"kind IN ({kinds})")


def upgrade() -> None:
    _kinds("'pass', 'play', 'moon', 'bid', 'suit'")


def downgrade() -> None:
    op.execute("DELETE FROM deadline WHERE kind IN ('bid', 'suit')")
    _kinds("'pass', 'play', 'moon'")
