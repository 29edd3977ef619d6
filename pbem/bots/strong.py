"""The strong robot: sample the unseen cards, try each choice in every sample, keep the best.

For each decision (a card, the pass, a bid, the suit to name) it deals the unseen cards many
ways consistent with what its seat has seen (`pbem.bots.worlds`), plays every choice out to the
end of the hand in each of those worlds with the fast heuristic policy (`pbem.bots.rollout`),
each opponent mixing in random cards as often as its play so far suggests
(`pbem.bots.opponents`), and picks the choice that cost least on average: points, or chips in
Auction Hearts. All choices are tried in the same worlds, so the comparison is fair even with few
samples; a choice that is clearly worse after a few worlds is dropped so the others get more
(successive halving).

Its entry point takes a `Seen` (a seat view, the rules, public history), never a GameState, so it
cannot read a hidden card. The work is a count of simulated card plays, not a clock, so a
decision depends only on what the seat saw and the seed: the same on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Generic, TypeVar

from pbem.bots.heuristic import moon_down_is_better
from pbem.bots.opponents import wildness
from pbem.bots.rollout import cost, indices, pass_ranking, play_out
from pbem.bots.worlds import Knowledge, Seen, knowledge, mask, sample_world, world_table
from pbem.engine import (
    BidMade,
    BonusCard,
    Card,
    CardPlayed,
    CardsPassed,
    Event,
    MoonChosen,
    Phase,
    Suit,
    SuitNamed,
    Table,
    Variant,
    WrongPhase,
)

Option = TypeVar("Option")


@dataclass(frozen=True, slots=True)
class Budget:
    """How much one decision may think: simulated card plays, and the range of worlds. The
    defaults are eight times those of the robot before (5,000 plays, 6,000 for a pass, at most
    60 worlds): paired on the same 6,000 hands against random players that took 0.15 ± 0.11
    points a hand less (docs/robots.md §8), at a decision CPU p99 of ~130 ms (target 250)."""

    plays: int = 40_000
    min_worlds: int = 4
    max_worlds: int = 480
    pass_plays: int = 48_000


DEFAULT_BUDGET = Budget()
BID_RAISES = (1, 2, 3)  # the bids tried above the high bid (besides passing)
HEARTS = ((1 << 13) - 1) << (13 * Suit.HEARTS.value)
QUEEN_OF_SPADES = 1 << Card(12, Suit.SPADES).index


@dataclass(frozen=True, slots=True)
class Estimate(Generic[Option]):
    """A choice's average cost over the worlds it was tried in (lower is better)."""

    choice: Option
    mean: float
    worlds: int


def choose(seen: Seen, seed: int, budget: Budget = DEFAULT_BUDGET) -> Event:
    """The strong robot's move for the seat whose view `seen` holds."""
    view, me = seen.view, seen.seat
    if view.phase is Phase.PASS and not view.has_passed:
        return CardsPassed(me, _cards(_best(seen, seed, budget, pass_options(seen))))
    if me not in view.to_move:
        raise WrongPhase("It isn't this seat's move.")
    if view.phase is Phase.PLAY:
        return CardPlayed(me, Card.from_index(_best(seen, seed, budget, distinct_plays(seen))))
    if view.phase is Phase.MOON_CHOICE:
        return MoonChosen(me, moon_down_is_better(seen.rules, view.totals, me))
    if view.phase is Phase.BID:
        return BidMade(me, _best(seen, seed, budget, bid_options(seen)))
    if view.phase is Phase.NAME_SUIT:
        return SuitNamed(me, _best(seen, seed, budget, suit_options()))
    raise WrongPhase("It isn't this seat's move.")


def _cards(bits: int) -> tuple[Card, ...]:
    return tuple(Card.from_index(i) for i in indices(bits))


# --- the choices of each kind, each with how it is made on a world's table ------------------------

@dataclass(frozen=True, slots=True)
class Options(Generic[Option]):
    """The choices of one decision and how one is made on a world's table (by the seat)."""

    choices: tuple[Option, ...]
    act: Callable[[Table, int, Option], None]


def play_options(seen: Seen) -> Options[int]:
    legal = tuple(c.index for c in seen.view.legal)
    return Options(legal, lambda t, me, index: t.play(me, index))


def distinct_plays(seen: Seen) -> Options[int]:
    """The legal cards with equivalent ones merged, so the search spends its worlds on real
    choices: two cards of a suit are equivalent when every card ranked between them has been
    played or is in this hand, and they score alike (both hearts, or neither a penalty card).
    Whichever the seat plays, every trick goes the same way. Only in the standard game with
    one deck and no bonus card (elsewhere twins, cancels and bonus cards make ranks special)."""
    options = play_options(seen)
    rules = seen.rules
    if rules.variant is not Variant.STANDARD or rules.decks != 1 \
            or rules.bonus_card is not BonusCard.NONE:
        return options
    view = seen.view
    played = mask(c for t in (*view.tricks, view.current_trick) for c in t.cards)
    gone = played | mask(view.hand)
    penalty = HEARTS | (QUEEN_OF_SPADES if rules.queen_scores else 0)
    kept: list[int] = []
    for index in sorted(options.choices):  # within a suit, low to high
        previous = kept[-1] if kept else -1
        if previous >= 0 and _same_run(previous, index, gone, penalty):
            continue
        kept.append(index)
    return Options(tuple(kept), options.act)


