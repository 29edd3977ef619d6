"""Build outgoing emails: thread/reply/unsubscribe headers and the bytes that are sent.

`to_bytes` writes the MIME message directly (the outbox sends thousands; the `email` package's
default policy re-parses every header and took most of the sender's time). Header values still
go through `clean_header_text`, and `check_header_block` verifies the exact bytes: every
header line ends in CRLF, no bare CR or LF, only ASCII, and exactly the expected header names.
`to_message` + `serialize` build the same message with `EmailMessage` (kept for comparison).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import secrets
import uuid
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import format_datetime, formataddr, parseaddr
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from pbem.mail.headers import HeaderInjectionError, clean_header_text, verify_headers


@dataclass(frozen=True)
class MailSettings:
    """Where links point and which addresses and domain the mail uses."""

    domain: str
    base_url: str
    from_name: str = "Hearts"
    from_local: str = "hearts"
    reply_local: str = "play"
    # VERP (PBEM_BOUNCE_LOCALPART): bounces come back to `bounce_local+<outbox id>-<tag>@domain`,
    # the tag an HMAC with this secret (pbem.mail.outbox.verp_address); mail in reads them.
    bounce_local: str = ""
    bounce_secret: bytes = field(default=b"", repr=False)

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any]) -> MailSettings:
        """From the Flask config dict built by pbem.config.resolve."""
        base_url = str(cfg.get("BASE_URL", "http://127.0.0.1:5000")).rstrip("/")
        domain = cfg.get("MAIL_DOMAIN") or urlsplit(base_url).hostname or "localhost"
        name, addr = parseaddr(str(cfg.get("MAIL_FROM") or f"Hearts <hearts@{domain}>"))
        local = addr.partition("@")[0] or "hearts"
        return cls(domain=domain, base_url=base_url, from_name=name or "Hearts", from_local=local,
                   bounce_local=str(cfg.get("BOUNCE_LOCALPART") or ""),
                   bounce_secret=str(cfg.get("SECRET_KEY") or "").encode())

    @property
    def from_address(self) -> Address:
        return Address(self.from_name, self.from_local, self.domain)

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path.lstrip('/')}"


def new_message_id(kind: str, domain: str, reply_token: str | None = None) -> str:
    """A fresh Message-ID per email: `<pbem.{kind}.{uuid}@{domain}>`, or when the email can
    be answered `<pbem.{kind}.r-{token}.{random}@{domain}>`: Exchange, Outlook and other
    clients may keep only the In-Reply-To of the email answered (no References, no plus
    address), so its own Message-ID must lead back to the reply token too (see
    `reply_tokens_in`). Kept short: a header line over 78 characters gets folded or even
    encoded by some mail software."""
    if reply_token:
        return f"<pbem.{kind}.r-{reply_token}.{secrets.token_hex(4)}@{domain}>"
    return f"<pbem.{kind}.{uuid.uuid4().hex}@{domain}>"


def thread_root_id(game_id: int, player_id: int, domain: str) -> str:
    """The Message-ID all of one player's emails for one game refer to (one thread each)."""
    return f"<pbem.game-{game_id}.player-{player_id}@{domain}>"


# Outlook's conversations (MS-OXOMSG 2.2.1.3, PidTagConversationIndex): a 22-byte header block,
# one reserved byte and the top five bytes of a FILETIME, then a 16-byte GUID that names the
# conversation. Every email to one player about one game carries the same block (the time is
# a fixed moment: only the GUID groups), so Outlook and Exchange keep them in one conversation.
_THREAD_EPOCH_FILETIME = 133_801_632_000_000_000  # 2025-01-01T00:00Z in 100 ns since 1601


def thread_index(game_id: int, player_id: int, domain: str) -> str:
    """The Thread-Index header of every email to this player about this game."""
    guid = hashlib.sha256(f"pbem:{domain}:{game_id}:{player_id}".encode()).digest()[:16]
    when = (_THREAD_EPOCH_FILETIME >> 16).to_bytes(6, "big")  # 0x01 and five time bytes
    return base64.b64encode(when + guid).decode()


# A Message-ID we answer (the player's own email): printable ASCII, no spaces or angle
# brackets inside, one @, and short; anything else is not copied into our headers.
_ANSWERED_ID = re.compile(r"<[!-;=?-~]{1,120}@[!-;=?-~]{1,120}>")


def answered_id(value: object) -> str:
    """The Message-ID of an email we answer, checked (it is the sender's text); "" if unfit."""
    text = str(value or "").strip()
    return text if _ANSWERED_ID.fullmatch(text) and text.count("@") == 1 else ""


