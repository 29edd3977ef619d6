"""The worker's daily purge (issue 35): what pbem.service.retention says is old goes, in one
worker's claimed run at a time (pbem.store.claims)."""

from __future__ import annotations

import logging

from flask import Flask

from pbem.service.retention import Retention, purge
from pbem.store.app_engine import db_engine
from pbem.store.claims import JOB, JOB_KEYS, claim

log = logging.getLogger(__name__)


def purge_old_data(app: Flask) -> dict[str, int]:
    """Daily: forget old private data (PBEM_KEEP_* settings); rows deleted, by kind."""
    engine = db_engine(app)
    with claim(engine, JOB, JOB_KEYS["retention"]) as mine:
        if not mine:
            return {}
        done = purge(engine, Retention.from_config(app.config))
    if any(done.values()):
        log.info("retention: purged %s", ", ".join(f"{k} {v}" for k, v in done.items() if v))
    return done
