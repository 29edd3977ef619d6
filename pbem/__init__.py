"""pbem: Hearts by email.

The engine (pbem.engine) may run compiled by mypyc (setup.py builds it when it can) or as its
pure Python, and with it the robots' worlds and rollouts (`COMPILED_BESIDE`: one mypyc group,
so a rollout reads the engine's table natively). The compiled modules are used only when they
were built from the sources as they are now (the digests the build wrote in
`pbem/engine/_compiled_from.txt`) and PBEM_ENGINE_PURE is not set; otherwise every module of
the group is imported from its .py file (one mypyc group must never be mixed with pure
modules). `pbem.engine.COMPILED` tells which runs. This lives here, not in pbem.engine, which
stays pure (no environment, no files).
"""

import hashlib
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType

__version__ = "0.1.0"

ENGINE_DIR = Path(__file__).parent / "engine"
DIGESTS_FILE = "_compiled_from.txt"
# The modules outside pbem/engine compiled in the engine's group (setup.py lists the same).
COMPILED_BESIDE = ("bots/rollout.py", "bots/worlds.py")
GROUP_MODULES = frozenset("pbem." + name.removesuffix(".py").replace("/", ".")
                          for name in COMPILED_BESIDE)


def engine_build_matches(engine_dir: Path) -> bool:
    """Whether `engine_dir` holds a compiled engine built from its sources as they are now
    (every engine source, and the modules compiled beside it; paths relative to the package)."""
    try:
        recorded = (engine_dir / DIGESTS_FILE).read_text().split("\n")
    except OSError:
        return False  # never compiled (or the build failed)
    built = dict(line.split(" ", 1)[::-1] for line in recorded if line)
    package = engine_dir.parent
    now = {str(path.relative_to(package)): path for path in engine_dir.rglob("*.py")}
    now |= {name: package / name for name in COMPILED_BESIDE if (package / name).exists()}
    changed = sorted(name for name in built.keys() | now.keys()
                     if name not in built or name not in now
                     or hashlib.sha256(now[name].read_bytes()).hexdigest() != built[name])
    if changed:
        warnings.warn(f"pbem.engine: {', '.join(changed)} changed since the engine was "
                      "compiled; running its pure Python (rebuild: pip install -e . or "
                      "python setup.py build_ext --inplace)", RuntimeWarning, stacklevel=2)
    return not changed


class PureEngineFinder:
    """Finds pbem.engine's modules (and those compiled beside them) as their .py files, never
    their compiled extensions, when the compiled engine must not run (decided at the group's
    first module import)."""

    def __init__(self) -> None:
        self.pure: bool | None = None

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None, /) -> ModuleSpec | None:
        if path is None or not (name.startswith("pbem.engine.") or name in GROUP_MODULES):
            return None
        if self.pure is None:
            self.pure = (os.environ.get("PBEM_ENGINE_PURE", "") not in ("", "0")
                         or not engine_build_matches(ENGINE_DIR))
        return source_spec(name, path) if self.pure else None


def source_spec(name: str, path: Sequence[str]) -> ModuleSpec | None:
    """The spec of module `name` from its .py file in one of the `path` folders (never a
    compiled extension beside it)."""
    for folder in path:
        spec = FileFinder(folder, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name)
        if spec is not None:
            return spec
    return None


ENGINE_FINDER = PureEngineFinder()
sys.meta_path.insert(0, ENGINE_FINDER)
