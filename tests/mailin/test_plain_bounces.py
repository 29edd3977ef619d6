"""Bounces without VERP (QA finding 3): a delivery status notification to our From address
marks a player's address failing only when it names an email we sent to the address it says
failed (its returned copy, in a message/rfc822 or text/rfc822-headers part, or In-Reply-To).
Anyone can write a report, so one naming no such email is kept (raw, with the reason) and
changes nothing. A player whose address is marked failing and who then replies from it through
their own seat's reply token evidently gets mail: the mark is cleared before the reply is
carried out, so its answer and their later emails go out. Emails really sent through an SMTP
server; reports and replies through every way in, on both databases."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import pytest
from flask import Flask
from sqlmodel import select

from pbem.app import db_engine
from pbem.mail.compose import without_tokens
from pbem.mail.outbox import SmtpSettings, drain_outbox
from pbem.mailin.rawmail import message_id_of
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail
from tests.mail.mailtest_support import SmtpServer
from tests.mailin.support import (
    WEBHOOK_SECRET,
    emails,
    player,
    reply,
    state_of,
    two_human_game,
)
from tests.mailin.test_verp_bounces import (  # noqa: F401 (the fixtures)
    ANN,
    BOB,
    Send,
    dsn,
    inbound,
    outbox_row,
    outbox_rows,
    send,
    sink,
)

HEARTS = "hearts@pbem.test"


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str) -> Flask:
    """No PBEM_BOUNCE_LOCALPART: emails go out from hearts@, and reports come back there."""
    return make_app(DATABASE_URL=db_url, INBOUND_SECRET=WEBHOOK_SECRET)


Sent = dict[str, tuple[bytes, int]]


def drain(app: Flask, server: SmtpServer) -> None:
    settings = replace(SmtpSettings.from_config(app.config), host="127.0.0.1", port=server.port)
    assert drain_outbox(db_engine(app), settings).sent


def sent_emails(app: Flask, server: SmtpServer) -> tuple[int, Sent]:
    """A game starts; its first emails go out through a real SMTP server from hearts@. The
    game, and each player's email as their server received it with its outbox row (which
    keeps its Message-ID without the reply token in it)."""
    engine = db_engine(app)
    with app.app_context():  # its emails as the app writes them (From hearts@pbem.test)
        game = two_human_game(engine)
    drain(app, server)
    found = {}
    for address in (ANN, BOB):
        sent = next(m for m in server.messages if m.rcpt_tos == [address])
        assert sent.mail_from == HEARTS
        message_id = message_id_of(sent.data)
        with transaction(engine, read_only=True) as session:
            row = session.exec(select(OutboxEmail).where(
                OutboxEmail.message_id == without_tokens(message_id))).one()
        assert row.id is not None and row.to_addr == address and row.status == "sent"
        assert row.message_id != message_id  # the row keeps no reply token
        found[address] = (sent.data, row.id)
    return game, found


def head(raw: bytes) -> bytes:
    return re.split(rb"\r?\n\r?\n", raw, maxsplit=1)[0] + b"\r\n"


def returned_headers(raw: bytes) -> str:
    """The report's third part as Postfix writes it: the failed email's header lines."""
    return "Content-Type: text/rfc822-headers\r\n\r\n" + head(raw).decode()


def returned_message(raw: bytes) -> str:
    """The report's third part as Exim and Exchange write it: the whole failed email."""
    return "Content-Type: message/rfc822\r\n\r\n" + raw.decode()


def report(status: str, final: str, *, action: str = "failed", returned: str = "",
           in_reply_to: str = "") -> bytes:
    """An RFC 3464 report to hearts@ about `final`, with the failed email returned (a MIME
    part) or named in In-Reply-To, or neither."""
    raw = dsn(HEARTS, status, action=action, final=final)
    if returned:
        raw = raw.replace(b"\r\n--B0UND--\r\n", f"\r\n--B0UND\r\n{returned}\r\n--B0UND--\r\n"
                          .encode())
    if in_reply_to:
        raw = f"In-Reply-To: {in_reply_to}\r\n".encode() + raw
    return raw


TIES = {"returned headers": lambda raw: {"returned": returned_headers(raw)},
        "returned message": lambda raw: {"returned": returned_message(raw)},
        "in-reply-to": lambda raw: {"in_reply_to": message_id_of(raw)}}


