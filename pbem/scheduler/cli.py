"""`pbem worker`: run a worker process (as many per host and hosts as the load needs: the
work is claimed unit by unit); `--check` for health checks."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

from pbem.scheduler import processes
from pbem.scheduler.worker import default_holder, run_worker
from pbem.service import Context
from pbem.service.robotturns import retry_robots, robots_set_aside
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


@click.group("robots", help="Games whose robots' moves keep failing: set aside by the workers "
             "(after 6 failures in a row) with the reason, until retried.")
def robots() -> None:
    pass


@robots.command("set-aside", help="List the games set aside, with the last line of the reason.")
@with_appcontext
def set_aside() -> None:
    ctx = Context(engine=db_engine(current_app._get_current_object()))  # type: ignore[attr-defined]
    found = robots_set_aside(ctx)
    for game_id, reason in found:
        click.echo(f"game {game_id}: {reason}")
    if not found:
        click.echo("no game is set aside")


@robots.command("retry", help="Put a set-aside game back in the workers' passes.")
@click.argument("game_id", type=int)
@with_appcontext
def retry(game_id: int) -> None:
    ctx = Context(engine=db_engine(current_app._get_current_object()))  # type: ignore[attr-defined]
    if not retry_robots(ctx, game_id):
        click.echo(f"game {game_id} is not set aside")
        raise SystemExit(1)
    click.echo(f"game {game_id}: back in the workers' passes")


commands = [worker, robots]
