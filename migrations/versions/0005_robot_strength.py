"""the robots' strength, chosen per game

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 06:10:00

Games made before this migration keep the robot they were made with: the heuristic ("easy").
New games choose (the strong robot by default).
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate writes sqlmodel.sql.sqltypes.AutoString)
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('robot_strength', sqlmodel.sql.sqltypes.AutoString(length=8),
                                      nullable=False, server_default='easy'))
        batch_op.create_check_constraint(batch_op.f('ck_game_robot_strength'),
                                         "robot_strength IN ('easy', 'strong')")
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.alter_column('robot_strength', server_default=None)


def downgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_game_robot_strength'), type_='check')
        batch_op.drop_column('robot_strength')
