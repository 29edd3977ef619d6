"""Mail-in fixtures: ways to send a reply in (`deliver()`, the SMTP and LMTP receivers), each
returning the stored message's id."""

from __future__ import annotations

import smtplib
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.mailin.process import deliver
from pbem.mailin.smtp_receiver import ReplyController
from pbem.store.db import transaction
from pbem.store.models import InboundMail
from tests.mail.mailtest_support import free_port
from tests.mailin.support import inbox
from tests.mailin.variant_support import Send


@pytest.fixture
def by_deliver(engine: Engine) -> Send:
    return lambda raw, _recipient: deliver(inbox(engine), raw).id


def _receiver(engine: Engine, lmtp: bool) -> Iterator[Send]:
    controller = ReplyController(inbox(engine), port=free_port(), lmtp=lmtp)
    controller.start()

    def send(raw: bytes, recipient: str) -> int:
        cls = smtplib.LMTP if lmtp else smtplib.SMTP
        with cls("127.0.0.1", controller.port) as client:
            client.sendmail("player@example.org", [recipient], raw)
        controller.reply_handler.drain()
        return _newest_mail_id(engine)

    try:
        yield send
    finally:
        controller.stop()


@pytest.fixture
def by_smtp(engine: Engine) -> Iterator[Send]:
    yield from _receiver(engine, lmtp=False)


@pytest.fixture
def by_lmtp(engine: Engine) -> Iterator[Send]:
    yield from _receiver(engine, lmtp=True)


def _newest_mail_id(engine: Engine) -> int:
    with transaction(engine, read_only=True) as session:
        found = session.exec(select(InboundMail.id).order_by(col(InboundMail.id).desc())).first()
        assert found is not None
        return found
