"""Bounces to a VERP envelope sender (issue 16): the address an email went out from names the
outbox row, so a delivery status notification maps to its player without guessing from the
report's addresses. A permanent failure (5.x.x) fails the email and, when it says the address is
bad (5.1.x), marks the player's address failing; a delay (4.x.x) marks nothing. Never answered
(no backscatter); the raw message is kept with its reason. Through every way in, on both
databases."""

from __future__ import annotations

import re
import smtplib
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from email.message import EmailMessage
from email.policy import SMTP

import pytest
from flask import Flask
from imap_tools import MailBoxUnencrypted
from sqlalchemy import Engine, func
from sqlmodel import col, select

from pbem.app import db_engine
from pbem.mail.outbox import SmtpSettings, drain_outbox
from pbem.mailin.imap import poll_imap
from pbem.mailin.process import Inbox
from pbem.mailin.smtp_receiver import ReplyController
from pbem.scheduler.worker import play_new_inbound_mail
from pbem.store.db import transaction
from pbem.store.models import InboundMail, OutboxEmail
from tests.mail.mailtest_support import SmtpServer, free_port
from tests.mailin.dovecot import DOVECOT, PASSWORD, USER, Dovecot
from tests.mailin.support import (
    WEBHOOK_SECRET,
    ingest_and_work,
    player,
    post_to_webhook,
    two_human_game,
)
from tests.mailin.test_imap import dovecot  # noqa: F401  (the fixture)

ANN, BOB = "ann@example.org", "bob@example.org"
Send = Callable[[bytes, str], None]


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str) -> Flask:
    return make_app(DATABASE_URL=db_url, BOUNCE_LOCALPART="bounces",
                    INBOUND_SECRET=WEBHOOK_SECRET)


@pytest.fixture
def sink() -> Iterator[SmtpServer]:
    server = SmtpServer(free_port())
    server.start()
    yield server
    server.stop()


def verp_sender_of_anns_email(app: Flask, sink: SmtpServer) -> tuple[str, int]:
    """A game starts; its first emails go out through a real SMTP server from VERP envelope
    senders. Ann's email's sender and outbox row."""
    engine = db_engine(app)
    two_human_game(engine)
    settings = replace(SmtpSettings.from_config(app.config), host="127.0.0.1", port=sink.port)
    assert drain_outbox(engine, settings).sent
    sent = next(m for m in sink.messages if m.rcpt_tos == [ANN])
    named = re.fullmatch(r"bounces\+(\d+)-[0-9a-f]{10}@pbem\.test", sent.mail_from)
    assert named is not None, sent.mail_from
    with transaction(engine, read_only=True) as session:
        row = session.get(OutboxEmail, int(named.group(1)))
        assert row is not None and row.id is not None and row.to_addr == ANN
    return sent.mail_from, row.id


def dsn(to: str, status: str, action: str = "failed",
        final: str = "ann.forwarded@elsewhere.example") -> bytes:
    """A Postfix-like RFC 3464 report. Its Final-Recipient is where Ann's mail was forwarded,
    an address no player uses: only the VERP address says whose email this was."""
    return (
        "Return-Path: <>\r\n"
        "From: Mail Delivery System <MAILER-DAEMON@mx.elsewhere.example>\r\n"
        f"To: {to}\r\n"
        "Subject: Undelivered Mail Returned to Sender\r\n"
        f"Message-ID: <{time.time_ns()}.{status}@mx.elsewhere.example>\r\n"
        "Auto-Submitted: auto-replied\r\n"
        "MIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="B0UND"\r\n'
        "\r\n--B0UND\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n"
        "Your message could not be delivered.\r\n"
        "\r\n--B0UND\r\nContent-Type: message/delivery-status\r\n\r\n"
        "Reporting-MTA: dns; mx.elsewhere.example\r\n\r\n"
        f"Final-Recipient: rfc822; {final}\r\nAction: {action}\r\nStatus: {status}\r\n"
        f"Diagnostic-Code: smtp; {status[0]}50 {status} <{final}>: mailbox trouble\r\n"
        "\r\n--B0UND--\r\n").encode()


