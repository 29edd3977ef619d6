"""`pbem ingest` (one message on standard input, for an MTA pipe) and `pbem mail-in ...`."""

from __future__ import annotations

import logging
import sys
import time
from datetime import timedelta
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from pbem.mailin import pipe
from pbem.mailin.process import Inbox, process_pending
from pbem.mailin.receive import purge_raw_mail, store_spooled


def _inbox() -> Inbox:
    return Inbox.from_app(current_app._get_current_object())  # type: ignore[attr-defined]


@click.command("ingest", help="Read one message on standard input and spool it for "
                              "`pbem worker` to play (for an MTA pipe: Postfix, procmail).")
@click.option("--recipient", "-r", multiple=True,
              help="Envelope recipient (Postfix: ${original_recipient}); repeatable.")
@click.option("--spool", type=click.Path(path_type=Path), default=None,
              help="The mail spool folder (default: PBEM_SPOOL_DIR, else mail-spool in the "
                   "instance folder).")
@with_appcontext
def ingest(recipient: tuple[str, ...], spool: Path | None) -> None:
    """The same as `pbem ingest` started on its own (pbem.mailin.pipe), e.g. after `pbem -e
    FILE`: the spool is the app's unless --spool says otherwise."""
    spool = spool or Path(current_app.config["SPOOL_DIR"])
    sys.exit(pipe.ingest(sys.stdin.buffer, list(recipient), spool))


@click.group("mail-in", help="Incoming mail: receivers and upkeep.")
def mail_in() -> None:
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")


@mail_in.command("smtp", help="Run the SMTP (or LMTP) receiver for replies.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=None, help="Default: PBEM_LMTP_PORT.")
@click.option("--lmtp", is_flag=True, help="Speak LMTP (e.g. behind Postfix or Dovecot).")
@with_appcontext
def smtp(host: str, port: int | None, lmtp: bool) -> None:
    from pbem.mailin.smtp_receiver import ReplyController

    port = port or int(current_app.config.get("LMTP_PORT", 8024))
    controller = ReplyController(_inbox(), host=host, port=port, lmtp=lmtp)
    controller.start()
    click.echo(f"pbem mail-in: {'LMTP' if lmtp else 'SMTP'} on {host}:{port}; Ctrl+C stops it.")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        controller.stop()


@mail_in.command("imap", help="Poll an IMAP folder with IDLE (PBEM_IMAP_*).")
@click.option("--once", is_flag=True, help="Fetch what is waiting, then stop.")
@with_appcontext
def imap(once: bool) -> None:
    from pbem.mailin.imap import ImapSettings, connect, poll_once, run

    settings = ImapSettings.from_config(current_app.config)
    if once:
        with connect(settings) as box:
            click.echo(f"{poll_once(_inbox(), box, settings)} messages fetched")
        return
    click.echo(f"pbem mail-in: polling {settings.host}:{settings.port}/{settings.folder}")
    run(_inbox(), settings)


@mail_in.command("process", help="Store what `pbem ingest` spooled, then process stored "
                 "messages still pending (e.g. after a crash).")
@with_appcontext
def process_cmd() -> None:
    inbox = _inbox()
    store_spooled(inbox.engine, Path(current_app.config["SPOOL_DIR"]))
    click.echo(f"{process_pending(inbox)} messages processed")


@mail_in.command("purge", help="Empty the raw bytes of mail older than PBEM_INBOUND_KEEP_DAYS.")
@click.option("--days", type=int, default=None)
@with_appcontext
def purge(days: int | None) -> None:
    days = days if days is not None else int(current_app.config.get("INBOUND_KEEP_DAYS", 30))
    click.echo(f"{purge_raw_mail(_inbox().engine, timedelta(days=days))} messages purged")


commands: list[click.Command] = [ingest, mail_in]
