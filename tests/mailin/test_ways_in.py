"""The four ways in, end to end: the SMTP/LMTP receiver (550 for unknown tokens at RCPT
time), the signed webhook (it stores, the worker's step plays), `pbem ingest` on standard
input, and IMAP against a real Dovecot."""

from __future__ import annotations

import smtplib
import time
from collections.abc import Callable

import pytest
from flask import Flask

from pbem.app import db_engine
from pbem.engine import CardPlayed
from pbem.mailin.process import Inbox
from pbem.mailin.smtp_receiver import ReplyController
from pbem.mailin.webhook import sign
from pbem.scheduler.worker import play_new_inbound_mail
from pbem.store.db import transaction
from pbem.store.events import load_events
from tests.mail.mailtest_support import free_port
from tests.mailin.support import (
    WEBHOOK_SECRET,
    emails,
    ingest_and_work,
    latest_token,
    legal,
    post_to_webhook,
    reply,
    state_of,
    to_play,
    two_human_game,
)


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str) -> Flask:
    return make_app(DATABASE_URL=db_url, INBOUND_SECRET=WEBHOOK_SECRET)


def play_by_reply(app: Flask, send: Callable[[bytes, str], None]) -> None:
    """A human plays a legal card by a reply sent with `send(raw, recipient)`; the card is
    played once and the next human to move gets a turn email."""
    engine = db_engine(app)
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    token = latest_token(engine, me, "turn")
    turns = len(emails(engine, "ann@example.org", "turn") + emails(engine, "bob@example.org",
                                                                   "turn"))
    card = legal(state, seat)
    raw = reply(token, str(card), sender=me)
    send(raw, f"play+{token}@pbem.test")
    send(raw, f"play+{token}@pbem.test")  # delivered twice
    with transaction(engine, read_only=True) as session:
        assert load_events(session, game).count(CardPlayed(seat, card)) == 1
    assert len(emails(engine, "ann@example.org", "turn") + emails(engine, "bob@example.org",
                                                                  "turn")) > turns
    assert state_of(engine, game).seats == 4


@pytest.mark.parametrize("lmtp", [False, True], ids=["smtp", "lmtp"])
def test_a_reply_through_the_receiver_plays_once(app: Flask, lmtp: bool) -> None:
    controller = ReplyController(Inbox.from_app(app), port=free_port(), lmtp=lmtp)
    controller.start()
    try:
        def send(raw: bytes, rcpt: str) -> None:
            cls = smtplib.LMTP if lmtp else smtplib.SMTP
            with cls("127.0.0.1", controller.port) as client:
                client.sendmail("ann@example.org", [rcpt], raw)
            controller.reply_handler.drain()

        play_by_reply(app, send)
    finally:
        controller.stop()


def test_the_receiver_refuses_unknown_recipients_at_rcpt_time(app: Flask) -> None:
    controller = ReplyController(Inbox.from_app(app), port=free_port())
    controller.start()
    try:
        with smtplib.SMTP("127.0.0.1", controller.port) as client:
            client.ehlo()
            client.mail("someone@example.net")
            code, _ = client.rcpt("play+unknowntoken234@pbem.test")
            assert code == 550
            assert client.rcpt("someone@pbem.test")[0] == 550
            assert client.rcpt("hearts@pbem.test")[0] == 250  # bounces come back here
    finally:
        controller.stop()


def test_a_reply_through_the_webhook_plays_once(app: Flask) -> None:
    def send(raw: bytes, rcpt: str) -> None:
        assert post_to_webhook(app, raw, rcpt).status_code == 202  # stored
        play_new_inbound_mail(app)  # the worker's step, every second, plays it

    play_by_reply(app, send)


@pytest.mark.parametrize("case", ["bad signature", "stale", "no timestamp", "other secret",
                                  "superscript digits"])
def test_the_webhook_refuses_unsigned_or_stale_requests(app: Flask, case: str) -> None:
    raw = reply("sometoken2345", "QS")
    stamp = str(int(time.time()) - (600 if case == "stale" else 0))
    signature = sign("wrong" if case == "other secret" else WEBHOOK_SECRET, stamp, raw)
    headers = {"X-PBEM-Timestamp": stamp, "X-PBEM-Signature": signature}
    if case == "bad signature":
        headers["X-PBEM-Signature"] = "0" * 64
    if case == "no timestamp":
        del headers["X-PBEM-Timestamp"]
    if case == "superscript digits":  # str.isdigit() says yes, int() fails: a 500 before
        headers["X-PBEM-Timestamp"] = stamp[:-1] + "\u00b2"
    response = app.test_client().post("/inbound", data=raw, headers=headers)
    assert response.status_code == 401


def test_the_webhook_is_off_without_a_secret(make_app: Callable[..., Flask]) -> None:
    assert make_app().test_client().post("/inbound", data=b"x").status_code == 404


def test_pbem_ingest_reads_standard_input_and_the_worker_plays_it(app: Flask) -> None:
    play_by_reply(app, lambda raw, rcpt: ingest_and_work(app, raw, [rcpt]))
