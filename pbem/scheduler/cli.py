"""`pbem worker`: run the scheduler process (one per installation); `--check` for health checks."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

from pbem.scheduler.worker import check_heartbeat, default_holder, run_worker
from pbem.store.app_engine import db_engine


@click.command("worker", help="Run the worker: sends the outbox, checks deadlines (reminders, "
               "timeouts), daily digests (one process per installation). SIGTERM or Ctrl+C "
               "stops it gracefully.")
@click.option("--check", is_flag=True,
              help="Do not run: exit 0 if a worker on this host has beaten its heartbeat "
              "lately, 1 if not (for container and systemd health checks).")
@with_appcontext
def worker(check: bool) -> None:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if check:
        alive, sentence = check_heartbeat(db_engine(app))
        click.echo(sentence)
        raise SystemExit(0 if alive else 1)
    from pbem.logs import setup_logging

    setup_logging(app.config, process="worker")
    holder = default_holder()
    click.echo(f"pbem worker {holder} running; SIGTERM or Ctrl+C stops it.")
    run_worker(app, holder)


commands = [worker]
