"""`POST /inbound`: a raw MIME message from a mail provider's inbound webhook, signed.

A way in for mail, so it lives with mail in; the app factory registers its blueprint.

Headers: `X-PBEM-Timestamp` (Unix seconds) and `X-PBEM-Signature` (hex HMAC-SHA256 with
PBEM_INBOUND_SECRET over `TIMESTAMP.` followed by the body; a `sha256=` prefix is allowed).
Requests older (or newer) than five minutes are refused, so a captured request can't be
replayed later; within that window a replay is a duplicate delivery, which is a no-op.
Optional `X-PBEM-Recipient` headers give envelope recipients (they are signed only as far as
the token in them is a capability anyway).

The request only stores the message, as every other way in does (store_raw: a pending
`inbound_mail` row, one INSERT; a copy with the same Message-ID and body is the row stored
before), and answers 202 Accepted with the row's id. `pbem worker` plays it within a second
(pbem.mailin.process.process_new, as it plays what `pbem ingest` spooled), so the move and the
robots' answers are never worked out in the provider's request, and a provider's retry of a
message stored once is a no-op however it races.

Unauthenticated callers must not cost memory: the signature headers are checked before any of
the body is read, the body is read in chunks up to MAX_BYTES (a chunked request has no
Content-Length, so a check on it alone would be skipped), and the HMAC is fed as it streams.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from pbem.mailin.receive import MAX_MESSAGE_BYTES, store_raw, with_recipients
from pbem.store.app_engine import db_engine

bp = Blueprint("inbound", __name__)
MAX_SKEW_SECONDS = 300
MAX_BYTES = MAX_MESSAGE_BYTES
CHUNK = 64 * 1024
_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")


class TooLarge(Exception):
    """The body is over MAX_BYTES (found while streaming it)."""


def sign(secret: str, timestamp: str, body: bytes) -> str:
    return hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def _refuse(status: int, why: str) -> tuple[Response, int]:
    return jsonify(error=why), status


def _read_signed(secret: str, stamp: str) -> tuple[bytes, str]:
    """The body (at most MAX_BYTES, else TooLarge) and its HMAC, computed as it is read."""
    mac = hmac.new(secret.encode(), stamp.encode() + b".", hashlib.sha256)
    chunks: list[bytes] = []
    size = 0
    request.max_content_length = MAX_BYTES  # before .stream: Werkzeug then caps it too
    while chunk := request.stream.read(CHUNK):
        size += len(chunk)
        if size > MAX_BYTES:
            raise TooLarge
        mac.update(chunk)
        chunks.append(chunk)
    return b"".join(chunks), mac.hexdigest()


@bp.post("/inbound")
def inbound() -> tuple[Response, int]:
    secret = current_app.config.get("INBOUND_SECRET") or ""
    if not secret:
        return _refuse(404, "the inbound webhook is not configured")
    stamp = request.headers.get("X-PBEM-Timestamp", "")
    given = request.headers.get("X-PBEM-Signature", "").removeprefix("sha256=").lower()
    if not (stamp.isascii() and stamp.isdigit()) or len(stamp) > 12 \
            or abs(time.time() - int(stamp)) > MAX_SKEW_SECONDS:
        return _refuse(401, "missing or stale timestamp")
    if not _HEX_DIGEST.fullmatch(given):
        return _refuse(401, "bad signature")
    if (request.content_length or 0) > MAX_BYTES:
        return _refuse(413, "message too large")
    try:
        body, expected = _read_signed(secret, stamp)
    except (TooLarge, RequestEntityTooLarge):
        return _refuse(413, "message too large")
    if not hmac.compare_digest(expected, given):
        return _refuse(401, "bad signature")
    if not body.strip():
        return _refuse(400, "empty message")
    recipients = request.headers.getlist("X-PBEM-Recipient")
    stored = store_raw(db_engine(), with_recipients(body, recipients))  # the worker plays it
    return jsonify(id=stored.id, duplicate=not stored.created), 202
