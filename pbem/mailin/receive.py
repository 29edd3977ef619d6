"""Receive: store a message's raw bytes as a pending InboundMail row, once. Nothing else.
(From the mail spool `pbem ingest` writes, too: store_spooled.)

A message is the same one when its Message-ID and its content hash match (rawmail.content_hash):
the hash of its body, not of the whole message, so that a copy that came by another way in
(with other Received or Delivered-To headers) is still a duplicate; for a message without a
Message-ID, of its own headers (From, To, Cc, Subject, Date, In-Reply-To, References) and
body, so that two different messages with the same body ("QS" to two games) are two.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import Engine, insert, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from pbem.mailin.crash import crash_point
from pbem.mailin.rawmail import MAX_MESSAGE_BYTES as MAX_MESSAGE_BYTES  # re-exported
from pbem.mailin.rawmail import content_hash as content_hash
from pbem.mailin.rawmail import message_id_of as message_id_of
from pbem.mailin.rawmail import with_recipients as with_recipients
from pbem.mailin.spool import remove_stale_tmp, set_aside, waiting
from pbem.store.db import inserted_id, transaction, writing
from pbem.store.models import InboundMail
from pbem.store.types import utcnow

_INBOUND = InboundMail.__table__  # type: ignore[attr-defined]
_INSERT = insert(_INBOUND)


@dataclass(frozen=True)
class Stored:
    id: int
    created: bool  # False: the same message was stored before (nothing was added)
    processed: bool = False  # this delivery processed it (a redelivery of a pending copy too)


def store_raw(engine: Engine, raw: bytes, *, now: datetime | None = None,
              claim: bool = False) -> Stored:
    """Add the message as pending, or find the copy stored before. `claim`: the caller
    processes it at once (the row is claimed for it, see pbem.mailin.process)."""
    message_id, digest = message_id_of(raw), content_hash(raw)
    now = now or utcnow()
    try:
        with writing(engine), engine.begin() as connection:  # one INSERT: no ORM session
            inserted = connection.execute(_INSERT, {
                "message_id": message_id, "content_hash": digest, "raw": raw,
                "status": "pending", "reason": None, "received_at": now,
                "processed_at": now if claim else None})
            return Stored(inserted_id(inserted), True)
    except IntegrityError:
        with transaction(engine, read_only=True) as session:
            found = session.exec(select(InboundMail.id).where(
                InboundMail.message_id == message_id, InboundMail.content_hash == digest)).first()
        if found is None:
            raise
        return Stored(found, False)


def store_spooled(engine: Engine, spool: Path) -> int:
    """Move what `pbem ingest` left in the spool (pbem.mailin.spool) into the database, oldest
    first: each file is stored as pending (store_raw, received when it was spooled), then
    removed once that is committed. A crash between the two leaves the file, which the next
    run stores again as the duplicate it is (the same Message-ID and body: one row), so a
    message is never lost nor stored twice; several workers may run this at once. Returns how
    many files were taken in (duplicates included)."""
    taken = 0
    for path in waiting(spool):
        spooled = _read_spooled(path)
        if spooled is None:
            continue
        raw, received = spooled
        store_raw(engine, raw, now=received)
        crash_point("spool-stored")  # committed, the file still there
        path.unlink(missing_ok=True)  # another worker may have taken it in too
        taken += 1
    remove_stale_tmp(spool)
    return taken


def _read_spooled(path: Path) -> tuple[bytes, datetime] | None:
    """The file's bytes and when it was spooled; None when it vanished (another worker took it
    in), or when it cannot be read or is over the cap (`pbem ingest` refuses such messages):
    then it is moved to the spool's failed/ folder, logged once (move it back into new/ once
    the cause is fixed)."""
    try:
        with path.open("rb") as spooled:
            raw = spooled.read(MAX_MESSAGE_BYTES + 1)
            received = datetime.fromtimestamp(os.fstat(spooled.fileno()).st_mtime, UTC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        set_aside(path, f"cannot be read: {exc}")
        return None
    if len(raw) > MAX_MESSAGE_BYTES:
        set_aside(path, f"is over {MAX_MESSAGE_BYTES} bytes")
        return None
    return raw, received


def purge_raw_mail(engine: Engine, older_than: timedelta, *, now: datetime | None = None) -> int:
    """Empty the raw bytes of finished messages received more than `older_than` ago.

    The rows stay (with their Message-ID and hash) so a late duplicate is still recognised.
    Returns how many were purged. Run daily (see PBEM_INBOUND_KEEP_DAYS)."""
    cutoff = (now or utcnow()) - older_than
    with transaction(engine) as session:
        result = session.exec(
            update(InboundMail)
            .where(col(InboundMail.received_at) < cutoff,
                   col(InboundMail.status) != "pending", col(InboundMail.raw) != b"")
            .values(raw=b"")
            .execution_options(synchronize_session=False)
        )
        return int(result.rowcount or 0)
