"""Random legal playouts under every preset, with the game's invariants checked hand by hand.

Each game is built with pbem.playout.random_game; the log is then walked again with apply() and
every hand is checked against bookkeeping done here from the events alone: the deal, the pass,
the trick order and winners, the points (moon and slam included), the totals, the end of the game,
the seat views, and the JSON round trip of the whole log.
"""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

import pytest

from pbem.engine import (
    ALL_CARDS,
    PRESETS,
    Card,
    CardPlayed,
    CardsPassed,
    ClaimAccepted,
    Event,
    GameCreated,
    GameState,
    HandDealt,
    HandResult,
    MoonChosen,
    Phase,
    Rules,
    Suit,
    apply,
    decode_event,
    encode_event,
    legal_cards,
    preset,
    replay,
    seat_view,
    start,
)
from pbem.engine.rules import (
    BonusCard,
    FirstDealer,
    FirstTrickFallback,
    KittyTo,
    MoonRule,
    OnlyHeartsAndQueenLead,
    OpeningLead,
    Ties,
)
from pbem.playout import random_event, random_game

QS = Card(12, Suit.SPADES)
JD = Card(11, Suit.DIAMONDS)
TD = Card(10, Suit.DIAMONDS)

# Rule combinations no preset uses, so that their code paths see random play too.
EXTRA_RULES: dict[str, Rules] = {
    "x-sinkhole-target-60": preset("standard").replace(sinkhole_99=True, target=60),
    "x-sinkhole-99": preset("h2g2").replace(sinkhole_99=True),
    "x-kitty-last-trick": preset("five-kitty").replace(kitty_to=KittyTo.LAST_TRICK),
    "x-shooter-minus": preset("standard").replace(moon=MoonRule.SHOOTER_MINUS),
    "x-any-club-heart-fallback": preset("six").replace(
        opening_lead=OpeningLead.ANY_CLUB,
        first_trick_fallback=FirstTrickFallback.HEART_NOT_QUEEN),
    "x-may-lead-heart-shared": preset("three").replace(
        only_hearts_and_queen_lead=OnlyHeartsAndQueenLead.MAY_LEAD_HEART, ties=Ties.SHARED,
        target=40),
    "x-forced-queen-seven": preset("seven").replace(forced_queen=True),
}
ALL_RULES: dict[str, Rules] = {**{n: p.rules for n, p in PRESETS.items()}, **EXTRA_RULES}
GAMES_PER_RULES = 10
SEEDS = [1000 + 17 * i for i in range(GAMES_PER_RULES)]
MAX_HANDS = 30


# --- independent bookkeeping ----------------------------------------------------------------

def penalty_cards(rules: Rules, deck: set[Card]) -> set[Card]:
    return {c for c in deck if c.suit is Suit.HEARTS or (c is QS and rules.queen_scores)}


def bonus_card(rules: Rules) -> Card | None:
    return {BonusCard.JACK_OF_DIAMONDS: JD, BonusCard.TEN_OF_DIAMONDS: TD}.get(rules.bonus_card)


def raw_points(rules: Rules, taken: set[Card]) -> int:
    points = sum(1 for c in taken if c.suit is Suit.HEARTS)
    if rules.queen_scores and QS in taken:
        points += 13
    if bonus_card(rules) in taken:
        points -= 10
    return points


def trick_winner(plays: list[tuple[int, Card]]) -> int:
    led = plays[0][1].suit
    return max((p for p in plays if p[1].suit is led), key=lambda p: p[1].rank)[0]


def opening_leader(rules: Rules, dealer: int, hands: list[set[Card]]) -> int:
    n = len(hands)
    if rules.opening_lead is not OpeningLead.LEFT_OF_DEALER:
        clubs = [(c.rank, s) for s in range(n) for c in hands[s] if c.suit is Suit.CLUBS]
        if clubs:
            return min(clubs)[1]
    return (dealer + 1) % n


