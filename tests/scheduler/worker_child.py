"""One worker process for the tests that race real processes (test_worker_processes.py):
`python -m tests.scheduler.worker_child URL JOB START_AT [NOW]` builds the app on URL, waits
until the wall-clock time START_AT (so the processes start their job together), runs one
kind of the worker's claimed work until it finds nothing left, and prints what it did as one
JSON line: the units it worked and the plans it threw away."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from flask import Flask

from pbem.app import create_app
from pbem.scheduler import worker
from pbem.scheduler.processes import ProcessStats

IDLE_PASSES = 3  # passes finding nothing before the process says it is done


def _until_idle(step: Callable[[], list[int]], patience: float = 0.3) -> list[int]:
    done: list[int] = []
    idle = 0
    while idle < IDLE_PASSES:
        found = step()
        done += found
        idle = 0 if found else idle + 1
        if not found:
            time.sleep(patience)
    return done


def run(app: Flask, job: str, now: datetime | None, stats: ProcessStats) -> dict[str, Any]:
    if job == "robots":
        return {"done": _until_idle(lambda: worker.play_robot_games(app, stats=stats))}
    if job == "mail":
        return {"done": _until_idle(lambda: worker.fan_out_mail(app))}
    if job == "deadlines":
        report = worker.check_deadlines(app, now=now, stats=stats)
        return {"done": report.timeouts + report.reminders, "timeouts": report.timeouts,
                "reminders": report.reminders, "skipped": report.skipped,
                "failed": report.failed}
    if job == "reviews":
        return {"done": _until_idle(lambda: worker.review_finished_games(app))}
    if job == "digests":
        return {"done": [worker.send_daily_digests(app, now=now)]}
    raise SystemExit(f"unknown job {job}")


def main(argv: list[str]) -> None:
    url, job, start_at = argv[0], argv[1], float(argv[2])
    now = datetime.fromisoformat(argv[3]) if len(argv) > 3 else None
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "test-secret-key",
                      "BASE_URL": "http://pbem.test", "MAIL_DOMAIN": "pbem.test",
                      "MAIL_FROM": "Hearts <hearts@pbem.test>", "TESTING": True,
                      "MAIL_NOW": False})  # as in production: the commands' emails are the worker's
    stats = ProcessStats()
    time.sleep(max(start_at - time.time(), 0.0))
    result = run(app, job, now, stats)
    result["plans_discarded"] = stats.plans_discarded
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
