"""Packaging details pyproject.toml cannot say.

- templates/ and migrations/ stay at the top of the repository (where they are edited) and are
  shipped inside the wheel as `pbem/templates` and `pbem/migrations`, mapped there as data-only
  packages (one per folder, so setuptools knows every folder it ships).
- The engine's hot modules are compiled with mypyc (issue 15) when the build can: mypy (a build
  requirement) and a C compiler. Without them the install still succeeds and the engine runs as
  pure Python. Next to the compiled modules the build writes `pbem/engine/_compiled_from.txt`,
  the digest of every engine source it compiled against; pbem/__init__.py runs the pure Python
  of the whole engine when any source differs (edited since the build) or PBEM_ENGINE_PURE=1.
  In place, for a checkout: `python setup.py build_ext --inplace` (what `pip install -e .` does).
- The translation catalogs (pbem/translations/<lang>/LC_MESSAGES/messages.po, issue 34) are
  shipped, and compiled to messages.mo beside them in the wheel by Babel (a build requirement);
  without Babel the build warns and the installed package reads the .po (pbem/present/i18n.py).
"""

import hashlib
import sys
import traceback
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

DATA_DIRS = {"pbem.templates": "templates", "pbem.migrations": "migrations"}
PACKAGE = Path("pbem")
ENGINE = PACKAGE / "engine"
# One mypyc group (one shared library, pbem/engine/_native__mypyc.*.so): the fold, its working
# table, the decisions, the events and the card masks (the Card class itself stays a Python
# class, see `python_class` in values.py; the events but CardPlayed, and the commands but
# PlayCard, are frozen slotted dataclasses, which stay Python classes in a compiled module). The
# frozen values (state.py, values.py, rules.py) stay Python: they build states by class
# assignment and fill fields lazily, which native classes cannot. claims.py stays Python too
# (its test counts calls through a patched helper). Module constants read at every card are
# `Final`, which mypyc reads without a dict lookup.
# The robots' worlds and rollouts (bots/worlds.py, bots/rollout.py) are compiled in the same
# group, so a rollout reads the table's fields natively (pbem/__init__.py lists them too).
COMPILED_BESIDE = ["bots/rollout.py", "bots/worlds.py"]
COMPILED_MODULES = [
    *(f"engine/{name}" for name in (
        "cards.py", "events.py", "state.py", "table.py", "fold.py", "decide.py", "asked.py",
        "scoring.py", "settlement.py", "variants/__init__.py", "variants/auction.py",
        "variants/cancellation.py", "variants/domino.py")),
    *COMPILED_BESIDE,
]
GROUP = "pbem.engine._native"
CATALOGS = ["translations/*.pot", "translations/*/LC_MESSAGES/*.po"]
DIGESTS_FILE = "_compiled_from.txt"


def data_packages() -> dict[str, str]:
    """Each folder under a data dir as a package name -> its folder."""
    found = {}
    for package, folder in DATA_DIRS.items():
        for path in sorted([Path(folder), *Path(folder).rglob("*")]):
            if path.is_dir() and "__pycache__" not in path.parts:
                rel = path.relative_to(folder).parts
                found[".".join((package, *rel))] = str(path)
    return found


def engine_digests() -> str:
    """`sha256 path` per engine source (every one: the compiled code was checked against all)
    and per module compiled beside the engine, paths relative to the package."""
    paths = [*sorted(ENGINE.rglob("*.py")), *(PACKAGE / name for name in COMPILED_BESIDE)]
    lines = [f"{hashlib.sha256(path.read_bytes()).hexdigest()} {path.relative_to(PACKAGE)}"
             for path in paths]
    return "\n".join(lines) + "\n"


class BuildEngine(build_ext):
    """build_ext that compiles the engine with mypyc, or warns and builds nothing."""

    def finalize_options(self) -> None:
        # The extensions are made here, not when setup.py loads: metadata and sdist steps
        # never pay for mypyc. (ext_modules holds a placeholder until then, so the wheel is
        # known to be platform-specific and build_ext runs at all.)
        self.distribution.ext_modules = _mypyc_extensions()
        super().finalize_options()

    def run(self) -> None:
        if not self.extensions:
            return
        digests, inplace = engine_digests(), self.inplace
        target = ENGINE if inplace else Path(self.build_lib, ENGINE)
        try:
            super().run()
        except Exception:  # noqa: BLE001 - no compiler, headers...: the pure Python runs
            traceback.print_exc()
            _warn("compiling the engine failed; it will run as pure Python")
            self._remove_outputs({0, inplace})
            (target / DIGESTS_FILE).unlink(missing_ok=True)
            return
        finally:
            self.inplace = inplace
        (target / DIGESTS_FILE).write_text(digests)

    def _remove_outputs(self, places: set[int]) -> None:
        """No compiled module of the group is left half built (in build/ or in place)."""
        for inplace in places:
            self.inplace = inplace
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)


class BuildWithCatalogs(build_py):
    """build_py that also compiles each shipped messages.po to messages.mo beside it."""

    def run(self) -> None:
        super().run()
        try:
            from babel.messages.mofile import write_mo
            from babel.messages.pofile import read_po
        except ImportError:
            _warn("Babel is missing: the catalogs are shipped as .po only (read at run time)")
            return
        for po_file in sorted(Path(self.build_lib, "pbem", "translations").glob(
                "*/LC_MESSAGES/*.po")):
            with po_file.open("rb") as source:
                catalog = read_po(source)
            with po_file.with_suffix(".mo").open("wb") as target:
                write_mo(target, catalog, use_fuzzy=False)


def _mypyc_extensions() -> list[Extension]:
    try:
        from mypyc.build import mypycify

        return list(mypycify([str(PACKAGE / name) for name in COMPILED_MODULES],
                             group_name=GROUP, opt_level="3", debug_level="0"))
    except (Exception, SystemExit):  # noqa: BLE001 - no mypy, or it refused the code
        traceback.print_exc()
        _warn("mypyc could not compile the engine; it will run as pure Python")
        return []


def _warn(message: str) -> None:
    print(f"\n*** pbem: {message} ***\n", file=sys.stderr)


DATA_PACKAGES = data_packages()

setup(
    packages=[*find_packages(include=["pbem", "pbem.*"]), *DATA_PACKAGES],
    package_dir=DATA_DIRS,
    package_data={"pbem": CATALOGS, **{name: ["*"] for name in DATA_PACKAGES}},
    exclude_package_data={name: ["*.pyc"] for name in DATA_PACKAGES},
    ext_modules=[Extension(f"{GROUP}__mypyc", sources=[])],  # replaced in BuildEngine
    cmdclass={"build_ext": BuildEngine, "build_py": BuildWithCatalogs},
)
