"""The translation catalogs: extract, update, compile, check (docs/translating.md).

    python tools/i18n/catalogs.py extract   # pbem/translations/messages.pot from the code
    python tools/i18n/catalogs.py update    # each language's messages.po from the .pot,
                                            # empty translations filled from the fragments
    python tools/i18n/catalogs.py compile   # messages.mo beside each messages.po
    python tools/i18n/catalogs.py check     # CI: fails on anything missing or broken

The same as plain pybabel (what `extract` and `update` do, without the fragments):

    pybabel extract -F babel.cfg -k lazy -k pgettext:1c,2 --add-comments=Translators: \
        --sort-output --add-location=file -w 100 -o pbem/translations/messages.pot .
    pybabel update -i pbem/translations/messages.pot -d pbem/translations --ignore-obsolete \
        -w 100
    pybabel compile -d pbem/translations

Fragments are PO files written beside the work that marked the messages:
tools/i18n/fragments/<area>/<lang>.po; `update` takes a translation from them (keyed by
msgctxt + msgid) wherever the catalog has none (empty or fuzzy).
"""

from __future__ import annotations

import argparse
import gettext
import io
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "pbem" / "translations"
POT = TRANSLATIONS / "messages.pot"
FRAGMENTS = ROOT / "tools" / "i18n" / "fragments"
MAPPING = ROOT / "babel.cfg"
KEYWORDS = ("lazy", "markup", "pgettext:1c,2")
COMMENT_TAGS = ("Translators:",)
# Every language but English (the messages as written); two plural forms each.
PLURAL_FORMS: dict[str, tuple[int, str]] = {
    "de": (2, "(n != 1)"),
    "fr": (2, "(n > 1)"),
    "es": (2, "(n != 1)"),
    "it": (2, "(n != 1)"),
    "nl": (2, "(n != 1)"),
}
LANGUAGES = tuple(PLURAL_FORMS)
WIDTH = 100
_PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?([a-zA-Z%])")

Key = tuple[str | None, str]


