"""The worker's deadline job: one acting worker (a lease in the database), nothing lost or
done twice across a crash, and two workers started together act once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from apscheduler.schedulers.background import BackgroundScheduler
from flask import Flask
from sqlalchemy import Engine

from pbem.mail import timemails as mails
from pbem.scheduler import worker
from pbem.scheduler.worker import (
    DeadlineReport,
    build_scheduler,
    check_deadlines,
    process_deadlines,
)
from pbem.service import Context, make_rng
from tests.scheduler.conftest import SETTINGS, START, MakeTable


class Crash(BaseException):
    """The process dies here (not an error the job would catch and log)."""


def _crash_on_call(n: int, real: Callable[..., Any]) -> Callable[..., Any]:
    calls = {"n": 0}

    def patched(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == n:
            raise Crash()
        return real(*args, **kwargs)

    return patched


def test_a_crash_between_reminders_loses_nothing_and_sends_nothing_twice(
        make_table: MakeTable, monkeypatch: pytest.MonkeyPatch) -> None:
    t = make_table(humans=3)
    monkeypatch.setattr(worker, "send_reminder", _crash_on_call(2, worker.send_reminder))
    with pytest.raises(Crash):
        t.tick(24)
    assert len(t.mail("reminder")) == 1  # the first one was committed with its count
    monkeypatch.undo()
    assert len(t.tick(24).reminders) == 2  # the "restarted" worker sends the other two
    assert t.tick(25).reminders == []
    assert sorted(m.to_addr for m in t.mail("reminder")) == sorted(
        {m.to_addr for m in t.mail("reminder")})
    assert len(t.mail("reminder")) == 3


def test_a_crash_between_timeouts_loses_nothing_and_plays_nothing_twice(
        make_table: MakeTable, monkeypatch: pytest.MonkeyPatch) -> None:
    t = make_table(humans=3)
    monkeypatch.setattr(mails, "send_timeout", _crash_on_call(2, mails.send_timeout))
    with pytest.raises(Crash):
        t.tick(48)
    assert t.event_types().count("cards_passed") == 2  # the robot seat and one timeout
    monkeypatch.undo()
    assert len(t.tick(48).timeouts) == 2
    assert t.tick(49).timeouts == []
    assert t.event_types().count("cards_passed") == 4
    assert len(t.deadlines("expired")) == 3


def test_two_workers_started_together_act_once(
        make_table: MakeTable, make_app: Callable[..., Flask], db_url: str) -> None:
    t = make_table(humans=3)
    app = make_app(DATABASE_URL=db_url)
    now = START + timedelta(hours=48)
    reports: list[DeadlineReport] = []
    barrier = threading.Barrier(2)

    def run() -> None:
        barrier.wait()
        reports.append(check_deadlines(app, now=now))

    threads = [threading.Thread(target=run) for _ in ("w1", "w2")]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    # both act (no lease): each timeout is claimed by one of them, and done once
    assert sum(len(r.timeouts) for r in reports) == 3
    assert t.event_types().count("cards_passed") == 4
    assert len(t.mail("timeout")) == 9  # three timeouts, each told to the three players


def test_concurrent_scans_act_once(
        make_table: MakeTable, engine: Engine) -> None:
    t = make_table(humans=3)
    now = START + timedelta(hours=48)
    reports: list[DeadlineReport] = []
    barrier = threading.Barrier(3)

    def run() -> None:
        ctx = Context(engine=engine, rng=make_rng(seed=3), clock=lambda: now)
        barrier.wait()
        reports.append(process_deadlines(ctx, SETTINGS, now))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sum(len(r.timeouts) for r in reports) == 3
    assert t.event_types().count("cards_passed") == 4
    assert len(t.mail("timeout")) == 9


def test_the_worker_schedules_the_deadline_scan_every_minute(
        make_app: Callable[..., Flask]) -> None:
    scheduler = build_scheduler(make_app(), BackgroundScheduler(timezone="UTC"), holder="me")
    job = scheduler.get_job("check_deadlines")
    assert job is not None and job.trigger.interval.total_seconds() == 60
    assert scheduler.get_job("daily_digests") is not None
