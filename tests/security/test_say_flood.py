"""Issue 13.8: `say` relays are rate-limited per player. 50 replies with table talk, sent
through the real SMTP receiver, used to relay 50 emails to every other player."""

from __future__ import annotations

import smtplib

from sqlalchemy import Engine

from pbem.mailin.process import SAY_LIMIT
from pbem.mailin.smtp_receiver import ReplyController
from tests.mail.mailtest_support import free_port
from tests.mailin.support import emails, inbox, latest_token, reply, two_human_game


def test_fifty_say_replies_relay_no_more_than_the_limit(engine: Engine) -> None:
    two_human_game(engine)
    token = latest_token(engine, "ann@example.org", "pass")
    controller = ReplyController(inbox(engine), port=free_port())
    controller.start()
    try:
        with smtplib.SMTP("127.0.0.1", controller.port) as client:
            for n in range(50):
                client.sendmail("ann@example.org", [f"play+{token}@pbem.test"],
                                reply(token, f"say buy cheap pills, offer {n}"))
        controller.reply_handler.drain()
    finally:
        controller.stop()
    relayed = emails(engine, "bob@example.org", "say")
    assert len(relayed) == SAY_LIMIT < 50
    assert "offer 0" in relayed[0].body_text
    told = [e for e in emails(engine, "ann@example.org", "note")
            if "table talk is limited" in e.body_text]
    assert 1 <= len(told) <= 5  # the speaker hears why, within the answer limit
