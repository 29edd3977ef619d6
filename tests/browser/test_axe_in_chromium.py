"""Issue 37, item 5: axe-core (the copy the axe-playwright-python package ships) run in real
Chromium over every page kind and every email kind (tests/browser/tour.py), at a desktop's
width (1280 px) and a phone's (375 px), with the WCAG 2.0/2.1 A and AA rules and axe's best
practices: no violation of impact "serious" or "critical" anywhere. A failure lists each
violation's rule, help text and the elements it was found on, per page."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import pytest
from flask import Flask

from tests.browser.tour import WIDTHS, Shown, Tour, email_tour, page_tour, show_all
from tests.i18n.test_pseudo_locale import EMAIL_KINDS

pytestmark = pytest.mark.browser
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
BLOCKING = {"serious", "critical"}
# Off by default in axe (experimental), on here: a control's name must contain the words it
# shows ("Play 4♣" on the button showing 4♣), so speech input finds it.
EXTRA_RULES = {"label-content-name-mismatch": {"enabled": True}}
# Blocking whatever their impact: the ones issue 37 names (an email without a main landmark,
# an empty table header on /me).
ALSO_BLOCKING = {"landmark-one-main", "empty-table-header"}


@cache
def axe_source() -> str:
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text("utf-8")


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe's violations on the document shown in `page`."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())
    options = json.dumps({"runOnly": {"type": "tag", "values": TAGS}, "rules": EXTRA_RULES,
                          "resultTypes": ["violations"]})
    results: dict[str, Any] = page.evaluate(f"axe.run(document, {options})")
    return list(results["violations"])


def blocking(violations: list[dict[str, Any]]) -> list[str]:
    """"rule (impact): help — targets" for each serious or critical violation (and those of
    ALSO_BLOCKING)."""
    return [f"{found['id']} ({found['impact']}): {found['help']} — "
            + "; ".join(" ".join(node["target"]) for node in found["nodes"][:6])
            for found in violations
            if found["impact"] in BLOCKING or found["id"] in ALSO_BLOCKING]


def _report(found: dict[str, list[str]]) -> str:
    lines = [f"{where}:\n  " + "\n  ".join(problems) for where, problems in found.items()
             if problems]
    return f"{len(lines)} page(s) or email(s) with serious or critical problems:\n" + (
        "\n".join(lines))


def test_axe_runs_in_chromium_and_finds_a_serious_problem(browser_page: Any) -> None:
    """The check can fail: grey on white, a button with no name, one named otherwise than it
    shows, an empty table header and a page without its main part are found."""
    browser_page.set_content(
        '<html lang="en"><title>t</title><p style="color:#bbb">Faint</p><button>'
        '</button><button aria-label="Card">Play 4♣</button><table><tr><th></th><th>Points</th>'
        '</tr><tr><td>Ann</td><td>3</td></tr></table></html>')
    rules = {line.split(" ", 1)[0] for line in blocking(axe_violations(browser_page))}
    assert rules == {"color-contrast", "button-name", "label-content-name-mismatch",
                     "empty-table-header", "landmark-one-main"}, rules


def _check(page: Any, tour: Tour, emails: list[Shown]) -> int:
    """Shows everything at each width; fails with the report; how many were checked."""
    found: dict[str, list[str]] = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for shown in show_all(page, tour, emails):
            found[f"{shown.label} at {width} px"] = blocking(axe_violations(page))
    assert not any(found.values()), _report(found)
    return len(found)


def test_every_page_has_no_serious_problem(app: Flask, browser_page: Any) -> None:
    tour = page_tour(app)
    assert _check(browser_page, tour, []) == len(WIDTHS) * len(tour.pages)
    assert len(tour.pages) >= 40, [shown.label for shown in tour.pages]


def test_every_email_has_no_serious_problem(app: Flask, browser_page: Any) -> None:
    emails = email_tour(app)
    assert _check(browser_page, Tour(), emails) == len(WIDTHS) * len(emails)
    assert len(emails) > len(EMAIL_KINDS), [shown.label for shown in emails]
