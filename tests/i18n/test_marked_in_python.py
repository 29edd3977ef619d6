"""Every message marked in pbem's Python reaches the catalog: babel's Python extractor reads
a call inside an f-string's braces as part of the string and skips it (Python 3.11), so a
`markup("Seats")` written there would show in English to every reader, whatever the
language. This walks the syntax tree, which sees those calls, and compares with the .pot."""

from __future__ import annotations

import ast
from pathlib import Path

from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[2]
POT = REPO / "pbem" / "translations" / "messages.pot"
# The marking functions (tools/i18n/catalogs.py: babel's defaults, `lazy`, `markup`) and
# where their message is among the arguments.
MARKERS = {"_": 0, "gettext": 0, "lazy": 0, "markup": 0, "ngettext": 0, "pgettext": 1}


def marked_messages(tree: ast.AST) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        where = MARKERS.get(node.func.id)
        if where is None or len(node.args) <= where:
            continue
        message = node.args[where]
        if isinstance(message, ast.Constant) and isinstance(message.value, str):
            found.add(message.value)
    return found


def test_marked_messages_inside_f_strings_are_found() -> None:
    tree = ast.parse('x = f"<h2>{markup(\'Seats\')}</h2>"; y = pgettext("bid", "pass")')
    assert marked_messages(tree) == {"Seats", "pass"}


def test_every_message_marked_in_python_is_in_the_catalog() -> None:
    with POT.open("rb") as handle:
        catalog = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}
    missing = {}
    for path in sorted((REPO / "pbem").rglob("*.py")):
        for message in marked_messages(ast.parse(path.read_text(encoding="utf-8"))):
            if message not in catalog:
                missing[message] = path.relative_to(REPO).as_posix()
    assert not missing, f"marked but not extracted (move them out of f-strings): {missing}"
