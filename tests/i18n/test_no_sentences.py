"""No sentences in the engine or the service (issue 34): they speak in codes and data, and
the presentation (pbem.present) words them in the reader's language.

Walks the AST of every module of each package and lists the string literals that look like
a sentence a person would read: two or more words of letters with a space between, that start
with a capital or end with punctuation. Docstrings, log calls (`logger.*`, `log.*`,
`logging.*`) and the explicit allow-list below are left out. Codes (`not_held`), card codes
(`QS`), identifiers and SQL pass."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("pbem/engine", "pbem/service")
_LOGGERS = {"logger", "log", "logging", "_log", "_logger", "LOG"}
_WORDS = re.compile(r"[A-Za-z][a-z']+\s+[A-Za-z][a-z']+")
_SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)\b", re.I)

# (path, the literal's start): sentences that stay, each with its reason.
ALLOWED: dict[tuple[str, str], str] = {
    # Programming errors (a bug in the caller, never shown to a player): Python's own words.
    ("pbem/engine/cards.py", "rank must be 2..14"): "ValueError: Card(rank) outside 2..14",
    ("pbem/engine/cards.py", "Card is immutable"): "AttributeError for a bug",
    ("pbem/engine/values.py", " must be a dataclass with slots=True"): "TypeError for a bug",
    ("pbem/engine/values.py", ": a field outside __init__ needs a default"): "TypeError, a bug",
    ("pbem/engine/values.py", ": fields with a default_factory are not supported"):
        "TypeError for a bug",
    ("pbem/engine/values.py", "def new_():"): "Python source the module compiles, not words",
    ("pbem/engine/values.py", "if cls is not _cls:"): "Python source the module compiles",
    ("pbem/engine/table.py", "one number of points per seat"): "ValueError for a bug",
    ("pbem/engine/presets.py", "unknown preset "): "KeyError for a bug (a name from code)",
    # A stored record that doesn't decode: the detail of an EventDecodeError, for the logs.
    ("pbem/engine/events.py", "cards must be a list of strings"): "decoder detail, logs only",
    ("pbem/engine/events.py", " is not a canonical card"): "decoder detail, logs only",
    ("pbem/engine/events.py", "seats does not match the rules' player count"):
        "decoder detail, logs only",
    ("pbem/engine/events.py", "down must be true or false"): "decoder detail, logs only",
    ("pbem/engine/events.py", "agree must be true or false"): "decoder detail, logs only",
    ("pbem/engine/events.py", "card must be a string"): "decoder detail, logs only",
    ("pbem/engine/rules.py", " must be true or false"): "decoder detail, logs only",
    ("pbem/engine/rules.py", " must be a whole number"): "decoder detail, logs only",
    # A bug in the caller (an event that is not a seat's move), for the logs.
    ("pbem/service/moves.py", "is no seat's move"): "ValueError for a bug",
    # Names stored as data until someone chooses one (pbem/service/names.py says why).
    ("pbem/service/names.py", "New player"): "a stored default name, data",
    ("pbem/service/names.py", "Former player"): "the stored name of a deleted account, data",
    ("pbem/service/names.py", "Quick game"): "a stored default game name, data",
}


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                found.add(id(body[0].value))
    return found


def _logged(tree: ast.AST) -> set[int]:
    """The strings inside log calls (`logger.info("...")`)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id in _LOGGERS:
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    found.update(id(n) for n in ast.walk(arg))
    return found


def looks_like_a_sentence(text: str) -> bool:
    stripped = text.strip()
    if not _WORDS.search(stripped) or _SQL.match(stripped):
        return False
    return stripped[:1].isupper() or stripped[-1:] in ".!?:;" or bool(
        re.match(r"^[a-z][a-z']+( [a-z'’]+){3,}$", stripped))


def _literals(tree: ast.AST) -> list[tuple[int, str, ast.AST]]:
    """Each string literal (an f-string as its literal parts joined) with its line."""
    inside_fstrings = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                       for v in node.values}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values
                           if isinstance(v, ast.Constant) and isinstance(v.value, str))
            found.append((node.lineno, text, node))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in inside_fstrings:
            found.append((node.lineno, node.value, node))
    return found


def sentences(package: str) -> list[str]:
    problems = []
    for path in sorted((ROOT / package).rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _docstrings(tree) | _logged(tree)
        for line, text, node in _literals(tree):
            if id(node) in skipped or not looks_like_a_sentence(text):
                continue
            if any(relative == where and text.strip().startswith(start.strip())
                   for where, start in ALLOWED):
                continue
            problems.append(f"{relative}:{line}: {text.strip()[:80]!r}")
    return problems


@pytest.mark.parametrize("package", PACKAGES)
def test_no_sentences(package: str) -> None:
    found = sentences(package)
    assert not found, f"{len(found)} sentences in {package} (word them in pbem.present):\n" + \
        "\n".join(found)


def test_the_check_tells_codes_from_sentences() -> None:
    for code in ("not_held", "QS", "2C", "card_without_suit", "utf-8", "%s", "pass_count"):
        assert not looks_like_a_sentence(code)
    for sentence in ("You don't hold QS.", "Hearts aren't broken", "no moon shot to score:"):
        assert looks_like_a_sentence(sentence)
