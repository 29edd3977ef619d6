"""`pbem presets` lists every preset and shows one in plain words."""

from __future__ import annotations

from click.testing import CliRunner

from pbem.engine import ALL_PRESETS, VARIANT_PRESETS
from pbem.present.rules_words import preset_title
from pbem.rules_cli import presets


def test_presets_command_lists_every_preset() -> None:
    result = CliRunner().invoke(presets, [])
    assert result.exit_code == 0
    for name in ALL_PRESETS:
        assert name in result.output


def test_presets_command_lists_the_whole_variants_as_playable() -> None:
    output = CliRunner().invoke(presets, []).output
    variants = output.split("\nWhole variants\n")[1]
    for preset in VARIANT_PRESETS.values():
        assert preset.name in variants and preset_title(preset) in variants
    assert "not yet" not in output and "engine only" not in output


def test_presets_command_offers_each_variant_at_every_allowed_player_count() -> None:
    counts = {"cancellation": range(7, 11), "domino": range(2, 8), "auction": range(3, 8)}
    for variant, allowed in counts.items():
        found = {p.rules.players for p in VARIANT_PRESETS.values()
                 if p.rules.variant.value == variant}
        assert found == set(allowed)


def test_presets_command_shows_one_preset_in_plain_words() -> None:
    result = CliRunner().invoke(presets, ["omnibus-jd"])
    assert result.exit_code == 0
    assert "The jack of diamonds counts -10." in result.output
    assert "bonus_card = jack_of_diamonds" in result.output


def test_presets_command_shows_a_variant_preset() -> None:
    result = CliRunner().invoke(presets, ["auction-seven"])
    assert result.exit_code == 0
    assert "Auction Hearts, 7 players" in result.output
    assert "players = 7" in result.output and "variant = auction" in result.output


def test_presets_command_refuses_an_unknown_name() -> None:
    result = CliRunner().invoke(presets, ["nope"])
    assert result.exit_code != 0
    assert "unknown preset" in result.output
