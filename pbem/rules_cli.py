"""`pbem presets`: list the named rule presets, or show one preset's options in plain words."""

from __future__ import annotations

from collections.abc import Iterable

import click

from pbem.engine import ALL_PRESETS, PRESETS, VARIANT_PRESETS, Preset
from pbem.present.rules_words import preset_summary, preset_title, rules_sentences


@click.command("presets", help="List the rule presets, or show one: pbem presets NAME.")
@click.argument("name", required=False)
def presets(name: str | None) -> None:
    if name is None:
        width = max(len(n) for n in ALL_PRESETS)
        _list(PRESETS.values(), width)
        click.echo("\nWhole variants")
        _list(VARIANT_PRESETS.values(), width)
        return
    if name not in ALL_PRESETS:
        raise click.BadParameter(f"unknown preset; known: {', '.join(ALL_PRESETS)}",
                                 param_hint="NAME")
    preset = ALL_PRESETS[name]
    click.echo(f"{preset_title(preset)}\nSource: {preset.source}\n"
               f"In short: {preset_summary(preset)}\n")
    for sentence in rules_sentences(preset.rules):
        click.echo(f"- {sentence}")
    click.echo("\nOptions:")
    for key, value in preset.rules.to_dict().items():
        click.echo(f"  {key} = {value}")


def _list(presets: Iterable[Preset], width: int) -> None:
    for preset in presets:
        click.echo(f"{preset.name:<{width}}  {preset_title(preset)}")

commands = [presets]
