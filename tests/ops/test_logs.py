"""Logs: bearer tokens masked in every log the project configures (gunicorn's access log
included), plain or JSON lines, a request id, APScheduler's per-run lines off INFO."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import update
from sqlmodel import col

from pbem.logs import address_hash, mask_tokens, setup_logging
from pbem.store.db import transaction
from pbem.store.models import Game
from pbem.store.testing import create_tables
from pbem.store.types import utcnow
from tests.ops.support import wait_until_serving
from tests.web.support import free_port

REPO = Path(__file__).resolve().parents[2]
TOKEN = "Zx81-secretToken_abcdefgh"


def test_tokens_are_masked_in_links_reply_addresses_and_message_ids() -> None:
    for text in (f"GET /s/{TOKEN}/play?c=QS HTTP/1.1", f"GET /join/{TOKEN}",
                 f"to play+{TOKEN}@hearts.example.org", f"<pbem.reply.{TOKEN}@hearts.test>",
                 f"/u/{TOKEN}/preferences", f"/p/{TOKEN}", f"/t/{TOKEN}",
                 f"GET /join/confirm/{TOKEN} HTTP/1.1", f"POST /signin/{TOKEN}?next=/me",
                 f"GET /a/{TOKEN}.Zx81 HTTP/1.1"):
        assert TOKEN not in mask_tokens(text)
        assert "***" in mask_tokens(text)
    assert mask_tokens("GET /games/12/summary") == "GET /games/12/summary"
    assert mask_tokens("sender 'Ann.Lee@Example.org' refused") == \
        f"sender '{address_hash('ann.lee@example.org')}' refused"


def _capture(app: Flask, fmt: str) -> tuple[io.StringIO, logging.Handler]:
    stream = io.StringIO()
    handler = setup_logging({"LOG_FORMAT": fmt, "LOG_LEVEL": "INFO"}, "web", stream=stream)
    return stream, handler


def test_json_lines_carry_the_request_id_and_no_token(make_app: Callable[..., Flask]) -> None:
    app = make_app()

    @app.get("/log-test/<token>")
    def log_test(token: str) -> str:
        logging.getLogger("pbem.test").info("visited /s/%s", token)
        return "ok"

    stream, handler = _capture(app, "json")
    try:
        response = app.test_client().get(f"/log-test/{TOKEN}")
    finally:
        logging.getLogger().removeHandler(handler)
    line = json.loads(stream.getvalue().strip().splitlines()[-1])
    assert line["message"] == "visited /s/***"
    assert line["request_id"] == response.headers["X-Request-ID"]
    assert line["level"] == "INFO" and line["process_name"] == "web"


def test_the_scheduler_s_running_job_lines_are_not_at_info() -> None:
    stream = io.StringIO()
    handler = setup_logging({"LOG_FORMAT": "plain"}, "worker", stream=stream)
    try:
        logging.getLogger("apscheduler.executors.default").info('Running job "send_outbox"')
        logging.getLogger("pbem.scheduler.worker").info("outbox: 1 sent")
    finally:
        logging.getLogger().removeHandler(handler)
    assert "Running job" not in stream.getvalue() and "outbox: 1 sent" in stream.getvalue()


def test_the_access_log_masks_each_line_once_and_keeps_one_filter_over_reloads() -> None:
    """The line as written (request line, Referer...), not each atom; a reload (SIGHUP runs
    setup again) adds no second filter."""
    from types import SimpleNamespace

    from gunicorn.config import Config

    from pbem.gunicorn_logging import MaskingLogger

    cfg = Config()
    cfg.set("accesslog", "-")
    cfg.set("access_log_format", '"%(r)s" %(s)s "%(f)s" %({location}o)s')
    logger = MaskingLogger(cfg)
    logger.setup(cfg)
    assert len(logger.access_log.filters) == 1
    stream = io.StringIO()
    for handler in logger.access_log.handlers:
        handler.setStream(stream)
    environ = {"REQUEST_METHOD": "POST", "RAW_URI": f"/s/{TOKEN}/play",
               "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_REFERER": f"https://h.test/s/{TOKEN}"}
    response = SimpleNamespace(status="303 SEE OTHER", sent=0,
                               headers=[("Location", f"/s/{TOKEN}")])
    logger.access(response, SimpleNamespace(headers=[]), environ, timedelta(milliseconds=3))
    line = stream.getvalue()
    assert line.strip() == '"POST /s/***/play HTTP/1.1" 303 "https://h.test/s/***" /s/***'
    assert TOKEN not in line


def test_gunicorn_access_log_masks_tokens(tmp_path: Path) -> None:
    """A real gunicorn with deploy/gunicorn.conf.py, asked for a private link."""
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    create_tables(url)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(PYTHONPATH=str(REPO), PBEM_DATABASE_URL=url, PBEM_BIND=f"127.0.0.1:{port}",
               PBEM_WEB_WORKERS="1", PBEM_INSTANCE_PATH=str(tmp_path / "instance"))
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", str(REPO / "deploy/gunicorn.conf.py"),
         "pbem.wsgi:app"], env=env, cwd=tmp_path, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    try:
        wait_until_serving(server, port)
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/s/{TOKEN}", timeout=10)
        except urllib.error.HTTPError as exc:
            assert exc.code == 404
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=60)
    assert "/healthz" in output and '"GET /s/*** HTTP/1.1" 404' in output
    assert TOKEN not in output


def test_metrics_count_events_emails_and_lag(make_app: Callable[..., Flask], db_url: str) -> None:
    from pbem.scheduler.processes import beat
    from pbem.store.tally import tally_events
    from tests.web.support import start_game

    app = make_app(DATABASE_URL=db_url)
    start_game(app)
    from pbem.app import db_engine

    beat(db_engine(app), "host:1:abc")
    tally_events(db_engine(app))  # the worker's tally: the first sets its horizon,
    tally_events(db_engine(app))  # the next counts up to it
    text = app.test_client().get("/metrics").get_data(as_text=True)
    assert 'pbem_outbox_emails{status="pending"}' in text
    assert "pbem_events_total{type=" in text
    assert "pbem_outbox_lag_seconds" in text and "pbem_deadline_overdue_seconds 0.0" in text
    age = next(line for line in text.splitlines()
               if line.startswith("pbem_worker_heartbeat_age_seconds "))
    assert 0 <= float(age.split()[1]) < 60
    assert "pbem_games_waiting_for_robots 0.0" in text  # easy robots answered at once


def test_metrics_say_how_long_games_wait_for_their_robots(
    make_app: Callable[..., Flask], db_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A strong robots' game whose moves are left to the worker, with no worker running for
    a minute: the gauge an operator alerts on says so; once played, back to none."""
    from pbem.app import db_engine
    from pbem.scheduler.worker import play_robot_games
    from tests.web.support import start_game

    app = make_app(DATABASE_URL=db_url, ROBOTS_NOW=False)
    game_id = start_game(app, strength="strong")
    with transaction(db_engine(app)) as session:
        session.execute(update(Game).where(col(Game.id) == game_id).values(
            robots_thinking_since=utcnow() - timedelta(minutes=1)))

    def gauges() -> dict[str, float]:
        text = app.test_client().get("/metrics").get_data(as_text=True)
        return {line.split()[0]: float(line.split()[1]) for line in text.splitlines()
                if line.startswith(("pbem_games_waiting_for_robots ",
                                    "pbem_robots_waiting_seconds "))}

    waiting = gauges()
    assert waiting["pbem_games_waiting_for_robots"] == 1
    assert 60 <= waiting["pbem_robots_waiting_seconds"] < 120
    assert play_robot_games(app) == [game_id]
    assert gauges() == {"pbem_games_waiting_for_robots": 0,
                        "pbem_robots_waiting_seconds": 0}


