"""How each opponent plays, judged from the hand's public tricks: like the heuristic, or at random.

The strong robot's rollouts play every seat with the heuristic's policy. Against players who
play a random legal card that model is wrong: they dump the queen and hearts anywhere and never
duck. `wildness` estimates, per seat, the probability that it plays at random, from what every
seat can see: a card a player shows later in the hand was in its hand earlier (no draws in the
standard game), so some earlier plays are shown not to be the heuristic's. A player who followed
with the ten over a winning jack and later showed the three of that suit did not duck; one who
discarded a club and later showed a heart (or the queen of spades) did not dump its points.

Each such *contradiction* is evidence: a player of the heuristic's kind contradicts it rarely
(its moon plans, rules the test does not model), a random player often; a play tested (its
player has shown cards since) and found clean is weaker evidence the other way. The estimate is
a Bayesian one from a prior of a quarter "random" (so the pass and the first tricks already
allow for random players), which against players of the heuristic's kind falls as their plays
test clean. Only the standard variant (any number of players, any rule option) is judged;
elsewhere every seat counts as the heuristic's kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.bots.worlds import Seen
from pbem.engine import Card, KittyTo, Suit, Trick, Variant

PRIOR_WILD = 0.25  # before any evidence: the chance a player plays at random
EVIDENCE = 12.0  # how many times likelier a contradiction is from a random player
CLEAN = 0.75  # how much likelier a play tested clean is from a player of the heuristic's kind
TESTED_BY = 2  # a play is tested once its player has shown this many cards after it
QUEEN, KING = 12, 13  # Card.rank: two is 2, ace is 14


@dataclass(frozen=True, slots=True)
class Play:
    """One card of the hand in order: the trick it is in, who played it, what came before."""

    trick: int
    seat: int
    card: Card
    before: tuple[tuple[int, Card], ...]


def wildness(seen: Seen) -> list[float]:
    """Per seat, the probability it plays a random legal card (0.0 for the robot's own seat)."""
    seats, me = seen.view.seats, seen.seat
    if seen.rules.variant is not Variant.STANDARD or not seen.rules.queen_scores:
        return [0.0] * seats
    evidence = judge(seen)
    return [0.0 if s == me else posterior(*evidence[s]) for s in range(seats)]


def posterior(contradicted: int, clean: int = 0) -> float:
    """P(random player | this many contradictions, this many plays tested clean), from the
    prior and the evidence ratios."""
    odds = PRIOR_WILD / (1 - PRIOR_WILD) * EVIDENCE ** contradicted * CLEAN ** clean
    return odds / (1 + odds)


def contradictions(seen: Seen) -> list[int]:
    """Per seat, how many of its plays this hand the heuristic would not have made, as shown by
    the cards it played later."""
    return [contradicted for contradicted, _ in judge(seen)]


def judge(seen: Seen) -> list[tuple[int, int]]:
    """Per seat: (its plays this hand the heuristic would not have made, as shown by the cards
    it played later; its plays tested and found clean: at least `TESTED_BY` cards shown after
    them, no contradiction). Tricks where someone is on the way to the moon are skipped (the
    heuristic then plays to stop or to shoot it), and so is the queen itself."""
    view, rules = seen.view, seen.rules
    plays = _plays((*view.tricks, view.current_trick))
    counts = [[0, 0] for _ in range(view.seats)]
    kitty_risk = rules.kitty_to is KittyTo.FIRST_TRICK and rules.kitty_size > 0
    for k, play in enumerate(plays):
        if _moon_under_way(view.tricks[: play.trick]) or _is_queen(play.card):
            continue
        later = [p.card for p in plays[k + 1:] if p.seat == play.seat]
        first = play.trick == 0
        queen_gone = any(_is_queen(p.card) for p in plays[:k])
        if _contradicts(play, later, first, view.seats, kitty_risk and first, queen_gone) or (
                not play.before and not first and _lead_cost_contradicted(
                    play.card, later, queen_gone, _hearts_shown(view.tricks[: play.trick]))):
            counts[play.seat][0] += 1
        elif len(later) >= TESTED_BY and not (first and _discarded(play)):
            counts[play.seat][1] += 1
    return [(contradicted, clean) for contradicted, clean in counts]


def _discarded(play: Play) -> bool:
    return bool(play.before) and play.card.suit is not play.before[0][1].suit


def _plays(tricks: Sequence[Trick]) -> list[Play]:
    return [Play(t, seat, card, trick.plays[:i])
            for t, trick in enumerate(tricks) for i, (seat, card) in enumerate(trick.plays)]


def _moon_under_way(tricks: Sequence[Trick]) -> bool:
    """Has one seat alone taken points, at least five (the heuristic's moon plans)?"""
    taken: dict[int, int] = {}
    for trick in tricks:
        if trick.winner is not None:
            points = sum(1 for c in trick.cards if _is_point(c))
            if points:
                taken[trick.winner] = taken.get(trick.winner, 0) + points
    return len(taken) == 1 and max(taken.values()) >= 5


def _is_queen(card: Card) -> bool:
    return card.suit is Suit.SPADES and card.rank == QUEEN


def _is_point(card: Card) -> bool:
    return card.suit is Suit.HEARTS or _is_queen(card)


def _contradicts(play: Play, later: list[Card], first_trick: bool, seats: int,
                 unseen_points: bool, queen_gone: bool) -> bool:
    card = play.card
    if _is_queen(card):
        return False
    if not play.before:
        return _lead_contradicted(card, later)
    led = play.before[0][1].suit
    if card.suit is led:
        return _follow_contradicted(play, later, seats, unseen_points)
    return not first_trick and _discard_contradicted(card, later, queen_gone)


def _lead_contradicted(card: Card, later: list[Card]) -> bool:
    """The heuristic leads its lowest card (of the suits it may lead): a lower one of the same
    suit shown later was there to lead."""
    return any(c.suit is card.suit and c.rank < card.rank and not _is_queen(c) for c in later)


def _lead_cost_contradicted(card: Card, later: list[Card], queen_gone: bool,
                            hearts_led_allowed: bool) -> bool:
    """The heuristic leads the card of least lead cost (its rank; a heart 6 more; a spade above
    the queen 40 more while someone else may hold the queen; the queen 50 more): a card shown
    later that it could have led then (a heart only once hearts were played) and that costs
    less was there to lead. (The first trick's lead is left alone: a rule may force it.)"""
    def lead_cost(c: Card, holds_queen: bool) -> int:
        high_spade = c.suit is Suit.SPADES and c.rank > QUEEN and not (queen_gone or holds_queen)
        return c.rank + 6 * (c.suit is Suit.HEARTS) + 40 * high_spade + 50 * _is_queen(c)

    holds_queen = any(_is_queen(c) for c in later) or _is_queen(card)
    led = lead_cost(card, holds_queen)
    return any(lead_cost(c, holds_queen) < led and not _is_queen(c)
               and (hearts_led_allowed or c.suit is not Suit.HEARTS) for c in later)


def _hearts_shown(tricks: Sequence[Trick]) -> bool:
    return any(c.suit is Suit.HEARTS for trick in tricks for c in trick.cards)


def _follow_contradicted(play: Play, later: list[Card], seats: int, unseen_points: bool) -> bool:
    """The heuristic sheds the queen under a higher spade, else plays its highest card under the
    winner, else (last, nothing to take) its highest, else its lowest."""
    card, led = play.card, play.before[0][1].suit
    winning = max(c.rank for _, c in play.before if c.suit is led)
    if led is Suit.SPADES and winning > QUEEN and any(_is_queen(c) for c in later):
        return True
    same = [c.rank for c in later if c.suit is led and not _is_queen(c)]
    if card.rank < winning:
        return any(card.rank < r < winning for r in same)
    if any(r < winning for r in same):
        return True
    last = len(play.before) == seats - 1
    if last and unseen_points:
        return False  # the heuristic counts an unseen kitty as points: either way is its play
    if last and not any(_is_point(c) for _, c in play.before):
        return any(r > card.rank for r in same)
    return any(r < card.rank for r in same)


def _discard_contradicted(card: Card, later: list[Card], queen_gone: bool) -> bool:
    """The heuristic discards the queen, else a high spade (while the queen is out), else its
    highest heart, else its highest card. Until it is played the queen is taken to be out (a
    seat holding it would have shed it first)."""
    return any(_danger(c, queen_gone) > _danger(card, queen_gone) for c in later)


def _danger(card: Card, queen_gone: bool) -> float:
    if _is_queen(card):
        return 100.0
    if card.suit is Suit.SPADES and card.rank >= KING and not queen_gone:
        return 60.0 + card.rank
    if card.suit is Suit.HEARTS:
        return 40.0 + card.rank
    return float(card.rank)
