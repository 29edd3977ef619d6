"""`pbem presets`: list the named rule presets, or show one preset's options in plain words."""

from __future__ import annotations

import click

from pbem.engine import PRESETS, VARIANT_PRESETS


@click.command("presets", help="List the rule presets, or show one: pbem presets NAME.")
@click.argument("name", required=False)
def presets(name: str | None) -> None:
    known = {**PRESETS, **VARIANT_PRESETS}
    if name is None:
        width = max(len(n) for n in known)
        for preset in PRESETS.values():
            click.echo(f"{preset.name:<{width}}  {preset.title}")
        click.echo("\nWhole variants (engine only, not yet playable by email)")
        for preset in VARIANT_PRESETS.values():
            click.echo(f"{preset.name:<{width}}  {preset.title}")
        return
    if name not in known:
        raise click.BadParameter(f"unknown preset; known: {', '.join(known)}", param_hint="NAME")
    preset = known[name]
    click.echo(f"{preset.title}\nSource: {preset.source}\n")
    for sentence in preset.rules.describe():
        click.echo(f"- {sentence}")
    click.echo("\nOptions:")
    for key, value in preset.rules.to_dict().items():
        click.echo(f"  {key} = {value}")


commands = [presets]
