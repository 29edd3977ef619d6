"""The review of a finished game: each decision of a player, weighed by the strong robot from
what that player could see at the time.

For every card played, pass, bid and named suit of the seat with a real choice, the choices are
played out over the same sampled worlds (`pbem.bots.strong.evaluate`, every choice over every
world), and the decision's cost is how many points (chips in Auction Hearts) it lost on average
against the best choice found. The numbers are estimates over a stated number of samples, not
certainties: `Verdict.worlds` says how many.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from pbem.bots import strong
from pbem.bots.worlds import seen_by
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

REVIEW_BUDGET = strong.Budget(plays=12000, min_worlds=24, max_worlds=80, pass_plays=30000)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One decision: what was chosen, the best choice found, and what the choice cost on
    average against it over `worlds` samples (0.0: the choice was the best found)."""

    hand_number: int
    trick_number: int
    seat: int
    kind: str        # "play", "pass", "bid" or "suit"
    chosen: str
    best: str
    cost: float
    worlds: int


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
                    budget: strong.Budget = REVIEW_BUDGET) -> Verdict | None:
    """The verdict on `event` made in `state`, or None when it was no choice (a forced card,
    a moon choice, a claim, a draw)."""
    found = _options(state, event)
    if found is None:
        return None
    kind, options, chosen = found
    if len(options.choices) < 2:
        return None
    seen = seen_by(state, event.seat)  # type: ignore[union-attr]
    estimates = strong.evaluate(seen, seed, budget, options, halve=False)
    best = min(estimates, key=lambda e: e.mean)
    mine = next(e for e in estimates if e.choice == chosen)
    return Verdict(state.hand_number, state.trick_number, seen.seat, kind,
                   _words(kind, chosen), _words(kind, best.choice),
                   max(0.0, mine.mean - best.mean), mine.worlds)


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
    """The `count` decisions that cost most (those that cost something), costliest first."""
    return sorted((v for v in verdicts if v.cost > 0.05), key=lambda v: -v.cost)[:count]
