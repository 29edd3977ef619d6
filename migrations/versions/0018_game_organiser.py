"""who organises a game is stored (game.organiser_id), no longer read from seat 1

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-26 10:00:00

The organiser confirms a game made on /new and may start it now with robots. Until now that
was whoever sat in seat 1, which is wrong for a rematch (the seats keep the old order; the
asker may sit anywhere). Existing games get seat 1's person, as they were read so far (none
when a robot sits there); a rematch made before this revision therefore keeps seat 1's person
as its organiser, since who asked for it was not recorded.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0018'
down_revision: str | None = '0017'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('organiser_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_game_organiser_id_player'), 'player',
                                    ['organiser_id'], ['id'])
    op.execute("UPDATE game SET organiser_id = (SELECT seat.player_id FROM seat "
               "WHERE seat.game_id = game.id AND seat.seat_no = 0 AND seat.is_bot = false)")


def downgrade() -> None:
    # Seat 1's person is the organiser again, as before this revision.
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_game_organiser_id_player'), type_='foreignkey')
        batch_op.drop_column('organiser_id')
