"""game.pending_deadlines: the people a game waits for, kept by triggers (issue 33)

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-29 10:30:00

The worker lists the active games no person is waited for every second (the robots' games:
pbem.service.robotturns). Asked of the deadline table ("no pending deadline row"), that walks
every active game; `game.pending_deadlines` keeps the count of the game's pending deadline
rows, written by triggers on the deadline table (pbem.store.triggers has the same triggers
for `create_all`), and `game (status, pending_deadlines)` answers the question from the games
it is about. The count is filled from the deadline rows here.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0029'
down_revision: str | None = '0028'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SQLITE_TRIGGERS = (
    """CREATE TRIGGER deadline_pending_added AFTER INSERT ON deadline
       WHEN NEW.status = 'pending'
       BEGIN UPDATE game SET pending_deadlines = pending_deadlines + 1 WHERE id = NEW.game_id;
       END""",
    """CREATE TRIGGER deadline_pending_removed AFTER DELETE ON deadline
       WHEN OLD.status = 'pending'
       BEGIN UPDATE game SET pending_deadlines = pending_deadlines - 1 WHERE id = OLD.game_id;
       END""",
    """CREATE TRIGGER deadline_pending_changed AFTER UPDATE OF status, game_id ON deadline
       WHEN OLD.status IS NOT NEW.status OR OLD.game_id IS NOT NEW.game_id
       BEGIN
         UPDATE game SET pending_deadlines = pending_deadlines - 1
          WHERE id = OLD.game_id AND OLD.status = 'pending';
         UPDATE game SET pending_deadlines = pending_deadlines + 1
          WHERE id = NEW.game_id AND NEW.status = 'pending';
       END""",
)
POSTGRESQL_TRIGGERS = (
    """CREATE OR REPLACE FUNCTION pbem_count_pending_deadlines() RETURNS trigger
       LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'UPDATE' AND OLD.status IS NOT DISTINCT FROM NEW.status
            AND OLD.game_id = NEW.game_id THEN
           RETURN NULL;
         END IF;
         IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'pending' THEN
           UPDATE game SET pending_deadlines = pending_deadlines - 1 WHERE id = OLD.game_id;
         END IF;
         IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.status = 'pending' THEN
           UPDATE game SET pending_deadlines = pending_deadlines + 1 WHERE id = NEW.game_id;
         END IF;
         RETURN NULL;
       END $$""",
    """CREATE TRIGGER deadline_pending_count
       AFTER INSERT OR DELETE OR UPDATE OF status, game_id ON deadline
       FOR EACH ROW EXECUTE FUNCTION pbem_count_pending_deadlines()""",
)


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("pending_deadlines", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.create_index("ix_game_status_pending_deadlines", ["status", "pending_deadlines"])
    op.execute("UPDATE game SET pending_deadlines = (SELECT count(*) FROM deadline WHERE "
               "deadline.game_id = game.id AND deadline.status = 'pending')")
    sqlite = op.get_bind().dialect.name == "sqlite"
    for statement in SQLITE_TRIGGERS if sqlite else POSTGRESQL_TRIGGERS:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in ("deadline_pending_added", "deadline_pending_removed",
                     "deadline_pending_changed"):
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
    else:
        op.execute("DROP TRIGGER IF EXISTS deadline_pending_count ON deadline")
        op.execute("DROP FUNCTION IF EXISTS pbem_count_pending_deadlines()")
    with op.batch_alter_table("game") as batch:
        batch.drop_index("ix_game_status_pending_deadlines")
        batch.drop_column("pending_deadlines")
