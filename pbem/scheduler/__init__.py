"""The worker process: one APScheduler 3 scheduler that runs the service's periodic jobs."""

from pbem.scheduler.worker import OUTBOX_INTERVAL_SECONDS, build_scheduler, send_outbox

__all__ = ["OUTBOX_INTERVAL_SECONDS", "build_scheduler", "send_outbox"]