def po_path(language: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"


# -- extract ------------------------------------------------------------------------------

def extracted() -> Catalog:
    """Every marked message in pbem/**.py and templates/ (babel.cfg), as a template."""
    with MAPPING.open(encoding="utf-8") as handle:
        mapping = parse_mapping_cfg(handle, str(MAPPING))  # type: ignore[no-untyped-call]
    method_map, options_map = mapping
    keywords = dict(DEFAULT_KEYWORDS)
    keywords.update(parse_keywords(list(KEYWORDS)))
    template = Catalog(project="pbem", charset="utf-8", fuzzy=False)
    found = extract_from_dir(ROOT, method_map, options_map, keywords=keywords,
                             comment_tags=COMMENT_TAGS, strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        template.add(message, None, [(filename, lineno)], auto_comments=comments,
                     context=context)
    return template


def po_bytes(catalog: Catalog) -> bytes:
    """A catalog as written to disk: sorted by message, locations without line numbers (so
    moving a line does not churn the files), no obsolete entries."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=WIDTH, sort_output=True, include_lineno=False,
             ignore_obsolete=True)
    return buffer.getvalue()


def _without_dates(text: bytes) -> list[bytes]:
    return [line for line in text.splitlines()
            if not line.startswith((b'"POT-Creation-Date:', b'"PO-Revision-Date:'))]


def write_if_changed(path: Path, content: bytes) -> bool:
    """Write `content` unless the file says the same but for its dates (no churn)."""
    if path.is_file() and _without_dates(path.read_bytes()) == _without_dates(content):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return True


def extract() -> int:
    template = extracted()
    changed = write_if_changed(POT, po_bytes(template))
    print(f"{POT.relative_to(ROOT)}: {len(template)} messages"
          f"{'' if changed else ' (unchanged)'}")
    return 0


# -- update -------------------------------------------------------------------------------

def key(message: Message) -> Key:
    msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
    return (message.context, msgid)


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


def is_translated(message: Message) -> bool:
    forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return not message.fuzzy and all(forms)


def new_catalog(language: str) -> Catalog:
    catalog = Catalog(locale=language, project="pbem", charset="utf-8", fuzzy=False)
    count, expression = PLURAL_FORMS[language]
    catalog.mime_headers = [("Plural-Forms", f"nplurals={count}; plural={expression};")]
    return catalog


@dataclass
class Fragments:
    """The translations of one language found in the fragment files, by key."""

    language: str
    found: dict[Key, Message] = field(default_factory=dict)
    where: dict[Key, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def load(self, files: Iterable[Path]) -> Fragments:
        for path in files:
            for message in read(path, self.language):
                self._take(message, str(path.relative_to(ROOT)))
        return self

    def _take(self, message: Message, source: str) -> None:
        if not message.id or not is_translated(message):
            return
        problem = placeholder_problem(message)
        if problem:
            self.warnings.append(f"{source}: {_show(key(message))}: {problem} (not used)")
            return
        here = key(message)
        if here in self.found and self.found[here].string != message.string:
            self.warnings.append(f"{source}: {_show(here)} differs from {self.where[here]} "
                                 f"(the first is used)")
            return
        self.found.setdefault(here, message)
        self.where.setdefault(here, source)


def fragment_files(language: str) -> list[Path]:
    return sorted(FRAGMENTS.glob(f"*/{language}.po"))


def fill(catalog: Catalog, fragments: Fragments) -> int:
    """Give each untranslated (empty or fuzzy) message its fragment translation."""
    filled = 0
    for message in catalog:
        if not message.id or is_translated(message):
            continue
        source = fragments.found.get(key(message))
        if source is None or not _same_shape(message, source):
            continue
        message.string = _shaped(source.string, message)
        message.flags.discard("fuzzy")
        filled += 1
    return filled


def _same_shape(target: Message, source: Message) -> bool:
    return isinstance(target.id, (list, tuple)) == isinstance(source.id, (list, tuple))


def _shaped(string: Any, target: Message) -> Any:
    if isinstance(target.id, (list, tuple)):
        return tuple(string)
    return string


def update_language(language: str, template: Catalog) -> tuple[int, int]:
    path = po_path(language)
    catalog = read(path, language) if path.is_file() else new_catalog(language)
    catalog.update(template, no_fuzzy_matching=False, update_creation_date=True)
    catalog.obsolete.clear()
    fragments = Fragments(language).load(fragment_files(language))
    for warning in fragments.warnings:
        print(f"  warning: {warning}")
    fill(catalog, fragments)
    write_if_changed(path, po_bytes(catalog))
    messages = [message for message in catalog if message.id]
    done = sum(1 for message in messages if is_translated(message))
    return done, len(messages) - done


def update() -> int:
    if not POT.is_file():
        extract()
    for language in LANGUAGES:
        # A fresh template each time: Catalog.update adopts the template's Message objects.
        done, missing = update_language(language, read(POT))
        print(f"{language}: {done} translated, {missing} missing")
    return 0


# -- compile ------------------------------------------------------------------------------

def mo_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def compile_all() -> int:
    for language in LANGUAGES:
        path = po_path(language)
        if not path.is_file():
            print(f"{language}: no catalog ({path.relative_to(ROOT)})")
            continue
        path.with_suffix(".mo").write_bytes(mo_bytes(read(path, language)))
        print(f"{path.with_suffix('.mo').relative_to(ROOT)}")
    return 0


# -- check --------------------------------------------------------------------------------

def placeholders(text: str) -> list[str]:
    """The `%(name)s` (and positional `%s`) placeholders of a message, sorted, each once (a
    translation may name one twice); `%%` is not one."""
    return sorted({name or f"%{kind}" for name, kind in _PLACEHOLDER.findall(text)
                   if kind != "%"})


def _forms(message: Message) -> tuple[list[str], list[str]]:
    ids = list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]
    strings = (list(message.string) if isinstance(message.string, (list, tuple))
               else [message.string])
    return ids, [string or "" for string in strings]


def placeholder_problem(message: Message) -> str | None:
    """Why a translation's placeholders do not fit its message's, or None. A singular takes
    exactly the msgid's; each plural form takes only names of the msgid or msgid_plural, and
    the last (the "many" form) all of msgid_plural's."""
    ids, strings = _forms(message)
    if len(ids) == 1:
        wanted, got = placeholders(ids[0]), placeholders(strings[0])
        return None if wanted == got else f"placeholders {got} instead of {wanted}"
    allowed = set(placeholders(ids[0])) | set(placeholders(ids[1]))
    for number, string in enumerate(strings):
        extra = set(placeholders(string)) - allowed
        if extra:
            return f"form {number} has placeholders {sorted(extra)} the message does not"
    if strings and not set(placeholders(ids[1])) <= set(placeholders(strings[-1])):
        return f"form {len(strings) - 1} leaves out one of {placeholders(ids[1])}"
    return None


class _AnyValue(dict[str, Any]):
    def __missing__(self, name: str) -> int:
        return 1


def _formats(text: str) -> bool:
    try:
        text % _AnyValue()
    except (ValueError, TypeError, KeyError):
        return False
    return True


def format_problem(message: Message) -> str | None:
    """A translation `%` cannot fill, where its message can be filled."""
    ids, strings = _forms(message)
    if not all(_formats(text) for text in ids):
        return None
    broken = [text for text in strings if text and not _formats(text)]
    return f"does not format: {broken[0]!r}" if broken else None


def _show(here: Key) -> str:
    context, msgid = here
    text = msgid if len(msgid) <= 70 else msgid[:67] + "..."
    return f"[{context}] {text!r}" if context else repr(text)


def check_language(language: str, template: Catalog) -> Iterator[str]:
    path = po_path(language)
    if not path.is_file():
        yield f"{language}: no catalog at {path.relative_to(ROOT)} (run update)"
        return
    catalog = read(path, language)
    wanted = {key(message) for message in template if message.id}
    have = {key(message): message for message in catalog if message.id}
    for here in sorted(wanted - have.keys(), key=str):
        yield f"{language}: not in the catalog: {_show(here)}"
    for here in sorted(have.keys() - wanted, key=str):
        yield f"{language}: obsolete (no longer in the code): {_show(here)}"
    for message in catalog.obsolete.values():
        yield f"{language}: obsolete entry (#~): {_show(key(message))}"
    for here, message in sorted(have.items(), key=lambda item: str(item[0])):
        yield from _message_problems(language, here, message)
    yield from _compile_problems(language, catalog)


def _message_problems(language: str, here: Key, message: Message) -> Iterator[str]:
    if not is_translated(message):
        state = "fuzzy" if message.fuzzy else "untranslated"
        yield f"{language}: {state}: {_show(here)}"
        return
    problem = placeholder_problem(message) or format_problem(message)
    if problem:
        yield f"{language}: {_show(here)}: {problem}"


def _compile_problems(language: str, catalog: Catalog) -> Iterator[str]:
    try:
        gettext.GNUTranslations(io.BytesIO(mo_bytes(catalog)))
    except Exception as error:  # noqa: BLE001 - any failure is the finding
        yield f"{language}: does not compile: {error}"
    count = catalog.num_plurals
    for message in catalog:
        forms = _forms(message)[1]
        if isinstance(message.id, (list, tuple)) and len(forms) != count:
            yield (f"{language}: {_show(key(message))}: {len(forms)} plural forms, "
                   f"the catalog has {count}")


def _entries(catalog: Catalog) -> dict[Key, tuple[object, ...]]:
    """What a template says of each message (not its header, which names dates and tools)."""
    return {key(message): (message.id, sorted({path for path, _line in message.locations}),
                           sorted(message.flags), list(message.auto_comments))
            for message in catalog if message.id}


def check_template(template: Catalog) -> Iterator[str]:
    if not POT.is_file():
        yield f"no {POT.relative_to(ROOT)} (run extract)"
        return
    written, fresh = _entries(read(POT)), _entries(template)
    if written != fresh:
        changed = sorted((here for here in written.keys() | fresh.keys()
                          if written.get(here) != fresh.get(here)), key=str)
        yield (f"{POT.relative_to(ROOT)} is out of date (run extract): "
               + ", ".join(_show(here) for here in changed[:10])
               + (" ..." if len(changed) > 10 else ""))


def check() -> int:
    template = extracted()
    problems = list(check_template(template))
    for language in LANGUAGES:
        problems.extend(check_language(language, template))
    for problem in problems:
        print(problem)
    count = sum(1 for message in template if message.id)
    if problems:
        print(f"\n{len(problems)} problem(s); {count} messages in the code. Fix with "
              f"`python tools/i18n/catalogs.py extract` then `update` (docs/translating.md).",
              file=sys.stderr)
        return 1
    print(f"catalogs complete: {count} messages in {len(LANGUAGES)} languages")
    return 0


COMMANDS = {"extract": extract, "update": update, "compile": compile_all, "check": check}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("command", choices=sorted(COMMANDS))
    arguments = parser.parse_args(argv)
    return COMMANDS[arguments.command]()


if __name__ == "__main__":
    sys.exit(main())
