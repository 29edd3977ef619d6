"""Running the Alembic migrations in `migrations/` from code (`pbem db upgrade`, tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from pbem.resources import resource_dir


def migrations_dir() -> Path:
    """The migrations shipped with this pbem (in the wheel, or the checkout's top level)."""
    return resource_dir("migrations")


def alembic_config(url: str) -> Config:
    folder = migrations_dir()
    cfg = Config(str(folder / "alembic.ini"))
    cfg.set_main_option("script_location", str(folder))
    # ConfigParser interpolation: a literal % in a URL (escaped passwords) must be doubled.
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def current_heads(url: str) -> tuple[str, ...]:
    from alembic.script import ScriptDirectory

    return tuple(ScriptDirectory.from_config(alembic_config(url)).get_heads())
