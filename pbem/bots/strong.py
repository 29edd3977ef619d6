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
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
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
    """How much one decision may think: simulated card plays, the range of worlds, how sure
    the race must be to drop a choice, and a wall-clock limit.

    `race` (a z score; 0: no race) drops a choice once its paired difference from the leader
    (its sum of squares plus `spread`, a prior: a few worlds that agree are no certainty),
    over the worlds both were played in, is clear of `indifferent` points (it is worse, or at
    most that much better, with that confidence), judged at the counts of worlds in `RACE_AT`,
    so the worlds go to the choices still in doubt and a clear decision stops early.
    `seconds` (None: no limit) is a wall-clock limit: when it passes, the choice best so far
    is taken (after one world at least). Without it a decision depends only on what the seat
    saw and the seed; with it, also on the machine's load (the service sets it: see
    `pbem.config`, PBEM_ROBOT_SECONDS). Figures: docs/robots.md §9."""

    plays: int = 40_000
    min_worlds: int = 4
    max_worlds: int = 480
    pass_plays: int = 48_000
    race: float = 0.0
    indifferent: float = 0.0
    seconds: float | None = None
    spread: float = 0.0  # a prior sum of squares the race adds to its paired differences

    def limited(self, seconds: float | None) -> Budget:
        """The same budget with a wall-clock limit (None: none)."""
        return replace(self, seconds=seconds)


# After how many worlds the race judges: from 12 (sample variances of fewer are unsafe), then
# at about every quarter more, so the judging costs little beside the rollouts.
RACE_AT = frozenset((12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256, 320, 384, 448))
TODAY_BUDGET = Budget()  # the robot of docs/robots.md §8 (the tournament's reference)
# Three quarters of today's plays and worlds, half its pass plays, raced, with the race's prior
# spread of one Q♠ (13² points²): as strong decision by decision as today's robot (bot_regret.py:
# +0.005 ± 0.008 points a card, +0.027 ± 0.061 a pass) at under half its CPU (docs/robots.md §9).
FAST_BUDGET = Budget(plays=30_000, max_worlds=360, pass_plays=24_000, race=2.5,
                     indifferent=0.05, spread=169.0)
# The robot of docs/robots.md §10: the same race with a fifth more plays and worlds for a card,
# paid for by the rollouts compiled with the engine (setup.py), which cost ~2.5 times less.
DEFAULT_BUDGET = replace(FAST_BUDGET, plays=36_000, max_worlds=432)
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
        raise WrongPhase("not_this_seats_move")
    if view.phase is Phase.PLAY:
        return CardPlayed(me, Card.from_index(_best(seen, seed, budget, distinct_plays(seen))))
    if view.phase is Phase.MOON_CHOICE:
        return MoonChosen(me, moon_down_is_better(seen.rules, view.totals, me))
    if view.phase is Phase.BID:
        return BidMade(me, _best(seen, seed, budget, bid_options(seen)))
    if view.phase is Phase.NAME_SUIT:
        return SuitNamed(me, _best(seen, seed, budget, suit_options()))
    raise WrongPhase("not_this_seats_move")


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
    compares every choice over every world), and with `budget.race` a choice is dropped as
    soon as it is clearly no better than the leader."""
    return [Estimate(r.choice, r.mean, r.worlds) for r in search(seen, seed, budget, options,
                                                                 halve)]


@dataclass(frozen=True, slots=True)
class Result(Generic[Option]):
    """A choice's cost in each world it was played in (in the order of the worlds)."""

    choice: Option
    costs: tuple[float, ...]

    @property
    def mean(self) -> float:
        return sum(self.costs) / len(self.costs) if self.costs else 0.0

    @property
    def worlds(self) -> int:
        return len(self.costs)


