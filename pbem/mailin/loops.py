"""Loops: recognise mail no one typed — auto-replies, lists, our own mail, bounces (DSNs).

We never answer such mail (RFC 3834 and practice, see NOTES.md). A delivery status notification
that reports a permanent failure names the address that fails and, if it is genuine, the email
that failed (anyone can write one: process marks a player only for an email we sent them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from email.message import Message
from email.utils import parseaddr
from typing import Any, Protocol

from pbem.mailin.rawmail import message_id_of

_DAEMONS = re.compile(r"^(mailer-daemon|postmaster|mail-daemon|mailer_daemon)@", re.IGNORECASE)
_NOREPLY = re.compile(r"^(no-?reply|do-?not-?reply|bounces?)[@+]", re.IGNORECASE)


@dataclass(frozen=True)
class Bounce:
    """A DSN: who failed for good (lower-cased addresses: each failure's Final-Recipient and
    Original-Recipient), the status line for the record (the first failure's; without one,
    what the report says instead, e.g. "delayed: 4.2.2"), and the Message-IDs it names as the
    email that failed (`named`, see named_ids): only these tie it to an email we sent."""

    recipients: tuple[str, ...]
    permanent: bool
    status: str
    named: tuple[str, ...] = ()


class Headers(Protocol):
    def get(self, name: str, failobj: Any = None) -> Any: ...


_RAW_HEADER = re.compile(rb"^([!-9;-~]+)[ \t]*:[ \t]*(.*?)\r?$", re.MULTILINE)
_HEAD_END = re.compile(rb"\r?\n\r?\n")
RAW_HEAD_LIMIT = 256 * 1024


class RawHeaders:
    """The header lines of raw bytes, read line by line without a parser: a broken line
    (no colon, a NUL, 8-bit junk) ends the parser's headers, and what comes after it (an
    Auto-Submitted line, say) would be read as body. The first of each name counts."""

    def __init__(self, raw: bytes) -> None:
        head = _HEAD_END.split(raw[:RAW_HEAD_LIMIT], 1)[0]
        self.fields: dict[str, str] = {}
        for name, value in _RAW_HEADER.findall(head):
            key = name.decode("ascii").lower()
            self.fields.setdefault(key, value.decode("utf-8", "replace"))

    def get(self, name: str, failobj: Any = None) -> Any:
        return self.fields.get(name.lower(), failobj)


def automatic_reason(message: Headers) -> str | None:
    """Why this message must get no answer (None: a person may have written it)."""
    header = _header(message)
    auto = header("Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = header("Precedence").lower()
    if precedence in {"bulk", "junk", "list", "auto_reply"}:
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress", "List-Id",
                 "List-Unsubscribe", "Feedback-ID", "X-PBEM-Loop"):
        if message.get(name) is not None:
            return f"{name} header"
    return_path = message.get("Return-Path")
    if return_path is not None and parseaddr(str(return_path))[1] == "":
        return "empty Return-Path"
    sender = sender_address(message)
    if not sender:
        return "no From address"
    if _DAEMONS.match(sender) or _NOREPLY.match(sender):
        return f"sent by {sender}"
    return None


def automatic_reason_raw(raw: bytes, message: Message | None = None) -> str | None:
    """`automatic_reason` of the parsed message, else of its raw header lines (however
    broken the headers around the line that says so)."""
    return (automatic_reason(message) if message is not None else None) \
        or automatic_reason(RawHeaders(raw))


def sender_address(message: Headers) -> str:
    return parseaddr(str(message.get("From", "")))[1].strip().lower()


def bounce_of(message: Message) -> Bounce | None:
    """The DSN in this message (RFC 3464 multipart/report), or None if it isn't one."""
    if message.get_content_type() != "multipart/report":
        return None
    if str(message.get_param("report-type", "")).lower() != "delivery-status":
        return None
    for part in message.walk():
        if part.get_content_type() == "message/delivery-status":
            found = _read_status(part)
            return replace(found, named=named_ids(message, found.named))
    return Bounce((), False, "", named_ids(message))


NAMED_LIMIT = 20  # Message-IDs read from one report (a hostile one may list thousands)
_MESSAGE_IDS = re.compile(r"<[^<>\s]{1,250}>")
_RETURNED_HEADERS = ("text/rfc822-headers", "message/rfc822-headers")


def named_ids(report: Message, in_status: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The Message-IDs a delivery report names as the email that failed: the returned
    message's own (a message/rfc822 part, or its headers in a text/rfc822-headers part), an
    Original-Message-ID field of the report (`in_status`), and the report's In-Reply-To and
    References (some servers answer the failed email)."""
    found = list(in_status)
    for part in report.walk():
        kind = part.get_content_type()
        if kind == "message/rfc822":
            inner = part.get_payload()
            if isinstance(inner, list) and inner and isinstance(inner[0], Message):
                found.append(str(inner[0].get("Message-ID", "")))
        elif kind in _RETURNED_HEADERS:
            data = part.get_payload(decode=True)
            if isinstance(data, bytes):
                found.append(message_id_of(data.lstrip(b"\r\n")))
    for name in ("In-Reply-To", "References"):
        found += [str(value) for value in report.get_all(name) or []]
    ids = [i for text in found for i in _MESSAGE_IDS.findall(text)]
    return tuple(dict.fromkeys(ids))[:NAMED_LIMIT]


def _read_status(part: Message) -> Bounce:
    # The policy parses message/delivery-status into a list of header blocks (one per
    # recipient after the per-message one); older policies leave text. Read both.
    payload = part.get_payload()
    if isinstance(payload, list):
        text = "\n\n".join(str(block) for block in payload)
    else:
        data = part.get_payload(decode=True)
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(payload)
    recipients: list[str] = []
    named: list[str] = []
    failed = other = ""
    for block in re.split(r"\n\s*\n", text):
        fields = _fields(block)
        named += [fields[n] for n in ("original-message-id", "x-original-message-id")
                  if n in fields]
        rcpts = [fields[n] for n in ("final-recipient", "original-recipient") if fields.get(n)]
        if not rcpts:
            continue
        action = fields.get("action", "").lower()
        code = fields.get("status", "")
        said = f"{code} {fields.get('diagnostic-code', '')}".strip()
        if action == "failed" or code.startswith("5"):
            recipients += [r.split(";", 1)[-1].strip().strip("<>").lower() for r in rcpts]
            failed = failed or said
        else:  # delayed, relayed, delivered, expanded: nothing failed for good
            other = other or f"{action or 'no action'}: {said}".strip()
    return Bounce(tuple(dict.fromkeys(recipients)), bool(recipients), failed or other,
                  tuple(named))


def _fields(block: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in re.sub(r"\n[ \t]+", " ", block).splitlines():
        name, colon, value = line.partition(":")
        if colon:
            out.setdefault(name.strip().lower(), value.strip())
    return out


def _header(message: Headers):  # type: ignore[no-untyped-def]
    def get(name: str) -> str:
        value = message.get(name)
        return str(value).strip() if value is not None else ""

    return get