def by_receiver(app: Flask, lmtp: bool) -> Iterator[Send]:
    controller = ReplyController(Inbox.from_app(app), port=free_port(), lmtp=lmtp)
    controller.start()

    def send(raw: bytes, rcpt: str) -> None:
        cls = smtplib.LMTP if lmtp else smtplib.SMTP
        with cls("127.0.0.1", controller.port) as client:
            client.sendmail("", [rcpt], raw)  # a bounce's envelope sender is empty
        controller.reply_handler.drain()

    try:
        yield send
    finally:
        controller.stop()


def by_ingest(app: Flask) -> Iterator[Send]:
    yield lambda raw, rcpt: ingest_and_work(app, raw, [rcpt])


def by_webhook(app: Flask) -> Iterator[Send]:
    def send(raw: bytes, rcpt: str) -> None:
        assert post_to_webhook(app, raw, rcpt).status_code == 202  # stored
        play_new_inbound_mail(app)  # the worker's step plays it

    yield send


@pytest.fixture(params=["smtp", "lmtp", "ingest", "webhook"])
def send(request: pytest.FixtureRequest, app: Flask) -> Iterator[Send]:
    if request.param in ("smtp", "lmtp"):
        yield from by_receiver(app, lmtp=request.param == "lmtp")
    elif request.param == "ingest":
        yield from by_ingest(app)
    else:
        yield from by_webhook(app)


def inbound(engine: Engine) -> InboundMail:
    with transaction(engine, read_only=True) as session:
        found = session.exec(select(InboundMail).order_by(col(InboundMail.id).desc())).first()
        assert found is not None
        return found


def outbox_rows(engine: Engine) -> int:
    with transaction(engine, read_only=True) as session:
        return int(session.exec(select(func.count()).select_from(OutboxEmail)).one())


def outbox_row(engine: Engine, row_id: int) -> OutboxEmail:
    with transaction(engine, read_only=True) as session:
        found = session.get(OutboxEmail, row_id)
        assert found is not None
        return found


def assert_permanent_bounce_marks_ann(app: Flask, row_id: int, before: int) -> None:
    engine = db_engine(app)
    ann = player(engine, ANN)
    assert ann.email_status == "failing" and "5.1.1" in (ann.email_status_reason or "")
    assert player(engine, BOB).email_status == "ok"
    assert outbox_row(engine, row_id).status == "failed"
    mail = inbound(engine)
    assert mail.status == "processed" and f"email #{row_id} to player {ann.id}" in mail.reason
    assert b"Final-Recipient: rfc822; ann.forwarded@elsewhere.example" in mail.raw
    assert outbox_rows(engine) == before  # never answered: no backscatter


def test_a_permanent_bounce_to_the_verp_sender_marks_its_player(
        app: Flask, sink: SmtpServer, send: Send) -> None:
    verp, row_id = verp_sender_of_anns_email(app, sink)
    before = outbox_rows(db_engine(app))
    send(dsn(verp, "5.1.1"), verp)
    assert_permanent_bounce_marks_ann(app, row_id, before)


@pytest.mark.skipif(DOVECOT is None, reason="dovecot is not installed")
def test_a_permanent_bounce_fetched_by_imap_marks_its_player(
        make_app: Callable[..., Flask], db_url: str, sink: SmtpServer,
        dovecot: Dovecot) -> None:  # noqa: F811
    app = make_app(DATABASE_URL=db_url, BOUNCE_LOCALPART="bounces", IMAP_HOST="127.0.0.1",
                   IMAP_PORT=str(dovecot.port), IMAP_USER=USER, IMAP_PASSWORD=PASSWORD)
    verp, row_id = verp_sender_of_anns_email(app, sink)
    before = outbox_rows(db_engine(app))
    with MailBoxUnencrypted("127.0.0.1", dovecot.port).login(USER, PASSWORD) as box:
        box.append(dsn(verp, "5.1.1"), "INBOX")  # the VERP address only in To:
    assert poll_imap(app) == 1
    assert_permanent_bounce_marks_ann(app, row_id, before)


