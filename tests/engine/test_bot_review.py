"""The review of a game: each decision weighed by the strong robot from what that player saw."""

from __future__ import annotations

import random

from pbem.bots import choose_event
from pbem.bots.review import costliest, review_decision, review_seat
from pbem.dealing import create_game, deal
from pbem.engine import (
    Card,
    CardPlayed,
    Event,
    Phase,
    Rules,
    apply,
    forced_events,
    preset,
    start,
)
from tests.engine.test_rules import STANDARD, game, play


def queen_on_the_trick() -> tuple[object, ...]:
    """Seat 0 plays last to a spade trick where the KS wins and the QS lies: AS takes 13."""
    state = game(STANDARD, {0: "2C AS 2S", 1: "AC KS", 2: "4C QS", 3: "5C 5S"})
    state = play(state, "2C", "AC", "4C", "5C", "KS", "QS", "5S")
    assert state.turn == 0
    return (state,)


def test_overtaking_onto_the_queen_is_a_costly_decision_and_ducking_is_better() -> None:
    """Taking the QS costs 13 now; ducking keeps the AS (a later risk), so the net is less."""
    (state,) = queen_on_the_trick()
    verdict = review_decision(state, CardPlayed(0, Card.parse("AS")), seed=1)  # type: ignore[arg-type]
    assert verdict is not None
    assert verdict.kind == "play" and verdict.chosen == "A♠" and verdict.best == "2♠"
    assert verdict.cost >= 3 and verdict.worlds > 0


def test_the_best_choice_costs_nothing() -> None:
    (state,) = queen_on_the_trick()
    verdict = review_decision(state, CardPlayed(0, Card.parse("2S")), seed=1)  # type: ignore[arg-type]
    assert verdict is not None and verdict.cost == 0.0 and verdict.best == verdict.chosen


def test_a_forced_card_is_no_decision() -> None:
    state = game(STANDARD, {0: "2C AS"})
    assert review_decision(state, CardPlayed(0, Card.parse("2C")), seed=1) is None


def heuristic_game(rules: Rules, seed: int, hands: int | None = None) -> list[Event]:
    """The log of a game played by the heuristic robot in every seat (to its end, or to the
    end of hand `hands`)."""
    rng = random.Random(seed)
    events: list[Event] = [create_game(rules, rng)]
    state = start(events[0])  # type: ignore[arg-type]
    while not state.game_over:
        if state.phase is Phase.DEAL:
            if hands is not None and len(state.sheet) >= hands:
                break
            event: Event = deal(rules, rng)
        else:
            forced = forced_events(state)
            event = forced[0] if forced else choose_event(state, state.to_move[0])
        events.append(event)
        state = apply(state, event)
    return events


def test_a_whole_game_is_reviewed_for_one_seat_with_honest_sample_counts() -> None:
    events = heuristic_game(preset("standard").replace(target=20), seed=3)
    verdicts = review_seat(events, 1, seed=2)
    assert verdicts and all(v.seat == 1 and v.worlds >= 4 and v.cost >= 0 for v in verdicts)
    assert all(v.worlds >= 32 and v.low >= 0.5 for v in verdicts if v.shown)
    assert {v.kind for v in verdicts} <= {"play", "pass"}
    top = costliest(verdicts)
    assert len(top) <= 3 and [v.cost for v in top] == sorted((v.cost for v in top), reverse=True)
