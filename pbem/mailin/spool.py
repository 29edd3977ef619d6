"""The mail spool: a Maildir-style folder where `pbem ingest` leaves each message for the worker.

Standard library only: an MTA starts `pbem ingest` once per message, so it touches no database
driver. A message is written to `tmp/`, flushed to disk (fsync), renamed into `new/` and the
folder flushed too, exactly as an MTA delivers to a Maildir; only then does `pbem ingest` exit
0. A crash before the rename leaves a file in `tmp/` that nobody reads (the MTA, told nothing,
delivers again; stale ones are removed after a day); a crash after it leaves the message in
`new/`, where the worker finds it (pbem.mailin.receive.store_spooled stores it in the
database, then removes the file).

Permissions, for an MTA and a worker running as different users: folders this module creates
are 2770 (group-writable, setgid: files inside get the folder's group whatever the writer's
umask), messages are 0640. So the worker's user owns the spool, the MTA's pipe runs with the
spool's group, and the worker reads (and removes) what the MTA wrote (deploy/README.md).
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from pbem.mailin.crash import crash_point

log = logging.getLogger(__name__)
FOLDER_MODE = 0o2770  # owner and group read and write; setgid: new files get the group
MESSAGE_MODE = 0o640  # the writer reads and writes, the group (the worker) reads
STALE_TMP_SECONDS = 24 * 3600  # a file left in tmp/ this long was never delivered
_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9_.-]")


def ensure_folders(spool: Path, *, parents: bool = False) -> None:
    """The spool with its tmp/ and new/ folders; those created here get FOLDER_MODE (set
    explicitly: the process's umask does not narrow it). With `parents`, missing folders above
    the spool are made too (the default spool, in an instance folder not made yet)."""
    missing_above = [p for p in reversed(spool.parents) if not p.exists()] if parents else []
    for folder in (*missing_above, spool, spool / "tmp", spool / "new"):
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        os.chmod(folder, FOLDER_MODE)


def unique_name() -> str:
    """A Maildir name: the time in ns, the process and random bits, the host: never reused,
    and sorting by name is sorting by arrival (to the ns, on one host)."""
    host = _UNSAFE_IN_NAME.sub("_", socket.gethostname()) or "host"
    return f"{time.time_ns():020d}.P{os.getpid()}R{secrets.token_hex(6)}.{host}"


def spool_message(spool: Path, raw: bytes, *, parents: bool = False) -> str:
    """Write `raw` into the spool durably (on disk when this returns); its file name. With
    `parents`, the folders above the spool are made when missing (ensure_folders)."""
    ensure_folders(spool, parents=parents)
    name = unique_name()
    written, delivered = spool / "tmp" / name, spool / "new" / name
    fd = os.open(written, os.O_WRONLY | os.O_CREAT | os.O_EXCL, MESSAGE_MODE)
    try:
        os.fchmod(fd, MESSAGE_MODE)  # whatever the umask
        view = memoryview(raw)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    crash_point("ingest-written")  # on disk in tmp/, not yet delivered
    os.rename(written, delivered)
    _fsync_folder(spool / "new")  # the rename itself is on disk
    return name


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def waiting(spool: Path) -> Iterator[Path]:
    """The delivered messages, oldest first (none when the spool does not exist yet)."""
    try:
        names = sorted(entry.name for entry in os.scandir(spool / "new")
                       if not entry.name.startswith(".") and entry.is_file())
    except FileNotFoundError:
        return
    for name in names:
        yield spool / "new" / name


def set_aside(path: Path, why: str) -> None:
    """Move a delivered message the worker cannot take in to the spool's failed/ folder, and
    log why (once: it is no longer waiting; when it cannot be moved either, at every look)."""
    failed = path.parent.parent / "failed"
    try:
        failed.mkdir(mode=0o770, exist_ok=True)
        os.replace(path, failed / path.name)
    except OSError as exc:  # left where it is, said at every look; the others go on
        log.error("spooled message %s %s, and cannot be moved to %s: %s", path.name, why,
                  failed, exc)
        return
    log.error("spooled message %s %s: moved to %s", path.name, why, failed)


def remove_stale_tmp(spool: Path, now: float | None = None) -> int:
    """Remove files left in tmp/ by writers that died before delivering (older than
    STALE_TMP_SECONDS, as Maildir readers do); how many."""
    cutoff = (time.time() if now is None else now) - STALE_TMP_SECONDS
    removed = 0
    try:
        entries = list(os.scandir(spool / "tmp"))
    except FileNotFoundError:
        return 0
    for entry in entries:
        try:
            if entry.is_file() and entry.stat().st_mtime < cutoff:
                os.unlink(entry.path)
                removed += 1
        except FileNotFoundError:
            continue
    return removed
