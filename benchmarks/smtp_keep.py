"""An SMTP server on loopback for benchmarks/link_moves.py that keeps each message it gets as
a file (`<n>.eml` in a folder), so the benchmark's player can follow the links of the emails
the worker sent. Run: python benchmarks/smtp_keep.py PORT FOLDER
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller


class Keep:
    def __init__(self, folder: Path) -> None:
        self.folder, self.count = folder, 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.count += 1
        part = self.folder / f".{self.count}.tmp"
        part.write_bytes(envelope.original_content or envelope.content)
        os.replace(part, self.folder / f"{self.count}.eml")  # whole files only
        return "250 OK"


def main() -> None:
    port, folder = int(sys.argv[1]), Path(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    controller = Controller(Keep(folder), hostname="127.0.0.1", port=port)
    controller.start()
    threading.Event().wait()


if __name__ == "__main__":
    main()
