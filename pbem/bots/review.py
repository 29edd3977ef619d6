"""The review of a finished game: each decision of a player, weighed by the strong robot from
what that player could see at the time.

For every card played, pass, bid and named suit of the seat with a real choice, a first look
plays the choices out over sampled worlds (`pbem.bots.strong.search`, raced as the robot races
them) to find the best choice. When the chosen one looks at least `SCREEN` worse, a check plays
the two again on fresh worlds, paired world by world, until the cost's interval is clear of
`SHOWN_FROM` (or 256 worlds): only a cost whose whole interval is at or above it is a mistake
worth a line (`Verdict.shown`). The check is independent of the first look, so the best
choice's good luck there does not inflate the cost. `Verdict.why` says in a code what made it
costly when a plain fact does (pbem.bots.explain); the words are the presenter's.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from pbem.bots import strong
from pbem.bots.explain import why
from pbem.bots.worlds import Seen, seen_by
from pbem.engine import (
    BidMade,
    Card,
    CardPlayed,
    CardsPassed,
    Event,
    GameCreated,
    GameState,
    Suit,
    SuitNamed,
    apply,
    start,
)

# The first look: every legal card (every candidate pass), raced as the robot races them, to
# find the best choice. The check: the chosen and that best choice on fresh worlds (independent
# of the first look, so the best's luck in it does not make the cost look larger), in rounds of
# CHECK_ROUNDS worlds until the cost's interval is clear of SHOWN_FROM on one side.
REVIEW_BUDGET = strong.Budget(plays=24_000, min_worlds=24, max_worlds=200, pass_plays=60_000,
                              race=3.0, indifferent=0.05)
CHECK_ROUNDS = (32, 32, 64, 128)  # the check's worlds, round by round (256 at most)
SHOWN_FROM = 0.5  # a cost worth a line: its whole interval at or above this (points or chips)
SCREEN = 0.2  # a first-look cost below this is not checked (it is no mistake worth a line)
Z = 2.0  # the interval's half-width in standard errors (about 95%, a little more per round)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One decision: what was chosen, the best choice found, and what the choice cost on
    average against it over `worlds` samples (0.0: the choice was the best found), with the
    interval `low`..`high` of that cost (both equal to `cost` when it was not checked: a cost
    under `SCREEN` at the first look) and `why`: the plain fact that made it costly, as data
    for the words (e.g. "queen_into:A♠"; empty when none is known)."""

    hand_number: int
    trick_number: int
    seat: int
    kind: str        # "play", "pass", "bid" or "suit"
    chosen: str
    best: str
    cost: float
    worlds: int
    low: float = 0.0
    high: float = 0.0
    why: str = ""

    @property
    def shown(self) -> bool:
        """A real mistake: its cost's whole interval at or above `SHOWN_FROM`."""
        return self.low >= SHOWN_FROM


def review_seat(events: Sequence[Event], seat: int, seed: int = 0,
                budget: strong.Budget = REVIEW_BUDGET) -> list[Verdict]:
    """Every decision of `seat` in the game `events` (its log, GameCreated first) that had more
    than one choice, in order."""
    mine = [k for k, e in enumerate(events) if getattr(e, "seat", None) == seat]
    return review_events(events, mine, seed, budget)


def review_events(events: Sequence[Event], which: Collection[int], seed: int = 0,
                  budget: strong.Budget = REVIEW_BUDGET) -> list[Verdict]:
    """The decisions among `events[k]` for k in `which` that had more than one choice, in
    order (`events`: a game's log, GameCreated first)."""
    verdicts: list[Verdict] = []
    created = events[0]
    assert isinstance(created, GameCreated)
    state = start(created)
    wanted = set(which)
    for k, event in enumerate(events[1:], start=1):
        if k in wanted and getattr(event, "seat", None) is not None:
            verdict = review_decision(state, event, seed * 100_003 + k, budget)
            if verdict is not None:
                verdicts.append(verdict)
        state = apply(state, event)
    return verdicts


