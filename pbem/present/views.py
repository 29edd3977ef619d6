"""Template-ready values for emails and pages: cards with symbols and letter forms, hands,
tricks, scores, the moon choice, the settlement.

Built from an engine `SeatView` (what one seat may see) plus the seat names, with the variant's
words from its presenter; templates never touch the engine.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pbem.engine import (
    BidMade,
    Card,
    CardPlayed,
    CardsPassed,
    Event,
    GameState,
    HandResult,
    MoonChosen,
    Rules,
    SeatView,
    Suit,
    SuitNamed,
    Trick,
    apply,
    cancelled_in_trick,
    describe_offset,
    list_in_words,
    settlement,
    sort_cards,
)
from pbem.present.codes import MOON_DOWN as MOON_DOWN  # re-exported for the pages
from pbem.present.codes import MOON_UP as MOON_UP
from pbem.present.presenters import presenter
from pbem.present.words import chips_words, suit_title

SUIT_NAMES = {Suit.CLUBS: "Clubs", Suit.DIAMONDS: "Diamonds", Suit.HEARTS: "Hearts",
              Suit.SPADES: "Spades"}


@dataclass(frozen=True)
class CardView:
    code: str          # "QS": what a player types
    symbol: str        # "Q♠"
    red: bool
    url: str | None = None  # a one-time link that plays (or picks) this card
    count: int = 1  # Cancellation Hearts: both copies of a card held, shown once as "×2"

    @property
    def label(self) -> str:
        """Plain-text form: `Q♠ (QS)`, or `Q♠ (QS) ×2` for both copies."""
        return f"{self.symbol} ({self.code})" + (f" ×{self.count}" if self.count > 1 else "")


@dataclass(frozen=True)
class SuitRow:
    name: str
    symbol: str
    red: bool
    cards: tuple[CardView, ...]

    @property
    def distinct(self) -> tuple[CardView, ...]:
        """The cards with the two copies of one card (Cancellation Hearts) as one, counted."""
        return tuple(counted(self.cards))


@dataclass(frozen=True)
class PlayView:
    name: str
    card: CardView
    is_you: bool
    cancelled: bool = False  # Cancellation Hearts: cancelled by a matching card, can't win


@dataclass(frozen=True)
class TrickView:
    plays: tuple[PlayView, ...]
    winner: str | None
    winner_is_you: bool = False
    notes: tuple[str, ...] = ()  # what else happened: nobody won it, cards carried, the widow


@dataclass(frozen=True)
class ScoreRow:
    name: str
    hand: int
    total: int
    is_you: bool
    bar: int = 0  # percent of the largest total, for the HTML bar chart
    winner: bool = False
    mail_failing: bool = False  # our emails to this player bounce: everyone is told
    chips: int | None = None  # Auction Hearts: the player's net chips (None: no chips column)


def card_view(card: Card, url: str | None = None) -> CardView:
    return CardView(code=str(card), symbol=card.symbol, red=card.is_red, url=url)


def move_words(event: Event, moon_points: int = 26, *, cards_shown: bool = True) -> str | None:
    """What a seat's move did, without its subject (for a reply's echo and the timeout email):
    "played Q♠ (QS)", "bid 5 chips", "passed in the bidding", "named ♠ Spades as the suit to
    avoid", "went down 26 for the moon"; a pass names its cards
    only where they may be shown (`cards_shown`: to the passer). None for what is no move."""
    if isinstance(event, CardPlayed):
        return f"played {card_view(event.card).label}"
    if isinstance(event, CardsPassed):
        if not cards_shown:
            return f"passed {len(event.cards)} cards"
        return f"passed {list_in_words([card_view(c).label for c in sort_cards(event.cards)])}"
    if isinstance(event, BidMade):
        return f"bid {chips_words(event.chips)}" if event.chips else "passed in the bidding"
    if isinstance(event, SuitNamed):
        return f"named {suit_title(event.suit)} as the suit to avoid"
    if isinstance(event, MoonChosen):
        return (f"went down {moon_points} for the moon" if event.down
                else f"put everyone else up {moon_points} for the moon")
    return None


def card_views(cards: Sequence[Card], urls: Mapping[str, str] | None = None) -> list[CardView]:
    urls = urls or {}
    return [card_view(c, urls.get(str(c))) for c in sort_cards(cards)]


def distinct_cards(cards: Sequence[Card]) -> list[Card]:
    """One card per code, sorted: both copies of a card (Cancellation Hearts) are one choice,
    since playing `QS` plays a QS you hold."""
    seen: dict[str, Card] = {}
    for card in sort_cards(cards):
        seen.setdefault(str(card), card)
    return list(seen.values())


def counted(cards: Sequence[CardView]) -> list[CardView]:
    """Sorted card views with copies of one card merged into one view with its `count`."""
    out: list[CardView] = []
    for c in cards:
        if out and out[-1].code == c.code:
            out[-1] = replace(out[-1], count=out[-1].count + 1)
        else:
            out.append(c)
    return out


def hand_rows(cards: Sequence[Card], urls: Mapping[str, str] | None = None) -> list[SuitRow]:
    """The hand grouped by suit (empty suits left out), each suit sorted by rank."""
    rows = []
    for suit in Suit:
        in_suit = [c for c in cards if c.suit is suit]
        if in_suit:
            rows.append(SuitRow(SUIT_NAMES[suit], suit.symbol, suit.is_red,
                                tuple(card_views(in_suit, urls))))
    return rows


def trick_view(trick: Trick | None, names: Sequence[str], seat: int | None, *,
               rules: Rules | None = None, notes: Sequence[str] = ()) -> TrickView | None:
    """`rules`: the game's, to mark the cards that cancel each other (Cancellation Hearts)."""
    if trick is None:
        return None
    gone = cancelled_in_trick(rules, trick) if rules is not None else 0
    plays = tuple(PlayView(names[s], card_view(c), s == seat, bool(gone & c.bit))
                  for s, c in trick.plays)
    winner = names[trick.winner] if trick.winner is not None else None
    return TrickView(plays, winner, trick.winner is not None and trick.winner == seat,
                     tuple(notes))


