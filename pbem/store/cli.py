"""`pbem db ...` commands."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

from pbem.store.migrate import upgrade

AFTER_UPGRADE = "pbem.after_upgrade"


@click.group("db", help="Database schema.")
def db() -> None:
    pass


@db.command("upgrade", help="Create or upgrade the schema to the newest migration.")
@click.argument("revision", default="head")
@with_appcontext
def db_upgrade(revision: str) -> None:
    url = current_app.config["DATABASE_URL"]
    # The app hands in what runs after the migrations (the backfills of pbem.scheduler).
    upgrade(url, revision, after=current_app.extensions.get(AFTER_UPGRADE))
    click.echo(f"database at {_safe(url)} is at {revision}")


def _safe(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


commands: list[click.Command] = [db]
