"""tools/i18n/catalogs.py on a small project of its own: extract, update (fragments filling
the gaps), compile, and check failing on each kind of problem it must catch."""

from __future__ import annotations

import gettext
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "tools" / "i18n" / "catalogs.py"

CODE = '''from pbem.present.i18n import _, lazy, ngettext, pgettext
TITLE = lazy("Leaderboard")
def words(n, name):
    return [_("Your turn in %(game)s", game=name), pgettext("bid", "pass"),
            ngettext("%(num)d card", "%(num)d cards", n)]
'''
TEMPLATE = ('{% trans name=player %}Hello {{ name }}{% endtrans %}\n'
            '{{ _("Hand %(n)s", n=3) }}\n')
FRAGMENT = '''msgid ""
msgstr ""
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Your turn in %(game)s"
msgstr "Du bist dran in %(game)s"

msgctxt "bid"
msgid "pass"
msgstr "passe"

msgid "%(num)d card"
msgid_plural "%(num)d cards"
msgstr[0] "%(num)d Karte"
msgstr[1] "%(num)d Karten"

msgid "Hand %(n)s"
msgstr "Runde %(m)s"
'''
MORE = '''msgid ""
msgstr ""

msgid "Leaderboard"
msgstr "Rangliste"

msgid "Hello %(name)s"
msgstr "Hallo %(name)s"

msgid "Hand %(n)s"
msgstr "Runde %(n)s"
'''


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogs_under_test", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The script pointed at a project in tmp_path: one module, one template, one German
    fragment (one of its translations with a wrong placeholder)."""
    module = load()
    (tmp_path / "pbem").mkdir()
    (tmp_path / "pbem" / "words.py").write_text(CODE)
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.html").write_text(TEMPLATE)
    (tmp_path / "babel.cfg").write_text((REPO / "babel.cfg").read_text())
    (tmp_path / "tools" / "i18n" / "fragments" / "web").mkdir(parents=True)
    (tmp_path / "tools" / "i18n" / "fragments" / "web" / "de.po").write_text(FRAGMENT)
    translations = tmp_path / "pbem" / "translations"
    for name, value in {"ROOT": tmp_path, "TRANSLATIONS": translations,
                        "POT": translations / "messages.pot",
                        "FRAGMENTS": tmp_path / "tools" / "i18n" / "fragments",
                        "MAPPING": tmp_path / "babel.cfg",
                        "PLURAL_FORMS": {"de": (2, "(n != 1)"), "fr": (2, "(n > 1)")},
                        "LANGUAGES": ("de", "fr")}.items():
        monkeypatch.setattr(module, name, value)
    return module


def _ids(path: Path) -> set[object]:
    with path.open("rb") as handle:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                for m in read_po(handle) if m.id}


def test_extract_finds_python_and_jinja_messages(tool: ModuleType) -> None:
    assert tool.extract() == 0
    text = tool.POT.read_text()
    assert _ids(tool.POT) == {
        (None, "Leaderboard"), (None, "Your turn in %(game)s"), ("bid", "pass"),
        (None, "%(num)d card"), (None, "Hello %(name)s"), (None, "Hand %(n)s")}
    assert "#: pbem/words.py\n" in text and not re.search(r"\.py:\d", text)  # no line numbers


def test_extracting_twice_changes_nothing(tool: ModuleType) -> None:
    tool.extract()
    first = tool.POT.read_bytes()
    tool.extract()
    assert tool.POT.read_bytes() == first


def test_update_fills_from_fragments_and_reports(
        tool: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    tool.extract()
    assert tool.update() == 0
    out = capsys.readouterr().out
    assert "de: 3 translated, 3 missing" in out and "fr: 0 translated, 6 missing" in out
    assert "placeholders ['m'] instead of ['n'] (not used)" in out
    with tool.po_path("de").open("rb") as handle:
        german = read_po(handle)
    assert german.get("Your turn in %(game)s").string == "Du bist dran in %(game)s"
    assert german.get("%(num)d card").string == ("%(num)d Karte", "%(num)d Karten")
    assert german.get("pass", context="bid").string == "passe"
    assert german.plural_forms == "nplurals=2; plural=(n != 1);"
    assert "plural=(n > 1)" in tool.po_path("fr").read_text()


def test_a_translation_in_the_catalog_is_kept(tool: ModuleType) -> None:
    tool.extract()
    tool.update()
    po = tool.po_path("de")
    po.write_text(po.read_text().replace('"Du bist dran in %(game)s"',
                                         '"Dein Zug in %(game)s"'))
    tool.update()
    assert '"Dein Zug in %(game)s"' in po.read_text()


def test_check_lists_each_problem_then_passes(
        tool: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert tool.check() == 1
    assert "messages.pot (run extract)" in capsys.readouterr().out
    tool.extract()
    tool.update()
    assert tool.check() == 1
    out = capsys.readouterr().out
    assert "de: untranslated: 'Hello %(name)s'" in out
    assert "fr: untranslated: [bid] 'pass'" in out
    (tool.FRAGMENTS / "web" / "more.po").write_text("")  # not a language: ignored
    (tool.FRAGMENTS / "pages").mkdir()
    (tool.FRAGMENTS / "pages" / "de.po").write_text(MORE)
    fr = FRAGMENT.replace("Du bist dran in", "À vous de jouer dans").replace(
        "passe", "passe").replace("Karte", "carte").replace("Runde %(m)s", "Donne %(n)s")
    (tool.FRAGMENTS / "web" / "fr.po").write_text(fr + MORE.split('msgstr ""\n', 1)[1])
    tool.update()
    assert tool.check() == 0, capsys.readouterr().out
    assert "catalogs complete: 6 messages in 2 languages" in capsys.readouterr().out


def test_check_catches_placeholders_obsolete_and_fuzzy(
        tool: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    tool.extract()
    tool.update()
    po = tool.po_path("de")
    text = po.read_text().replace('"Du bist dran in %(game)s"', '"Du bist dran in %(spiel)s"')
    text = text.replace('msgctxt "bid"', '#, fuzzy\nmsgctxt "bid"')
    text += '\nmsgid "Gone"\nmsgstr "Weg"\n\n#~ msgid "Older"\n#~ msgstr "Älter"\n'
    po.write_text(text)
    assert tool.check() == 1
    out = capsys.readouterr().out
    assert "'Your turn in %(game)s': placeholders ['spiel'] instead of ['game']" in out
    assert "de: fuzzy: [bid] 'pass'" in out
    assert "de: obsolete (no longer in the code): 'Gone'" in out
    assert "de: obsolete entry (#~): 'Older'" in out


def test_a_translation_percent_cannot_fill_is_caught(tool: ModuleType) -> None:
    tool.extract()
    tool.update()
    po = tool.po_path("de")
    po.write_text(po.read_text().replace('"Du bist dran in %(game)s"',
                                         '"Zu 100%, dran in %(game)s"'))
    problems = list(tool.check_language("de", tool.extracted()))
    assert any("does not format" in problem for problem in problems), problems


def test_compile_writes_mo_files_gettext_reads(tool: ModuleType) -> None:
    tool.extract()
    tool.update()
    assert tool.compile_all() == 0
    with tool.po_path("de").with_suffix(".mo").open("rb") as handle:
        german = gettext.GNUTranslations(handle)
    assert german.gettext("Your turn in %(game)s") == "Du bist dran in %(game)s"
    assert german.ngettext("%(num)d card", "%(num)d cards", 2) == "%(num)d Karten"
    assert german.pgettext("bid", "pass") == "passe"


def test_placeholders_of_plural_forms() -> None:
    tool = load()
    from babel.messages.catalog import Message

    fine = Message(("one card", "%(count)s cards"), ("une carte", "%(count)s cartes"))
    assert tool.placeholder_problem(fine) is None
    alien = Message(("one card", "%(count)s cards"), ("%(n)s carte", "%(count)s cartes"))
    assert "['n']" in (tool.placeholder_problem(alien) or "")
    lost = Message(("one card", "%(count)s cards"), ("une carte", "des cartes"))
    assert tool.placeholder_problem(lost)
    assert tool.placeholders("100%% of %(a)s and %(b)d") == ["a", "b"]


def test_the_command_line_runs_on_the_checkout() -> None:
    """`python tools/i18n/catalogs.py check` is what CI runs (.ci/run)."""
    result = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True,
                            text=True, cwd=REPO, timeout=60)
    assert result.returncode == 0 and "extract" in result.stdout and "check" in result.stdout


def test_a_new_message_in_the_code_fails_the_check(
        tool: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    tool.extract()
    tool.update()
    capsys.readouterr()
    (tool.ROOT / "pbem" / "more.py").write_text('from x import _\n_("Brand new")\n')
    assert tool.check() == 1
    out = capsys.readouterr().out
    assert "messages.pot is out of date (run extract): 'Brand new'" in out
    assert "de: not in the catalog: 'Brand new'" in out
