"""signin tokens: a one-time link by email signs a player in (issue 19)

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 09:00:00

"""
from collections.abc import Sequence

from alembic import op

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _purposes(purposes: str) -> None:
    with op.batch_alter_table('token', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_token_purpose'), type_='check')
        batch_op.create_check_constraint(batch_op.f('ck_token_purpose'),
                                         f"purpose IN ({purposes})")


def upgrade() -> None:
    _purposes("'reply', 'card', 'pass', 'invite', 'unsubscribe', 'seat', 'join', 'signin'")


def downgrade() -> None:
    op.execute("DELETE FROM token WHERE purpose = 'signin'")
    _purposes("'reply', 'card', 'pass', 'invite', 'unsubscribe', 'seat', 'join'")
