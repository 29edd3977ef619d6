"""`pbem db ...`, `pbem backup` and `pbem restore`."""

from __future__ import annotations

from pathlib import Path

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


@click.command("backup", help="Copy the whole database into FILE (default: "
               "pbem-<UTC time>.sqlite3 or .dump in the current folder), safe while the service "
               "runs: SQLite's online backup API, or pg_dump for PostgreSQL.")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(file: Path | None) -> None:
    from pbem.store.backup import BackupError, backup, default_name

    url = current_app.config["DATABASE_URL"]
    try:
        done = backup(url, file or Path(default_name(url)))
    except BackupError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"backed up {_safe(url)} to {done} ({done.stat().st_size} bytes)")


@click.command("restore", help="Put a backup made by `pbem backup` into this installation's "
               "database (empty, unless --replace; stop the service first), then upgrade its "
               "schema to this version's.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--replace", is_flag=True, help="Overwrite a database that already holds games.")
@with_appcontext
def restore_command(file: Path, replace: bool) -> None:
    from pbem.store.backup import BackupError, restore

    url = current_app.config["DATABASE_URL"]
    try:
        restore(url, file, replace=replace)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from exc
    upgrade(url, "head", after=current_app.extensions.get(AFTER_UPGRADE))
    click.echo(f"restored {file} into {_safe(url)}; the schema is at head")


commands: list[click.Command] = [db, backup_command, restore_command]
