"""A test hook for the crash tests, light enough for `pbem ingest` (standard library only)."""

from __future__ import annotations

import os
import signal
import time


def crash_point(name: str, after: float = 0.0) -> None:
    """With PBEM_TEST_CRASH_AT=name this process dies here, `after` seconds on (SIGKILL: no
    cleanup, no rollback, as an OOM kill or a power cut would)."""
    if os.environ.get("PBEM_TEST_CRASH_AT") == name:
        time.sleep(after)
        os.kill(os.getpid(), signal.SIGKILL)
