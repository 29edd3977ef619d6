"""Web adapters: one blueprint per area, collected here for the app factory."""

from __future__ import annotations

import importlib

from flask import Blueprint, Flask

# Each module defines `bp`; add a module here to add an area.
BLUEPRINT_MODULES: tuple[str, ...] = ("pbem.web.health", "pbem.web.play",
                                      "pbem.web.unsubscribe", "pbem.web.create",
                                      "pbem.web.takeover",
                                      "pbem.web.seat_actions", "pbem.web.addresses",
                                      "pbem.web.accounts", "pbem.web.ratings",
                                      "pbem.web.lobby", "pbem.web.favicon",
                                      "pbem.web.hands", "pbem.web.export",
                                      "pbem.web.i18n")


def blueprints() -> list[Blueprint]:
    found = []
    for name in BLUEPRINT_MODULES:
        module = importlib.import_module(name)
        found.append(module.bp)
    return found


def compile_page_templates(app: Flask) -> int:
    """Compile every page template now (Jinja compiles one on its first use, in each process:
    ~80 ms of a finished game's first summary view): gunicorn's master calls it through
    pbem.wsgi before it forks the web workers, which then start with them compiled. How many."""
    env = app.jinja_env
    names = env.list_templates(filter_func=lambda name: name.startswith("web/"))
    for name in names:
        env.get_template(name)
    return len(names)
