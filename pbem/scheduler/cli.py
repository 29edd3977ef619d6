"""`pbem worker`: run a worker process (as many per host and hosts as the load needs: the
work is claimed unit by unit); `--check` for health checks."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

from pbem.scheduler import processes
from pbem.scheduler.worker import default_holder, run_worker
from pbem.store.app_engine import db_engine


@click.command("worker", help="Run a worker process: sends the outbox, fans out the moves' "
               "emails, plays the robots' moves, checks deadlines (reminders, timeouts), "
               "reviews and daily digests. Run several (on one host or many, on one "
               "PostgreSQL): each takes different work. SIGTERM or Ctrl+C stops it gracefully.")
@click.option("--check", is_flag=True,
              help="Do not run: exit 0 if every worker process on this host has beaten its "
              "heartbeat lately, 1 if one has not or none runs (for container and systemd "
              "health checks); one line per process.")
@click.option("--pid", type=int, default=None,
              help="With --check: check only the worker process with this pid.")
@with_appcontext
def worker(check: bool, pid: int | None) -> None:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if check:
        healthy, lines = processes.check(db_engine(app), pid=pid)
        for line in lines:
            click.echo(line)
        raise SystemExit(0 if healthy else 1)
    from pbem.logs import setup_logging

    setup_logging(app.config, process="worker")
    holder = default_holder()
    click.echo(f"pbem worker {holder} running; SIGTERM or Ctrl+C stops it.")
    run_worker(app, holder)


commands = [worker]
