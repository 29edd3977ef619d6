"""The import contract holds: layers point one way and the engine stays pure.

The contract is [tool.importlinter] in pyproject.toml (drawn in docs/architecture.md); CI also
runs `lint-imports`. Checked in the suite too, so a backward import fails the tests of whoever
adds it. On failure the report names each import that breaks it: move the code to the right
layer, or, while a move is under way, list the import in `ignore_imports` saying why.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# import-linter's own command, in a process of its own (it configures logging and sys.path).
LINT = "from importlinter.cli import lint_imports_command; lint_imports_command()"


@pytest.mark.parametrize("contract", ["layers", "pure-engine", "engine-api"])
def test_import_contract_is_kept(contract: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", LINT, "--no-cache", "--config", str(ROOT / "pyproject.toml"),
         "--contract", contract],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
