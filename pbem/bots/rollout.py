"""Rollouts for the strong robot: the heuristic's ideas on bitmasks, played on the engine's table.

A rollout plays one sampled world to the end of the hand. Every move goes through the engine's
own `Table` (its `legal_mask`, `play`, `pass_cards`...), so a rollout can only make legal moves
under any preset or variant; the policy below only chooses among the legal cards, fast enough for
a few hundred rollouts per decision (the GameState-based heuristic costs ~120 µs a move, this
~10 µs). It sees the whole sampled world (a rollout is one guess at the others' hands, and plays
it as if it were true: the usual determinized search).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Final

from pbem.bots.heuristic import choose_bid, choose_suit, moon_down_is_better
from pbem.bots.worlds import below
from pbem.engine import BidMade, Phase, SuitNamed, Table, Variant, forced_events

DECK: Final = 52
# Ranks counted from 0 (two) to 12 (ace). The module's constants are `Final`: compiled
# (setup.py), the rollouts read them without a dictionary lookup.
QUEEN: Final = 10
KING_AND_UP: Final = 11
SPADES: Final = 3
QS_BITS: Final = 1 << (SPADES * 13 + QUEEN) | 1 << (SPADES * 13 + QUEEN + DECK)
SUIT_BITS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
BOTH_DECKS: Final = tuple(m | m << DECK for m in SUIT_BITS)
HIGH_SPADES: Final = sum(1 << (SPADES * 13 + r) | 1 << (SPADES * 13 + r + DECK)
                  for r in (KING_AND_UP, 12))
END: Final = (Phase.DEAL, Phase.GAME_OVER)
PLAY: Final = Phase.PLAY
NO_DRAWS: Final = random.Random(0)  # never drawn from: without `rng` no seat plays at random
MAX_STEPS: Final = 2000  # a hand of Cancellation Hearts has at most 104 plays; far beyond any hand


def indices(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


RANKS: Final = tuple(i % 13 for i in range(2 * DECK))
SUITS: Final = tuple(i % DECK // 13 for i in range(2 * DECK))
rank, suit = RANKS.__getitem__, SUITS.__getitem__
RANK_BITS: Final = tuple(sum(1 << i for i in range(2 * DECK) if i % 13 == r) for r in range(13))
BELOW_RANK: Final = tuple(sum(RANK_BITS[:r]) for r in range(14))  # the cards ranked below r
ONE_DECK: Final = (1 << DECK) - 1
STANDARD: Final = Variant.STANDARD
AUCTION: Final = Variant.AUCTION


def highest(mask: int) -> int:
    """The card of the highest rank in a non-empty `mask`, the lowest index among equals: what
    `max(indices(mask), key=rank)` gives, without walking the cards. (The ranks present, as 13
    bits: both decks folded onto one, then its four suits onto one.)"""
    folded = (mask | mask >> DECK) & ONE_DECK
    ranks = (folded | folded >> 13 | folded >> 26 | folded >> 39) & 0x1FFF
    top = mask & RANK_BITS[ranks.bit_length() - 1]
    return (top & -top).bit_length() - 1


def lowest(mask: int) -> int:
    """The card of the lowest rank in a non-empty `mask`, the lowest index among equals (as
    `min(indices(mask), key=rank)`; the ranks present found as in `highest`)."""
    folded = (mask | mask >> DECK) & ONE_DECK
    ranks = (folded | folded >> 13 | folded >> 26 | folded >> 39) & 0x1FFF
    bottom = mask & RANK_BITS[(ranks & -ranks).bit_length() - 1]
    return (bottom & -bottom).bit_length() - 1


# --- playing a card -------------------------------------------------------------------------

def play_policy(t: Table, seat: int) -> int:
    """The card index `seat` plays in this world."""
    legal = t.legal_mask(seat)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    queens = t.penalty & QS_BITS
    trick = t.trick
    if not trick:
        return _lead(t, seat, legal, queens)
    led = SUITS[trick[0][1]]
    if legal & BOTH_DECKS[led]:
        return _follow(t, seat, legal, led, queens)
    return _discard(t, seat, legal, queens)


def own_policy(t: Table, seat: int) -> int:
    """The searching robot's own card in a rollout: the heuristic's, except that with the
    queen of spades out and no spade above the jack in its hand it leads its lowest spade
    (to make the queen fall on someone else's trick) when it may (the standard game only).
    Against three random players this alone takes ~0.1 point a hand less (6,000 hands of the
    policy alone; ~0.14 less against three heuristic robots, 3,000 hands)."""
    if not t.trick and t.penalty & QS_BITS and t.rules.variant is STANDARD:
        queens = t.penalty & QS_BITS
        spades = t.legal_mask(seat) & BOTH_DECKS[SPADES]
        if spades and not t.hands[seat] & (HIGH_SPADES | queens) and _queen_out(t, seat, queens):
            return lowest(spades)
    return play_policy(t, seat)


def _queen_out(t: Table, seat: int, queens: int) -> bool:
    """Is a scoring QS still held by someone else (or in the kitty or stock)?"""
    if not queens:
        return False
    others = t.kitty
    for s, hand in enumerate(t.hands):
        if s != seat:
            others |= hand
    return bool(others & queens)


def _lead(t: Table, seat: int, legal: int, queens: int) -> int:
    """The card of least lead cost: its rank, a penalty card 6 more, a spade above the queen 40
    more while someone else may hold the queen, the queen 50 more; the lowest index among
    equals (as `min` over the cards in index order). Within cards of one extra cost the
    cheapest is their `lowest`; any card of the first two kinds (at most 12 + 6) beats the
    others (40 and more), and those rank apart: a high spade 51 or 52 (57 or 58 if it is a
    penalty card), the queen 60."""
    penalty = t.penalty & ~QS_BITS
    high = HIGH_SPADES if legal & HIGH_SPADES and _queen_out(t, seat, queens) else 0
    plain = legal & ~queens & ~high
    if not plain:
        for group in (legal & high & ~penalty, legal & high & penalty):
            if group:
                return lowest(group)
        return lowest(legal & queens)
    cheap, dear = plain & ~penalty, plain & penalty
    if not (cheap and dear):
        return lowest(plain)
    low, low_penalty = lowest(cheap), lowest(dear)
    cost, cost_penalty = RANKS[low], RANKS[low_penalty] + 6
    if cost < cost_penalty or (cost == cost_penalty and low < low_penalty):
        return low
    return low_penalty


def _follow(t: Table, seat: int, legal: int, led: int, queens: int) -> int:
    winning = -1
    for _, i in t.trick:
        if SUITS[i] == led and RANKS[i] > winning:
            winning = RANKS[i]
    if legal & queens and led == SPADES and winning > QUEEN:
        return (legal & queens).bit_length() - 1
    safe = legal & ~queens
    below = safe & BELOW_RANK[winning]
    if below:
        return highest(below)
    if safe and _last_to_play(t, seat) and not _points_at_stake(t):
        return highest(safe)
    return lowest(safe or legal)


def _last_to_play(t: Table, seat: int) -> bool:
    """Has every other seat still holding cards played to this trick?"""
    waiting = 0  # as bits: the seats holding cards, less those that played
    for s, hand in enumerate(t.hands):
        if hand:
            waiting |= 1 << s
    for s, _ in t.trick:
        waiting &= ~(1 << s)
    return not waiting & ~(1 << seat)


def _points_at_stake(t: Table) -> bool:
    cards = getattr(t, "carry", 0)
    for _, index in t.trick:
        cards |= 1 << index
    return bool(cards & t.penalty)


def _discard(t: Table, seat: int, legal: int, queens: int) -> int:
    if legal & queens:
        return (legal & queens).bit_length() - 1
    if legal & HIGH_SPADES and _queen_out(t, seat, queens):
        return highest(legal & HIGH_SPADES)
    penalty = legal & t.penalty
    return highest(penalty or legal)


# --- passing --------------------------------------------------------------------------------

def pass_policy(t: Table, seat: int) -> int:
    """The cards `seat` passes in this world."""
    chosen = 0
    for index in pass_ranking(t, seat)[: t.rules.pass_count]:
        chosen |= 1 << index
    return chosen


def pass_ranking(t: Table, seat: int) -> list[int]:
    """The heuristic's pass on bitmasks, most dangerous first: the queen and its guards unless
    the spades hold it, then the highest penalty cards, then high cards of short suits."""
    hand, penalty = t.hands[seat], t.penalty
    queens = penalty & QS_BITS
    low_spades = sum(1 for i in indices(hand & BOTH_DECKS[SPADES]) if rank(i) < QUEEN)
    lengths = [(hand & BOTH_DECKS[s]).bit_count() for s in range(4)]

    def danger(index: int) -> float:
        bit = 1 << index
        if bit & queens:
            return 100.0 if low_spades < 4 else 0.0
        if queens and bit & HIGH_SPADES:
            return 90.0 if (hand & queens or low_spades < 4) else 5.0
        if bit & penalty:
            return 30.0 + rank(index) * 2
        return rank(index) * 2 + (6.0 if lengths[suit(index)] <= 3 else 0.0)

    return sorted(indices(hand), key=danger, reverse=True)


# --- the rest of a hand -------------------------------------------------------------------------

def play_out(t: Table, wild: Sequence[float] = (), rng: random.Random | None = None,
             own: int = -1) -> None:
    """Play the world to the end of its hand (the engine scores it); every seat uses the policy,
    except that seat `s` plays a random legal card with probability `wild[s]` (drawn from `rng`):
    the model of an opponent who does not play like the heuristic; and seat `own` (the robot
    searching) plays `own_policy`, its own rules of thumb."""
    odds = [0.0] * max(t.seats, len(wild))
    draws = NO_DRAWS if rng is None else rng
    if rng is not None:
        odds[: len(wild)] = wild
    play, legal_mask = t.play, t.legal_mask
    for _ in range(MAX_STEPS):
        phase = t.phase
        if phase is PLAY:
            seat = t.turn
            if odds[seat] and draws.random() < odds[seat]:
                legal = legal_mask(seat)
                play(seat, nth_card(legal, below(draws, legal.bit_count())))
            elif seat == own:
                play(seat, own_policy(t, seat))
            else:
                play(seat, play_policy(t, seat))
        elif phase in END:
            return
        else:
            _other_step(t, phase)
    raise RuntimeError("a rollout did not finish its hand")


def random_card(legal: int, rng: random.Random) -> int:
    """A card of the (non-empty) legal mask, each equally likely: the `randrange(count)`-th in
    index order (drawn as `below` says)."""
    return nth_card(legal, below(rng, legal.bit_count()))


def nth_card(cards: int, n: int) -> int:
    """The `n`-th card (from 0) of the mask in index order."""
    for _ in range(n):
        cards &= cards - 1
    return (cards & -cards).bit_length() - 1


def _other_step(t: Table, phase: Phase) -> None:
    if phase is Phase.PASS:
        for seat in range(t.seats):
            if t.passed[seat] < 0:
                t.pass_cards(seat, pass_policy(t, seat))
    elif phase is Phase.DRAW:
        t.apply(forced_events(t.freeze())[0])
    elif phase is Phase.MOON_CHOICE:
        shooter = t.moon_shooter
        t.choose_moon(shooter, moon_down_is_better(t.rules, t.totals, shooter))
    elif phase is Phase.BID:
        t.apply(BidMade(t.turn, choose_bid(t.freeze(), t.turn)))
    elif phase is Phase.NAME_SUIT:
        t.apply(SuitNamed(t.turn, choose_suit(t.freeze().hand(t.turn))))
    else:
        raise RuntimeError(f"a rollout cannot act in phase {phase}")


def cost(t: Table, seat: int, chips_before: int) -> float:
    """What the finished hand cost `seat`: its points, or in Auction Hearts the chips it lost."""
    if t.rules.variant is AUCTION:
        return float(chips_before - t.chips[seat])  # type: ignore[attr-defined]
    return float(t.sheet[-1].points[seat])
