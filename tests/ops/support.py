"""Helpers for the operations tests: a real gunicorn started with deploy/gunicorn.conf.py."""

from __future__ import annotations

import subprocess
import time
import urllib.request


def wait_until_serving(server: subprocess.Popen[str], port: int, limit: float = 90.0) -> None:
    """Until `server` answers GET /healthz on `port` (it must not exit meanwhile)."""
    deadline = time.monotonic() + limit
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5)
            return
        except OSError:
            assert time.monotonic() < deadline and server.poll() is None
            time.sleep(0.3)
