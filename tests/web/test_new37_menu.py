"""Issue 37, item 10: /new's preset menu grouped by what players know, no jargon."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from pbem.engine import ALL_PRESETS
from pbem.present import i18n
from pbem.web.create import preset_groups


def test_the_menu_lists_every_preset_once_in_non_empty_groups() -> None:
    groups = preset_groups()
    names = [p.name for _group, presets in groups for p in presets]
    assert sorted(names) == sorted(ALL_PRESETS) and len(names) == len(set(names))
    assert all(presets for _group, presets in groups)
    titles = [group for group, _presets in groups]
    assert titles[:3] == ["Standard Hearts", "Black Lady variants, and Hearts without her",
                          "Omnibus (jack or ten of diamonds)"]
    assert {"For 3 players", "For 5 players", "For 6 players", "For 7 players",
            "Cancellation Hearts (two decks)", "Domino Hearts", "Auction Hearts",
            "House rules"} <= set(titles)


def test_no_option_speaks_of_seeds(client: FlaskClient) -> None:
    html = client.get("/new").get_data(as_text=True)
    select = html.split('<select id="preset-choice"')[1].split("</select>")[0]
    options = re.findall(r'<option value="([\w-]+)"[^>]*>([^<]*)</option>', select)
    assert sorted(name for name, _text in options) == sorted(ALL_PRESETS)
    for _name, text in options:
        assert "seed" not in text.lower() and " — " in text
    assert 'value="no-black-lady"' in select.split('label="Black Lady variants')[1]
    assert 'value="omnibus-td-six"' in select.split('label="Omnibus')[1].split("</optgroup>")[0]
    # every preset's whole difference, without JavaScript
    compared = html.split('class="presets-compared"')[1].split("</details>")[0]
    assert compared.count("<dt>") == len(ALL_PRESETS)


def test_the_menu_in_german() -> None:
    with i18n.using("de"):
        groups = preset_groups()
    text = " ".join(f"{g} {p.title} {p.short}" for g, presets in groups for p in presets)
    assert "Seed" not in text and "seed" not in text
    assert "Für 3 Spieler" in text
