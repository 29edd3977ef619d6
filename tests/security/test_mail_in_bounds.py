"""Issue 38.9: one player's huge or deeply nested replies don't stall anyone's mail. Through
the real SMTP receiver on loopback: three 9.9 MB replies to one game, and meanwhile another
game's one-line reply, which is carried out within seconds; the receiver keeps answering
other sessions while the big ones are read; a message nested 4,000 levels deep is answered
250 at once and set aside unread, without an answer."""

from __future__ import annotations

import smtplib
import threading
import time
from collections.abc import Callable

from flask import Flask
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.app import db_engine
from pbem.mailin.smtp_receiver import ReplyController
from pbem.store.db import transaction
from pbem.store.models import InboundMail
from tests.mail.mailtest_support import free_port
from tests.mailin.support import a_card_reply, inbox, latest_token, reply, seq_of, two_human_game

BIG = 9_900_000


def _big_replies(token: str, count: int) -> list[bytes]:
    line = b"QS and a long line of words written to make the reply enormous, again\r\n"
    raw = reply(token, "QS")
    head, _, body = raw.partition(b"\r\n\r\n")
    body = body + line * ((BIG - len(raw)) // len(line))
    return [head.replace(b"Message-ID: <", b"Message-ID: <big%d." % n) + b"\r\n\r\n" + body
            for n in range(count)]


def _nested(token: str, depth: int) -> bytes:
    head = (f"From: Ann <ann@example.org>\r\nTo: play+{token}@pbem.test\r\n"
            "Subject: Re: Hearts\r\nMessage-ID: <deep@mail.example>\r\nMIME-Version: 1.0\r\n")
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n'
                       % (n, n) for n in range(depth))
    closing = b"".join(b"\r\n--b%d--" % n for n in reversed(range(depth)))
    return head.encode() + opening + b"Content-Type: text/plain\r\n\r\nQS" + closing + b"\r\n"


def _send(port: int, raw: bytes, rcpt: str) -> float:
    started = time.monotonic()
    with smtplib.SMTP("127.0.0.1", port, timeout=120) as client:
        client.sendmail("ann@example.org", [rcpt], raw)
    return time.monotonic() - started


def _status(engine: Engine, message_id: str) -> tuple[str, str]:
    with transaction(engine, read_only=True) as db:
        row = db.exec(select(InboundMail).where(
            col(InboundMail.message_id) == message_id)).first()
        return (row.status, row.reason or "") if row else ("", "")


def test_huge_replies_to_one_game_leave_another_game_s_reply_moving(
        make_app: Callable[..., Flask], db_url: str) -> None:
    engine = db_engine(make_app(DATABASE_URL=db_url))
    two_human_game(engine)
    big = _big_replies(latest_token(engine, "ann@example.org"), 3)
    game, _move, small, small_rcpt = a_card_reply(engine)
    before = seq_of(engine, game)
    controller = ReplyController(inbox(engine), port=free_port())
    controller.start()
    try:
        sender = threading.Thread(target=lambda: [
            _send(controller.port, raw, "play+x@pbem.test".replace("x", raw.split(
                b"play+")[1].split(b"@")[0].decode())) for raw in big])
        sender.start()
        time.sleep(1.0)  # the big ones are on their way, or being read
        answered = _send(controller.port, small, small_rcpt)
        sent_at = time.monotonic()
        while seq_of(engine, game) == before and time.monotonic() - sent_at < 30:
            time.sleep(0.05)
        moved_after = time.monotonic() - sent_at
        sender.join(timeout=300)
        controller.reply_handler.drain()
    finally:
        controller.stop()
    assert seq_of(engine, game) > before, "the other game's reply was not carried out"
    print(f"other game's reply: answered in {answered:.2f} s, carried out {moved_after:.2f} s "
          "later")
    assert answered < 5 and moved_after < 10, (answered, moved_after)
    with transaction(engine, read_only=True) as db:
        rows = db.exec(select(InboundMail).where(
            col(InboundMail.message_id).like("<big%"))).all()
    assert len(rows) == 3 and all(r.status != "pending" for r in rows)


def test_a_message_nested_4000_deep_is_stored_at_once_and_set_aside_unread(
        make_app: Callable[..., Flask], db_url: str) -> None:
    engine = db_engine(make_app(DATABASE_URL=db_url))
    two_human_game(engine)
    token = latest_token(engine, "ann@example.org")
    raw = _nested(token, 4000)
    controller = ReplyController(inbox(engine), port=free_port())
    controller.start()
    try:
        took = _send(controller.port, raw, f"play+{token}@pbem.test")
        started = time.monotonic()
        controller.reply_handler.drain()
        processed_in = time.monotonic() - started
    finally:
        controller.stop()
    status, reason = _status(engine, "<deep@mail.example>")
    assert status == "ignored" and "4000 MIME containers" in reason and "not read" in reason
    print(f"4,000-deep message: answered in {took:.2f} s, set aside in {processed_in:.2f} s")
    assert took < 5 and processed_in < 5, (took, processed_in)
