"""unanswered invitations: one reminder to the invitee, one word to the organiser

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27 10:00:00

`seat.invite_reminder_at`: when the worker next looks at the seat's invitation (48 h after an
invitation, 72 h after the organiser's confirmation); cleared when that email is queued, in
the same transaction. Indexed: the worker asks for the due ones every minute. Invitations sent
before this revision get none (their dates were never stored: no burst of late reminders).
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from pbem.store.types import UTCDateTime

revision: str = '0019'
down_revision: str | None = '0018'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('invite_reminder_at', UTCDateTime(), nullable=True))
        batch_op.create_index('ix_seat_invite_reminder_at', ['invite_reminder_at'],
                              unique=False)


def downgrade() -> None:
    # Reminders not yet due are forgotten: nobody gets them, as before this revision.
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index('ix_seat_invite_reminder_at')
        batch_op.drop_column('invite_reminder_at')
