"""GET /metrics: Prometheus text format, read from the database at each scrape, so every
gunicorn worker and the worker processes tell the same story without shared memory.

A scrape costs a few indexed reads, whatever the size of the database: moves and other events
by type come from the totals the worker keeps (pbem.store.tally, one interval behind), emails
and inbound mail by status count only the rows still in play (the sent and processed ones
only grow), then mail jobs by state, how late the outbox and the deadlines run, how long
games wait for their robots' moves, and each worker process's heartbeat."""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import Connection, Engine, Table, func, select

from pbem.store.mailjobs import job_counts
from pbem.store.models import Deadline, Game, InboundMail, OutboxEmail, WorkerProcess
from pbem.store.tally import EVENTS, totals
from pbem.store.types import utcnow

REGISTRY_EXTENSION = "pbem.metrics"
bp = Blueprint("metrics", __name__)


def _age(now: datetime, then: datetime | None) -> float:
    return max((now - then).total_seconds(), 0.0) if then is not None else 0.0


class DatabaseCollector(Collector):
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def collect(self) -> Iterator[Metric]:
        now = utcnow()
        outbox_t, inbound_t = _table(OutboxEmail), _table(InboundMail)
        deadline, workers, game = _table(Deadline), _table(WorkerProcess), _table(Game)
        with self.engine.connect() as conn:
            events = totals(conn, EVENTS)
            outbox = _counts(conn, outbox_t.c.status, LIVE_OUTBOX)
            inbound = _counts(conn, inbound_t.c.status, LIVE_INBOUND)
            oldest_due_email = conn.execute(select(func.min(outbox_t.c.next_attempt_at)).where(
                outbox_t.c.status == "pending", outbox_t.c.next_attempt_at <= now)).scalar()
            oldest_deadline = conn.execute(select(func.min(deadline.c.grace_until)).where(
                deadline.c.status == "pending", deadline.c.grace_until <= now)).scalar()
            beats = conn.execute(select(func.count(), func.min(workers.c.beat_at),
                                        func.sum(workers.c.plans_discarded))).one()
            mail_jobs = sorted(job_counts(conn).items())
            set_aside = conn.execute(select(func.count()).where(
                game.c.robots_error_at.is_not(None))).scalar()
            thinking = conn.execute(select(func.count(), func.min(game.c.robots_thinking_since))
                                    .where(game.c.robots_thinking_since.is_not(None),
                                           game.c.status == "active")).one()
        yield _family(CounterMetricFamily, "pbem_events", "Game events stored, by type "
                      "(card plays, passes, bids... are moves; counted by the worker every "
                      "15 s).", "type", events)
        yield _family(GaugeMetricFamily, "pbem_outbox_emails", "Emails in the outbox by status "
                      "(pending, sending, failed: those still in play).", "status", outbox)
        yield _family(GaugeMetricFamily, "pbem_mail_jobs", "Moves' mail jobs not yet fanned "
                      "out into emails, by state (waiting, retrying, set_aside: failed too often, "
                      "an operator's to retry).", "state", mail_jobs)
        yield _family(GaugeMetricFamily, "pbem_inbound_mail", "Received mail still in play "
                      "by status (pending, failed).", "status", inbound)
        yield GaugeMetricFamily("pbem_outbox_lag_seconds", "How long the oldest due email has "
                                "waited to be sent (0: none waiting).",
                                value=_age(now, oldest_due_email))
        yield GaugeMetricFamily("pbem_deadline_overdue_seconds", "How long past its grace the "
                                "oldest pending deadline is (0: none overdue).",
                                value=_age(now, oldest_deadline))
        yield GaugeMetricFamily("pbem_games_waiting_for_robots", "Active games whose robots "
                                "have a move the worker is to make.", value=thinking[0])
        yield GaugeMetricFamily("pbem_robots_waiting_seconds", "How long the oldest of those "
                                "games has waited for its robots (a few seconds at most while "
                                "the worker runs; 0: none waiting).",
                                value=_age(now, thinking[1]))
        yield GaugeMetricFamily("pbem_games_robots_set_aside", "Games whose robots' moves "
                                "failed again and again, set aside for an operator (`pbem "
                                "robots set-aside`, `pbem robots retry`).", value=set_aside or 0)
        yield GaugeMetricFamily("pbem_worker_processes", "Worker processes with a heartbeat "
                                "row (alive, or died without stopping).", value=beats[0])
        yield GaugeMetricFamily("pbem_worker_heartbeat_age_seconds", "Seconds since the "
                                "stalest worker process last beat (-1: no worker runs).",
                                value=_age(now, beats[1]) if beats[1] else -1.0)
        yield GaugeMetricFamily("pbem_worker_plans_discarded", "Plans the running workers "
                                "threw away because their game changed first (0 expected: "
                                "work is claimed).", value=int(beats[2] or 0))


def _table(model: Any) -> Table:
    table: Table = model.__table__
    return table


LIVE_OUTBOX = ("pending", "sending", "failed")
LIVE_INBOUND = ("pending", "failed")


def _counts(conn: Connection, column: Any, statuses: tuple[str, ...]) -> list[tuple[str, int]]:
    """Rows by status, among `statuses` (each status column is indexed)."""
    rows = conn.execute(select(column, func.count()).where(column.in_(statuses))
                        .group_by(column)).all()
    return [(str(value), int(count)) for value, count in rows]


def _family(kind: Any, name: str, doc: str, label: str, rows: list[tuple[str, int]]) -> Metric:
    family: Metric = kind(name, doc, labels=[label])
    for value, count in rows:
        family.add_metric([value], count)  # type: ignore[attr-defined]
    return family


def init_metrics(app: Flask, engine: Engine) -> None:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(DatabaseCollector(engine))
    app.extensions[REGISTRY_EXTENSION] = registry
    app.register_blueprint(bp)


@bp.get("/metrics")
def metrics() -> Response:
    token = str(current_app.config.get("METRICS_TOKEN") or "")
    if token:  # optional: a bearer token the scraper sends
        given = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if not hmac.compare_digest(given.encode(), token.encode()):
            abort(401)
    registry: CollectorRegistry = current_app.extensions[REGISTRY_EXTENSION]
    return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)
