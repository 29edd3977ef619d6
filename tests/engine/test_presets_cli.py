"""`pbem presets` lists every preset and shows one in plain words."""

from __future__ import annotations

from click.testing import CliRunner

from pbem.engine import PRESETS
from pbem.rules_cli import presets


def test_presets_command_lists_every_preset() -> None:
    result = CliRunner().invoke(presets, [])
    assert result.exit_code == 0
    for name in PRESETS:
        assert name in result.output


def test_presets_command_shows_one_preset_in_plain_words() -> None:
    result = CliRunner().invoke(presets, ["omnibus-jd"])
    assert result.exit_code == 0
    assert "The jack of diamonds counts -10." in result.output
    assert "bonus_card = jack_of_diamonds" in result.output


def test_presets_command_refuses_an_unknown_name() -> None:
    result = CliRunner().invoke(presets, ["nope"])
    assert result.exit_code != 0
    assert "unknown preset" in result.output
