"""The email fragments' translations installed as catalogs for a test (the real catalogs are
assembled from all fragments later: tools/i18n/fragments/)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from gettext import GNUTranslations
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from pbem.present import i18n

FRAGMENTS = Path(__file__).resolve().parents[2] / "tools" / "i18n" / "fragments" / "email"


def compiled(catalog: Catalog) -> GNUTranslations:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return GNUTranslations(buffer)


def fragment(language: str) -> Catalog:
    with (FRAGMENTS / f"{language}.po").open("rb") as handle:
        return read_po(handle)


@contextmanager
def installed(*languages: str, catalogs: dict[str, Catalog] | None = None) -> Iterator[None]:
    """The email fragments of `languages` (or the `catalogs` given) as the catalogs in use."""
    chosen = dict(catalogs or {})
    for language in languages:
        chosen.setdefault(language, fragment(language))
    for language, catalog in chosen.items():
        i18n.install(language, compiled(catalog))
    try:
        yield
    finally:
        for language in chosen:
            i18n.uninstall(language)
