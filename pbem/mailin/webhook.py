"""`POST /inbound`: a raw MIME message from a mail provider's inbound webhook, signed.

A way in for mail, so it lives with mail in; the app factory registers its blueprint.

Headers: `X-PBEM-Timestamp` (Unix seconds) and `X-PBEM-Signature` (hex HMAC-SHA256 with
PBEM_INBOUND_SECRET over `TIMESTAMP.` followed by the body; a `sha256=` prefix is allowed).
Requests older (or newer) than five minutes are refused, so a captured request can't be
replayed later; within that window a replay is a duplicate delivery, which is a no-op.
Optional `X-PBEM-Recipient` headers give envelope recipients (they are signed only as far as
the token in them is a capability anyway).
"""

from __future__ import annotations

import hashlib
import hmac
import time

from flask import Blueprint, Response, current_app, jsonify, request

from pbem.mailin.process import Inbox, deliver

bp = Blueprint("inbound", __name__)
MAX_SKEW_SECONDS = 300
MAX_BYTES = 10 * 1024 * 1024


def sign(secret: str, timestamp: str, body: bytes) -> str:
    return hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def _refuse(status: int, why: str) -> tuple[Response, int]:
    return jsonify(error=why), status


@bp.post("/inbound")
def inbound() -> tuple[Response, int]:
    secret = current_app.config.get("INBOUND_SECRET") or ""
    if not secret:
        return _refuse(404, "the inbound webhook is not configured")
    if (request.content_length or 0) > MAX_BYTES:
        return _refuse(413, "message too large")
    body = request.get_data(cache=False)
    stamp = request.headers.get("X-PBEM-Timestamp", "")
    given = request.headers.get("X-PBEM-Signature", "").removeprefix("sha256=")
    if not stamp.isdigit() or abs(time.time() - int(stamp)) > MAX_SKEW_SECONDS:
        return _refuse(401, "missing or stale timestamp")
    if not hmac.compare_digest(sign(secret, stamp, body), given.lower()):
        return _refuse(401, "bad signature")
    if not body.strip():
        return _refuse(400, "empty message")
    recipients = request.headers.getlist("X-PBEM-Recipient")
    stored = deliver(Inbox.from_app(current_app._get_current_object()),  # type: ignore[attr-defined]
                     body, recipients)
    return jsonify(id=stored.id, duplicate=not stored.created), 202
