"""A finished game replayed hand by hand and trick by trick, and its score chart, for the pages.

Only for games that are over: the deal of every hand (all cards) is shown then. Built by
folding the event log; templates get plain values (names, card views, numbers).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from pbem.engine import (
    CardsDrawn,
    CardsPassed,
    ClaimAccepted,
    ClaimFailed,
    Event,
    GameCreated,
    GameState,
    HandDealt,
    HandResult,
    MoonChosen,
    SuitNamed,
    apply,
    describe_offset,
    drawn_cards,
    start,
)
from pbem.present import views
from pbem.present.i18n import DEFAULT, _, current
from pbem.present.presenters import presenter
from pbem.present.words import chips_words, suit_plural

PALETTE = ("#1d4ed8", "#b00020", "#15803d", "#a16207", "#7c3aed", "#0f766e", "#be185d")


@dataclass(frozen=True)
class PlayedTrick:
    number: int
    leader: str
    plays: tuple[views.PlayView, ...]
    winner: str  # "" when nobody won it (Cancellation: its cards went to the next winner)
    notes: tuple[str, ...] = ()  # Cancellation: what became of an unwon trick, the widow


@dataclass(frozen=True)
class PassLine:
    giver: str
    receiver: str
    cards: tuple[views.CardView, ...]


@dataclass(frozen=True)
class DrawLine:
    """Domino: a player who couldn't follow suit drew these cards from the stock."""

    name: str
    trick: int
    cards: tuple[views.CardView, ...]


@dataclass
class HandRecord:
    number: int
    dealer: str
    deal: list[tuple[str, list[views.SuitRow]]] = field(default_factory=list)
    kitty: list[views.CardView] = field(default_factory=list)
    kitty_name: str = "Kitty"
    pass_direction: str = ""
    passes: list[PassLine] = field(default_factory=list)
    tricks: list[PlayedTrick] = field(default_factory=list)
    claimed_by: str | None = None
    claim: str | None = None  # what became of a claim, in words
    false_claim: bool = False  # the claim was false (a ClaimFailed event: seed 003 §6)
    moon: str | None = None
    points: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    opening: list[str] = field(default_factory=list)  # before the tricks: the bids, the pot
    ending: list[str] = field(default_factory=list)  # after them: who took the cards left
    draws: list[DrawLine] = field(default_factory=list)


def replay_hands(events: Iterable[Event], names: Sequence[str],
                 only: int | None = None) -> list[HandRecord]:
    """Every hand of the game: the deal, the passes, each trick (leader, plays, winner);
    `only`: that hand alone (the hands before it are folded, not recorded)."""
    state: GameState | None = None
    hands: list[HandRecord] = []
    for event in events:
        if isinstance(event, GameCreated):
            state = start(event)
            continue
        if state is None:
            continue
        before, state = state, apply(state, event)
        if isinstance(event, HandDealt):
            if only is not None and state.hand_number > only:
                break
            if only is None or state.hand_number == only:
                hands.append(_new_hand(state, names))
        elif hands:
            _record(hands[-1], before, state, event, names)
    return hands


def hand_index(state: GameState, names: Sequence[str]) -> list[HandRecord]:
    """Each hand of a finished game as its score sheet tells it (who dealt, the pass, the
    points, the moon, a claim), without its cards: the summary's list of the hands, each
    linking to its own page (`replay_hands` with `only`). A last hand that was dealt but
    not scored (the game ended by agreement during it) is listed too, with no points."""
    hands = []
    for result in state.sheet:
        record = HandRecord(number=result.hand_number, dealer=names[result.dealer],
                            pass_direction=_pass_words(state, result.hand_number),
                            false_claim=result.false_claim)
        _finish(record, result, names, chosen=False)
        hands.append(record)
    if state.ended_by_agreement and _dealt(state):  # a hand in progress: not scored
        hands.append(HandRecord(number=state.hand_number, dealer=names[state.dealer],
                                pass_direction=_pass_words(state, state.hand_number)))
    return hands


