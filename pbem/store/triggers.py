"""`game.pending_deadlines`, kept by the database (issue 33: each periodic scan O(due rows)).

The worker lists, every second, the active games no person is waited for: those with no
pending deadline row (pbem.service.robotturns). Asked of the deadline table, that question
is about every active game; kept on the game row as a count, it is one index range
(`game (status, pending_deadlines)`). The count is written by triggers on the deadline
table, so every way a deadline row is added, closed, moved or deleted (the commands'
`sync_deadlines`, the worker's timeouts, the retention purge, an operator's SQL) keeps it,
with no code path to forget. Migration 0029 creates the same triggers (its own copy, frozen
as migrations are); `metadata.create_all` creates these (the tests' schemas). A later
migration that rebuilds the deadline table on SQLite (Alembic's batch mode copies it into a
new table) must create them again: the 0029 test of tests/store/test_migrations.py runs at
the head revision and fails without them.
"""

from __future__ import annotations

from sqlalchemy import DDL, Table, event

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


def count_pending_deadlines(deadline: Table) -> None:
    """Create the triggers with the deadline table (`metadata.create_all`)."""
    for dialect, statements in (("sqlite", SQLITE_TRIGGERS),
                                ("postgresql", POSTGRESQL_TRIGGERS)):
        for statement in statements:  # (DDL formats with %: none in these)
            ddl = DDL(statement)  # type: ignore[no-untyped-call]
            event.listen(deadline, "after_create", ddl.execute_if(dialect=dialect))