_SCALARS = (int, bool, str, type(None), Phase)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def cards_in(value: Any) -> set[Card]:
    """Every Card reachable from a view (dataclasses, tuples, lists)."""
    found: set[Card] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is Card:
            found.add(item)
        elif kind is tuple or kind is list or kind is set or kind is frozenset:
            stack.extend(v for v in item if not isinstance(v, _SCALARS))
        elif kind in _FIELD_NAMES or is_dataclass(kind):
            # (a score sheet holds only numbers: HandResult has no card fields)
            names = _FIELD_NAMES.setdefault(
                kind, tuple(f.name for f in fields(kind) if f.name != "score_sheet"))
            stack.extend(v for v in (getattr(item, name) for name in names)
                         if not isinstance(v, _SCALARS))
    return found


@dataclass
class HandBook:
    """What this test knows about the hand in progress, from the events alone."""

    dealer: int
    deck: list[Card]
    held: list[set[Card]]
    kitty: set[Card]
    passed: dict[int, set[Card]] = field(default_factory=dict)
    plays: list[tuple[int, Card]] = field(default_factory=list)
    leader: int = -1
    claimed_by: int | None = None
    moon_choice: bool | None = None


def check_views(state: GameState) -> None:
    """seat_view never shows a card still hidden in another seat's hand or in the kitty."""
    n = state.seats
    hidden_kitty = set(state.kitty_cards)
    for seat in range(n):
        view = seat_view(state, seat)
        assert view.hand == state.hand(seat)
        assert set(view.legal) <= set(view.hand)
        assert view.hand_sizes == tuple(len(state.hand(s)) for s in range(n))
        known = set(state.passed_cards(seat))  # it passed them, so it knows where they are
        secret = hidden_kitty.union(*(set(state.hand(s)) for s in range(n) if s != seat)) - known
        leaked = secret & cards_in(view)
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"
    public = seat_view(state, None)
    held = hidden_kitty.union(*(set(state.hand(s)) for s in range(n)))
    assert not held & cards_in(public)
    assert public.hand == () and public.legal == ()


def check_hand_result(rules: Rules, book: HandBook, result: HandResult,
                      before: tuple[int, ...], state_after: GameState) -> None:
    """A finished hand against the bookkeeping: one named check per rule."""
    check_every_card_once(rules, book)
    taken = check_tricks(rules, book, state_after)
    raw = check_raw_points(rules, book, result, taken, state_after)
    check_moon(rules, book, result, before, taken, raw)
    check_totals(rules, result, before)


def check_every_card_once(rules: Rules, book: HandBook) -> None:
    """Every card of the deck is played exactly once (or claimed), plus the kitty."""
    played = [c for _, c in book.plays]
    assert len(played) == len(set(played))
    if book.claimed_by is None:
        assert len(played) == rules.hand_size * rules.players
        assert set(played) | book.kitty == set(book.deck)
        assert not set(played) & book.kitty


def check_tricks(rules: Rules, book: HandBook, state_after: GameState) -> list[set[Card]]:
    """Seat order from the leader, the winner leads next, the right number of tricks; the kitty
    and a claim's cards go where the rules say. Returns the cards each seat took."""
    n = rules.players
    deck = set(book.deck)
    taken: list[set[Card]] = [set() for _ in range(n)]
    leader = book.leader
    tricks = [book.plays[i:i + n] for i in range(0, len(book.plays), n)]
    complete = [t for t in tricks if len(t) == n]
    if book.claimed_by is None:
        assert len(complete) == len(tricks) == rules.hand_size
    for number, trick in enumerate(tricks):
        assert [s for s, _ in trick] == [(leader + i) % n for i in range(len(trick))]
        if len(trick) < n:
            break
        winner = trick_winner(trick)
        taken[winner] |= {c for _, c in trick}
        if number == 0 and rules.kitty_to is KittyTo.FIRST_TRICK:
            taken[winner] |= book.kitty
        leader = winner
    if book.kitty and rules.kitty_to is KittyTo.LAST_TRICK and book.claimed_by is None:
        taken[leader] |= book.kitty
    if book.claimed_by is not None:
        taken[book.claimed_by] |= deck - set().union(*taken)
    assert set().union(*taken) == deck
    assert len(state_after.tricks) == len(complete)
    assert [t.winner for t in state_after.tricks] == [trick_winner(t) for t in complete]
    return taken


