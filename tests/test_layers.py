"""The import contract holds: layers point one way and the engine stays pure.

The contract is [tool.importlinter] in pyproject.toml (drawn in docs/architecture.md); CI also
runs `lint-imports`. Checked in the suite too, so a backward import fails the tests of whoever
adds it. On failure the report names each import that breaks it: move the code to the right
layer, or, while a move is under way, list the import in `ignore_imports` saying why.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
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


def test_the_architecture_map_names_every_layer_of_the_contract() -> None:
    """docs/architecture.md draws the contract: every module placed in it (that exists yet) must
    be on the map."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in config["contracts"] if c["id"] == "layers"]
    names = {name.strip(" ()") for layer in layers for name in re.split(r"[|:]", layer)}
    pbem = ROOT / "pbem"
    names = {n for n in names if (pbem / n).is_dir() or (pbem / f"{n}.py").exists()}
    doc = (ROOT / "docs" / "architecture.md").read_text()
    missing = sorted(n for n in names if not re.search(rf"\b{re.escape(n)}\b", doc))
    assert not missing, f"docs/architecture.md does not place {missing}"