def review_decision(state: GameState, event: Event, seed: int,
                    budget: strong.Budget = REVIEW_BUDGET,
                    rounds: Sequence[int] = CHECK_ROUNDS) -> Verdict | None:
    """The verdict on `event` made in `state`, or None when it was no choice (a forced card,
    a moon choice, a claim, a draw). `budget` is the first look's, `rounds` the check's."""
    found = _options(state, event)
    if found is None:
        return None
    kind, options, chosen = found
    if len(options.choices) < 2:
        return None
    seen = seen_by(state, event.seat)  # type: ignore[union-attr]
    results = strong.search(seen, seed, budget, options, halve=kind == "pass")
    most = max(r.worlds for r in results)
    best = min((r for r in results if r.worlds == most), key=lambda r: r.mean)
    mine = next(r for r in results if r.choice == chosen)
    cost = max(0.0, _paired(mine.costs, best.costs)) if best.choice != chosen else 0.0
    verdict = Verdict(state.hand_number, state.trick_number, seen.seat, kind,
                      _words(kind, chosen), _words(kind, best.choice), cost, mine.worlds,
                      cost, cost)
    if cost < SCREEN:
        return verdict
    low, mean, high, worlds = check(seen, seed, strong.Options((chosen, best.choice),
                                                              options.act), rounds)
    return replace(verdict, cost=max(0.0, mean), worlds=worlds, low=low, high=high,
                   why=why(state, event) if low >= SHOWN_FROM else "")


def check(seen: Seen, seed: int, pair: strong.Options[object],
          rounds: Sequence[int] = CHECK_ROUNDS) -> tuple[float, float, float, int]:
    """(low, mean, high, worlds): the cost of `pair.choices[0]` against `pair.choices[1]` on
    fresh worlds, paired world by world, with its interval; round after round until the
    interval is clear of `SHOWN_FROM` (above or below it) or the rounds run out."""
    diffs: list[float] = []
    for k, count in enumerate(rounds):
        round_budget = strong.Budget(plays=10**9, min_worlds=count, max_worlds=count,
                                     pass_plays=10**9)
        chosen, other = strong.search(seen, seed * 7919 + 104_729 * (k + 1), round_budget, pair,
                                      halve=False)
        diffs += [a - b for a, b in zip(chosen.costs, other.costs, strict=True)]
        low, mean, high = _interval(diffs)
        if low >= SHOWN_FROM or high < SHOWN_FROM:
            break
    return low, mean, high, len(diffs)


def _paired(mine: Sequence[float], best: Sequence[float]) -> float:
    """The mean of mine - best over the worlds both were played in: the first ones (a choice
    dropped by the race or the halving was played in the first worlds only)."""
    n = min(len(mine), len(best))
    return sum(a - b for a, b in zip(mine[:n], best[:n], strict=True)) / n if n else 0.0


def _interval(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    half = Z * (sum((v - mean) ** 2 for v in values) / (n - 1) / n) ** 0.5
    return mean - half, mean, mean + half


def _options(state: GameState, event: Event) -> tuple[str, strong.Options[object], object] | None:
    seen = seen_by(state, getattr(event, "seat", -1))
    options: strong.Options[object]
    if isinstance(event, CardPlayed):
        options = strong.play_options(seen)  # type: ignore[assignment]
        return "play", options, event.card.index
    if isinstance(event, CardsPassed):
        passes = strong.pass_options(seen)
        chosen = sum(c.bit for c in event.cards)
        choices = passes.choices if chosen in passes.choices else (chosen, *passes.choices)
        return "pass", strong.Options(choices, passes.act), chosen  # type: ignore[arg-type]
    if isinstance(event, BidMade):
        bids = strong.bid_options(seen)
        offered = bids.choices if event.chips in bids.choices else (*bids.choices, event.chips)
        return "bid", strong.Options(offered, bids.act), event.chips  # type: ignore[arg-type]
    if isinstance(event, SuitNamed):
        return "suit", strong.suit_options(), event.suit  # type: ignore[return-value]
    return None


def _words(kind: str, choice: object) -> str:
    if kind == "play":
        assert isinstance(choice, int)
        return Card.from_index(choice).symbol
    if kind == "pass":
        assert isinstance(choice, int)
        return " ".join(Card.from_index(i).symbol for i in range(104) if choice >> i & 1)
    if kind == "bid":
        return "pass" if choice is None else f"{choice} chips"
    assert isinstance(choice, Suit)
    return choice.plural


def costliest(verdicts: Sequence[Verdict], count: int = 3) -> list[Verdict]:
    """The `count` real mistakes (`Verdict.shown`) that cost most, costliest first."""
    return sorted((v for v in verdicts if v.shown), key=lambda v: -v.cost)[:count]
