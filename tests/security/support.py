"""Helpers for the attack tests: `pbem` as a real process, as an MTA pipe starts it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PBEM = [sys.executable, "-c", "from pbem.cli import main; main()"]
# The same, printing its peak memory (VmHWM, kB) last on stderr: per process image, unlike
# ru_maxrss, which on Linux keeps the high-water mark of the forking parent.
PBEM_PEAK = [sys.executable, "-c", "import atexit, sys; atexit.register(lambda: sys.stderr.write("
             "'peak ' + open('/proc/self/status').read().split('VmHWM:')[1].split()[0] + '\\n'))"
             "; from pbem.cli import main; main()"]


def pbem_env(db_url: str, instance: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    return {**env, "PBEM_DATABASE_URL": db_url, "PBEM_INSTANCE_PATH": str(instance),
            "PBEM_SECRET_KEY": "test-secret-key", "PBEM_BASE_URL": "http://pbem.test",
            "PBEM_MAIL_DOMAIN": "pbem.test", "PYTHONPATH": str(ROOT), **extra}


def pbem_process(args: list[str], env: dict[str, str], *, peak: bool = False,
                 **kwargs: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*(PBEM_PEAK if peak else PBEM), *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, **kwargs)
