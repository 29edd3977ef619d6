"""The robots' own draws (`pbem.bots.worlds.below`, `shuffle`), compiled with the engine, take
exactly the numbers `random.Random.randrange` and `shuffle` take from the same generator: the
searches decide as they did when they called those (tests/engine/test_bot_search_unchanged.py),
and a Python whose `random` draws differently fails here first."""

from __future__ import annotations

import random

import pytest

from pbem.bots.worlds import below, shuffle


@pytest.mark.parametrize("seed", range(5))
def test_below_draws_what_randrange_draws_from_the_same_generator(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    bounds = [1, 2, 3, 5, 7, 12, 13, 39, 52, 64, 65, 104, 1000, 2**40 + 3] * 40
    assert [below(ours, n) for n in bounds] == [theirs.randrange(n) for n in bounds]
    assert ours.random() == theirs.random()  # and the generators are left in the same state


@pytest.mark.parametrize("size", [0, 1, 2, 13, 39, 52])
def test_shuffle_makes_the_swaps_random_shuffle_makes(size: int) -> None:
    ours, theirs = random.Random(size), random.Random(size)
    mine, reference = list(range(size)), list(range(size))
    for _ in range(20):
        shuffle(mine, ours)
        theirs.shuffle(reference)
        assert mine == reference
