"""Issue 37, item 6: at a phone's width (375 px), and at a desktop's (1280 px), in real
Chromium, no page and no email (tests/browser/tour.py: every kind) is wider than the screen, no
element spills out of its box unless it is meant to scroll, and no word is broken across two
lines ("Han/d", "Wo/n by"), nor a seat's name ("Robot 4"). A word wider than its whole column
may wrap (it cannot fit otherwise; were it left whole, it would spill out and the first checks
would say so)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.browser.tour import WIDTHS, Tour, email_tour, page_tour, show_all

pytestmark = pytest.mark.browser
PHONE, DESKTOP = WIDTHS[1], WIDTHS[0]  # 375 and 1280 px

# What the page shows wider than it should: a list of "what: where" lines.
FIND_PROBLEMS = r"""
() => {
  const problems = [];
  const viewport = document.documentElement.clientWidth;
  const where = (el) => {
    let name = el.tagName.toLowerCase();
    if (el.id) name += "#" + el.id;
    if (el.classList.length) name += "." + [...el.classList].join(".");
    const parent = el.parentElement;
    return parent && parent !== document.body ? where(parent) + " > " + name : name;
  };
  const style = (el) => getComputedStyle(el);
  const scrolls = (s) => ["auto", "scroll"].includes(s.overflowX);
  // Inside a box that scrolls or clips on purpose (sr-only, the emails' hidden preheader).
  const contained = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (style(up).overflowX !== "visible") return true;
    }
    return false;
  };
  if (document.documentElement.scrollWidth > viewport) {
    problems.push(`page is ${document.documentElement.scrollWidth} px wide`);
  }
  for (const el of document.body.querySelectorAll("*")) {
    const s = style(el);
    if (s.display === "none" || s.visibility === "hidden" || contained(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width > 0 && (box.right > viewport + 1 || box.left < -1)) {
      problems.push(`outside the screen (${Math.round(box.left)}..${Math.round(box.right)}` +
                    ` px): ${where(el)}`);
    } else if (!scrolls(s) && s.overflowX === "visible" && el.clientWidth > 0 &&
               el.scrollWidth > el.clientWidth + 1) {
      problems.push(`spills out of its box (${el.scrollWidth} > ${el.clientWidth} px): ` +
                    where(el));
    }
  }
  return problems;
}
"""

# Words (letters and digits) and seat names whose letters are on more than one line.
FIND_BROKEN_WORDS = r"""
() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const pattern = /Robot \d+|[\p{L}\p{N}]+/gu;
  const blockOf = (node) => {
    let el = node.parentElement;
    while (el && getComputedStyle(el).display.startsWith("inline")) el = el.parentElement;
    return el;
  };
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || ["SCRIPT", "STYLE", "TEMPLATE"].includes(parent.tagName)) continue;
    for (const match of node.data.matchAll(pattern)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      if (rects.length < 2) continue;
      const tops = rects.map((r) => r.top);
      if (Math.max(...tops) - Math.min(...tops) < rects[0].height / 2) continue;
      const width = rects.reduce((sum, r) => sum + r.width, 0);
      const block = blockOf(node);
      if (block && width > block.clientWidth) continue;  // wider than its column
      broken.push(`"${match[0]}" in ${parent.tagName.toLowerCase()}` +
                  `${parent.className ? "." + parent.className : ""}`);
    }
  }
  return broken;
}
"""


def problems_shown(page: Any) -> list[str]:
    found: list[str] = page.evaluate(FIND_PROBLEMS)
    return found + [f"word broken: {word}" for word in page.evaluate(FIND_BROKEN_WORDS)]


def _report(found: dict[str, list[str]]) -> str:
    lines = [f"{where}:\n  " + "\n  ".join(problems[:8]) for where, problems in found.items()
             if problems]
    return f"{len(lines)} too wide or with broken words:\n" + "\n".join(lines)


def _check(page: Any, tour: Tour, emails: list[Any]) -> int:
    """Everything at a phone's width, then at a desktop's; fails with the report; how many
    were checked."""
    found: dict[str, list[str]] = {}
    for width in (PHONE, DESKTOP):
        page.set_viewport_size({"width": width, "height": 800})
        for shown in show_all(page, tour, emails):
            found[f"{shown.label} at {width} px"] = problems_shown(page)
    assert not any(found.values()), _report(found)
    return len(found)


def test_the_checks_find_a_wide_page_a_spill_and_broken_words(browser_page: Any) -> None:
    browser_page.set_viewport_size({"width": PHONE, "height": 800})
    browser_page.set_content(
        '<html lang="en"><body style="margin:0"><p style="width:60px;word-break:break-all">'
        'Your Hand Robot 4</p><div id="wide" style="width:500px">x</div>'
        '<div style="width:100px"><span style="white-space:nowrap">a spilling line of text'
        '</span></div><div style="overflow-x:auto;width:100px"><pre>scrolls on purpose, '
        'this one</pre></div></body></html>')
    found = problems_shown(browser_page)
    assert found[0] == "page is 500 px wide" and "outside the screen (0..500 px): div#wide" in (
        found)
    assert any(line.startswith("spills out of its box") for line in found), found
    assert not any("pre" in line for line in found), found
    assert {'word broken: "Robot 4" in p', 'word broken: "Hand" in p'} <= set(found), found


def test_every_page_fits_a_phone(app: Flask, browser_page: Any) -> None:
    tour = page_tour(app)
    assert _check(browser_page, tour, []) == 2 * len(tour.pages)
    assert len(tour.pages) >= 40, [shown.label for shown in tour.pages]


def test_every_email_fits_a_phone(app: Flask, browser_page: Any) -> None:
    emails = email_tour(app)
    assert _check(browser_page, Tour(), emails) == 2 * len(emails)
