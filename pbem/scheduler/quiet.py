"""APScheduler warns each time a job's run is skipped because its last run is still going
("maximum number of running instances reached"): under load that is several lines a second
per worker. A skipped run is expected (the running one does the work: every job here works
until its list is empty), so the warnings are counted and said once a minute instead."""

from __future__ import annotations

import logging
import threading
import time

SKIPPED = "maximum number of running instances reached"
SAY_EVERY_SECONDS = 60.0
log = logging.getLogger(__name__)


class SkippedRuns(logging.Filter):
    """Lets through one skipped-run warning a minute, with how many were held back."""

    def __init__(self, every: float = SAY_EVERY_SECONDS) -> None:
        super().__init__()
        self.every = every
        self.lock = threading.Lock()
        self.held_back = 0
        self.total = 0
        self.last_said: float | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        if SKIPPED not in record.getMessage():
            return True
        now = time.monotonic()
        with self.lock:
            self.total += 1
            if self.last_said is not None and now - self.last_said < self.every:
                self.held_back += 1
                return False
            held, self.held_back, self.last_said = self.held_back, 0, now
        if held:
            record.msg = f"{record.getMessage()} ({held} more like it in the last minute)"
            record.args = ()
        return True


_FILTER = SkippedRuns()


def quiet_skipped_runs() -> SkippedRuns:
    """Install the filter on APScheduler's logger (once per process)."""
    logger = logging.getLogger("apscheduler.scheduler")
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)
    return _FILTER
