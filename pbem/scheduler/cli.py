"""`pbem worker`: run the scheduler process (exactly one per installation)."""

from __future__ import annotations

import logging

import click
from flask import current_app
from flask.cli import with_appcontext

from pbem.scheduler.worker import build_scheduler


@click.command("worker", help="Run the worker: sends the outbox (one process per installation).")
@with_appcontext
def worker() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    scheduler = build_scheduler(app)
    click.echo("pbem worker running; Ctrl+C stops it.")
    try:
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        scheduler.shutdown(wait=False)


commands = [worker]