def hand_tricks(tricks: Sequence[Trick], names: Sequence[str], seat: int | None,
                rules: Rules, hand_over: bool = False) -> list[TrickView]:
    """The completed tricks of a hand, with what the variant says became of each (Cancellation
    Hearts: tricks nobody won, the widow). `hand_over`: the last of `tricks` ended the hand."""
    notes = presenter(rules).trick_notes(tricks, names, seat, hand_over)
    return [view for t, n in zip(tricks, notes, strict=True)
            if (view := trick_view(t, names, seat, rules=rules, notes=n)) is not None]


def completed_trick(tricks: Sequence[Trick], number: int, names: Sequence[str],
                    seat: int | None, rules: Rules,
                    hand_over: bool = False) -> TrickView | None:
    """Trick `number` (from 1) of `tricks`, as `hand_tricks` shows it (None before any)."""
    if number < 1:
        return None
    notes = presenter(rules).trick_notes(tricks[:number], names, seat, hand_over)[-1]
    return trick_view(tricks[number - 1], names, seat, rules=rules, notes=notes)


def score_rows(points: Sequence[int], totals: Sequence[int], names: Sequence[str],
               seat: int | None, winners: Sequence[int] = (),
               failing: Collection[int] = (), chips: Sequence[int] = ()) -> list[ScoreRow]:
    """`chips`: each seat's net chips (Auction Hearts), shown as a column of their own."""
    top = max([*totals, 1])
    return [
        ScoreRow(names[s], points[s], totals[s], s == seat, max(0, round(100 * totals[s] / top)),
                 s in winners, s in failing, chips[s] if chips else None)
        for s in range(len(names))
    ]


def sheet_rows(sheet: Sequence[HandResult], names: Sequence[str]) -> list[dict[str, Any]]:
    """The per-hand score sheet, with a moon-shot note where one happened."""
    rows = []
    for result in sheet:
        moon = None
        if result.moon is not None:
            how = "went down" if result.moon_down else "everyone else went up"
            moon = f"{names[result.moon]} shot the moon ({how})"
        rows.append({"hand": result.hand_number, "points": list(result.points),
                     "totals": list(result.totals), "moon": moon,
                     "cells": list(zip(result.points, result.totals, strict=True))})
    return rows


def direction_words(offset: int, seats: int) -> str:
    """`on your left`, `across`, `2 to the right`."""
    words = describe_offset(offset, seats)
    return f"on your {words}" if words in {"left", "right"} else words