def check_raw_points(rules: Rules, book: HandBook, result: HandResult, taken: list[set[Card]],
                     state_after: GameState) -> list[int]:
    """Each heart 1, the QS 13 when it scores, the bonus card -10; the deck's points add up.
    Returns each seat's points before the moon."""
    n = rules.players
    raw = [raw_points(rules, taken[s]) for s in range(n)]
    assert list(state_after.hand_points) == raw
    deck_total = rules.moon_points + (-10 if bonus_card(rules) in set(book.deck) else 0)
    assert sum(raw) == deck_total
    assert result.hearts == tuple(sum(c.suit is Suit.HEARTS for c in t) for t in taken)
    assert result.claimed_by == book.claimed_by
    assert result.dealer == book.dealer
    return raw


def check_moon(rules: Rules, book: HandBook, result: HandResult, before: tuple[int, ...],
               taken: list[set[Card]], raw: list[int]) -> None:
    """Without a moon the raw points stand. Whoever takes every penalty card shoots the moon
    (with the TD: a slam); the moon goes down or up as the moon rule says."""
    n = rules.players
    bonus = [-10 if bonus_card(rules) in taken[s] else 0 for s in range(n)]
    needed = penalty_cards(rules, set(book.deck))
    shooters = [s for s in range(n) if needed <= taken[s]] if rules.moon is not MoonRule.NONE \
        else []
    mp = rules.moon_points
    points = list(result.points)
    if not shooters:
        assert result.moon is None and result.moon_down is None and not result.slam
        assert points == raw
        return
    (shooter,) = shooters
    assert result.moon == shooter
    if rules.bonus_card is BonusCard.TEN_OF_DIAMONDS and TD in taken[shooter]:
        assert result.slam
        assert points == [-mp if s == shooter else 0 for s in range(n)]
        return
    assert not result.slam
    down = result.moon_down
    assert down is not None
    if down:
        assert points == [(-mp if s == shooter else 0) + bonus[s] for s in range(n)]
    else:
        assert points == [(0 if s == shooter else mp) + bonus[s] for s in range(n)]
    assert down == expected_moon_down(rules, shooter, before, bonus, book.moon_choice)


def check_totals(rules: Rules, result: HandResult, before: tuple[int, ...]) -> None:
    """Totals follow the sheet (the 99-sinkhole drops exactly 99 to 0)."""
    totals = [b + p for b, p in zip(before, result.points, strict=True)]
    if rules.sinkhole_99:
        totals = [0 if t == 99 else t for t in totals]
    assert list(result.totals) == totals


def expected_moon_down(rules: Rules, shooter: int, before: tuple[int, ...], bonus: list[int],
                       chosen: bool | None) -> bool:
    mp = rules.moon_points
    if rules.moon is MoonRule.OTHERS_PLUS:
        return False
    if rules.moon is MoonRule.SHOOTER_MINUS:
        return True
    if rules.moon is MoonRule.SHOOTER_CHOICE:
        assert chosen is not None
        return chosen
    if rules.moon is MoonRule.CHOICE_AT_74:
        if max(before) >= rules.target - mp:
            assert chosen is not None
            return chosen
        assert chosen is None
        return False
    assert rules.moon is MoonRule.PROTECTION
    up = [b + (0 if s == shooter else mp) + bonus[s] for s, b in enumerate(before)]
    loses = max(up) >= rules.target and min(up[s] for s in range(len(up)) if s != shooter) \
        <= up[shooter]
    return loses


def check_game(rules: Rules, events: list[Event], final: GameState, *,
               views_every_event: bool) -> int:
    """Walk the log with apply(), checking every event and every hand. Returns the number of
    hands finished."""
    created = events[0]
    assert isinstance(created, GameCreated)
    check_created(rules, created)
    state = start(created)
    book: HandBook | None = None
    hands_done = 0
    for event in events[1:]:
        before = state
        state = apply(state, event)
        assert before.phase is not Phase.GAME_OVER
        book = check_event(rules, created, book, event, before, state)
        if check_hand_end(rules, book, before, state):
            hands_done += 1
            book = None
        hand_starts = isinstance(event, (HandDealt, CardsPassed)) and state.phase is Phase.PLAY
        if (views_every_event and state.hand_number == 1) or hand_starts or (
                state.phase is Phase.PLAY and state.trick_number == 3 and not state.trick):
            check_views(state)
    assert state == final
    return hands_done


