"""`pbem ingest`, for an MTA pipe: leave one message in the mail spool, nothing else (DESIGN.md
point 7).

An MTA starts a process per message, so this imports only the standard library: no database
driver, not SQLAlchemy, Flask or the service. The message (with its envelope recipients as
Delivered-To headers) is written durably into the spool (pbem.mailin.spool: tmp/, fsync,
rename into new/, fsync); `pbem worker` (and `pbem dev`) moves it into the database and plays
it within about a second (pbem.mailin.process.process_new). A message delivered twice is
stored once there (its Message-ID and body, as every way in).

Exit codes (sysexits.h): 0 spooled; 65 larger than the cap (the MTA bounces it with our
sentence); 75 it could not be spooled (the MTA keeps it and tries again). The default spool
(`mail-spool` in the instance folder) is made with the folders above it, so a first message
arriving before the service ever ran is spooled, not retried for days; a spool named by
`--spool` or PBEM_SPOOL_DIR must have its parent folder (a mount not up yet: 75, retried).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from pbem.config import spool_dir
from pbem.mailin.crash import crash_point
from pbem.mailin.rawmail import MAX_MESSAGE_BYTES, with_recipients
from pbem.mailin.spool import spool_message

EX_USAGE = 2  # as click's usage errors
EX_DATAERR = 65  # sysexits.h: the MTA bounces the message, with our words, to its sender
EX_TEMPFAIL = 75  # sysexits.h: Postfix and procmail keep the message and try again


def main(argv: list[str]) -> int:
    """`pbem ingest [--spool DIR] [-r RECIPIENT]...` as its own process: the exit code."""
    parser = argparse.ArgumentParser(
        prog="pbem ingest", description="Read one message on standard input and leave it in "
        "the mail spool for `pbem worker` to play (for an MTA pipe: Postfix, procmail).")
    parser.add_argument("-r", "--recipient", action="append", default=[],
                        help="Envelope recipient (Postfix: ${original_recipient}); repeatable.")
    parser.add_argument("--spool", type=Path, default=None,
                        help="The mail spool folder (default: PBEM_SPOOL_DIR, else mail-spool "
                        "in the instance folder); give it where the MTA passes no environment.")
    args = parser.parse_args(argv)
    if args.spool is None:
        load_dotenv_files()
    named = args.spool is not None or bool(os.environ.get("PBEM_SPOOL_DIR"))
    return ingest(sys.stdin.buffer, args.recipient, args.spool or spool_dir(os.environ),
                  parents=not named)


def ingest(stream: IO[bytes], recipients: list[str], spool: Path,
           out: IO[str] | None = None, err: IO[str] | None = None, *,
           parents: bool = False) -> int:
    """Read one message from `stream` and spool it durably in `spool` (making the folders
    above it with `parents`); the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    raw = stream.read(MAX_MESSAGE_BYTES + 1)  # bounded memory and time
    if len(raw) > MAX_MESSAGE_BYTES:  # nothing is kept: a reply is never this large
        err.write(f"pbem ingest: message refused, it is larger than "
                  f"{MAX_MESSAGE_BYTES // (1024 * 1024)} MB (a reply to Hearts needs no "
                  "attachments)\n")
        return EX_DATAERR
    if not raw.strip():
        err.write("pbem ingest: no message on standard input\n")
        return EX_USAGE
    try:
        name = spool_message(spool, with_recipients(raw, recipients), parents=parents)
    except OSError as exc:  # no space, no permission: the MTA tries again later
        err.write(f"pbem ingest: the message could not be spooled in {spool}: {exc}\n")
        return EX_TEMPFAIL
    crash_point("ingest-spooled")  # on disk in new/, not yet told the MTA
    out.write(f"spooled {name}\n")
    return 0


# --- settings files ---------------------------------------------------------------------------

def load_dotenv_files(environ: Mapping[str, str] | None = None) -> None:
    """PBEM_* settings from `.flaskenv` and `.env` (nearest to the working folder), as the
    rest of the `pbem` command line loads them (flask.cli.load_dotenv), unless
    FLASK_SKIP_DOTENV says not to; set variables win. Nothing without python-dotenv."""
    skip = (environ or os.environ).get("FLASK_SKIP_DOTENV", "")
    if skip and skip.lower() not in ("0", "false", "no"):
        return
    try:
        import dotenv
    except ImportError:
        return
    values: dict[str, str | None] = {}
    for name in (".flaskenv", ".env"):
        found = dotenv.find_dotenv(name, usecwd=True)
        if found:
            values |= dotenv.dotenv_values(found, encoding="utf-8")
    for key, value in values.items():
        if key not in os.environ and value is not None:
            os.environ[key] = value
