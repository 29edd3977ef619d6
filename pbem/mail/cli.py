"""`pbem mail ...` commands."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

from pbem.mail.outbox import DrainResult, SmtpSettings, drain_all
from pbem.store.app_engine import db_engine


@click.group("mail", help="Outgoing mail.")
def mail_group() -> None:
    pass


@mail_group.command("send", help="Send every due email in the outbox once, then stop.")
@click.option("--batch", default=100, show_default=True, type=click.IntRange(min=1),
              help="Emails per SMTP connection.")
@with_appcontext
def mail_send(batch: int) -> None:
    settings = SmtpSettings.from_config(current_app.config)
    result = drain_all(db_engine(), settings, batch=batch)
    click.echo(summary(result, settings))


def summary(result: DrainResult, settings: SmtpSettings) -> str:
    return (f"{len(result.sent)} sent, {len(result.retry)} to retry later, "
            f"{len(result.failed)} failed (SMTP {settings.host}:{settings.port})")


commands: list[click.Command] = [mail_group]
