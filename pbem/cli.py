"""The `pbem` command line: a Flask CLI group; each area contributes its own commands.

An area adds commands by writing a module that defines `commands: list[click.Command]`
(groups included) and listing it in COMMAND_MODULES. Modules not written yet are skipped.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

import click
from flask.cli import FlaskGroup

from pbem import __version__

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


# Flask's own --version prints Flask's version; pbem's is what an operator needs. -e/--env-file
# (Flask's, with python-dotenv installed) loads PBEM_* settings from a file before the app is made.
cli = click.version_option(__version__, "--version", package_name="pbem", prog_name="pbem",
                           message="%(prog)s %(version)s")(
    FlaskGroup(name="pbem", create_app=_create_app, add_version_option=False,
               help="Hearts by email."))


# A plain click command (AppGroup.command would wrap it in an app context, and building the
# app is what refuses unsafe settings).
@click.command("check", help="Check the settings (PBEM_* variables) against what production "
             "requires; print every problem. Exit code 1 if there is any.")
def check() -> None:
    import os

    from pbem import config as pbem_config

    settings = pbem_config.from_environment(os.environ)
    try:
        cfg = pbem_config.derive(settings, settings.get("INSTANCE_PATH") or "instance")
    except pbem_config.ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    problems = pbem_config.production_problems(cfg)
    if not problems:
        click.echo("The settings are fit for production.")
        return
    click.echo(f"PBEM_ENV=production would refuse to start ({len(problems)} problems):")
    for problem in problems:
        click.echo(f"- {problem}")
    raise SystemExit(1)


cli.add_command(check)


def ingest_alone(args: list[str]) -> None:
    """`pbem ingest`, which an MTA starts for every message: it only stores the message, with
    the standard library (pbem.mailin.pipe; `pbem.__main__` dispatches it before importing
    this module at all)."""
    from pbem.mailin.pipe import main as ingest

    raise SystemExit(ingest(args))


def main() -> None:
    from pbem.config import ConfigError

    try:
        if sys.argv[1:2] == ["ingest"]:
            ingest_alone(sys.argv[2:])
        else:
            cli.main(prog_name="pbem")
    except ConfigError as exc:  # refused settings: the list, not a traceback
        click.echo(f"pbem: {exc}", err=True)
        raise SystemExit(2) from None
