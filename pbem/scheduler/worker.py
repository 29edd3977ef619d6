"""Jobs of `pbem worker`: today the outbox sender; deadlines and reminders join it later.

APScheduler 3 cannot share a job store between processes (NOTES.md), so jobs live in memory in
this one process and keep their durable state in pbem's own tables (the outbox rows)."""

from __future__ import annotations

import logging

from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask

from pbem.app import db_engine
from pbem.mail.outbox import DrainResult, SmtpSettings, drain_all

log = logging.getLogger(__name__)
OUTBOX_INTERVAL_SECONDS = 5


def send_outbox(app: Flask) -> DrainResult:
    """Send every due email of the outbox (safe to run in several processes: rows are claimed)."""
    result = drain_all(db_engine(app), SmtpSettings.from_config(app.config))
    if result.sent or result.retry or result.failed:
        log.info("outbox: %d sent, %d to retry, %d failed",
                 len(result.sent), len(result.retry), len(result.failed))
    return result


def build_scheduler(app: Flask, scheduler: BaseScheduler | None = None) -> BaseScheduler:
    """The worker's scheduler with its jobs added (not started)."""
    scheduler = scheduler or BlockingScheduler(timezone="UTC")
    scheduler.add_job(send_outbox, "interval", args=[app], seconds=OUTBOX_INTERVAL_SECONDS,
                      id="send_outbox", max_instances=1, coalesce=True,
                      misfire_grace_time=OUTBOX_INTERVAL_SECONDS * 6)
    return scheduler
