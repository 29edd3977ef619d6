"""The `pbem` command line: a Flask CLI group; each area contributes its own commands.

An area adds commands by writing a module that defines `commands: list[click.Command]`
(groups included) and listing it in COMMAND_MODULES. Modules not written yet are skipped.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import click
from flask.cli import FlaskGroup

COMMAND_MODULES: tuple[str, ...] = (
    "pbem.store.cli",  # pbem db upgrade
    "pbem.service.cli",
    "pbem.mail.cli",  # e.g. pbem ingest
    "pbem.scheduler.cli",  # e.g. pbem worker
    "pbem.mailin.cli",  # pbem ingest, pbem mail-in smtp|imap|process|purge
    "pbem.devserver",  # pbem dev
    "pbem.rules_cli",  # pbem presets
)


def _import_optional(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # Only "this area has no CLI module (yet)"; a broken import inside it must show.
        if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
            return None
        raise


def register_commands(group: click.Group) -> None:
    for name in COMMAND_MODULES:
        module = _import_optional(name)
        for command in getattr(module, "commands", ()):
            group.add_command(command)


def _create_app():  # type: ignore[no-untyped-def]
    from pbem.app import create_app

    return create_app()


cli = FlaskGroup(name="pbem", create_app=_create_app, help="Hearts by email.")


def main() -> None:
    cli.main(prog_name="pbem")
