"""Computer players: the heuristic robot ("easy") and the strong robot, for computer seats and
for players who time out. `robot_event` is the one entry the service needs."""

from __future__ import annotations

from pbem.bots.heuristic import choose_event, choose_pass, choose_play
from pbem.bots.strong import DEFAULT_BUDGET
from pbem.bots.strong import choose as choose_strong
from pbem.bots.worlds import Seen, seen_by
from pbem.engine import Event, GameState, SeatView

STRENGTHS = ("easy", "strong")
DEFAULT_STRENGTH = "strong"


def robot_event(state: GameState, seat: int, strength: str = DEFAULT_STRENGTH,
                seed: int = 0, seconds: float | None = None) -> Event:
    """The robot's move for `seat` at the given strength. The strong robot is handed only
    what the seat may see (`seen_by`); its seed mixes `seed` (e.g. the game's id) with the
    game's public progress, so a replay of the same game decides the same way (unless
    `seconds`, a wall-clock limit such as the ROBOT_SECONDS setting, cuts its search short:
    then it plays the best choice found so far; None or 0: no limit)."""
    if strength == "easy":
        return choose_event(state, seat)
    seen = seen_by(state, seat)
    budget = DEFAULT_BUDGET.limited(seconds or None)
    return choose_strong(seen, seed=public_seed(seen.view, seed), budget=budget)


def public_seed(view: SeatView, seed: int = 0) -> int:
    """A seed from public facts only: the game's seed, the hand, the cards played, the seat."""
    played = sum(len(t.plays) for t in view.tricks) + len(view.current_trick.plays)
    return (seed * 1_000_003 + view.hand_number * 1009 + played * 31
            + (view.seat or 0) + 7 * len(view.to_move)) % 2**32


__all__ = ["DEFAULT_STRENGTH", "STRENGTHS", "Seen", "choose_event", "choose_pass", "choose_play",
           "choose_strong", "public_seed", "robot_event", "seen_by"]
