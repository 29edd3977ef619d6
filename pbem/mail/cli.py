"""`pbem mail ...` commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from flask import current_app
from flask.cli import with_appcontext

from pbem.mail.outbox import DrainResult, SmtpSettings, drain_all, reset_address, retry_failed
from pbem.store.app_engine import db_engine

if TYPE_CHECKING:
    from pbem.store.mailjobs import Job


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
        pass  # until none is due (a failing one is counted and backs off: see `mail jobs`)
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


@mail_group.command("jobs", help="List the moves' mail jobs still to be fanned out into "
                    "emails: waiting, retrying after a failure, or set aside after too many.")
@click.option("--set-aside", "set_aside", is_flag=True, help="Only the set-aside jobs.")
@click.option("--errors", is_flag=True, help="Print each failed job's whole error.")
@with_appcontext
def mail_jobs(set_aside: bool, errors: bool) -> None:
    from pbem.store.mailjobs import listed_jobs

    with db_engine().connect() as conn:
        jobs = listed_jobs(conn, set_aside_only=set_aside)
    for job in jobs:
        click.echo(_job_line(job))
        if errors and job.last_error:
            click.echo(job.last_error.rstrip())
    click.echo(f"{len(jobs)} shown")


def _job_line(job: Job) -> str:
    """id, state, game, seq, tries, when set aside or next tried, the error's last line."""
    when = job.set_aside_at or job.next_attempt_at
    return _row_line(job.id, job.state, f"game={job.game_id}", f"seq={job.seq_after}",
                     f"tries={job.attempts}", when.isoformat(timespec="seconds") if when else "-",
                     _last_line(job.last_error)[:120])


def _last_line(error: str | None) -> str:
    """The exception line of a stored traceback."""
    lines = [line for line in (error or "").splitlines() if line.strip()]
    return lines[-1] if lines else ""


@mail_group.command("retry-job", help="Fan out set-aside mail jobs again (the ids given, or "
                    "--all), once their cause is fixed; each sends its emails once.")
@click.argument("ids", nargs=-1, type=click.IntRange(min=1, max=2**63 - 1))
@click.option("--all", "every", is_flag=True, help="Every set-aside job.")
@with_appcontext
def mail_retry_job(ids: tuple[int, ...], every: bool) -> None:
    from pbem.mail.compose import MailSettings
    from pbem.mail.jobs import retry_jobs
    from pbem.store.mailjobs import listed_jobs

    if bool(ids) == every:
        raise click.UsageError("give job ids or --all (not both)")
    again, done = retry_jobs(db_engine(), list(ids) if ids else None,
                             settings=MailSettings.from_config(current_app.config))
    with db_engine().connect() as conn:  # failed again, or behind a failing job of its game
        waiting = [job for job in listed_jobs(conn) if job.id in again and job.id not in done]
    for job in waiting:
        click.echo(_job_line(job))
    click.echo(f"{len(done)} fanned out, {len(waiting)} still waiting (they back off as usual)")
    missing = sorted(set(ids) - set(again))
    if missing:  # (an id is never reused, even on SQLite: migration 0016)
        raise click.ClickException(
            f"no mail job {', '.join(map(str, missing))}: fanned out already (its emails "
            "went out) or never queued; `pbem mail jobs` lists the jobs still waiting")


commands: list[click.Command] = [mail_group]