class _Search(Generic[Option]):
    """One decision's search: the worlds played so far and each choice's costs in them."""

    def __init__(self, seen: Seen, seed: int, budget: Budget, options: Options[Option]) -> None:
        self.seen, self.budget, self.options = seen, budget, options
        self.rng = random.Random(seed)
        self.know = knowledge(seen)
        me = seen.seat
        self.chips = seen.view.chips[me] if seen.rules.variant is Variant.AUCTION else 0
        self.plays_left = sum(seen.view.hand_sizes) + len(self.know.unseen) - sum(self.know.sizes)
        self.limit = budget.pass_plays if seen.view.phase is Phase.PASS else budget.plays
        self.costs: list[list[float]] = [[] for _ in options.choices]
        self.alive = list(range(len(options.choices)))
        self.worlds = self.spent = 0
        self.wild = wildness(seen)  # per seat: how likely it plays a random card
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        self.first: Table | None = None  # the first world's table (see `world_table`'s `like`)

    def more(self) -> bool:
        """Is another world worth playing (and allowed)?"""
        b = self.budget
        if self.worlds >= b.max_worlds or len(self.alive) < 2 and self.worlds >= 1:
            return False
        if self.late():
            return False
        return self.worlds < b.min_worlds or \
            self.spent + len(self.alive) * self.plays_left <= self.limit

    def late(self) -> bool:
        """Has the wall-clock limit passed (once a world at least is played)?"""
        return self.deadline is not None and self.worlds > 0 and \
            time.perf_counter() > self.deadline

    def play_world(self) -> None:
        """One more world for every choice still in the running; when the limit passes
        during it, nothing of it is kept (every choice keeps the same worlds)."""
        me, choices, act = self.seen.seat, self.options.choices, self.options.act
        base = _world(self.seen, self.know, self.rng, self.first)
        self.first = self.first or base
        chance = self.rng.randrange(2**32)  # the wild opponents' draws: the same for every choice
        found = []
        for i in self.alive:
            if self.late():
                self.deadline = -1.0  # past, for good
                return
            table = base.clone()
            act(table, me, choices[i])
            play_out(table, self.wild, random.Random(chance), own=me)
            found.append(cost(table, me, self.chips))
        for i, value in zip(self.alive, found, strict=True):
            self.costs[i].append(value)
        self.spent += len(self.alive) * max(self.plays_left, 1)
        self.worlds += 1

    def halve(self) -> None:
        worlds = self.worlds
        if len(self.alive) > 3 and worlds & (worlds - 1) == 0 and worlds >= 4:
            self.alive.sort(key=lambda i: (sum(self.costs[i]), i))
            self.alive = sorted(self.alive[: (len(self.alive) + 1) // 2])

    def race(self) -> None:
        """Drop the choices clearly no better than the leader (see `Budget.race`)."""
        if self.worlds not in RACE_AT or len(self.alive) < 2:
            return
        lead = min(self.alive, key=lambda i: (sum(self.costs[i]), i))
        z, slack, spread = self.budget.race, self.budget.indifferent, self.budget.spread
        self.alive = [i for i in self.alive if i == lead or
                      _lower(self.costs[i], self.costs[lead], z, spread) <= -slack]


def _lower(mine: list[float], lead: list[float], z: float, spread: float = 0.0) -> float:
    """The lower end of the interval of mean(mine - lead), paired world by world; `spread` is
    added to the sum of squares (so a few worlds that happen to agree, say none where the Q♠
    fell, do not pass for a certainty)."""
    diffs = [a - b for a, b in zip(mine, lead, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = (sum((d - mean) ** 2 for d in diffs) + spread) / (n - 1)
    return float(mean - z * (var / n) ** 0.5)


def search(seen: Seen, seed: int, budget: Budget, options: Options[Option],
           halve: bool = True) -> list[Result[Option]]:
    """Every choice with its cost in each world it was played in (see `evaluate`)."""
    choices = options.choices
    if len(choices) == 1:
        return [Result(choices[0], ())]
    s = _Search(seen, seed, budget, options)
    while s.more():
        s.play_world()
        if s.late():
            break
        if halve:
            s.halve()
        if budget.race:
            s.race()
    return [Result(choices[i], tuple(s.costs[i])) for i in s.alive] + \
        [Result(choices[i], tuple(c)) for i, c in enumerate(s.costs) if i not in s.alive]


def _world(seen: Seen, know: Knowledge, rng: random.Random, like: Table | None) -> Table:
    hands, rest = sample_world(know, rng)
    return world_table(seen, know, hands, rest, rng, like)


__all__ = ["DEFAULT_BUDGET", "Budget", "Estimate", "choose", "evaluate", "mask"]