def table_context(view: SeatView, names: Sequence[str], seat: int | None,
                  failing: Collection[int] = (), *, rules: Rules) -> dict[str, Any]:
    """What every game email and page may show: the table from this seat's side, with what
    the game's variant adds (its presenter's notes)."""
    shown = presenter(rules)
    previous = completed_trick(view.tricks, len(view.tricks), names, seat, rules)
    return {
        "hand_number": view.hand_number,
        "trick_number": view.trick_number,
        "hand": hand_rows(view.hand),
        "trick": trick_view(view.current_trick, names, seat, rules=rules),
        "previous": previous,
        "scores": score_rows(view.hand_points, view.totals, names, seat, view.winners, failing,
                             view.chips),
        "hearts_broken": view.hearts_broken,
        "broken_text": shown.broken_text(view),
        "notes": shown.table_notes(view, names, seat),
    }


# --- the moon choice -----------------------------------------------------------------------

@dataclass(frozen=True)
class MoonOption:
    """What one moon choice gives: `down` (the shooter goes down) or the others go up."""

    down: bool
    code: str            # MOON_DOWN or MOON_UP
    title: str           # "Go down 26"
    result: str          # "you'd have -26 (the others stay at 5, 10 and 13)"
    ends_game: bool
    outcome: str         # "That ends the game: you win." / "The game goes on."
    totals: tuple[int, ...]
    url: str | None = None

    @property
    def sentence(self) -> str:
        return f"{self.title}: {self.result}. {self.outcome}"


@dataclass(frozen=True)
class MoonRow:
    name: str
    is_you: bool
    now: int
    down: int
    up: int


def moon_options(state: GameState, seat: int, names: Sequence[str],
                 urls: Mapping[str, str] | None = None) -> list[MoonOption]:
    """The shooter's two choices, worked out by the engine itself (bonus cards, sinkholes and
    the end of the game included): going down first, then everyone else going up."""
    urls = urls or {}
    value = state.rules.moon_points
    others = [s for s in range(state.seats) if s != seat]
    options = []
    for down in (True, False):
        after = apply(state, MoonChosen(seat, down))
        totals = after.totals
        if down:
            title = f"Go down {value}"
            same = all(totals[s] == state.totals[s] for s in others)
            them = list_in_words([str(totals[s]) if same else f"{names[s]}: {totals[s]}"
                                  for s in others])
            result = (f"you'd have {totals[seat]} "
                      f"({'the others stay at' if same else 'the others would have'} {them})")
        else:
            title = f"Everyone else up {value}"
            they = list_in_words([f"{names[s]}: {totals[s]}" for s in others])
            you = "you stay at" if totals[seat] == state.totals[seat] else "you'd have"
            result = f"they'd have {they} ({you} {totals[seat]})"
        if after.game_over:
            winners = ["you" if s == seat else names[s] for s in after.winners]
            verb = "wins" if winners != ["you"] and len(winners) == 1 else "win"
            outcome = f"That ends the game: {list_in_words(winners)} {verb}."
        else:
            outcome = "The game goes on."
        code = MOON_DOWN if down else MOON_UP
        options.append(MoonOption(down, code, title, result, after.game_over, outcome, totals,
                                  urls.get(code)))
    return options


def moon_rows(state: GameState, seat: int, names: Sequence[str],
              options: Sequence[MoonOption]) -> list[MoonRow]:
    """Totals now and after each choice, one row per player."""
    down = next(o for o in options if o.down).totals
    up = next(o for o in options if not o.down).totals
    return [MoonRow(names[s], s == seat, state.totals[s], down[s], up[s])
            for s in range(state.seats)]


# --- settlement ----------------------------------------------------------------------------

_SETTLEMENT_UNITS = {"pairwise": "points", "chips": "chips", "sweepstakes": "chips",
                     "howell": "chips", "auction": "chips"}


def settlement_lines(state: GameState, names: Sequence[str]) -> list[str]:
    """Who pays and who collects at the end, in words (empty for a plain score sheet)."""
    result = settlement(state)
    unit = _SETTLEMENT_UNITS.get(result.kind.value)
    if unit is None:
        return []
    lines = [f"{names[s]} collects {a} {unit}" if a > 0 else
             f"{names[s]} pays {-a} {unit}" if a < 0 else f"{names[s]} is square"
             for s, a in sorted(enumerate(result.amounts), key=lambda p: -p[1])]
    if result.pot:
        lines.append(f"{result.pot} {unit} stay in the pot")
    return lines
