"""The strong robot's wall-clock limit (issue 36): a search that would run for minutes stops at
its limit with the best choice so far, also when other threads hold the interpreter; a
generous limit changes nothing; and the race stops a clear decision early."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest

from pbem.bots import choose_event, robot_event
from pbem.bots.strong import DEFAULT_BUDGET, Budget, choose, distinct_plays, search
from pbem.bots.worlds import Seen, seen_by
from pbem.dealing import create_game, deal
from pbem.engine import CardPlayed, CardsPassed, GameState, apply, legal_cards, preset, start

ENDLESS = Budget(plays=10**12, min_worlds=4, max_worlds=10**9, pass_plays=10**12)
LIMIT = 0.1


def first_lead() -> GameState:
    """A standard hand with no pass, played by the heuristic up to a lead with three or more
    distinct choices."""
    rules = preset("standard").replace(pass_cycle=(0,))
    rng = random.Random(5)
    state = apply(start(create_game(rules, rng)), deal(rules, rng))
    while state.trick or len(distinct_plays(seen_by(state, state.to_move[0])).choices) < 3:
        state = apply(state, choose_event(state, state.to_move[0]))
    return state


def leader_seen() -> Seen:
    state = first_lead()
    return seen_by(state, state.to_move[0])


@pytest.fixture
def busy() -> Iterator[None]:
    """Two threads that keep the interpreter busy (the load of other work in the process)."""
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            sum(range(10_000))

    threads = [threading.Thread(target=spin) for _ in range(2)]
    for t in threads:
        t.start()
    yield
    stop.set()
    for t in threads:
        t.join()


def timed_choice(seen: Seen, budget: Budget) -> tuple[object, float]:
    started = time.perf_counter()
    event = choose(seen, seed=3, budget=budget)
    return event, time.perf_counter() - started


def test_an_endless_search_stops_at_its_limit_with_a_legal_card() -> None:
    state = first_lead()
    seat = state.to_move[0]
    event, took = timed_choice(seen_by(state, seat), ENDLESS.limited(LIMIT))
    assert isinstance(event, CardPlayed) and event.card in legal_cards(state, seat)
    assert took < LIMIT + 0.5  # the limit, and the one world in play when it passed


def test_the_limit_holds_while_other_threads_hold_the_interpreter(busy: None) -> None:
    event, took = timed_choice(leader_seen(), ENDLESS.limited(LIMIT))
    assert isinstance(event, CardPlayed)
    assert took < LIMIT + 0.5


def test_the_pass_stops_at_its_limit_too() -> None:
    rules = preset("standard")
    rng = random.Random(5)
    state = apply(start(create_game(rules, rng)), deal(rules, rng))
    event, took = timed_choice(seen_by(state, 1), ENDLESS.limited(LIMIT))
    assert isinstance(event, CardsPassed) and len(event.cards) == 3
    assert took < LIMIT + 0.5


def test_a_generous_limit_changes_no_decision() -> None:
    seen = leader_seen()
    for seed in range(3):
        assert choose(seen, seed, DEFAULT_BUDGET) == \
            choose(seen, seed, DEFAULT_BUDGET.limited(600.0))


def test_the_service_entry_passes_its_limit() -> None:
    state = first_lead()
    seat = state.to_move[0]
    assert robot_event(state, seat, "strong", seed=1, seconds=600.0) == \
        robot_event(state, seat, "strong", seed=1)
    assert isinstance(robot_event(state, seat, "strong", seed=1, seconds=0.01), CardPlayed)


def test_the_race_stops_a_clear_decision_early() -> None:
    """Every choice is played in every world until one is clearly the best: the others drop
    out and the search stops long before its budget."""
    seen = leader_seen()
    options = distinct_plays(seen)
    raced = search(seen, 3, Budget(plays=10**9, max_worlds=400, race=2.5), options, halve=False)
    plain = search(seen, 3, Budget(plays=10**9, max_worlds=400), options, halve=False)
    assert max(r.worlds for r in plain) == 400
    assert max(r.worlds for r in raced) < 400 and len(options.choices) > 1
    best = min((r for r in raced if r.worlds == max(x.worlds for x in raced)),
               key=lambda r: r.mean)
    assert best.choice == min(plain, key=lambda r: r.mean).choice
