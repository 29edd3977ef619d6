"""MkDocs hooks (mkdocs.yml `hooks:`): pages that are made from the code, so they cannot drift.

A page writes a marker on a line of its own and the build puts the generated Markdown there:

- `<!-- pbem:settings -->`: every setting of pbem/config.py (SETTINGS), its default and meaning;
- `<!-- pbem:commands -->`: the reply commands in every language (pbem/mailin/language.py);
- `<!-- pbem:cards -->`: card and suit names in every language;
- `<!-- pbem:presets -->`: every rule preset and whole variant, in plain words;
- `<!-- pbem:include PATH -->`: a file of the repository outside docs/ (deploy/README.md).

tests/ops/test_docs_site.py checks the reference against the code and the commands the pages
name against the `pbem` command line.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MARKER = re.compile(r"^<!-- pbem:(\w+)(?: ([^ ]+))? -->$", re.MULTILINE)
LANGUAGE_NAMES = {"en": "English", "de": "German", "fr": "French", "es": "Spanish",
                  "it": "Italian", "nl": "Dutch"}
COMMAND_ROWS = ("play", "pass", "claim", "help", "status", "say", "nudge", "end", "play on",
                "vacation", "address", "bid", "avoid", "unsubscribe", "leave", "export")


def settings_table() -> str:
    from pbem.config import SETTINGS

    rows = ["| Variable | Default | Meaning |", "|---|---|---|"]
    for s in SETTINGS:
        default = f"`{s.default}`" if s.default not in (None, "") else "—"
        rows.append(f"| `{s.env}` | {default} | {s.help.replace('|', '&#124;')} |")
    return "\n".join(rows)


def _words(text: str) -> str:
    return ", ".join(f"`{w.replace('_', ' ')}`" for w in text.split())


def commands_table() -> str:
    from pbem.mailin.language import LANGUAGES

    codes = list(LANGUAGES)
    rows = ["| command | " + " | ".join(LANGUAGE_NAMES.get(c, c) for c in codes) + " |",
            "|---" * (len(codes) + 1) + "|"]
    for verb in COMMAND_ROWS:
        cells = []
        for code in codes:
            extra = LANGUAGES[code].commands.get(verb, "")
            cells.append(_words(f"{verb.replace(' ', '_')} {extra}" if code == "en" else extra)
                         or "—")
        rows.append(f"| {verb} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def cards_table() -> str:
    from pbem.mailin.language import LANGUAGES

    rows = ["| language | ranks (2 … ace) | suits (clubs, diamonds, hearts, spades) |",
            "|---|---|---|"]
    for code, words in LANGUAGES.items():
        ranks = " · ".join(r.split()[0] for r in words.ranks)
        suits = " · ".join(s.split()[0] for s in words.suits)
        rows.append(f"| {LANGUAGE_NAMES.get(code, code)} | {ranks} | {suits} |")
    return "\n".join(rows)


def presets_text() -> str:
    from pbem.engine import PRESETS, VARIANT_PRESETS
    from pbem.present.rules_words import preset_summary, preset_title, rules_sentences

    parts = []
    for title, presets in (("Presets", PRESETS), ("Whole variants", VARIANT_PRESETS)):
        parts.append(f"### {title}\n")
        for preset in presets.values():
            parts.append(f"#### {preset_title(preset)} (`{preset.name}`)\n\n"
                         f"{preset_summary(preset)}\n")
            parts.extend(f"- {sentence}" for sentence in rules_sentences(preset.rules))
            parts.append(f"\nSource: {preset.source}\n")
    return "\n".join(parts)


def include(path: str) -> str:
    text = (ROOT / path).read_text(encoding="utf-8")
    return re.sub(r"^# ", "## ", text, count=1, flags=re.MULTILINE)  # under the page's title


GENERATORS: dict[str, Callable[[], str]] = {
    "settings": settings_table, "commands": commands_table, "cards": cards_table,
    "presets": presets_text,
}


def expand(markdown: str) -> str:
    """The page's Markdown with every marker replaced by what it names."""
    def one(match: re.Match[str]) -> str:
        name, argument = match.group(1), match.group(2)
        if name == "include" and argument:
            return include(argument)
        if name not in GENERATORS:
            raise ValueError(f"unknown docs marker pbem:{name}")
        return GENERATORS[name]()

    return MARKER.sub(one, markdown)


def on_page_markdown(markdown: str, **_kwargs: Any) -> str:
    return expand(markdown)
