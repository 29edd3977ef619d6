"""The catcher's SMTP side: an aiosmtpd server on loopback that saves every message it gets."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

from pbem.devmail.store import MailStore

log = logging.getLogger(__name__)
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 1025


class CatchAll:
    """aiosmtpd handler: accept every recipient and store the message as it arrived."""

    def __init__(self, store: MailStore) -> None:
        self.store = store

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        data = envelope.content
        if isinstance(data, str):
            data = data.encode("utf-8")
        entry = self.store.save(data, str(envelope.mail_from), list(envelope.rcpt_tos))
        log.info("caught mail %s to %s: %s", entry.id, entry.to, entry.subject)
        return "250 Message accepted for delivery"


def start_catcher(folder: Path, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> Controller:
    """Start the SMTP catcher in its own thread; call `.stop()` on the result to end it."""
    controller = Controller(CatchAll(MailStore(folder)), hostname=host, port=port)
    controller.start()
    return controller