def reply_ref_id(reply_token: str, domain: str) -> str:
    """A Message-ID carrying the reply token, for servers that drop plus addressing."""
    return f"<pbem.reply.{reply_token}@{domain}>"


# Both forms we mint: `<pbem.reply.TOKEN@…>` (References) and `<pbem.KIND.r-TOKEN.RANDOM@…>`
# (each email's own Message-ID).
_TOKEN_IN_ID = re.compile(r"<pbem\.(?:reply\.([A-Za-z0-9]+)|[A-Za-z0-9_-]+\.r-([A-Za-z0-9]+)"
                          r"\.[0-9a-f]+)@[^>]*>")


def reply_tokens_in(header_value: str) -> list[str]:
    """The reply tokens of every Message-ID of ours in a header value (In-Reply-To,
    References), in order."""
    return [a or b for a, b in _TOKEN_IN_ID.findall(header_value)]


def without_tokens(header_value: str) -> str:
    """The same header with the reply token in each Message-ID of ours replaced by a short
    digest of it: a copy kept at rest still names its email but holds no usable token."""
    def masked(match: re.Match[str]) -> str:
        token = match.group(1) or match.group(2)
        digest = "h" + hashlib.sha256(token.encode()).hexdigest()[:12]
        return match.group(0).replace(token, digest)

    return _TOKEN_IN_ID.sub(masked, header_value)


def reply_address(reply_token: str, settings: MailSettings) -> Address:
    """`Hearts <play+TOKEN@domain>`: replies carry the token back."""
    return Address(settings.from_name, f"{settings.reply_local}+{reply_token}", settings.domain)


def unsubscribe_header(token: str, settings: MailSettings) -> str:
    """RFC 2369 List-Unsubscribe with the one-click https URL (POST only, RFC 8058). No mailto:
    mail in reads replies to play+TOKEN only, and an unsubscribe mail it refused would bounce."""
    return f"<{settings.url(f'u/{token}')}>"


@lru_cache(maxsize=4096)
def recipient(name: str, addr: str) -> str:
    """A To header value built by headerregistry.Address from a cleaned display name (cached:
    a pure function of its arguments, and parsing the address is most of build_headers)."""
    return str(Address(display_name=clean_header_text(name, 80), addr_spec=addr.strip()))


@lru_cache(maxsize=64)
def _from_header(settings: MailSettings) -> str:
    return str(settings.from_address)


# Emails that answer a player's own mail (RFC 3834 section 5: "auto-replied"); the rest are
# "auto-generated" (turns, results, reminders).
ANSWERS = frozenset({"error", "status", "help", "not_your_seat", "note", "unroutable"})


def build_headers(
    settings: MailSettings,
    *,
    kind: str,
    to_name: str,
    to_addr: str,
    game_id: int | None = None,
    player_id: int | None = None,
    reply_token: str | None = None,
    unsubscribe_token: str | None = None,
    thread_topic: str = "",
    in_reply_to: str = "",
) -> dict[str, str]:
    """The headers stored with an outbox row (everything but Subject and Date).

    A game's emails to one player are one conversation in Gmail, Outlook and Apple Mail
    (docs/presentation.md, "Subjects, previews and threading"): the same subject
    (`thread_topic`, also as Thread-Topic for Outlook), the same root Message-ID in
    In-Reply-To and first in References, and the same Thread-Index. An answer to the player's
    own email (`in_reply_to`: its Message-ID) is a reply to it: In-Reply-To names it, and
    References has it after the root, so it sits under the player's email in the thread."""
    headers = {
        "Message-ID": new_message_id(kind, settings.domain, reply_token),
        "From": _from_header(settings),
        "To": recipient(to_name, to_addr),
        "Auto-Submitted": "auto-replied" if kind in ANSWERS else "auto-generated",
        "X-Auto-Response-Suppress": "All",
        "X-PBEM-Loop": settings.domain,
    }
    references = []
    if game_id is not None and player_id is not None:
        root = thread_root_id(game_id, player_id, settings.domain)
        headers["In-Reply-To"] = root
        references.append(root)
        headers["Thread-Index"] = thread_index(game_id, player_id, settings.domain)
        if thread_topic:
            headers["Thread-Topic"] = clean_header_text(thread_topic)
    answered = answered_id(in_reply_to)
    if answered:
        headers["In-Reply-To"] = answered
        references.append(answered)
    if reply_token:
        headers["Reply-To"] = str(reply_address(reply_token, settings))
        references.append(reply_ref_id(reply_token, settings.domain))
    if references:
        headers["References"] = " ".join(references)
    if unsubscribe_token:
        headers["List-Unsubscribe"] = unsubscribe_header(unsubscribe_token, settings)
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return headers


