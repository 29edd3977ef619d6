"""`pbem mail ...` commands."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

from pbem.mail.outbox import DrainResult, SmtpSettings, drain_all, reset_address, retry_failed
from pbem.store.app_engine import db_engine


@click.group("mail", help="Outgoing mail.")
def mail_group() -> None:
    pass


@mail_group.command("send", help="Work out the moves' waiting emails (mail jobs), send every "
                   "due email in the outbox once, then stop.")
@click.option("--batch", default=100, show_default=True, type=click.IntRange(min=1),
              help="Emails per SMTP connection.")
@with_appcontext
def mail_send(batch: int) -> None:
    from pbem.mail.compose import MailSettings
    from pbem.mail.jobs import fan_out_pending

    while fan_out_pending(db_engine(), settings=MailSettings.from_config(current_app.config)):
        pass  # until no job is left (a failing one is logged and left for later)
    settings = SmtpSettings.from_config(current_app.config)
    result = drain_all(db_engine(), settings, batch=batch)
    click.echo(summary(result, settings))


def summary(result: DrainResult, settings: SmtpSettings) -> str:
    return (f"{len(result.sent)} sent, {len(result.retry)} to retry later, "
            f"{len(result.failed)} failed (SMTP {settings.host}:{settings.port})")


def _row_line(*cells: object) -> str:
    return "  ".join(str(c) for c in cells)


@mail_group.command("list", help="List outgoing emails, newest first.")
@click.option("--status", type=click.Choice(["pending", "sending", "sent", "failed"]),
              help="Only emails in this state.")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(min=1))
@with_appcontext
def mail_list(status: str | None, limit: int) -> None:
    from sqlmodel import col, select

    from pbem.store.db import transaction
    from pbem.store.models import OutboxEmail

    query = select(OutboxEmail).order_by(col(OutboxEmail.id).desc()).limit(limit)
    if status:
        query = query.where(OutboxEmail.status == status)
    with transaction(db_engine(), read_only=True) as session:
        rows = session.exec(query).all()
    for r in rows:
        click.echo(_row_line(r.id, r.status, f"tries={r.attempts}", r.to_addr, r.kind,
                             r.created_at.isoformat(timespec="seconds"),
                             (r.last_error or "")[:120]))
    click.echo(f"{len(rows)} shown")


@mail_group.command("inbound", help="List received mail, newest first.")
@click.option("--status", help="Only mail in this state (pending, done, failed, ignored...).")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(min=1))
@with_appcontext
def mail_inbound(status: str | None, limit: int) -> None:
    from sqlalchemy import Table, select

    from pbem.store.models import InboundMail

    table: Table = InboundMail.__table__  # type: ignore[attr-defined]
    query = (select(table.c.id, table.c.status, table.c.received_at, table.c.message_id,
                    table.c.reason).order_by(table.c.id.desc()).limit(limit))
    if status:
        query = query.where(table.c.status == status)
    with db_engine().connect() as conn:
        rows = conn.execute(query).all()
    for row_id, row_status, received, message_id, reason in rows:
        click.echo(_row_line(row_id, row_status, received.isoformat(timespec="seconds"),
                             message_id[:80], (reason or "")[:120]))
    click.echo(f"{len(rows)} shown")


@mail_group.command("retry", help="Send failed emails again (all of them, or the ids given).")
@click.argument("ids", nargs=-1, type=int)
@with_appcontext
def mail_retry(ids: tuple[int, ...]) -> None:
    count = retry_failed(db_engine(), ids=list(ids) if ids else None)
    click.echo(f"{count} failed emails queued again")


@mail_group.command("reset", help="Mail ADDRESS again: clear its 'emails bounce' mark.")
@click.argument("address")
@with_appcontext
def mail_reset(address: str) -> None:
    if not reset_address(db_engine(), address):
        raise click.ClickException(f"no player has the address {address}")
    click.echo(f"{address} will get emails again")


commands: list[click.Command] = [mail_group]