def _dealt(state: GameState) -> bool:
    """The current hand was dealt (its cards are on the table, in hands or in tricks)."""
    return any(state.hands) or bool(state.trick) or bool(state.tricks)


def _pass_words(state: GameState, number: int) -> str:
    if not state.rules.pass_count:
        return ""
    return _direction(state.rules.pass_offset(number), state.seats)


def _direction(offset: int, seats: int) -> str:
    """`left`, `across`, `2 to the right` (the reader's language's words elsewhere)."""
    if current() == DEFAULT:
        return describe_offset(offset, seats)
    return views.direction_words(offset, seats)


def _record(record: HandRecord, before: GameState, after: GameState, event: Event,
            names: Sequence[str]) -> None:
    """One event of a hand into its record: what the event says, then the trick or the hand
    it ended."""
    _record_event(record, before, event, names)
    if len(after.tricks) > len(before.tricks):
        record.tricks.append(_trick(after, len(after.tricks), names))
    if len(after.sheet) > len(before.sheet):
        _finish(record, after.sheet[-1], names, isinstance(event, MoonChosen))
        _variant_ending(record, before, after, event, names)


def _record_event(record: HandRecord, before: GameState, event: Event,
                  names: Sequence[str]) -> None:
    """The events a hand's record tells of: passes, claims, draws, the suit named."""
    if isinstance(event, CardsPassed):
        record.passes.append(PassLine(names[event.seat], names[before.pass_target(event.seat)],
                                      tuple(views.card_views(event.cards))))
    elif isinstance(event, ClaimAccepted | ClaimFailed):
        record.claimed_by = names[event.seat]
        record.false_claim = isinstance(event, ClaimFailed)
    elif isinstance(event, CardsDrawn):
        record.draws.append(DrawLine(names[event.seat], before.trick_number, tuple(
            views.card_view(c) for c in drawn_cards(before, event))))
    elif isinstance(event, SuitNamed):
        record.opening.append(_auction_line(before, event, names))


def _new_hand(state: GameState, names: Sequence[str]) -> HandRecord:
    direction = _direction(state.pass_offset, state.seats) if state.rules.pass_count else ""
    shown = presenter(state.rules)
    return HandRecord(
        number=state.hand_number, dealer=names[state.dealer],
        deal=[(names[s], views.hand_rows(state.hand(s))) for s in range(state.seats)],
        kitty=views.counted(views.card_views(shown.kitty_shown(state))),
        pass_direction=direction, kitty_name=shown.kitty_name)


def _trick(state: GameState, number: int, names: Sequence[str]) -> PlayedTrick:
    trick = state.tricks[number - 1]
    shown = views.trick_view(trick, names, None, rules=state.rules)
    assert shown is not None
    winner = names[trick.winner] if trick.winner is not None else ""
    return PlayedTrick(number, names[trick.leader], shown.plays, winner)


def _variant_ending(record: HandRecord, before: GameState, after: GameState, event: Event,
                    names: Sequence[str]) -> None:
    """What the emails say at the end of a variant's hand (the pot, who took the cards left),
    and what became of each trick (the tricks nobody won, the widow)."""
    shown = presenter(after.rules)
    ending = shown.hand_notes(before, after, event, names, None)
    if shown.hand_notes_open:
        record.opening += ending
    else:
        record.ending += ending
    if len(after.tricks) == len(record.tricks):
        notes = shown.trick_notes(after.tricks, names, None, hand_over=True)
        record.tricks = [replace(t, notes=n) for t, n in zip(record.tricks, notes, strict=True)]


def _auction_line(before: GameState, event: SuitNamed, names: Sequence[str]) -> str:
    """`Bob won the bidding with 3 chips (Ann passed, Cy 2 chips) and named spades.`"""
    bids = before.bids
    name, suit = names[event.seat], suit_plural(event.suit)
    if all(b < 0 for b in bids):
        return _("The pot carried over, so %(name)s named %(suit)s again without bidding.",
                 name=name, suit=suit)
    high = max(0, *bids)
    said = ", ".join(f"{names[s]} {chips_words(b) if b else _('passed')}"
                     for s, b in _in_bidding_order(before) if s != event.seat)
    if not high:
        return _("Everyone passed, so %(name)s (the dealer) named %(suit)s for nothing.",
                 name=name, suit=suit)
    return _("%(name)s won the bidding with %(chips)s (%(bids)s) and named %(suit)s as the "
             "suit to avoid.", name=name, chips=chips_words(high), bids=said, suit=suit)