def headers_or_problem(settings: MailSettings, **fields: Any) -> tuple[dict[str, str], str]:
    """build_headers, or no headers and why not: an address stored before addresses were
    checked where they come in (pbem.service.addresses) must fail its own email only, never
    the move or job whose transaction queues it."""
    try:
        return build_headers(settings, **fields), ""
    except ValueError as exc:  # email.errors.HeaderDefect is a ValueError
        return {}, f"unusable address {fields.get('to_addr', '')!r}: {exc}"[:2000]


def to_message(
    *,
    subject: str,
    body_text: str,
    body_html: str | None,
    headers: Mapping[str, str],
    date: datetime,
) -> EmailMessage:
    """The multipart/alternative message for one outbox row (headers re-cleaned).

    Send it as `serialize(msg)`, which verifies the headers of exactly those bytes.
    """
    msg = EmailMessage()
    for name, value in headers.items():
        msg[name] = clean_header_text(str(value), max_len=2000)
    msg["Subject"] = clean_header_text(subject)
    msg["Date"] = format_datetime(date)
    msg.set_content(body_text)
    if body_html:
        # base64: inlined HTML has lines over SMTP's 998-byte limit, and it is faster than QP.
        msg.add_alternative(body_html, subtype="html", cte="base64")
    return msg


def serialize(msg: EmailMessage) -> bytes:
    """The bytes to send (CRLF line ends), checked for injected headers on the way out."""
    data = msg.as_bytes(policy=SMTP_POLICY)
    verify_headers(msg, msg.keys(), data)
    return data


# --- the fast path: bytes written directly ------------------------------------------------

ADDRESS_HEADERS = frozenset({"from", "to", "cc", "reply-to", "sender"})
# Values that must stay ASCII: an encoded word there would corrupt them.
STRUCTURED_HEADERS = frozenset({"message-id", "in-reply-to", "references", "list-unsubscribe",
                                "list-unsubscribe-post", "date"})
FOLD_AT = 78  # RFC 5322 "SHOULD"; lines longer than 998 bytes are refused ("MUST")
MAX_LINE = 998
_NAME = re.compile(rb"[!-9;-~]+")  # RFC 5322 ftext
_WORD_BYTES = 39  # utf-8 bytes per encoded word: base64 52 + 12 = 64 chars (at most 75)


def to_bytes(
    *,
    subject: str,
    body_text: str,
    body_html: str | None,
    headers: Mapping[str, str],
    date: datetime,
) -> bytes:
    """The checked bytes (CRLF line ends) of one outbox row's message.

    Raises ValueError (HeaderInjectionError included) if the row cannot be sent safely.
    """
    fields = [(name, clean_header_text(str(value), max_len=2000))
              for name, value in headers.items()]
    fields += [("Subject", clean_header_text(subject)), ("Date", format_datetime(date))]
    mime_fields, body = _mime(body_text, body_html)
    fields += mime_fields
    head = "".join(header_line(name, value) for name, value in fields)
    data = head.encode("ascii") + b"\r\n" + body
    check_header_block(data, [name for name, _ in fields])
    return data


def header_line(name: str, value: str) -> str:
    """`Name: value` folded at spaces, CRLF-terminated; non-ASCII text as RFC 2047 words."""
    if not _NAME.fullmatch(name.encode("utf-8", "replace")):
        raise ValueError(f"bad header name {name!r}")
    if not value.isascii():
        value = _encode_value(name.lower(), value)
    return _fold(f"{name}: {value}")


def _encode_value(lname: str, value: str) -> str:
    if lname in STRUCTURED_HEADERS:
        raise ValueError(f"non-ASCII text in {lname}")
    if lname not in ADDRESS_HEADERS:
        return encoded_words(value)
    display, addr = parseaddr(value)
    if not addr or not addr.isascii():
        raise ValueError(f"{lname}: not a usable address")
    return f"{encoded_words(display)} <{addr}>" if display else formataddr(("", addr))


