"""The engine guide's example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_engine_guide_example_runs(capsys) -> None:  # type: ignore[no-untyped-def]
    code = re.search(r"```python\n(.*?)```", GUIDE.read_text(), re.S)
    assert code is not None
    exec(compile(code.group(1), str(GUIDE), "exec"), {})
    printed = capsys.readouterr().out
    assert "The first trick opens with 2C. You can play 2C." in printed
