"""open tables, quick play and rematches: open seats, when robots fill them, rematch links
(issue 19)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23 10:00:00

Existing games have no open seat, no fill time, and are nobody's rematch: the defaults.
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401  (autogenerate writes sqlmodel.sql.sqltypes.AutoString)
from alembic import op

from pbem.store.types import UTCDateTime

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _statuses(statuses: str) -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_seat_invite_status'), type_='check')
        batch_op.create_check_constraint(batch_op.f('ck_seat_invite_status'),
                                         f"invite_status IN ({statuses})")


def upgrade() -> None:
    _statuses("'invited', 'accepted', 'declined', 'open'")
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('fill_by', UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('quick', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('rematch_of', sa.Integer(), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_game_rematch_of'), ['rematch_of'])
        batch_op.create_foreign_key(batch_op.f('fk_game_rematch_of_game'), 'game',
                                    ['rematch_of'], ['id'])
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.alter_column('quick', server_default=None)


def downgrade() -> None:
    # An open seat has nobody in it: a robot takes it, as the worker would have.
    op.execute("UPDATE seat SET is_bot = true, invite_status = 'accepted' "
               "WHERE invite_status = 'open'")
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_game_rematch_of_game'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('uq_game_rematch_of'), type_='unique')
        batch_op.drop_column('rematch_of')
        batch_op.drop_column('quick')
        batch_op.drop_column('fill_by')
    _statuses("'invited', 'accepted', 'declined'")