def encoded_words(text: str) -> str:
    """RFC 2047 base64 words of at most 75 characters (the space between words is ignored)."""
    words: list[str] = []
    chunk: list[str] = []
    size = 0
    for ch in text:
        n = len(ch.encode("utf-8"))
        if size + n > _WORD_BYTES:
            words.append("".join(chunk))
            chunk, size = [], 0
        chunk.append(ch)
        size += n
    words.append("".join(chunk))
    return " ".join(f"=?utf-8?b?{base64.b64encode(w.encode('utf-8')).decode('ascii')}?="
                    for w in words if w)


def _fold(line: str) -> str:
    name, _, value = line.partition(" ")
    out, current = [], name  # never fold between the name and the first word
    for i, word in enumerate(value.split(" ")):
        if i and word and len(current) + 1 + len(word) > FOLD_AT:
            out.append(current)
            current = " " + word
        else:
            current += " " + word
    out.append(current)
    if max(len(part) for part in out) > MAX_LINE:
        raise ValueError(f"header line longer than {MAX_LINE}: {line[:40]!r}...")
    return "\r\n".join(out) + "\r\n"


def _mime(body_text: str, body_html: str | None) -> tuple[list[tuple[str, str]], bytes]:
    """Top-level MIME headers and the body bytes: text/plain, or alternative text + html."""
    cte, text = _text_body(body_text)
    if not body_html:
        return [("MIME-Version", "1.0"), ("Content-Type", 'text/plain; charset="utf-8"'),
                ("Content-Transfer-Encoding", cte)], text
    html = _base64_body(body_html.encode("utf-8"))
    boundary = _boundary(text)
    body = b"".join([
        b"--", boundary, b"\r\nContent-Type: text/plain; charset=\"utf-8\"\r\n",
        b"Content-Transfer-Encoding: ", cte.encode("ascii"), b"\r\n\r\n", text,
        # The CRLF before a boundary belongs to the boundary, not to the part (RFC 2046).
        b"\r\n--", boundary, b"\r\nContent-Type: text/html; charset=\"utf-8\"\r\n",
        b"Content-Transfer-Encoding: base64\r\n\r\n", html,
        b"\r\n--", boundary, b"--\r\n",
    ])
    content_type = f'multipart/alternative; boundary="{boundary.decode("ascii")}"'
    return [("MIME-Version", "1.0"), ("Content-Type", content_type)], body


def _text_body(text: str) -> tuple[str, bytes]:
    """7bit when the text is short-lined ASCII, else quoted-printable; CRLF, final newline."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = (text[:-1] if text.endswith("\n") else text).split("\n")
    crlf = "\r\n".join(lines) + "\r\n"
    if crlf.isascii() and max(len(line) for line in lines) <= MAX_LINE:
        return "7bit", crlf.encode("ascii")
    # b2a_qp keeps CRLF line ends when the input uses them, and encodes "=" (so never "=_").
    return "quoted-printable", binascii.b2a_qp(crlf.encode("utf-8"), istext=True)


def _base64_body(data: bytes) -> bytes:
    encoded = base64.b64encode(data)
    return b"".join(encoded[i:i + 76] + b"\r\n" for i in range(0, len(encoded), 76))


def _boundary(text: bytes) -> bytes:
    while True:  # "=_" never occurs in base64 or quoted-printable; 7bit text is checked
        boundary = f"=_pbem_{secrets.token_hex(12)}".encode("ascii")
        if boundary not in text:
            return boundary


def check_header_block(data: bytes, expected: Iterable[str]) -> None:
    """Raise HeaderInjectionError unless the header block of `data` (the exact bytes to send)
    is CRLF-only, ASCII, well-formed, and has exactly the `expected` header names."""
    head, sep, _ = data.partition(b"\r\n\r\n")
    if not sep or not head.isascii():
        raise HeaderInjectionError("header block not ASCII or not terminated")
    names: list[str] = []
    for line in head.split(b"\r\n"):
        if b"\r" in line or b"\n" in line or len(line) > MAX_LINE:
            raise HeaderInjectionError(f"bad header line {line[:60]!r}")
        if line[:1] in (b" ", b"\t") and names and line.strip():
            continue  # a folded continuation of the previous header
        name, colon, _ = line.partition(b":")
        if not colon or not _NAME.fullmatch(name):
            raise HeaderInjectionError(f"bad header line {line[:60]!r}")
        names.append(name.decode("ascii").lower())
    found, wanted = Counter(names), Counter(n.lower() for n in expected)
    if found != wanted:
        extra, missing = sorted((found - wanted).elements()), sorted((wanted - found).elements())
        raise HeaderInjectionError(f"unexpected headers {extra}, missing {missing}")
