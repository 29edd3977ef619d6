"""Web adapters: one blueprint per area, collected here for the app factory."""

from __future__ import annotations

import importlib

from flask import Blueprint

# Each module defines `bp`; add a module here to add an area.
BLUEPRINT_MODULES: tuple[str, ...] = ("pbem.web.health", "pbem.web.play",
                                      "pbem.web.unsubscribe", "pbem.web.create",
                                      "pbem.web.takeover",
                                      "pbem.web.seat_actions", "pbem.web.addresses",
                                      "pbem.web.accounts", "pbem.web.ratings",
                                      "pbem.web.lobby", "pbem.web.favicon",
                                      "pbem.web.export")


def blueprints() -> list[Blueprint]:
    found = []
    for name in BLUEPRINT_MODULES:
        module = importlib.import_module(name)
        found.append(module.bp)
    return found
