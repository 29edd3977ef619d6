"""Build outgoing emails: thread/reply/unsubscribe headers and the multipart EmailMessage."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import format_datetime, parseaddr
from typing import Any
from urllib.parse import urlsplit

from pbem.mail.headers import clean_header_text, verify_headers


@dataclass(frozen=True)
class MailSettings:
    """Where links point and which addresses and domain the mail uses."""

    domain: str
    base_url: str
    from_name: str = "Hearts"
    from_local: str = "hearts"
    reply_local: str = "play"
    unsubscribe_local: str = "unsubscribe"

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any]) -> MailSettings:
        """From the Flask config dict built by pbem.config.resolve."""
        base_url = str(cfg.get("BASE_URL", "http://127.0.0.1:5000")).rstrip("/")
        domain = cfg.get("MAIL_DOMAIN") or urlsplit(base_url).hostname or "localhost"
        name, addr = parseaddr(str(cfg.get("MAIL_FROM") or f"Hearts <hearts@{domain}>"))
        local = addr.partition("@")[0] or "hearts"
        return cls(domain=domain, base_url=base_url, from_name=name or "Hearts", from_local=local)

    @property
    def from_address(self) -> Address:
        return Address(self.from_name, self.from_local, self.domain)

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path.lstrip('/')}"


def new_message_id(kind: str, domain: str) -> str:
    """A fresh, stable-per-email Message-ID: `<pbem.{kind}.{uuid}@{domain}>`."""
    return f"<pbem.{kind}.{uuid.uuid4().hex}@{domain}>"


def thread_root_id(game_id: int, player_id: int, domain: str) -> str:
    """The Message-ID all of one player's emails for one game refer to (one thread each)."""
    return f"<pbem.game-{game_id}.player-{player_id}@{domain}>"


def reply_ref_id(reply_token: str, domain: str) -> str:
    """A Message-ID carrying the reply token, for servers that drop plus addressing."""
    return f"<pbem.reply.{reply_token}@{domain}>"


def reply_address(reply_token: str, settings: MailSettings) -> Address:
    """`Hearts <play+TOKEN@domain>`: replies carry the token back."""
    return Address(settings.from_name, f"{settings.reply_local}+{reply_token}", settings.domain)


def unsubscribe_header(token: str, settings: MailSettings) -> str:
    """RFC 2369 List-Unsubscribe: the one-click https URL (POST only, RFC 8058) and a mailto."""
    url = settings.url(f"u/{token}")
    mailto = f"mailto:{settings.unsubscribe_local}+{token}@{settings.domain}?subject=unsubscribe"
    return f"<{url}>, <{mailto}>"


def recipient(name: str, addr: str) -> str:
    """A To header value built by headerregistry.Address from a cleaned display name."""
    return str(Address(display_name=clean_header_text(name, 80), addr_spec=addr.strip()))


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
) -> dict[str, str]:
    """The headers stored with an outbox row (everything but Subject and Date)."""
    headers = {
        "Message-ID": new_message_id(kind, settings.domain),
        "From": str(settings.from_address),
        "To": recipient(to_name, to_addr),
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
        "X-PBEM-Loop": settings.domain,
    }
    references = []
    if game_id is not None and player_id is not None:
        root = thread_root_id(game_id, player_id, settings.domain)
        headers["In-Reply-To"] = root
        references.append(root)
    if reply_token:
        headers["Reply-To"] = str(reply_address(reply_token, settings))
        references.append(reply_ref_id(reply_token, settings.domain))
    if references:
        headers["References"] = " ".join(references)
    if unsubscribe_token:
        headers["List-Unsubscribe"] = unsubscribe_header(unsubscribe_token, settings)
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return headers


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
