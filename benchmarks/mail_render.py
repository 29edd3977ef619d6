"""Benchmark: time to render one turn email (plain text + HTML with CSS inlined).

Run: python benchmarks/mail_render.py [--n 2000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.engine import (  # noqa: E402
    ALL_CARDS,
    CardsPassed,
    GameCreated,
    HandDealt,
    apply,
    preset,
    seat_view,
    start,
)
from pbem.mail import views  # noqa: E402
from pbem.mail.render import Renderer  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def turn_context() -> dict[str, object]:
    rules = preset("standard")
    state = apply(start(GameCreated(rules, 4, 0)), HandDealt(tuple(ALL_CARDS)))
    for seat in range(4):
        state = apply(state, CardsPassed(seat, state.hand(seat)[-3:]))
    seat = state.to_move[0]
    view = seat_view(state, seat)
    legal = views.card_views(view.legal, {str(c): f"https://hearts.test/t/{'x' * 24}"
                                          for c in view.legal})
    return {
        **views.table_context(view, NAMES, seat), "legal": legal, "example": legal[0].code,
        "deadline": "Saturday 1 March 2025, 13:00 CET (Europe/Paris)",
        "player_name": NAMES[seat], "game_name": "Friday night",
        "game_url": "https://hearts.test/games/1", "unsubscribe_url": "https://hearts.test/u/x",
        "marker": "--- Reply above this line ---", "preheader": "Your turn.",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=2000)
    args = parser.parse_args()
    renderer = Renderer()
    context = turn_context()
    renderer.render("turn", **context)  # warm up: compile templates
    times = []
    for _ in range(args.n):
        start = time.perf_counter()
        renderer.render("turn", **context)
        times.append(time.perf_counter() - start)
    times.sort()
    ms = [t * 1000 for t in times]
    print(f"turn email render (txt + html + css-inline), n={args.n}")
    print(f"  median {statistics.median(ms):.3f} ms   p95 {ms[int(0.95 * len(ms))]:.3f} ms   "
          f"max {ms[-1]:.3f} ms   (target: under 2 ms)")
    rendered = renderer.render("turn", **context)
    print(f"  sizes: text {len(rendered.text)} chars, html {len(rendered.html)} chars")


if __name__ == "__main__":
    main()
