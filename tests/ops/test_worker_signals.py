"""`pbem worker` as a real process: SIGTERM and SIGINT stop it gracefully (the email in hand is
finished, the rest handed back, nothing left "sending", heartbeat gone, logged), and
`pbem worker --check` tells a health check whether it is alive."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from pbem.mail.outbox import enqueue
from pbem.store.db import make_engine, transaction
from pbem.store.models import OutboxEmail, WorkerProcess
from tests.mail.mailtest_support import Recorder, SmtpServer, free_port

REPO = Path(__file__).resolve().parents[2]
EMAILS = 12


class GatedRecorder(Recorder):
    """Holds every message until the gate opens, so the worker is mid-batch (one email in
    hand) when the signal comes."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived = 0
        self.gate = threading.Event()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.arrived += 1
        while not self.gate.is_set():
            await asyncio.sleep(0.02)
        return await super().handle_DATA(server, session, envelope)


def _queue(url: str) -> None:
    engine = make_engine(url)
    with transaction(engine) as session:
        for n in range(EMAILS):
            enqueue(session, kind="reminder", to_addr=f"p{n}@example.org", subject="Hearts",
                    body_text="Your move.", body_html=None,
                    headers={"From": "Hearts <hearts@hearts.test>", "To": f"p{n}@example.org",
                             "Message-ID": f"<pbem.reminder.{n}@hearts.test>"})
    engine.dispose()


def _env(url: str, smtp_port: int, tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(PYTHONPATH=str(REPO), PBEM_DATABASE_URL=url, PBEM_SMTP_PORT=str(smtp_port),
               PBEM_INSTANCE_PATH=str(tmp_path / "instance"), PBEM_BASE_URL="http://pbem.test")
    return env


def _check(env: dict[str, str]) -> int:
    return subprocess.run([sys.executable, "-m", "pbem", "worker", "--check"], env=env,
                          capture_output=True, timeout=60).returncode


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_worker_gracefully(
    db_url: str, tmp_path: Path, signum: signal.Signals
) -> None:
    server = SmtpServer(free_port())
    recorder = server.recorder = GatedRecorder()
    server.start()
    env = _env(db_url, server.port, tmp_path)
    assert _check(env) == 1  # no worker yet
    worker = subprocess.Popen([sys.executable, "-m", "pbem", "worker"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120  # the machine may be slow
        while _check(env) != 0 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _check(env) == 0  # beating
        _queue(db_url)  # now: the check above may take long on a busy machine
        while not recorder.arrived and time.monotonic() < deadline:
            time.sleep(0.05)
        assert recorder.arrived, "the worker sent nothing"
        worker.send_signal(signum)
        assert worker.stderr is not None
        seen = [worker.stderr.readline()]
        while "received" not in seen[-1] and seen[-1]:  # "" is the end of its output
            seen.append(worker.stderr.readline())
        recorder.gate.set()  # the email in hand may now finish
        _out, rest = worker.communicate(timeout=60)
        err = "".join(seen) + rest
    finally:
        if worker.poll() is None:
            worker.kill()
        server.stop()
    assert worker.returncode == 0, err
    assert f"{signum.name} received" in err and "stopped" in err
    engine = make_engine(db_url)
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(OutboxEmail)).all()
        heartbeat = session.exec(select(WorkerProcess)).all()
    engine.dispose()
    statuses = [r.status for r in rows]
    assert "sending" not in statuses
    sent = statuses.count("sent")
    assert sent == len(server.messages)  # nothing went out unrecorded, nothing twice
    assert sent == 1, err  # the email in hand went out; the rest of the batch was handed back
    assert all(r.claimed_by is None for r in rows if r.status == "pending")
    assert heartbeat == []  # the process row went with the clean stop
    assert _check(env) == 1
