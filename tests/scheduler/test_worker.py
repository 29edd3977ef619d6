"""`pbem worker`: its scheduler sends the outbox to a real SMTP server."""

from __future__ import annotations

from collections.abc import Callable

from apscheduler.schedulers.background import BackgroundScheduler
from flask import Flask
from sqlmodel import select

from pbem.app import db_engine
from pbem.mail.outbox import enqueue
from pbem.scheduler import OUTBOX_INTERVAL_SECONDS, build_scheduler, send_outbox
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail
from tests.mail.mailtest_support import SmtpServer, free_port


def _queue_one(app: Flask) -> None:
    with transaction(db_engine(app)) as session:
        enqueue(session, kind="reminder", to_addr="ann@example.org", subject="Hearts: a test",
                body_text="Your move.", body_html=None,
                headers={"From": "Hearts <hearts@hearts.test>", "To": "ann@example.org",
                         "Message-ID": "<pbem.reminder.1@hearts.test>"})


def test_the_outbox_job_sends_pending_mail_once(make_app: Callable[..., Flask]) -> None:
    server = SmtpServer(free_port())
    server.start()
    try:
        app = make_app(SMTP_HOST="127.0.0.1", SMTP_PORT=server.port)
        _queue_one(app)
        assert len(send_outbox(app).sent) == 1
        assert send_outbox(app).sent == []  # nothing is sent twice
        assert [m.rcpt_tos for m in server.messages] == [["ann@example.org"]]
        with transaction(db_engine(app), read_only=True) as session:
            assert session.exec(select(OutboxEmail.status)).all() == ["sent"]
    finally:
        server.stop()


def test_the_worker_schedules_the_outbox_sender(make_app: Callable[..., Flask]) -> None:
    scheduler = build_scheduler(make_app(), BackgroundScheduler(timezone="UTC"))
    job = scheduler.get_job("send_outbox")
    assert job is not None
    assert job.trigger.interval.total_seconds() == OUTBOX_INTERVAL_SECONDS
    assert job.max_instances == 1
