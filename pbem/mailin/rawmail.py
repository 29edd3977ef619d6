"""What a stored message's row is made of (its Message-ID, body hash, envelope recipients),
with the standard library only: `pbem ingest` (pbem.mailin.pipe) and store_raw share it."""

from __future__ import annotations

import hashlib
import re

# The largest message any way in accepts (a reply is a few kB; attachments are not read).
MAX_MESSAGE_BYTES = 10 * 1024 * 1024
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_MESSAGE_ID = re.compile(rb"^message-id:[ \t]*(.*(?:\r?\n[ \t].*)*)", re.IGNORECASE | re.MULTILINE)


def message_id_of(raw: bytes) -> str:
    head = _HEADER_END.split(raw, 1)[0]
    found = _MESSAGE_ID.search(head)
    if not found:
        return ""
    return b" ".join(found.group(1).split()).decode("ascii", "replace")[:998]


def content_hash(raw: bytes) -> str:
    parts = _HEADER_END.split(raw, 1)
    body = parts[1] if len(parts) == 2 else raw
    lines = body.replace(b"\r\n", b"\n").rstrip().split(b"\n")
    return hashlib.sha256(b"\n".join(line.rstrip() for line in lines)).hexdigest()


def with_recipients(raw: bytes, recipients: list[str]) -> bytes:
    """The message with Delivered-To headers in front, as an MTA's local delivery adds them,
    so the envelope recipients (where the reply token is) stay with the raw bytes."""
    lines = b"".join(b"Delivered-To: " + r.encode("ascii", "replace") + b"\r\n"
                     for r in recipients if "\r" not in r and "\n" not in r)
    return lines + raw