def _in_bidding_order(state: GameState) -> list[tuple[int, int]]:
    order = [(state.dealer + k) % state.seats for k in range(1, state.seats + 1)]
    return [(s, state.bids[s]) for s in order]


def _finish(record: HandRecord, result: HandResult, names: Sequence[str], chosen: bool) -> None:
    record.points, record.totals = list(result.points), list(result.totals)
    if result.moon is not None:
        name = names[result.moon]
        if result.slam:
            record.moon = (_("%(name)s made the slam (went down)", name=name)
                           if result.moon_down else
                           _("%(name)s made the slam (everyone else went up)", name=name))
        else:
            record.moon = (_("%(name)s shot the moon (went down)", name=name)
                           if result.moon_down else
                           _("%(name)s shot the moon (everyone else went up)", name=name))
    if result.claimed_by is not None and record.claimed_by is None:
        record.claimed_by = names[result.claimed_by]
    if record.claimed_by is not None:
        record.claim = _claim_words(record, result)


def _claim_words(record: HandRecord, result: HandResult) -> str:
    """`Ann claimed the remaining tricks.`; a false claim (seed 003 §6) says what it cost."""
    name = record.claimed_by
    if not record.false_claim:
        return _("%(name)s claimed the remaining tricks.", name=name)
    if result.false_claim and result.claimed_by is not None:
        charged = result.points[result.claimed_by]
        return _("%(name)s claimed the remaining tricks; the claim was false: %(points)s points "
                 "for %(name)s, none for the others.", name=name, points=charged)
    return _("%(name)s claimed the remaining tricks; the claim was false, so %(name)s took the "
             "remaining points.", name=name)


# --- the score chart ------------------------------------------------------------------------

@dataclass(frozen=True)
class ChartLine:
    name: str
    colour: str
    points: str  # SVG polyline points
    last_x: float
    last_y: float
    total: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[ChartLine, ...]
    grid: tuple[tuple[float, int], ...]   # (y, score) of the horizontal lines
    hands: tuple[tuple[float, int], ...]  # (x, hand number) of the hand ticks
    target_y: float | None
    left: int
    bottom: float


def score_chart(sheet: Sequence[HandResult], names: Sequence[str], target: int,
                width: int = 360, height: int = 220) -> Chart | None:
    """Running totals after each hand as an SVG line chart (x: hands, y: score)."""
    if not sheet:
        return None
    left, right, top, bottom = 34, 60, 10, height - 24
    series = [[0, *[r.totals[s] for r in sheet]] for s in range(len(names))]
    low = min(0, *[v for line in series for v in line])
    high = max(target, *[v for line in series for v in line], 1)
    span_x = max(1, len(sheet))

    def x(i: int) -> float:
        return round(left + (width - left - right) * i / span_x, 1)

    def y(v: int) -> float:
        return round(bottom - (bottom - top) * (v - low) / (high - low), 1)

    lines = tuple(
        ChartLine(names[s], PALETTE[s % len(PALETTE)],
                  " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)),
                  x(len(values) - 1), y(values[-1]), values[-1])
        for s, values in enumerate(series))
    step = _nice_step(high - low)
    first = (low // step) * step
    grid = tuple((y(v), v) for v in range(first, high + 1, step) if v >= low)
    hands = tuple((x(i), i) for i in range(1, len(sheet) + 1)
                  if len(sheet) <= 12 or i % max(1, len(sheet) // 8) == 0)
    target_y = y(target) if low <= target <= high else None
    return Chart(width, height, lines, grid, hands, target_y, left, bottom)


def _nice_step(span: int) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 500):
        if span / step <= 6:
            return step
    return 1000