def _same_run(low: int, high: int, gone: int, penalty: int) -> bool:
    """Are cards `low` < `high` of one suit equivalent (see `distinct_plays`)?"""
    if low // 13 != high // 13 or (penalty >> low & 1) != (penalty >> high & 1):
        return False
    between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
    return between & ~gone == 0


def pass_options(seen: Seen) -> Options[int]:
    """Every pass of the cards the heuristic finds most dangerous (its own pass first)."""
    count = seen.rules.pass_count
    ranked = _pass_ranking(seen)
    pool = ranked[: count + 3]
    choices = [sum(1 << i for i in combo) for combo in combinations(pool, count)]
    first = sum(1 << i for i in ranked[:count])
    ordered = [first, *[c for c in choices if c != first]]
    return Options(tuple(ordered), lambda t, me, bits: t.pass_cards(me, bits))


def _pass_ranking(seen: Seen) -> list[int]:
    """The hand's cards, most dangerous first, as the rollout policy ranks them."""
    know = knowledge(seen)
    table = world_table(seen, know, [0] * seen.view.seats, 0, random.Random(0))
    return pass_ranking(table, seen.seat)


def bid_options(seen: Seen) -> Options[int | None]:
    high = max(0, *seen.view.bids)
    choices: tuple[int | None, ...] = (None, *(high + k for k in BID_RAISES))
    return Options(choices, lambda t, me, chips: t.apply(BidMade(me, chips)))


def suit_options() -> Options[Suit]:
    return Options(tuple(Suit), lambda t, me, suit: t.apply(SuitNamed(me, suit)))


# --- the search ------------------------------------------------------------------------------

def _best(seen: Seen, seed: int, budget: Budget, options: Options[Option]) -> Option:
    estimates = evaluate(seen, seed, budget, options)
    most = max(e.worlds for e in estimates)  # only the choices tried in every world
    return min((e for e in estimates if e.worlds == most), key=lambda e: e.mean).choice


def evaluate(seen: Seen, seed: int, budget: Budget, options: Options[Option],
             halve: bool = True) -> list[Estimate[Option]]:
    """Each choice's average cost over sampled worlds, the same worlds (and the same random
    draws of the wild opponents in them) for every choice still in the running; after 4, 8,
    16... worlds the worse half of a long list is dropped (unless `halve` is false: a review
    compares every choice over every world)."""
    choices = options.choices
    if len(choices) == 1:
        return [Estimate(choices[0], 0.0, 0)]
    rng = random.Random(seed)
    know = knowledge(seen)
    me = seen.seat
    chips = seen.view.chips[me] if seen.rules.variant is Variant.AUCTION else 0
    plays_left = sum(seen.view.hand_sizes) + len(know.unseen) - sum(know.sizes)
    limit = budget.pass_plays if seen.view.phase is Phase.PASS else budget.plays
    totals = [0.0] * len(choices)
    alive = list(range(len(choices)))
    worlds, spent = 0, 0
    dropped: dict[int, int] = {}
    wild = wildness(seen)  # per seat: how likely it plays a random card
    while worlds < budget.max_worlds and (
            worlds < budget.min_worlds or spent + len(alive) * plays_left <= limit):
        base = _world(seen, know, rng)
        chance = rng.randrange(2**32)  # the wild opponents' draws: the same for every choice
        for i in alive:
            table = base.clone()
            options.act(table, me, choices[i])
            play_out(table, wild, random.Random(chance), own=me)
            totals[i] += cost(table, me, chips)
        spent += len(alive) * max(plays_left, 1)
        worlds += 1
        if halve and len(alive) > 3 and worlds & (worlds - 1) == 0 and worlds >= 4:
            alive.sort(key=lambda i: (totals[i], i))
            for i in alive[(len(alive) + 1) // 2:]:
                dropped[i] = worlds
            alive = sorted(alive[: (len(alive) + 1) // 2])
    return [Estimate(choices[i], totals[i] / dropped.get(i, worlds), dropped.get(i, worlds))
            for i in sorted(alive)] + _dropped(choices, totals, dropped)


def _dropped(choices: Sequence[Option], totals: list[float],
             dropped: dict[int, int]) -> list[Estimate[Option]]:
    return [Estimate(choices[i], totals[i] / n, n) for i, n in sorted(dropped.items())]


def _world(seen: Seen, know: Knowledge, rng: random.Random) -> Table:
    hands, rest = sample_world(know, rng)
    return world_table(seen, know, hands, rest, rng)


__all__ = ["DEFAULT_BUDGET", "Budget", "Estimate", "choose", "evaluate", "mask"]
