"""an index for the private seat link's look-up (made for every email)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-23 09:00:00

"""
from collections.abc import Sequence

from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('token', schema=None) as batch_op:
        batch_op.create_index('ix_token_seat_link', ['game_id', 'seat_no', 'purpose', 'turn_seq'],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table('token', schema=None) as batch_op:
        batch_op.drop_index('ix_token_seat_link')
