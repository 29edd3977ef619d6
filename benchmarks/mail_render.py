"""Benchmark: time to render one turn email (plain text + HTML with CSS inlined).

Run: python benchmarks/mail_render.py [--n 2000] [--preset cancellation]
(`--preset`: a whole variant's turn email instead, a few tricks into its first hand, with the
variant's notes: Auction's suit, pot and chips, Domino's stock, Cancellation's cancelled cards.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from pbem.engine import (  # noqa: E402
    ALL_CARDS,
    CardsPassed,
    GameCreated,
    GameState,
    HandDealt,
    Phase,
    apply,
    preset,
    seat_view,
    start,
)
from pbem.mail.render import Renderer  # noqa: E402
from pbem.present import views  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]


def standard_turn() -> GameState:
    rules = preset("standard")
    state = apply(start(GameCreated(rules, 4, 0)), HandDealt(tuple(ALL_CARDS)))
    for seat in range(4):
        state = apply(state, CardsPassed(seat, state.hand(seat)[-3:]))
    return state


def variant_turn(name: str) -> GameState:
    """A seeded random game of a whole variant, three tricks into its first hand."""
    from pbem.playout import random_event

    rng = random.Random(1)
    rules = preset(name)
    state = start(GameCreated(rules, rules.players, 0))
    while not (state.phase is Phase.PLAY and len(state.tricks) >= 3):
        state = apply(state, random_event(state, rng))
    return state


def turn_context(name: str = "standard") -> dict[str, object]:
    state = standard_turn() if name == "standard" else variant_turn(name)
    seat = state.to_move[0]
    view = seat_view(state, seat)
    legal = views.card_views(views.distinct_cards(view.legal),
                             {str(c): f"https://hearts.test/t/{'x' * 24}" for c in view.legal})
    names = NAMES[:state.seats]
    return {
        **views.table_context(view, names, seat, rules=state.rules), "legal": legal,
        "example": legal[0].code,
        "deadline": "Saturday 1 March 2025, 13:00 CET (Europe/Paris)",
        "player_name": names[seat], "game_name": "Friday night",
        "game_url": "https://hearts.test/games/1", "unsubscribe_url": "https://hearts.test/u/x",
        "marker": "--- Reply above this line ---", "preheader": "Your turn.",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--preset", default="standard",
                        help="standard, or a whole variant: auction, cancellation, domino ...")
    args = parser.parse_args()
    renderer = Renderer()
    context = turn_context(args.preset)
    renderer.render("turn", **context)  # warm up: compile templates
    times = []
    for _ in range(args.n):
        start = time.perf_counter()
        renderer.render("turn", **context)
        times.append(time.perf_counter() - start)
    times.sort()
    ms = [t * 1000 for t in times]
    print(f"{args.preset} turn email render (txt + html + css-inline), n={args.n}")
    print(f"  median {statistics.median(ms):.3f} ms   p95 {ms[int(0.95 * len(ms))]:.3f} ms   "
          f"max {ms[-1]:.3f} ms   (target: under 2 ms)")
    rendered = renderer.render("turn", **context)
    print(f"  sizes: text {len(rendered.text)} chars, html {len(rendered.html)} chars")


if __name__ == "__main__":
    main()
