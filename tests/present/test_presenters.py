"""One presenter per variant, chosen in one place; adapters render what it gives and never
name a variant themselves."""

from __future__ import annotations

import re
from pathlib import Path

from pbem.engine import GameCreated, Phase, Variant, preset, seat_view, start
from pbem.present.presenters import PRESENTERS, Presenter, presenter

ROOT = Path(__file__).resolve().parents[2]
ADAPTERS = ("pbem/service", "pbem/mail", "pbem/mailin", "pbem/web", "pbem/scheduler")
VARIANT_NAME = re.compile(r"\bVariant\.|\.variant\b|\b(AUCTION|DOMINO|CANCELLATION)\b")


def test_every_variant_has_its_presenter_chosen_from_the_rules() -> None:
    assert set(PRESENTERS) == set(Variant)
    for name in ("standard", "auction", "domino", "cancellation"):
        rules = preset(name)
        assert type(presenter(rules)) is PRESENTERS[rules.variant]
    assert type(presenter(preset("standard"))) is Presenter


def test_a_standard_game_gets_no_variant_words() -> None:
    state = start(GameCreated(preset("standard"), 4, 0))
    view = seat_view(state, 0)
    shown = presenter(state.rules)
    assert shown.table_notes(view, ["A", "B", "C", "D"], 0) == []
    assert shown.broken_text(view) == "Hearts are not broken yet."
    assert shown.email_rules == () and shown.help_notes == ()
    assert state.phase is Phase.DEAL and not shown.is_out(view, 0)


def test_no_adapter_names_a_variant() -> None:
    """Emails, replies, pages and the scheduler ask the presenter instead."""
    found = set()
    for folder in ADAPTERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            code = "\n".join(line.split("#")[0] for line in path.read_text().splitlines()
                             if not line.lstrip().startswith(('"', "'")))
            if VARIANT_NAME.search(code):
                found.add(str(path.relative_to(ROOT)))
    assert not found, sorted(found)


def test_templates_name_no_variant() -> None:
    for path in sorted((ROOT / "templates").rglob("*.*")):
        text = path.read_text()
        assert not re.search(r"auction|domino|cancellation|\bvariant ==", text, re.I), path
