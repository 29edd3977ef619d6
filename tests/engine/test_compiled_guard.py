"""The compiled engine (mypyc, setup.py) runs only when it was built from the sources as they
are: a copy of the package with an edited engine source imports every engine module from its
.py file, as PBEM_ENGINE_PURE=1 does; an untouched copy runs the compiled modules. The robots'
worlds and rollouts, compiled in the engine's group, go with it either way."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import pbem
import pbem.engine

PACKAGE = Path(pbem.__file__).parent
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    BUILT = pbem.engine_build_matches(PACKAGE / "engine")  # compiled from these sources
needs_build = pytest.mark.skipif(not BUILT, reason="the engine is not compiled here "
                                 "(pip install -e . or python setup.py build_ext --inplace)")
# What the engine says it runs, then the kinds of file its modules came from (py, so).
PROBE = ("import sys, pbem.engine as e; "
         "print(e.COMPILED, *sorted({m.__file__.rsplit('.', 1)[1] for n, m in "
         "sys.modules.items() if n.startswith('pbem.engine.') and getattr(m, '__file__', 0)}))")


# The kinds of file the robots' modules compiled beside the engine came from.
BESIDE_PROBE = ("import sys, pbem.engine as e, pbem.bots.rollout, pbem.bots.worlds; "
                "print(e.COMPILED, *sorted({sys.modules[n].__file__.rsplit('.', 1)[1] "
                "for n in ('pbem.bots.rollout', 'pbem.bots.worlds')}))")


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(PACKAGE, tmp_path / "pbem", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _probe(root: Path, probe: str = PROBE, **env: str) -> tuple[str, str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PBEM_ENGINE_PURE"}}
    done = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True,
                          text=True, env={**clean, "PYTHONPATH": str(root), **env}, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip(), done.stderr


@needs_build
def test_an_untouched_copy_runs_the_compiled_engine(tmp_path: Path) -> None:
    out, err = _probe(_copy(tmp_path))
    assert out == "True py so" and "changed" not in err  # __init__, cards...: still Python


@needs_build
def test_an_edited_engine_source_runs_every_engine_module_as_pure_python(
        tmp_path: Path) -> None:
    root = _copy(tmp_path)
    table = root / "pbem" / "engine" / "table.py"
    table.write_text(table.read_text() + "\n# edited after the build\n")
    out, err = _probe(root)
    assert out == "False py"
    assert "table.py changed since the engine was compiled" in err


@needs_build
def test_a_new_engine_source_runs_the_pure_python_too(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "pbem" / "engine" / "variants" / "newcomer.py").write_text("X = 1\n")
    out, err = _probe(root)
    assert out == "False py" and "variants/newcomer.py changed" in err


def test_pbem_engine_pure_forces_the_pure_python(tmp_path: Path) -> None:
    out, _ = _probe(_copy(tmp_path), PBEM_ENGINE_PURE="1")
    assert out == "False py"


def test_the_flag_says_where_the_table_came_from() -> None:
    assert pbem.engine.COMPILED is not pbem.engine.table.__file__.endswith(".py")


@needs_build
def test_an_untouched_copy_runs_the_robots_rollouts_compiled(tmp_path: Path) -> None:
    out, err = _probe(_copy(tmp_path), BESIDE_PROBE)
    assert out == "True so" and "changed" not in err


@needs_build
def test_an_edited_rollout_runs_the_whole_group_as_pure_python(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    rollout = root / "pbem" / "bots" / "rollout.py"
    rollout.write_text(rollout.read_text() + "\n# edited after the build\n")
    assert _probe(root)[0] == "False py"  # the engine too: one group is never mixed
    out, err = _probe(root, BESIDE_PROBE)
    assert out == "False py" and "bots/rollout.py changed since the engine was compiled" in err


def test_pbem_engine_pure_runs_the_robots_rollouts_as_python(tmp_path: Path) -> None:
    out, _ = _probe(_copy(tmp_path), BESIDE_PROBE, PBEM_ENGINE_PURE="1")
    assert out == "False py"


def test_setup_compiles_beside_the_engine_what_the_package_checks() -> None:
    tree = ast.parse((PACKAGE.parent / "setup.py").read_text())
    listed = next(node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == "COMPILED_BESIDE"
                          for t in node.targets))
    assert tuple(ast.literal_eval(listed)) == pbem.COMPILED_BESIDE