@pytest.mark.parametrize("tie", list(TIES))
def test_a_report_naming_the_email_we_sent_marks_its_address_failing(
        app: Flask, sink: SmtpServer, send: Send, tie: str) -> None:  # noqa: F811
    _, sent = sent_emails(app, sink)
    raw, row_id = sent[ANN]
    engine = db_engine(app)
    before = outbox_rows(engine)
    send(report("5.1.1", ANN, **TIES[tie](raw)), HEARTS)
    ann = player(engine, ANN)
    assert ann.email_status == "failing" and "5.1.1" in (ann.email_status_reason or "")
    assert player(engine, BOB).email_status == "ok"
    assert outbox_row(engine, row_id).status == "failed"
    mail = inbound(engine)
    assert mail.status == "processed" and f"#{row_id}" in mail.reason and "5.1.1" in mail.reason
    assert outbox_rows(engine) == before  # never answered


@pytest.mark.parametrize(("status", "action"), [("5.7.1", "failed"), ("4.2.2", "delayed")])
def test_a_report_naming_our_email_marks_only_an_address_failure(
        app: Flask, sink: SmtpServer, send: Send, status: str, action: str) -> None:  # noqa: F811
    """5.7.1 (policy): that email failed, the address works; 4.2.2: the relay still tries."""
    _, sent = sent_emails(app, sink)
    raw, row_id = sent[ANN]
    engine = db_engine(app)
    send(report(status, ANN, action=action, returned=returned_headers(raw)), HEARTS)
    assert player(engine, ANN).email_status == "ok"
    assert outbox_row(engine, row_id).status == ("failed" if action == "failed" else "sent")
    assert status in inbound(engine).reason


def forged(sent: Sent, case: str) -> bytes:
    if case == "nothing returned":  # QA case 61: anyone's report, naming only an address
        return report("5.1.1", ANN)
    if case == "another player's email":  # an email we sent, but not to the failing address
        return report("5.1.1", ANN, returned=returned_headers(sent[BOB][0]))
    if case == "unknown message-id":
        return report("5.1.1", ANN, in_reply_to="<20261121.forged@attacker.example>")
    raise AssertionError(case)


@pytest.mark.parametrize("case", ["nothing returned", "another player's email",
                                  "unknown message-id"])
def test_a_report_naming_no_email_we_sent_there_changes_nothing(
        app: Flask, sink: SmtpServer, send: Send, case: str) -> None:  # noqa: F811
    _, sent = sent_emails(app, sink)
    engine = db_engine(app)
    before = outbox_rows(engine)
    raw = forged(sent, case).replace(b"MAILER-DAEMON@mx.elsewhere.example",
                                     b"MAILER-DAEMON@attacker.example")
    send(raw, HEARTS)
    assert player(engine, ANN).email_status == player(engine, BOB).email_status == "ok"
    assert {outbox_row(engine, row_id).status for _, row_id in sent.values()} == {"sent"}
    mail = inbound(engine)
    assert mail.status == "ignored" and "names no email we sent" in mail.reason
    assert mail.raw.endswith(raw)  # kept as it came
    assert outbox_rows(engine) == before  # never answered


def reply_token(server: SmtpServer, address: str) -> str:
    """The reply token in the newest email `address` received (sent rows keep none)."""
    replies = [re.search(rb"^Reply-To:.*play\+([a-z0-9]+)@", m.data, re.MULTILINE | re.I)
               for m in server.messages if m.rcpt_tos == [address]]
    return next(found.group(1).decode() for found in reversed(replies) if found)


def test_the_players_own_reply_after_a_bounce_gets_their_mail_going_again(
        app: Flask, sink: SmtpServer, send: Send) -> None:  # noqa: F811
    """Ann's email bounced (5.1.1), so she gets none; then she writes from that address,
    answering her own pass email: her "status" is answered, her pass made and confirmed, and
    those emails really go out."""
    game, sent = sent_emails(app, sink)
    engine = db_engine(app)
    send(report("5.1.1", ANN, returned=returned_headers(sent[ANN][0])), HEARTS)
    assert player(engine, ANN).email_status == "failing"
    token = reply_token(sink, ANN)
    before = len(emails(engine, ANN))
    send(reply(token, "status", sender=f"Ann <{ANN}>"), f"play+{token}@pbem.test")
    assert player(engine, ANN).email_status == "ok"
    assert emails(engine, ANN, "status")
    cards = state_of(engine, game).hand(0)[:3]
    send(reply(token, "pass " + " ".join(map(str, cards)), sender=ANN), f"play+{token}@pbem.test")
    assert state_of(engine, game).passed_cards(0) == cards
    answers = emails(engine, ANN)[before:]
    assert {e.kind for e in answers} >= {"status", "move_confirmed"}
    assert all(e.status == "pending" for e in answers)
    got = len(sink.messages)
    drain(app, sink)
    assert [m.rcpt_tos for m in sink.messages[got:]] == [[ANN]] * len(answers)