def check_created(rules: Rules, created: GameCreated) -> None:
    """The game has its rules and seats; a drawn first dealer is the highest card drawn."""
    n = rules.players
    assert created.rules == rules and created.seats == n
    if rules.first_dealer is FirstDealer.DRAW:
        assert len(created.dealer_draw) == n
        best = max(created.dealer_draw, key=lambda c: (c.rank, int(c.suit)))
        assert created.dealer_draw.index(best) == created.first_dealer


def check_event(rules: Rules, created: GameCreated, book: HandBook | None, event: Event,
                before: GameState, state: GameState) -> HandBook | None:
    """The check for this kind of event; returns the hand's bookkeeping after it."""
    if isinstance(event, HandDealt):
        return check_deal(rules, created, event, before, state)
    if isinstance(event, CardsPassed):
        assert book is not None
        check_pass(rules, book, event, before, state)
    elif isinstance(event, CardPlayed):
        assert book is not None
        check_play(rules, book, event, before)
    elif isinstance(event, MoonChosen):
        assert book is not None
        check_moon_choice(rules, book, event, before)
    elif isinstance(event, ClaimAccepted):
        assert book is not None
        book.claimed_by = event.seat
    return book


def check_deal(rules: Rules, created: GameCreated, event: HandDealt, before: GameState,
               state: GameState) -> HandBook:
    """The dealer turns left each hand; the cards go round from the dealer's left, the rest to
    the kitty; the hand opens with the pass, or with play on a hold hand."""
    n = rules.players
    assert before.phase is Phase.DEAL
    dealer = before.dealer
    assert dealer == (created.first_dealer + before.hand_number - 1) % n
    deck = list(event.cards)
    assert len(deck) == rules.deck_size and not set(deck) & set(rules.removed)
    held: list[set[Card]] = [set() for _ in range(n)]
    for k in range(rules.hand_size * n):
        held[(dealer + 1 + k) % n].add(deck[k])
    book = HandBook(dealer, deck, held, set(deck[rules.hand_size * n:]))
    assert [set(state.hand(s)) for s in range(n)] == held
    assert set(state.kitty_cards) == book.kitty
    offset = rules.pass_offset(before.hand_number)
    assert state.phase is (Phase.PASS if offset else Phase.PLAY)
    return book


def check_pass(rules: Rules, book: HandBook, event: CardsPassed, before: GameState,
               state: GameState) -> None:
    """Each seat passes `pass_count` cards once; when all have, each holds what it received."""
    n = rules.players
    assert before.phase is Phase.PASS
    assert event.seat in before.to_move
    assert len(event.cards) == rules.pass_count
    book.passed[event.seat] = set(event.cards)
    if len(book.passed) == n:
        offset = before.pass_offset
        assert offset
        book.held = [(book.held[s] - book.passed[s]) | book.passed[(s - offset) % n]
                     for s in range(n)]
        assert [set(state.hand(s)) for s in range(n)] == book.held
        for s in range(n):
            assert set(state.received_cards(s)) == book.passed[(s - offset) % n]


def check_play(rules: Rules, book: HandBook, event: CardPlayed, before: GameState) -> None:
    """The opening leader leads; every card played is legal and held."""
    assert before.phase is Phase.PLAY
    if not book.plays:
        book.leader = opening_leader(rules, book.dealer, book.held)
        assert before.turn == book.leader
    assert event.card in legal_cards(before, event.seat)
    assert event.card in book.held[event.seat]
    book.held[event.seat].discard(event.card)
    book.plays.append((event.seat, event.card))


def check_moon_choice(rules: Rules, book: HandBook, event: MoonChosen,
                      before: GameState) -> None:
    """Only the shooter chooses, and only under a moon rule that offers the choice."""
    assert before.phase is Phase.MOON_CHOICE
    assert before.to_move == (event.seat,) == (before.moon_shooter,)
    assert rules.moon in (MoonRule.SHOOTER_CHOICE, MoonRule.CHOICE_AT_74)
    book.moon_choice = event.down


