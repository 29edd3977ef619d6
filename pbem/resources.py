"""Where the files that ship with pbem live: templates/ and migrations/.

In a checkout they sit at the top of the repository, beside the `pbem` package (the layout
colleagues edit); an installed wheel carries them inside the package (`pbem/templates`,
`pbem/migrations`, mapped there by setup.py). Code asks here instead of guessing a path.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The folder `name` ("templates" or "migrations"): inside the installed package first,
    else at the top of the checkout."""
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"pbem's {name}/ folder is missing: looked in {PACKAGE_DIR / name} and "
        f"{PACKAGE_DIR.parent / name} (a broken install?)")