def test_metrics_can_require_a_token(make_app: Callable[..., Flask]) -> None:
    client = make_app(METRICS_TOKEN="scrape-me").test_client()
    assert client.get("/metrics").status_code == 401
    ok = client.get("/metrics", headers={"Authorization": "Bearer scrape-me"})
    assert ok.status_code == 200


def test_errors_reach_sentry_when_a_dsn_is_set(tmp_path: Path) -> None:
    """A real sentry-sdk (in a child process: it is global) sends a crash to a local server
    standing in for Sentry; the private link in the URL arrives masked."""
    import gzip
    import http.server
    import threading

    received: list[bytes] = []

    class Sentry(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            data = self.rfile.read(int(self.headers["Content-Length"]))
            if self.headers.get("Content-Encoding") == "gzip":
                data = gzip.decompress(data)
            received.append(data)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sentry)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    dsn = f"http://publickey@127.0.0.1:{server.server_address[1]}/1"
    script = f"""
import sentry_sdk
from pbem.app import create_app
from pbem.logs import setup_logging
app = create_app({{"INSTANCE_PATH": {str(tmp_path)!r}, "SENTRY_DSN": {dsn!r},
                  "DATABASE_URL": "sqlite:///{tmp_path}/s.sqlite3"}})
setup_logging(app.config, "web")
@app.get("/s/<token>/boom")
def boom(token):
    raise RuntimeError("boom")
app.test_client().get("/s/{TOKEN}/boom")
sentry_sdk.flush(10)
"""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env["PYTHONPATH"] = str(REPO)
    subprocess.run([sys.executable, "-c", script], env=env, timeout=120, check=True,
                   capture_output=True)
    server.shutdown()
    body = b"".join(received)
    assert b"RuntimeError" in body and b"boom" in body
    at = body.find(TOKEN.encode())
    assert at == -1, body[max(at - 80, 0):at + 40]
