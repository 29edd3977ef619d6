"""Render email templates (templates/email/NAME.txt + NAME.html) with CSS inlined into the HTML."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import css_inline
from jinja2 import (
    Environment,
    FileSystemLoader,
    StrictUndefined,
    TemplateNotFound,
    select_autoescape,
)

from pbem.mail.faces import Faces
from pbem.present.i18n import install_words
from pbem.resources import resource_dir

TEMPLATE_DIR = resource_dir("templates") / "email"


@dataclass(frozen=True)
class Rendered:
    kind: str
    text: str
    html: str


class Renderer:
    """One Jinja environment (autoescape for .html only) and one CSS inliner, reused."""

    def __init__(self, template_dir: Path = TEMPLATE_DIR) -> None:
        self.env = Environment(
            loader=FileSystemLoader(str(template_dir)),
            autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            auto_reload=False,  # no stat() of every template file per email
            extensions=["jinja2.ext.i18n"],
        )
        install_words(self.env)
        self.inliner = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)
        # The cards, made in Python and inlined once (pbem.mail.faces), with base.html's styles.
        self.faces = Faces(_stylesheet(self.env), self.inliner.inline)
        self.faces.install(self.env)
        # The macros of the turn and pass emails, which they use often; as `{% import %}` gives
        # them, without its cost in every email (Jinja compares the globals at every import).
        self.env.globals.update(macros_html=Macros(self.env, "_macros.html"),
                                macros_txt=Macros(self.env, "_macros.txt"))

    def render(self, kind: str, **context: Any) -> Rendered:
        context.setdefault("kind", kind)
        try:
            text_template = self.env.get_template(f"{kind}.txt")
            html_template = self.env.get_template(f"{kind}.html")
        except TemplateNotFound as exc:
            raise ValueError(f"unknown email kind {kind!r}: no {exc.name}") from exc
        text = text_template.render(context)
        with self.faces.collecting() as cards:
            html = html_template.render(context)
        return Rendered(kind, _tidy(text), cards.fill(self.inliner.inline(html)))


class Macros:
    """A template's macros (`macros.felt(...)`): the module `{% import name as m %}` gives,
    made at the first use (after the environment's settings, `undefined` included)."""

    def __init__(self, env: Environment, name: str) -> None:
        self._env, self._name = env, name
        self._module: Any = None

    def __getattr__(self, attr: str) -> Any:
        if self._module is None:
            self._module = self._env.get_template(self._name).module
        return getattr(self._module, attr)


def _stylesheet(env: Environment) -> str:
    """The styles of every email (base.html's <style>, which has no Jinja in it)."""
    assert env.loader is not None
    source = env.loader.get_source(env, "base.html")[0]
    found = re.search(r"<style>(.*?)</style>", source, re.S)
    return found[1] if found else ""


def _tidy(text: str) -> str:
    # Collapse runs of blank lines left by conditional blocks; plain-text clients show them all.
    lines: list[str] = []
    for line in text.splitlines():
        line = line.rstrip()
        if line or (lines and lines[-1]):
            lines.append(line)
    return "\n".join(lines).strip() + "\n"


@lru_cache(maxsize=1)
def default_renderer() -> Renderer:
    return Renderer()


def render(kind: str, **context: Any) -> Rendered:
    return default_renderer().render(kind, **context)
