"""each player's language (issue 34)

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-29 07:00:00

`player.language`: the language every email to the player is written in and their pages are
shown in when signed in: "en", "de", "fr", "es", "it" or "nl". NULL until known: set from the
browser's Accept-Language at first sign-in or join, from the language of their replies while
they have chosen none, or chosen on /me, the email settings page, or by the organiser per
invited seat on /new. NULL is written in English. `language_chosen`: the player chose it (a
reply in another language then no longer changes it).
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0028'
down_revision: str | None = '0027'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("language", sa.String(length=8), nullable=True))
        batch.add_column(sa.Column("language_chosen", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("language_chosen")
        batch.drop_column("language")
