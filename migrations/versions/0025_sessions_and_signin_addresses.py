"""server-side web sessions; sign-in links for addresses with no account yet; the outbox
by recipient

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-29 03:40:00

`web_session`: one row per signed-in browser (the sha256 of the random id its cookie holds),
so signing out, "sign out everywhere" and deleting an account end the sessions for good, not
only in the browser that asked. Sessions signed in before this revision have no row and are
signed out by it (their players sign in again).

`token.email`: a sign-in link asked for an address nobody plays from yet carries the address;
the account is made when the link is used, not when the address is typed.

`ix_outbox_email_to_addr_created_at`: the limits on mail to one address, from any sender.
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import pbem.store.types

revision: str = '0025'
down_revision: str | None = '0024'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'web_session',
        sa.Column('id_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('created_at', pbem.store.types.UTCDateTime(), nullable=False),
        sa.Column('expires_at', pbem.store.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'],
                                name=op.f('fk_web_session_player_id_player')),
        sa.PrimaryKeyConstraint('id_hash', name=op.f('pk_web_session')),
    )
    with op.batch_alter_table('web_session', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_web_session_player_id'), ['player_id'],
                              unique=False)
    with op.batch_alter_table('token', schema=None) as batch_op:
        batch_op.add_column(sa.Column('email', sqlmodel.sql.sqltypes.AutoString(length=320),
                                      nullable=True))
    with op.batch_alter_table('outbox_email', schema=None) as batch_op:
        batch_op.create_index('ix_outbox_email_to_addr_created_at', ['to_addr', 'created_at'],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox_email', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_email_to_addr_created_at')
    with op.batch_alter_table('token', schema=None) as batch_op:
        batch_op.drop_column('email')
    with op.batch_alter_table('web_session', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_web_session_player_id'))
    op.drop_table('web_session')
