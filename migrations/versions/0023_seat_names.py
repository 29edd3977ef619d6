"""names typed for invited seats; invisible format characters out of names

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-29 10:00:00

`seat.name`: the name the organiser typed for an invited seat, shown instead of the player's
own name until they accept, so that typing an address on /new never reveals the name of the
account behind it. Seats invited before this revision have none and show the player's name,
as before (what the organiser typed then was not kept).

Names are refused now if they hold invisible format characters (category Cf: bidi overrides,
embeddings, isolates and marks...), which reverse or disguise the text around a name on every
page and email. Player and game names stored before are cleaned of them here (the zero-width
joiner and non-joiner stay: some scripts and emoji need them); their visible text is
unchanged. Downgrade drops the column and leaves the cleaned names as they are.
"""
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0023'
down_revision: str | None = '0022'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEPT = frozenset("\u200c\u200d")


def _visible(text: str) -> str:
    """`text` without its invisible format characters (itself if it has none)."""
    kept = "".join(ch for ch in text if unicodedata.category(ch) != "Cf" or ch in _KEPT)
    return text if kept == text else " ".join(kept.split()) or "Player"


def _clean(table: str) -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.text(f"SELECT id, name FROM {table}")).all()
    for row_id, name in rows:
        if name is not None and _visible(name) != name:
            conn.execute(sa.text(f"UPDATE {table} SET name = :name WHERE id = :id"),
                         {"name": _visible(name), "id": row_id})


def upgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=200),
                                      nullable=True))
    _clean('player')
    _clean('game')


def downgrade() -> None:
    # Invited seats show their player's own name again, as before this revision.
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('name')
