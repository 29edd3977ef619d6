"""A world's table laid on a copy of another world's table of the same decision (the standard
game's fast path of `world_table`) is the table built from the world's own state: every field
equal, in every phase a robot decides in, where the cards beyond the hands go to the kitty and
where they go to the first trick's winner."""

from __future__ import annotations

import random

import pytest

from pbem.bots import choose_event
from pbem.bots.worlds import knowledge, sample_world, seen_by, world_state, world_table
from pbem.dealing import deal
from pbem.engine import (
    GameCreated,
    GameState,
    Phase,
    apply,
    forced_events,
    preset,
    start,
    thaw,
)

FIELDS = (  # every field of a table (Table.__slots__ in table.py, but its cache `decided`)
    "rules", "seats", "first_dealer", "hand_number", "dealer", "phase", "hands", "passed",
    "trick", "leader", "turn", "tricks", "won", "hearts_broken", "kitty", "in_play", "totals",
    "sheet", "moon_shooter", "winners", "claimed_by", "turns", "end_votes", "penalty",
    "simulating",
)


def _decisions(preset_name: str, deal_no: int) -> list[tuple[GameState, int]]:
    """Every decision of one hand of heuristic players (state, seat to move)."""
    rules = preset(preset_name)
    state = start(GameCreated(rules, rules.players, 0))
    state = apply(state, deal(rules, random.Random(deal_no)))
    found = []
    while state.phase is not Phase.DEAL and state.phase is not Phase.GAME_OVER:
        forced = forced_events(state)
        if forced:
            state = apply(state, forced[0])
            continue
        seat = state.to_move[0]
        found.append((state, seat))
        state = apply(state, choose_event(state, seat))
    return found


@pytest.mark.parametrize("preset_name", ["standard", "omnibus-jd", "three-kitty", "five-kitty",
                                         "cancellation", "domino"])
def test_a_world_laid_on_another_worlds_table_is_the_table_of_its_own_state(
        preset_name: str) -> None:
    checked = 0
    for state, seat in _decisions(preset_name, 3)[::3]:
        seen = seen_by(state, seat)
        know = knowledge(seen)
        rng = random.Random(checked)
        first = world_table(seen, know, *sample_world(know, rng), rng)
        for _ in range(3):
            hands, rest = sample_world(know, rng)
            laid = world_table(seen, know, hands, rest, random.Random(0), like=first)
            built = thaw(world_state(seen, know, hands, rest, random.Random(0)))
            assert laid is not first
            assert {f: getattr(laid, f) for f in FIELDS} == {f: getattr(built, f) for f in FIELDS}
            assert type(laid) is type(built) and laid.freeze() == built.freeze()
            checked += 1
    assert checked >= 9
