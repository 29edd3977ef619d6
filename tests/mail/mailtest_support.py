"""Test support for mail tests: a real SMTP server (aiosmtpd) collecting what it receives."""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from pbem.mail.outbox import SmtpSettings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes

    @property
    def message(self) -> EmailMessage:
        return message_from_bytes(self.data, policy=policy.default)  # type: ignore[return-value]


@dataclass
class Recorder:
    """aiosmtpd handler: keeps every accepted message; refuses addresses in `reject` with 550."""

    messages: list[Received] = field(default_factory=list)
    reject: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: Any) -> str:
        if address in self.reject:
            return self.reject[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.messages.append(
                Received(envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 Message accepted for delivery"


class SmtpServer:
    def __init__(self, port: int) -> None:
        self.port = port
        self.recorder = Recorder()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.recorder, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    @property
    def messages(self) -> list[Received]:
        return self.recorder.messages

    @property
    def settings(self) -> SmtpSettings:
        return SmtpSettings(host="127.0.0.1", port=self.port, timeout=5,
                            envelope_from="bounces@hearts.test")
