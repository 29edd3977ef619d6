"""Jobs of `pbem worker`: the outbox sender and the daily digest; deadlines join them later.

APScheduler 3 cannot share a job store between processes (NOTES.md), so jobs live in memory in
this one process and keep their durable state in pbem's own tables (the outbox rows)."""

from __future__ import annotations

import logging

from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask

from pbem.app import db_engine
from pbem.mail.compose import MailSettings
from pbem.mail.outbox import DrainResult, SmtpSettings, drain_all
from pbem.scheduler.digest import send_digests
from pbem.store.types import utcnow

log = logging.getLogger(__name__)
OUTBOX_INTERVAL_SECONDS = 5


def send_outbox(app: Flask) -> DrainResult:
    """Send every due email of the outbox (safe to run in several processes: rows are claimed)."""
    result = drain_all(db_engine(app), SmtpSettings.from_config(app.config))
    if result.sent or result.retry or result.failed:
        log.info("outbox: %d sent, %d to retry, %d failed",
                 len(result.sent), len(result.retry), len(result.failed))
    return result


def send_daily_digests(app: Flask) -> int:
    """Hourly: queue the digests of players for whom it is now 8 in the morning."""
    with app.app_context():
        return send_digests(db_engine(app), MailSettings.from_config(app.config), utcnow())


def build_scheduler(app: Flask, scheduler: BaseScheduler | None = None) -> BaseScheduler:
    """The worker's scheduler with its jobs added (not started)."""
    scheduler = scheduler or BlockingScheduler(timezone="UTC")
    scheduler.add_job(send_outbox, "interval", args=[app], seconds=OUTBOX_INTERVAL_SECONDS,
                      id="send_outbox", max_instances=1, coalesce=True,
                      misfire_grace_time=OUTBOX_INTERVAL_SECONDS * 6)
    scheduler.add_job(send_daily_digests, "cron", args=[app], minute=0, id="daily_digests",
                      max_instances=1, coalesce=True, misfire_grace_time=30 * 60)
    return scheduler
