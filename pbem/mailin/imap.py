"""An IMAP poller (imap-tools): fetch every message in the inbox folder, store it, move it to
the done folder, process it; then wait with IDLE, re-issued well within 10 minutes (RFC 2177
allows 29, but firewalls drop idle connections sooner)."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask
from imap_tools import MailBox, MailBoxUnencrypted
from imap_tools.mailbox import BaseMailBox

from pbem.mailin.process import Inbox, process, process_pending
from pbem.mailin.receive import store_raw

log = logging.getLogger(__name__)
IDLE_SECONDS = 9 * 60
_UID = re.compile(rb"UID (\d+)")


@dataclass(frozen=True)
class ImapSettings:
    host: str
    port: int = 993
    user: str = ""
    password: str = ""
    folder: str = "INBOX"
    done_folder: str = "pbem-done"
    ssl: bool = True

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any]) -> ImapSettings:
        port = int(str(cfg.get("IMAP_PORT") or 993))
        return cls(host=str(cfg.get("IMAP_HOST") or "127.0.0.1"), port=port,
                   user=str(cfg.get("IMAP_USER") or ""),
                   password=str(cfg.get("IMAP_PASSWORD") or ""),
                   folder=str(cfg.get("IMAP_FOLDER") or "INBOX"),
                   done_folder=str(cfg.get("IMAP_DONE_FOLDER") or "pbem-done"),
                   ssl=port == 993)


def connect(settings: ImapSettings) -> BaseMailBox:
    cls = MailBox if settings.ssl else MailBoxUnencrypted
    box = cls(settings.host, settings.port)
    box.login(settings.user, settings.password, initial_folder=settings.folder)
    if not box.folder.exists(settings.done_folder):
        box.folder.create(settings.done_folder)
    return box


def fetch_raw(box: BaseMailBox) -> list[tuple[str, bytes]]:
    """(uid, raw bytes) of every message in the selected folder, unchanged and left unseen."""
    typ, data = box.client.uid("SEARCH", "ALL")
    uids = data[0].split() if typ == "OK" and data and data[0] else []
    if not uids:
        return []
    typ, data = box.client.uid("FETCH", b",".join(uids).decode(), "(UID BODY.PEEK[])")
    found: list[tuple[str, bytes]] = []
    for item in data:
        if isinstance(item, tuple) and len(item) == 2:
            uid = _UID.search(item[0])
            if uid:
                found.append((uid.group(1).decode(), bytes(item[1])))
    return found


def poll_once(inbox: Inbox, box: BaseMailBox, settings: ImapSettings) -> int:
    """Store and move every waiting message, then process the new ones; how many stored."""
    fresh: list[int] = []
    messages = fetch_raw(box)
    for uid, raw in messages:
        stored = store_raw(inbox.engine, raw, now=inbox.clock())
        box.move(uid, settings.done_folder)  # only once it is safely stored
        if stored.created:
            fresh.append(stored.id)
    for mail_id in fresh:
        process(inbox, mail_id)
    return len(messages)


def run(inbox: Inbox, settings: ImapSettings, *, idle_seconds: int = IDLE_SECONDS,
        stop: object = None) -> None:
    """Poll forever (reconnecting with backoff after errors). `stop`: a threading.Event."""
    process_pending(inbox)
    backoff = 1.0
    while not (stop is not None and stop.is_set()):  # type: ignore[attr-defined]
        try:
            with connect(settings) as box:
                backoff = 1.0
                while not (stop is not None and stop.is_set()):  # type: ignore[attr-defined]
                    poll_once(inbox, box, settings)
                    box.idle.wait(timeout=idle_seconds)
        except Exception:
            log.exception("IMAP poller: reconnecting in %.0f s", backoff)
            time.sleep(backoff)
            backoff = min(backoff * 2, 300.0)


def poll_imap(app: Flask) -> int:
    """One poll of the configured mailbox (the worker runs it every minute); 0 when
    PBEM_IMAP_HOST is not set."""
    if not app.config.get("IMAP_HOST"):
        return 0
    settings = ImapSettings.from_config(app.config)
    with connect(settings) as box:
        return poll_once(Inbox.from_app(app), box, settings)
