"""What one seat knows, and the worlds consistent with it: the strong robot's only window on a game.

`Seen` holds exactly what `seat_view` gives a seat plus public facts (the rules, Domino's draw
counts). `sample_world` deals the cards that seat has not seen to the places they may be (the
other hands, the kitty or widow, the Domino stock) so that every void a player has shown holds and
the cards this seat passed sit with the player it passed them to; `world_table` turns one such
deal into a working engine table for rollouts. Nothing here ever reads a GameState's hidden cards:
the GameState built here is made from the view and the sample alone.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from pbem.engine import (
    Card,
    GameState,
    KittyTo,
    Phase,
    Rules,
    SeatView,
    Table,
    Trick,
    Variant,
    deck_cards,
    seat_view,
    thaw,
)

DECK: Final = 52


@dataclass(frozen=True, slots=True)
class Draw:
    """Domino Hearts: `seat` drew `count` cards while `plays_before` cards of the hand had been
    played (the count is public, the cards are not)."""

    seat: int
    count: int
    plays_before: int


@dataclass(frozen=True, slots=True)
class Seen:
    """Everything one seat may know: its seat view, the game's rules and the public history."""

    rules: Rules
    view: SeatView
    draws: tuple[Draw, ...] = ()

    @property
    def seat(self) -> int:
        assert self.view.seat is not None, "an observer's view has no seat to play"
        return self.view.seat


def seen_by(state: GameState, seat: int) -> Seen:
    """What `seat` knows of `state`: the only place a whole state meets the strong robot.
    The public history it needs, Domino's draws this hand, is in the view."""
    view = seat_view(state, seat)
    return Seen(state.rules, view, tuple(Draw(*d) for d in view.draws))


def mask(cards: Iterable[Card]) -> int:
    bits = 0
    for card in cards:
        bits |= 1 << card.index
    return bits


def suit_of(index: int) -> int:
    return index % DECK // 13


