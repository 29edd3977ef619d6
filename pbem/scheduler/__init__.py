"""The worker process: one APScheduler 3 scheduler that runs the service's periodic jobs.

Names are imported lazily: importing the package must not pull in the worker (and through it
the Flask app)."""

from __future__ import annotations

from typing import Any

__all__ = ["OUTBOX_INTERVAL_SECONDS", "build_scheduler", "check_deadlines", "send_outbox"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from pbem.scheduler import worker

        return getattr(worker, name)
    raise AttributeError(f"module 'pbem.scheduler' has no attribute {name!r}")
