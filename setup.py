"""Packaging details pyproject.toml cannot say: templates/ and migrations/ stay at the top of
the repository (where they are edited) and are shipped inside the wheel as `pbem/templates`
and `pbem/migrations`, mapped there as data-only packages (one per folder, so setuptools knows
every folder it ships)."""

from pathlib import Path

from setuptools import find_packages, setup

DATA_DIRS = {"pbem.templates": "templates", "pbem.migrations": "migrations"}


def data_packages() -> dict[str, str]:
    """Each folder under a data dir as a package name -> its folder."""
    found = {}
    for package, folder in DATA_DIRS.items():
        for path in sorted([Path(folder), *Path(folder).rglob("*")]):
            if path.is_dir() and "__pycache__" not in path.parts:
                rel = path.relative_to(folder).parts
                found[".".join((package, *rel))] = str(path)
    return found


DATA_PACKAGES = data_packages()

setup(
    packages=[*find_packages(include=["pbem", "pbem.*"]), *DATA_PACKAGES],
    package_dir=DATA_DIRS,
    package_data={name: ["*"] for name in DATA_PACKAGES},
    exclude_package_data={name: ["*.pyc"] for name in DATA_PACKAGES},
)
