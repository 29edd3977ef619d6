"""Which file pbem.present.i18n reads: the compiled .mo when it was made from the .po beside
it (installed together, the .mo a moment older), the .po itself once it was edited later."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from pbem.present import i18n


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(i18n, "CATALOG_DIR", tmp_path)
    i18n._file_catalog.cache_clear()
    yield tmp_path / "de" / "LC_MESSAGES"
    i18n._file_catalog.cache_clear()


def _write(folder: Path, translation: str, *, mo: bool) -> None:
    catalog = Catalog(locale="de")
    catalog.add("Your turn", translation)
    folder.mkdir(parents=True, exist_ok=True)
    if mo:
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        (folder / "messages.mo").write_bytes(buffer.getvalue())
    buffer = io.BytesIO()
    write_po(buffer, catalog)
    (folder / "messages.po").write_bytes(buffer.getvalue())


def _age(path: Path, seconds: float) -> None:
    stat = path.stat()
    os.utime(path, (stat.st_atime - seconds, stat.st_mtime - seconds))


def test_an_installed_mo_a_moment_older_than_its_po_is_read(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(folder, "Du bist dran", mo=True)
    _age(folder / "messages.mo", 0.5)

    def compiled(_path: Path) -> None:
        raise AssertionError("the .po was compiled although its .mo is current")

    monkeypatch.setattr(i18n, "_compiled", compiled)
    assert i18n.catalog("de").gettext("Your turn") == "Du bist dran"


def test_a_po_edited_after_its_mo_wins(folder: Path) -> None:
    _write(folder, "Alt", mo=True)
    _write(folder, "Du bist dran", mo=False)
    _age(folder / "messages.mo", 60)
    assert i18n.catalog("de").gettext("Your turn") == "Du bist dran"


def test_a_po_alone_is_read(folder: Path) -> None:
    _write(folder, "Du bist dran", mo=False)
    assert i18n.catalog("de").gettext("Your turn") == "Du bist dran"
    with i18n.using("de"):
        assert i18n.gettext("Your turn") == "Du bist dran"
        assert i18n.gettext("Not in the catalog") == "Not in the catalog"
