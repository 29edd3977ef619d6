"""The installed wheel works on its own: built from an sdist, installed into a fresh venv (not
editable, outside the checkout), it upgrades a database and serves `/`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from pbem import __version__

REPO = Path(__file__).resolve().parents[2]


def _env_outside_checkout(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PBEM_") and k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    env["PBEM_DATABASE_URL"] = f"sqlite:///{tmp_path / 'installed.sqlite3'}"
    env["PBEM_INSTANCE_PATH"] = str(tmp_path / "instance")
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding the wheel built from this checkout (the dependencies come from the
    system site-packages, so nothing but pbem is downloaded or built)."""
    tmp = tmp_path_factory.mktemp("wheel")
    dist = tmp / "dist"
    # sdist first, then the wheel from the sdist: MANIFEST.in and setup.py's mapping both count.
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)],
                   check=True, capture_output=True, cwd=tmp, timeout=600)  # mypyc on a busy machine
    wheel = next(dist.glob("pbem-*.whl"))
    target = tmp / "venv"
    venv.create(target, system_site_packages=True, with_pip=True)
    # --ignore-installed: the system site-packages has pbem too (an editable install).
    subprocess.run([str(target / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps",
                    "--ignore-installed", "--no-index", str(wheel)],
                   check=True, capture_output=True, cwd=tmp)
    return target


def _run(installed: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # The venv's own path as argv[0]: Python finds its venv from it.
    return subprocess.run([str(installed / "bin" / args[0]), *args[1:]], cwd=tmp_path,
                          env=_env_outside_checkout(tmp_path), capture_output=True, text=True,
                          timeout=120)


def test_the_wheel_carries_templates_and_migrations(installed: Path, tmp_path: Path) -> None:
    where = _run(installed, tmp_path, "python", "-c",
                 "import pbem, pbem.resources as r; print(pbem.__file__); "
                 "print(r.resource_dir('templates')); print(r.resource_dir('migrations'))")
    assert where.returncode == 0, where.stderr
    package, templates, migrations = where.stdout.split()
    assert package.startswith(str(installed)) and not package.startswith(str(REPO))
    assert Path(templates) == Path(package).parent / "templates"
    assert (Path(migrations) / "env.py").is_file()
    assert (Path(templates) / "email" / "turn.txt").is_file()


def test_installed_pbem_upgrades_a_database_and_serves_the_home_page(
    installed: Path, tmp_path: Path
) -> None:
    upgraded = _run(installed, tmp_path, "pbem", "db", "upgrade")
    assert upgraded.returncode == 0, upgraded.stderr
    served = _run(installed, tmp_path, "python", "-c",
                  "from pbem.app import create_app; "
                  "r = create_app().test_client().get('/'); print(r.status_code)")
    assert served.returncode == 0, served.stderr
    assert served.stdout.strip() == "200"


def test_the_wheel_carries_each_languages_catalog_compiled(
    installed: Path, tmp_path: Path
) -> None:
    """pbem/translations/<lang>/LC_MESSAGES/messages.po shipped, and messages.mo compiled
    beside it by the build (setup.py), which pbem.present.i18n reads (not compiling the .po)."""
    found = _run(installed, tmp_path, "python", "-c",
                 "import gettext, pbem.present.i18n as i; print(i.CATALOG_DIR)\n"
                 "def no(path): raise AssertionError(f'compiled {path} at run time')\n"
                 "i._compiled = no\n"
                 "print(all(isinstance(i._file_catalog(l), gettext.GNUTranslations) "
                 "for l in ('de', 'fr', 'es', 'it', 'nl')))")
    assert found.returncode == 0, found.stderr
    folder, read = found.stdout.split()
    assert folder.startswith(str(installed)) and read == "True"
    for language in ("de", "fr", "es", "it", "nl"):
        catalog = Path(folder, language, "LC_MESSAGES")
        assert (catalog / "messages.po").is_file(), language
        assert (catalog / "messages.mo").is_file(), language


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler: the engine stays pure")
def test_the_wheel_built_with_a_compiler_runs_the_compiled_engine(
    installed: Path, tmp_path: Path
) -> None:
    """As deploy/Dockerfile's builder stage builds it, the wheel holds the mypyc-compiled
    engine, and, installed, runs it (the image's build checks the same flag)."""
    compiled = _run(installed, tmp_path, "python", "-c",
                    "import pbem.engine; print(pbem.engine.COMPILED)")
    assert compiled.stdout.strip() == "True", compiled.stderr


def test_version_and_python_dash_m(installed: Path, tmp_path: Path) -> None:
    version = _run(installed, tmp_path, "pbem", "--version")
    assert version.stdout.strip() == f"pbem {__version__}"
    module = _run(installed, tmp_path, "python", "-m", "pbem", "--version")
    assert module.stdout.strip() == f"pbem {__version__}"


def test_the_lock_file_pins_every_dependency() -> None:
    """requirements.lock (deployments install from it) must cover pyproject's dependencies;
    regenerate it with the command at its top when they change."""
    import tomllib

    from packaging.requirements import Requirement

    wanted = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    lock = (REPO / "requirements.lock").read_text().lower()
    pinned = {line.split("==")[0].strip() for line in lock.splitlines() if "==" in line
              and not line.startswith((" ", "#"))}
    missing = [r for r in wanted if Requirement(r).name.lower().replace("_", "-") not in pinned]
    assert missing == []


def _locked_names() -> list[str]:
    lock = (REPO / "requirements.lock").read_text()
    return [line.split("==")[0].strip().lower() for line in lock.splitlines()
            if "==" in line and not line.startswith((" ", "#"))]


def test_the_lock_file_is_as_pip_compile_writes_it() -> None:
    """Made by the command at its top, not by hand: pip-compile lists packages in name order
    with a hash for each and says which requirement pulled each one in ('via')."""
    names = _locked_names()
    assert names == sorted(names)
    lock = (REPO / "requirements.lock").read_text()
    for line in lock.splitlines():
        pin = "==" in line and not line.startswith((" ", "#"))
        assert not pin or line.endswith("\\"), f"a pin without hashes: {line}"


def test_the_lock_file_installs_alone_with_hashes(tmp_path: Path) -> None:
    """What the Dockerfile and deploy/README.md run: every dependency of every pin is pinned
    too, with its hash (pip's resolver refuses an incomplete lock in --require-hashes mode)."""
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
         "--require-hashes", "-q", "-r", str(REPO / "requirements.lock")],
        capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
