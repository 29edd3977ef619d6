"""game.review_due: the finished games whose review is not stored yet (issue 33)

Revision ID: 0030
Revises: 0029
Create Date: 2026-11-29 13:00:00

The worker lists the finished games to review every 30 seconds (pbem.service.reviews). Asked
of game_review ("no review row"), that walks every finished game ever played; `review_due` is
set with the status "finished" and cleared with the review's row, and `game (review_due, id)`
answers from the games due alone. Filled here for the finished games with no review yet.
(An added column and index, altered in place on SQLite too, so the triggers of 0029 stay
as they are.)
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0030'
down_revision: str | None = '0029'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ALTER TABLE, no batch: a batch copy of `game` on SQLite would trip over the
    # triggers of 0029, whose bodies name the table.
    op.add_column("game", sa.Column("review_due", sa.Boolean(), nullable=False,
                                    server_default=sa.false()))
    op.create_index("ix_game_review_due_id", "game", ["review_due", "id"])
    op.execute(sa.text("UPDATE game SET review_due = :due WHERE status = 'finished' AND NOT "
                       "EXISTS (SELECT 1 FROM game_review WHERE game_review.game_id = game.id)")
               .bindparams(due=True))


def downgrade() -> None:
    op.drop_index("ix_game_review_due_id", table_name="game")
    op.execute("ALTER TABLE game DROP COLUMN review_due")  # SQLite 3.35+ drops it in place