@pytest.fixture
def smtp_in(app: Flask) -> Iterator[Send]:
    yield from by_receiver(app, lmtp=False)


def test_a_delayed_delivery_report_marks_nothing(
        app: Flask, sink: SmtpServer, smtp_in: Send) -> None:
    """4.x.x: the relay is still trying; the email may yet arrive."""
    verp, row_id = verp_sender_of_anns_email(app, sink)
    engine = db_engine(app)
    before = outbox_rows(engine)
    smtp_in(dsn(verp, "4.2.2", action="delayed"), verp)
    assert player(engine, ANN).email_status == "ok"
    assert outbox_row(engine, row_id).status == "sent"
    mail = inbound(engine)
    assert mail.status == "ignored" and "delayed" in mail.reason and "4.2.2" in mail.reason
    assert outbox_rows(engine) == before


def test_a_refusal_that_is_not_about_the_address_fails_the_email_only(
        app: Flask, sink: SmtpServer, smtp_in: Send) -> None:
    """5.7.1 (policy, spam): this email failed; the address still works."""
    verp, row_id = verp_sender_of_anns_email(app, sink)
    engine = db_engine(app)
    smtp_in(dsn(verp, "5.7.1"), verp)
    assert player(engine, ANN).email_status == "ok"
    assert outbox_row(engine, row_id).status == "failed"
    assert "5.7.1" in (outbox_row(engine, row_id).last_error or "")
    mail = inbound(engine)
    assert mail.status == "processed" and "not the address" in mail.reason


def test_mail_to_the_verp_sender_that_is_no_report_marks_nothing(
        app: Flask, sink: SmtpServer, smtp_in: Send) -> None:
    """An out-of-office answering the envelope sender: kept, unanswered, nothing marked."""
    verp, row_id = verp_sender_of_anns_email(app, sink)
    engine = db_engine(app)
    before = outbox_rows(engine)
    away = EmailMessage()
    away["From"], away["To"], away["Subject"] = ANN, verp, "Out of office"
    away["Message-ID"] = "<away.1@example.org>"
    away.set_content("I am away until Monday.")
    smtp_in(away.as_bytes(policy=SMTP), verp)
    assert player(engine, ANN).email_status == "ok"
    assert outbox_row(engine, row_id).status == "sent"
    mail = inbound(engine)
    assert mail.status == "ignored" and "not a delivery status notification" in mail.reason
    assert b"I am away until Monday." in mail.raw
    assert outbox_rows(engine) == before


def test_a_forged_verp_address_is_refused_at_rcpt_time(
        app: Flask, sink: SmtpServer) -> None:
    verp, row_id = verp_sender_of_anns_email(app, sink)
    forged = verp.replace(f"+{row_id}-", f"+{row_id + 1}-")
    controller = ReplyController(Inbox.from_app(app), port=free_port())
    controller.start()
    try:
        with smtplib.SMTP("127.0.0.1", controller.port) as client:
            client.ehlo()
            client.mail("")
            assert client.rcpt(forged)[0] == 550
            assert client.rcpt(verp.replace("@pbem.test", "@other.example"))[0] == 550
            assert client.rcpt(verp)[0] == 250
    finally:
        controller.stop()


def test_a_forged_verp_address_by_another_way_in_blames_no_one(
        app: Flask, sink: SmtpServer) -> None:
    """`pbem ingest` (no RCPT check): the forged tag names no email; the report's address is
    no player's, so nothing is marked."""
    verp, row_id = verp_sender_of_anns_email(app, sink)
    forged = verp.replace(f"+{row_id}-", f"+{row_id}1-")
    send = next(by_ingest(app))
    send(dsn(forged, "5.1.1"), forged)
    engine = db_engine(app)
    assert player(engine, ANN).email_status == "ok"
    assert outbox_row(engine, row_id).status == "sent"


# Reports to our From address (no VERP): tests/mailin/test_plain_bounces.py.
