"""Each row's outcome is committed on its own, right after the server answered: a lost
connection mid-batch never resends what was accepted, unusable rows are never sent."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import timedelta
from typing import Any

from sqlalchemy import Engine

from pbem.mail.compose import MailSettings, build_headers
from pbem.mail.outbox import claim, drain_all, drain_outbox, enqueue
from pbem.store.db import transaction
from pbem.store.models import Player
from tests.mail.mailtest_support import Recorder, SmtpServer
from tests.mail.test_outbox import T0, Clock, add_player, queue, received_ids, rows


class DropsConnection(Recorder):
    """Accepts `accept` messages, then closes the connection on the next DATA (the client
    gets no answer for that one)."""

    def __init__(self, accept: int) -> None:
        super().__init__()
        self.accept = accept

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if len(self.messages) >= self.accept:
            self.accept = 10**9  # only once
            server.transport.close()
            return "421 closing"
        return await super().handle_DATA(server, session, envelope)


def test_connection_lost_mid_batch_keeps_accepted_rows_sent(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    smtp_server.stop()
    smtp_server.recorder = DropsConnection(accept=3)
    smtp_server.start()
    player = add_player(engine)
    ids = queue(engine, mail_settings, player, 6)

    first = drain_outbox(engine, smtp_server.settings, clock=Clock())
    assert len(first.sent) == 3 and len(first.retry) == 3
    assert [r.status for r in rows(engine)] == ["sent"] * 3 + ["pending"] * 3

    later = Clock(T0 + timedelta(minutes=2))
    assert len(drain_all(engine, smtp_server.settings, clock=later).sent) == 3
    assert received_ids(smtp_server) == Counter(ids)  # each accepted exactly once
    assert {r.status for r in rows(engine)} == {"sent"}


def test_claim_returns_what_sending_needs(
        engine: Engine, mail_settings: MailSettings) -> None:
    player = add_player(engine)
    queue(engine, mail_settings, player, 2)
    claimed = claim(engine, "w", 10, T0)
    assert [c.subject for c in claimed] == ["mail 0", "mail 1"]
    assert claimed[0].headers["To"] == "Alice <alice@example.org>"
    assert (claimed[0].body_html, claimed[0].player_id, claimed[0].attempts) == (
        "<p>body 0</p>", player, 0)
    assert {r.status for r in rows(engine)} == {"sending"}
    assert claim(engine, "other", 10, T0) == []


def test_unsendable_row_is_failed_unsent_and_the_address_not_blamed(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    player = add_player(engine)
    with transaction(engine) as session:
        headers = build_headers(mail_settings, kind="turn", to_name="Alice",
                                to_addr="alice@example.org", player_id=player)
        headers["Message-ID"] = "<pbem.turn.é@hearts.test>"  # cannot be sent as ASCII
        enqueue(session, kind="turn", to_addr="alice@example.org", subject="s",
                body_text="x", body_html=None, headers=headers, player_id=player, now=T0)
    good = queue(engine, mail_settings, player, 1)
    result = drain_outbox(engine, smtp_server.settings, clock=Clock())
    assert len(result.failed) == 1 and len(result.sent) == 1
    assert set(received_ids(smtp_server)) == set(good)
    bad = rows(engine)[0]
    assert bad.status == "failed" and "invalid message" in (bad.last_error or "")
    with transaction(engine, read_only=True) as session:
        assert session.get(Player, player).email_status == "ok"  # type: ignore[union-attr]


def test_envelope_sender_defaults_to_the_from_address(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    player = add_player(engine)
    queue(engine, mail_settings, player, 1)
    drain_outbox(engine, replace(smtp_server.settings, envelope_from=""), clock=Clock())
    [received] = smtp_server.messages
    assert received.mail_from == "hearts@hearts.test"
