"""The worker's daily purge (issue 35): what pbem.service.retention says is old goes, under the
worker lease (one worker purges)."""

from __future__ import annotations

import logging

from flask import Flask

from pbem.scheduler.worker import acquire_lease
from pbem.service.retention import Retention, purge
from pbem.store.app_engine import db_engine

log = logging.getLogger(__name__)


def purge_old_data(app: Flask, holder: str) -> dict[str, int]:
    """Daily: forget old private data (PBEM_KEEP_* settings); rows deleted, by kind."""
    engine = db_engine(app)
    if not acquire_lease(engine, holder):
        return {}
    done = purge(engine, Retention.from_config(app.config))
    if any(done.values()):
        log.info("retention: purged %s", ", ".join(f"{k} {v}" for k, v in done.items() if v))
    return done
