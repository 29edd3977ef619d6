"""The outbox sender against a real SMTP server: nothing lost, nothing sent twice."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine
from sqlmodel import select

from pbem.mail.compose import MailSettings, build_headers
from pbem.mail.outbox import backoff, drain_all, drain_outbox, enqueue
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail, Player
from tests.mail.mailtest_support import SmtpServer

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def add_player(engine: Engine, email: str = "alice@example.org") -> int:
    with transaction(engine) as session:
        player = Player(email=email, name="Alice")
        session.add(player)
        session.flush()
        assert player.id is not None
        return player.id


def queue(engine: Engine, settings: MailSettings, player_id: int, n: int,
          to_addr: str = "alice@example.org") -> list[str]:
    ids = []
    with transaction(engine) as session:
        for i in range(n):
            headers = build_headers(settings, kind="turn", to_name="Alice", to_addr=to_addr,
                                    player_id=player_id)
            enqueue(session, kind="turn", to_addr=to_addr, subject=f"mail {i}",
                    body_text=f"body {i}", body_html=f"<p>body {i}</p>", headers=headers,
                    player_id=player_id, now=T0)
            ids.append(headers["Message-ID"])
    return ids


def rows(engine: Engine) -> list[OutboxEmail]:
    with transaction(engine, read_only=True) as session:
        return list(session.exec(select(OutboxEmail).order_by(OutboxEmail.id)))


def received_ids(server: SmtpServer) -> Counter[str]:
    return Counter(m.message["Message-ID"] for m in server.messages)


def test_rows_are_sent_once_and_marked_sent(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    player = add_player(engine)
    ids = queue(engine, mail_settings, player, 3)
    result = drain_outbox(engine, smtp_server.settings, clock=Clock())
    assert len(result.sent) == 3
    assert received_ids(smtp_server) == Counter(ids)
    assert all(m.rcpt_tos == ["alice@example.org"] for m in smtp_server.messages)
    assert {r.status for r in rows(engine)} == {"sent"}
    assert drain_outbox(engine, smtp_server.settings, clock=Clock()).sent == []
    assert len(smtp_server.messages) == 3


def test_envelope_recipient_is_the_row_address_only(
        sqlite_engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    player = add_player(sqlite_engine)
    with transaction(sqlite_engine) as session:
        headers = build_headers(mail_settings, kind="turn", to_name="Bob\r\nBcc: evil@x",
                                to_addr="alice@example.org", player_id=player)
        enqueue(session, kind="turn", to_addr="alice@example.org",
                subject="=?UTF-8?Q?=0A?=Bcc: evil@x", body_text="x", body_html=None,
                headers=headers, player_id=player)
    drain_outbox(sqlite_engine, smtp_server.settings)
    [received] = smtp_server.messages
    assert received.rcpt_tos == ["alice@example.org"]
    assert received.message["Bcc"] is None


def test_server_down_keeps_rows_pending_then_sends_each_once(
        sqlite_engine: Engine, stopped_smtp_server: SmtpServer,
        mail_settings: MailSettings) -> None:
    server, clock = stopped_smtp_server, Clock()
    player = add_player(sqlite_engine)
    ids = queue(sqlite_engine, mail_settings, player, 5)

    result = drain_outbox(sqlite_engine, server.settings, clock=clock)
    assert sorted(result.retry) == [r.id for r in rows(sqlite_engine)] and not result.sent
    for row in rows(sqlite_engine):
        assert (row.status, row.attempts) == ("pending", 1)
        assert row.next_attempt_at == T0 + backoff(1)
        assert row.last_error and row.claimed_by is None

    server.start()
    assert drain_outbox(sqlite_engine, server.settings, clock=clock).sent == []  # not due yet
    clock.now = T0 + backoff(1)
    assert len(drain_all(sqlite_engine, server.settings, clock=clock).sent) == 5
    assert received_ids(server) == Counter(ids)
    assert [(r.status, r.attempts) for r in rows(sqlite_engine)] == [("sent", 2)] * 5


def test_backoff_doubles_and_is_capped() -> None:
    assert [backoff(n).total_seconds() for n in (1, 2, 3, 4)] == [60, 120, 240, 480]
    assert backoff(50) == timedelta(hours=1)


def test_permanent_failure_marks_row_failed_and_address_failing(
        sqlite_engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    good = add_player(sqlite_engine, "alice@example.org")
    bad = add_player(sqlite_engine, "gone@example.org")
    smtp_server.recorder.reject["gone@example.org"] = "550 5.1.1 No such user"
    queue(sqlite_engine, mail_settings, bad, 1, to_addr="gone@example.org")
    ok_ids = queue(sqlite_engine, mail_settings, good, 1)

    result = drain_outbox(sqlite_engine, smtp_server.settings)
    assert len(result.failed) == 1 and len(result.sent) == 1
    assert received_ids(smtp_server) == Counter(ok_ids)  # the batch went on after the 550
    failed = next(r for r in rows(sqlite_engine) if r.to_addr == "gone@example.org")
    assert failed.status == "failed" and "550" in (failed.last_error or "")
    with transaction(sqlite_engine, read_only=True) as session:
        assert session.get(Player, bad).email_status == "failing"  # type: ignore[union-attr]
        assert "No such user" in (session.get(Player, bad).email_status_reason or "")  # type: ignore[union-attr]
        assert session.get(Player, good).email_status == "ok"  # type: ignore[union-attr]


def test_temporary_refusal_is_retried_not_failed(
        sqlite_engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    player = add_player(sqlite_engine)
    smtp_server.recorder.reject["alice@example.org"] = "451 4.3.0 Try again later"
    queue(sqlite_engine, mail_settings, player, 1)
    result = drain_outbox(sqlite_engine, smtp_server.settings, clock=Clock())
    assert result.retry and not result.failed
    [row] = rows(sqlite_engine)
    assert (row.status, row.attempts) == ("pending", 1)
    smtp_server.recorder.reject.clear()
    assert drain_all(sqlite_engine, smtp_server.settings, clock=Clock(T0 + timedelta(hours=1))).sent


def test_rows_stuck_in_sending_are_reclaimed_after_the_timeout(
        sqlite_engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    from pbem.mail.outbox import claim

    player = add_player(sqlite_engine)
    queue(sqlite_engine, mail_settings, player, 2)
    assert len(claim(sqlite_engine, "crashed-worker", 10, T0)) == 2  # then it dies
    assert drain_outbox(sqlite_engine, smtp_server.settings, clock=Clock(T0 + timedelta(
        minutes=5))).sent == []
    late = Clock(T0 + timedelta(minutes=16))
    assert len(drain_outbox(sqlite_engine, smtp_server.settings, clock=late).sent) == 2
    assert len(smtp_server.messages) == 2


def concurrent_drain(engine: Engine, server: SmtpServer, workers: int) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            drain_all(engine, server.settings, batch=7, worker_id=f"w{n}")
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors


def test_concurrent_senders_deliver_each_row_exactly_once(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    player = add_player(engine)
    ids = queue(engine, mail_settings, player, 120)
    concurrent_drain(engine, smtp_server, workers=4)
    assert received_ids(smtp_server) == Counter(ids)
    final = rows(engine)
    assert {r.status for r in final} == {"sent"}
    assert len({r.claimed_by for r in final}) > 1, "only one worker got rows: no contention tested"


@pytest.mark.parametrize("batch", [1, 3, 100])
def test_one_drain_claims_at_most_batch_rows(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        batch: int) -> None:
    player = add_player(engine)
    queue(engine, mail_settings, player, 10)
    assert len(drain_outbox(engine, smtp_server.settings, batch=batch).sent) == min(10, batch)
    assert len(smtp_server.messages) == min(10, batch)