def check_hand_end(rules: Rules, book: HandBook | None, before: GameState,
                   state: GameState) -> bool:
    """A hand ends with one new line on the sheet (not while the shooter chooses); the line and
    the game's end are checked. True when this event finished a hand."""
    if state.phase is Phase.MOON_CHOICE:
        assert len(state.sheet) == len(before.sheet)
    if len(state.sheet) == len(before.sheet):
        return False
    assert book is not None
    assert len(state.sheet) == len(before.sheet) + 1
    result = state.sheet[-1]
    assert result.hand_number == len(state.sheet)
    check_hand_result(rules, book, result, before.totals, state)
    check_game_end(rules, state)
    return True


def check_game_end(rules: Rules, state: GameState) -> None:
    totals = state.totals
    assert totals == state.sheet[-1].totals
    if rules.sinkhole_99:
        assert 99 not in totals
    else:
        assert list(totals) == [sum(r.points[s] for r in state.sheet) for s in range(rules.players)]
    low = min(totals)
    lowest = tuple(s for s, t in enumerate(totals) if t == low)
    over = max(totals) >= rules.target and (len(lowest) == 1 or rules.ties is Ties.SHARED)
    assert state.game_over == over
    if over:
        assert state.winners == lowest
        assert state.to_move == ()
    else:
        assert state.phase is Phase.DEAL and state.winners == ()


def check_json_replay(events: list[Event], final: GameState) -> None:
    payloads = json.loads(json.dumps([encode_event(e) for e in events]))
    decoded = [decode_event(p) for p in payloads]
    assert decoded == events
    assert replay(decoded) == final


@functools.cache
def seeded_game(name: str, seed: int) -> tuple[list[Event], GameState]:
    return random_game(ALL_RULES[name], seed, max_hands=MAX_HANDS)


# --- the tests ------------------------------------------------------------------------------

def test_every_preset_is_covered() -> None:
    assert set(PRESETS) <= set(ALL_RULES)
    assert {r.players for r in ALL_RULES.values()} == {3, 4, 5, 6, 7}
    assert any(r.kitty for r in ALL_RULES.values())


@pytest.mark.parametrize("name", ALL_RULES)
def test_random_games_keep_the_invariants(name: str) -> None:
    rules = ALL_RULES[name]
    hands = 0
    for index, seed in enumerate(SEEDS):
        events, final = seeded_game(name, seed)
        hands += check_game(rules, events, final, views_every_event=index == 0)
        check_json_replay(events, final)
        assert final.game_over or final.hand_number > MAX_HANDS
    assert hands >= GAMES_PER_RULES * 2


def test_enough_hands_in_total() -> None:
    """Not a check of the engine: a guard that the suite above plays thousands of hands."""
    total = sum(len(seeded_game(name, seed)[1].sheet) for name in ALL_RULES for seed in SEEDS)
    assert total >= 3000


def test_the_view_check_sees_the_cards_a_view_shows() -> None:
    events, _ = seeded_game("standard", SEEDS[0])
    state = replay(events[:2])
    assert set(state.hand(0)) <= cards_in(seat_view(state, 0))
    assert not set(state.hand(1)) & cards_in(seat_view(state, 0))


@pytest.mark.parametrize(("name", "seed"), [("standard", 1), ("club", 2), ("three-kitty", 3),
                                            ("seven", 4), ("omnibus-td", 5)])
def test_apply_step_by_step_equals_replay(name: str, seed: int) -> None:
    rules = preset(name)
    events, final = random_game(rules, seed, max_hands=3)
    state = replay(events[:1])
    for i in range(1, len(events)):
        state = apply(state, events[i])
        assert replay(events[:i + 1]) == state, f"after event {i}: {events[i]}"
    assert state == final


def test_random_game_is_deterministic() -> None:
    first = random_game(preset("five-kitty"), 99, max_hands=3)
    second = random_game(preset("five-kitty"), 99, max_hands=3)
    assert first == second


