"""What a stored message's row is made of (its Message-ID, content hash, envelope recipients),
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


# A message's own headers (what its sender's client wrote), not those added on the way in
# (Received, Delivered-To, Return-Path, X-Original-To...): the same in every copy of it.
OWN_HEADERS = frozenset({b"from", b"to", b"cc", b"subject", b"date", b"in-reply-to",
                         b"references"})
_FIELD = re.compile(rb"^([!-9;-~]+)[ \t]*:(.*(?:\r?\n[ \t].*)*)", re.MULTILINE)


def content_hash(raw: bytes) -> str:
    """What, with its Message-ID, identifies a message (stored once, see store_raw): the hash
    of its body (trailing spaces and line endings aside), so a copy that came by another way
    in (other Received or Delivered-To headers) is the same message. Without a Message-ID the
    body is not enough (two replies "QS" to two games), so the message's own headers go in
    too (OWN_HEADERS: who, to whom, when, about what, answering which email), unfolded and
    with their whitespace collapsed; a reply-all's copies to two of our addresses still have
    the same."""
    parts = _HEADER_END.split(raw, 1)
    body = parts[1] if len(parts) == 2 else raw
    lines = body.replace(b"\r\n", b"\n").rstrip().split(b"\n")
    text = b"\n".join(line.rstrip() for line in lines)
    if len(parts) == 2 and not message_id_of(raw):
        own = sorted((name.lower(), b" ".join(value.split()))
                     for name, value in _FIELD.findall(parts[0]) if name.lower() in OWN_HEADERS)
        text = b"".join(name + b": " + value + b"\n" for name, value in own) + b"\n" + text
    return hashlib.sha256(text).hexdigest()


def with_recipients(raw: bytes, recipients: list[str]) -> bytes:
    """The message with Delivered-To headers in front, as an MTA's local delivery adds them,
    so the envelope recipients (where the reply token is) stay with the raw bytes."""
    lines = b"".join(b"Delivered-To: " + r.encode("ascii", "replace") + b"\r\n"
                     for r in recipients if "\r" not in r and "\n" not in r)
    return lines + raw
