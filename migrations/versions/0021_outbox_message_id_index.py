"""delivery reports without VERP: the outbox looked up by Message-ID

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29 10:00:00

A delivery report to our From address counts only when it names an email we sent (its returned
copy's Message-ID, pbem.mail.outbox.emails_bounced): `outbox_email.message_id` is indexed, as
the rows stay (a forged report must not cost a scan of all of them). Only an index: no data
changes.
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0021'
down_revision: str | None = '0020'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('outbox_email', schema=None) as batch_op:
        batch_op.create_index('ix_outbox_email_message_id', ['message_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox_email', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_email_message_id')
