"""Rendered HTML that can no longer change, kept per process.

- A finished game's summary: a 67-hand game's shows every card of every trick (tens of
  thousands of template calls over the whole event log). It is kept under everything it shows
  that the game's last event (seq) does not fix: the game's name and status, the players'
  names, which addresses bounce, the seats, the dev mail link.
- The score sheet of the hands played so far (game and seat pages): a hand's line never
  changes once scored, so it is kept under the game, the number of hands and the names.

Any of those changing makes a new key, so nothing stale is ever served; the old entry ages
out. Each gunicorn worker keeps its own (nothing is written on a GET); a restart (a new
version) starts empty. Bounded by the characters kept; off while templates reload themselves
(development).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import Flask

LIMIT_CHARS = 32 * 1024 * 1024  # per process: about a hundred summaries of long games
_EXTENSION = "pbem.kept_html"


class RenderedPages:
    """A thread-safe least-recently-used store of rendered pages, bounded by total size."""

    def __init__(self, limit_chars: int = LIMIT_CHARS) -> None:
        self._pages: OrderedDict[Hashable, str] = OrderedDict()
        self._size = 0
        self._limit = limit_chars
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def put(self, key: Hashable, page: str) -> None:
        if len(page) > self._limit:
            return
        with self._lock:
            old = self._pages.pop(key, None)
            self._size += len(page) - (len(old) if old is not None else 0)
            self._pages[key] = page
            while self._size > self._limit:
                _, dropped = self._pages.popitem(last=False)
                self._size -= len(dropped)

    def __len__(self) -> int:
        return len(self._pages)


def kept(app: Flask, key: Hashable, render: Callable[[], str]) -> str:
    """The HTML kept under `key`, else `render()` (kept for next time)."""
    if app.jinja_env.auto_reload:
        return render()
    pages: RenderedPages = app.extensions.setdefault(_EXTENSION, RenderedPages())
    page = pages.get(key)
    if page is None:
        page = render()
        pages.put(key, page)
    return page
