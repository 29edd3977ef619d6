"""`pbem worker`: run the scheduler process (exactly one per installation)."""

from __future__ import annotations

import logging

import click
from flask import current_app
from flask.cli import with_appcontext

from pbem.scheduler.worker import build_scheduler, default_holder, release_lease
from pbem.store.app_engine import db_engine


@click.command("worker", help="Run the worker: sends the outbox, checks deadlines (reminders, "
               "timeouts), daily digests (one process per installation).")
@with_appcontext
def worker() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    holder = default_holder()
    scheduler = build_scheduler(app, holder=holder)
    click.echo(f"pbem worker {holder} running; Ctrl+C stops it.")
    try:
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        scheduler.shutdown(wait=False)
    finally:
        release_lease(db_engine(app), holder)


commands = [worker]