def below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` for n > 0, without its argument checks and compiled with the rollouts:
    CPython's `randrange(n)` (3.11 to 3.13) returns `rng._randbelow(n)`, which for
    `random.Random` draws `n.bit_length()` bits until they are below n; so does this, from the
    same generator, so it draws exactly the same numbers (tests/engine/test_bot_draws.py)."""
    bits = n.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= n:
        drawn = rng.getrandbits(bits)
    return drawn


def shuffle(items: list[int], rng: random.Random) -> None:
    """`rng.shuffle(items)`, the same swaps from the same draws (see `below`)."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


# --- what is known: the unseen cards, the voids, where the passed cards went ---------------------

@dataclass(slots=True)
class Knowledge:
    """The facts a world must agree with, worked out once per decision."""

    unseen: list[int]          # card indices this seat has not seen, in index order
    sizes: list[int]           # per seat: the cards a world must give it (0 for this seat)
    voids: list[int]           # per seat: a bitmask of suits (1 << suit) it has shown void in
    pinned: dict[int, int]     # card index -> seat known to hold it (the cards this seat passed)
    won: list[int]             # per seat: the cards seen going to it this hand
    carry: int                 # Cancellation: the cards of tricks nobody won yet
    rest_to: int               # where the cards beyond the hands are: -1 kitty/stock, else a seat


def knowledge(seen: Seen) -> Knowledge:
    view, rules, me = seen.view, seen.rules, seen.seat
    played = [c for t in view.tricks for c in t.cards] + list(view.current_trick.cards)
    seen_mask = mask(view.hand) | mask(played) | mask(view.carried)
    unseen = [c.index for c in deck_cards(rules) if not seen_mask >> c.index & 1]
    sizes = [0 if s == me else n for s, n in enumerate(view.hand_sizes)]
    if view.phase is Phase.PASS:  # a seat that passed already holds its passed cards in limbo
        for s in range(view.seats):
            if s != me and s not in view.to_move:
                sizes[s] += rules.pass_count
    pinned = _pinned(view, me, seen_mask)
    won, _ = _won(view.tricks)
    carry = mask(view.carried)  # what the tricks nobody won left for the next winner
    return Knowledge(unseen, sizes, _voids(view, seen.draws), pinned, won, carry,
                     _rest_to(view, rules))


def _pinned(view: SeatView, me: int, seen_mask: int) -> dict[int, int]:
    """The cards this seat passed and has not seen played: the receiver holds them."""
    if view.pass_target is None or view.pass_target == me or view.phase is Phase.PASS:
        return {}
    return {c.index: view.pass_target for c in view.passed_cards if not seen_mask >> c.index & 1}


def _won(tricks: tuple[Trick, ...]) -> tuple[list[int], int]:
    """The cards each seat took in the tricks seen, and those still carried (Cancellation)."""
    won: dict[int, int] = {}
    carried = 0
    for trick in tricks:
        cards = mask(trick.cards)
        if trick.winner is None:
            carried |= cards
            continue
        won[trick.winner] = won.get(trick.winner, 0) | cards | carried
        carried = 0
    size = 1 + max([s for t in tricks for s, _ in t.plays], default=0)
    return [won.get(s, 0) for s in range(size)], carried


def _voids(view: SeatView, draws: tuple[Draw, ...]) -> list[int]:
    """The suits each seat has shown it lacks: it did not follow one led. In Domino a draw
    refills a hand, so only the suit it drew for (then played) stays known void after a draw."""
    voids = [0] * view.seats
    count = 0
    drew = {(d.seat, d.plays_before) for d in draws}
    for trick in (*view.tricks, view.current_trick):
        if not trick.plays:
            continue
        led = trick.plays[0][1].suit
        for seat, card in trick.plays:
            if (seat, count) in drew:
                voids[seat] = 0  # the drawn cards are unknown: only the led suit stays void
                voids[seat] |= 1 << led
            elif card.suit is not led:
                voids[seat] |= 1 << led
            count += 1
    return voids


def _rest_to(view: SeatView, rules: Rules) -> int:
    """Where the unseen cards that are in no hand lie: -1 the kitty, widow or stock (still to
    come), else the seat that took them with the first trick it won."""
    if rules.variant is Variant.DOMINO or not view.tricks:
        return -1
    if rules.variant is Variant.STANDARD and rules.kitty_to is KittyTo.LAST_TRICK:
        return -1
    return next((t.winner for t in view.tricks if t.winner is not None), -1)


# --- one world: a deal of the unseen cards that agrees with every fact ---

def sample_world(know: Knowledge, rng: random.Random, tries: int = 20) -> tuple[list[int], int]:
    """(per seat the hidden hand as a bitmask, the rest as a bitmask). Cards a seat is known to
    hold are placed first; each other card goes to a seat that may hold its suit, chosen with
    weight by the room it has left. Cards of the suits most seats lack are dealt first so a world
    rarely runs into a corner; after `tries` failures the voids are dropped (legal, only less
    informed)."""
    for _ in range(tries):
        world = _try_world(know, rng, respect_voids=True)
        if world is not None:
            return world
    world = _try_world(know, rng, respect_voids=False)
    assert world is not None
    return world


def _try_world(know: Knowledge, rng: random.Random,
               respect_voids: bool) -> tuple[list[int], int] | None:
    room = list(know.sizes)
    hands = [0] * len(room)
    placed = 0  # the pinned cards (all unseen), in index order as `unseen` is
    for index, seat in sorted(know.pinned.items()):
        if room[seat] > 0:
            hands[seat] |= 1 << index
            room[seat] -= 1
            placed |= 1 << index
    free = [i for i in know.unseen if not placed >> i & 1] if placed else list(know.unseen)
    rest_room = len(free) - sum(room)
    if rest_room < 0:
        return None
    shuffle(free, rng)
    voids = know.voids if respect_voids else [0] * len(room)
    lacking = [sum(v >> s & 1 for v in voids) for s in range(4)]  # per suit: the seats void
    free.sort(key=lambda i: -lacking[i % DECK // 13])
    rest, room_left = 0, sum(room)
    for index in free:
        suit = index % DECK // 13
        if lacking[suit]:
            bit = 1 << suit
            weights = [r if not voids[s] & bit else 0 for s, r in enumerate(room)]
            total = sum(weights) + rest_room
        else:
            weights, total = room, room_left + rest_room
        if total <= 0:
            return None
        pick = below(rng, total)
        if pick >= total - rest_room:
            rest |= 1 << index
            rest_room -= 1
            continue
        seat = _seat_at(weights, pick)
        hands[seat] |= 1 << index
        room[seat] -= 1
        room_left -= 1
    return hands, rest


def _seat_at(weights: list[int], pick: int) -> int:
    for seat, weight in enumerate(weights):
        if pick < weight:
            return seat
        pick -= weight
    raise AssertionError("pick beyond the weights")


# --- from a world to an engine table ---

def world_table(seen: Seen, know: Knowledge, hands: list[int], rest: int,
                rng: random.Random, like: Table | None = None) -> Table:
    """The engine table of this world: the view's public facts, the sampled hidden cards.
    During the pass every other seat holds its whole hand and passes again in the rollout (a
    seat that passed already is taken to have passed what the rollout policy passes).
    `like`, a table of another world of the same decision, lends its public facts: in the
    standard game only the hidden cards are laid anew on a copy of it (the same table as one
    built from a state, without building the state)."""
    if like is None or type(like) is not Table:
        return thaw(world_state(seen, know, hands, rest, rng))
    table = like.clone()
    laid = list(hands)
    laid[seen.seat] = mask(seen.view.hand)
    table.hands = laid
    if know.rest_to >= 0:
        won = list(know.won) + [0] * (seen.view.seats - len(know.won))
        won[know.rest_to] |= rest
        table.won = won
    else:
        table.kitty = rest
    return table


def public_state(seen: Seen) -> GameState:
    """A whole state made from what the seat knows alone: the view's public facts and one
    fixed deal of the cards it has not seen (consistent with every fact). Two games that look
    the same from the seat give the same state, so a robot deciding on it (the heuristic)
    cannot read a hidden card."""
    know = knowledge(seen)
    hands, rest = sample_world(know, random.Random(0))
    return world_state(seen, know, hands, rest, random.Random(0))


def world_state(seen: Seen, know: Knowledge, hands: list[int], rest: int,
                rng: random.Random) -> GameState:
    """The state of one world (see `world_table`)."""
    view, me = seen.view, seen.seat
    hands = list(hands)
    hands[me] = mask(view.hand)
    won = list(know.won) + [0] * (view.seats - len(know.won))
    kitty = 0
    stock: tuple[int, ...] = ()
    if seen.rules.variant is Variant.DOMINO:
        order = [i for i in range(DECK * 2) if rest >> i & 1]
        shuffle(order, rng)
        stock = tuple(order)
    elif know.rest_to >= 0:
        won[know.rest_to] |= rest
    else:
        kitty = rest
    return GameState(
        seen.rules, view.seats, view.dealer, view.hand_number, view.dealer, view.phase,
        tuple(hands), _passed(view, me), _trick(view), view.current_trick.leader,
        view.to_move[0] if view.to_move else view.current_trick.leader, view.tricks,
        tuple(won), view.hearts_broken, kitty, _in_play(seen), view.totals, view.score_sheet,
        -1 if view.phase is not Phase.MOON_CHOICE else view.to_move[0], (), -1,
        carry=know.carry, stock=stock, bids=view.bids,
        bidder=-1 if view.bidder is None else view.bidder,
        avoid=-1 if view.named_suit is None else int(view.named_suit), pot=view.pot,
        chips=view.chips, drawn=view.draws)


def _passed(view: SeatView, me: int) -> tuple[int, ...]:
    if view.phase is Phase.PASS:
        return (-1,) * view.seats
    return tuple(mask(view.passed_cards) if s == me else 0 for s in range(view.seats))


def _trick(view: SeatView) -> tuple[tuple[int, int], ...]:
    return tuple((seat, card.index) for seat, card in view.current_trick.plays)


def _in_play(seen: Seen) -> int:
    return mask(deck_cards(seen.rules))