def test_random_event_fits_every_phase() -> None:
    rng = random.Random(4)
    rules = preset("club")
    state = start(GameCreated(rules, 4, 0, (Card.parse("AS"), *(ALL_CARDS[:3]))))
    seen: set[Phase] = set()
    while not state.game_over:
        seen.add(state.phase)
        event = random_event(state, rng)
        state = apply(state, event)
    assert {Phase.DEAL, Phase.PASS, Phase.PLAY} <= seen


# --- the moon and the slam, made certain by the deal --------------------------------------

def moon_deal(rules: Rules, dealer: int) -> HandDealt:
    """Seat 0 holds the top `hand_size` clubs (then the top diamonds): it wins every trick."""
    n = rules.players
    deck = [c for c in ALL_CARDS if c not in rules.removed]
    top = sorted((c for c in deck if c.suit in (Suit.CLUBS, Suit.DIAMONDS)),
                 key=lambda c: (c.suit is Suit.DIAMONDS, -c.rank))[:rules.hand_size]
    seat0 = sorted(top)
    rest = [c for c in deck if c not in top]
    random.Random(n).shuffle(rest)
    order: list[Card] = []
    per_seat = {0: seat0}
    for s in range(1, n):
        per_seat[s] = rest[(s - 1) * rules.hand_size:s * rules.hand_size]
    kitty = rest[(n - 1) * rules.hand_size:]
    for k in range(rules.hand_size * n):
        seat = (dealer + 1 + k) % n
        order.append(per_seat[seat][k // n])
    return HandDealt(tuple(order + kitty))


def game_for(rules: Rules, dealer: int) -> GameCreated:
    if rules.first_dealer is FirstDealer.DRAW:
        draw = [ALL_CARDS[i] for i in range(rules.players)]
        draw[dealer] = Card.parse("AS")
        return GameCreated(rules, rules.players, dealer, tuple(draw))
    return GameCreated(rules, rules.players, dealer)


@pytest.mark.parametrize("name", ALL_RULES)
def test_a_moon_hand_under_every_preset(name: str) -> None:
    """No pass, seat 0 wins every trick: a moon (or slam, or 13 points without the moon)."""
    base = ALL_RULES[name]
    rules = base.replace(pass_count=0, pass_cycle=(0,))
    dealer = rules.players - 1  # seat 0 is left of the dealer (it leads with LEFT_OF_DEALER)
    rng = random.Random(len(name))
    for down in (False, True):
        events: list[Event] = [game_for(rules, dealer), moon_deal(rules, dealer)]
        state = replay(events)
        assert state.phase is Phase.PLAY
        while state.phase is Phase.PLAY:
            event = random_event(state, rng)
            events.append(event)
            state = apply(state, event)
        if state.phase is Phase.MOON_CHOICE:
            assert state.to_move == (0,)
            events.append(MoonChosen(0, down))
            state = apply(state, events[-1])
        assert all(t.winner == 0 for t in state.tricks)
        assert check_game(rules, events, state, views_every_event=True) == 1
        result = state.sheet[-1]
        if rules.moon is MoonRule.NONE:
            assert result.moon is None and result.points[0] == rules.moon_points
            continue
        assert result.moon == 0
        if rules.bonus_card is BonusCard.TEN_OF_DIAMONDS:
            assert result.slam and result.points == (-26,) + (0,) * (rules.players - 1)
        elif rules.moon in (MoonRule.SHOOTER_CHOICE,):
            assert result.moon_down is down
        elif rules.moon is MoonRule.SHOOTER_MINUS:
            assert result.moon_down is True
        else:
            assert result.moon_down is False  # totals are 0: others +26 for every other rule
        check_json_replay(events, state)


def test_omnibus_jd_moon_keeps_the_bonus() -> None:
    rules = preset("omnibus-jd").replace(pass_count=0, pass_cycle=(0,))
    events: list[Event] = [game_for(rules, 3), moon_deal(rules, 3)]
    state = replay(events)
    rng = random.Random(1)
    while state.phase is Phase.PLAY:
        state = apply(state, random_event(state, rng))
    result = state.sheet[-1]
    assert result.moon == 0 and result.moon_down is False
    assert result.points == (-10, 26, 26, 26)  # seat 0 also takes the JD
