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
    settlement,
    sort_cards,
)
from pbem.present.codes import MOON_DOWN as MOON_DOWN  # re-exported for the pages
from pbem.present.codes import MOON_UP as MOON_UP
from pbem.present.i18n import _, ngettext
from pbem.present.presenters import presenter
from pbem.present.words import SUIT_TITLES, chips_words, list_words, suit_title


class _SuitNames:
    """`SUIT_NAMES[suit]`: the suit's name in the reader's language ("Spades", "Pik")."""

    def __getitem__(self, suit: Suit) -> str:
        return SUIT_TITLES[suit.letter]()


SUIT_NAMES = _SuitNames()


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
        return _("played %(card)s", card=card_view(event.card).label)
    if isinstance(event, CardsPassed):
        if not cards_shown:
            return ngettext("passed %(num)d card", "passed %(num)d cards", len(event.cards))
        return _("passed %(cards)s",
                 cards=list_words([card_view(c).label for c in sort_cards(event.cards)]))
    if isinstance(event, BidMade):
        return (_("bid %(chips)s", chips=chips_words(event.chips)) if event.chips
                else _("passed in the bidding"))
    if isinstance(event, SuitNamed):
        return _("named %(suit)s as the suit to avoid", suit=suit_title(event.suit))
    if isinstance(event, MoonChosen):
        return (_("went down %(points)s for the moon", points=moon_points) if event.down
                else _("put everyone else up %(points)s for the moon", points=moon_points))
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
            moon = (_("%(name)s shot the moon (went down)", name=names[result.moon])
                    if result.moon_down else
                    _("%(name)s shot the moon (everyone else went up)", name=names[result.moon]))
        rows.append({"hand": result.hand_number, "points": list(result.points),
                     "totals": list(result.totals), "moon": moon,
                     "cells": list(zip(result.points, result.totals, strict=True))})
    return rows


def direction_words(offset: int, seats: int) -> str:
    """`on your left`, `across`, `2 to the right`."""
    if offset == 0:  # the engine's HOLD: no pass this hand
        return _("no pass (hold)")
    if seats % 2 == 0 and abs(offset) == seats // 2:
        return _("across")
    if abs(offset) == 1:
        return _("on your left") if offset > 0 else _("on your right")
    return (_("%(num)s to the left", num=abs(offset)) if offset > 0
            else _("%(num)s to the right", num=abs(offset)))


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
            title = _("Go down %(points)s", points=value)
            same = all(totals[s] == state.totals[s] for s in others)
            them = list_words([str(totals[s]) if same else f"{names[s]}: {totals[s]}"
                               for s in others])
            result = (_("you'd have %(total)s (the others stay at %(them)s)",
                        total=totals[seat], them=them) if same else
                      _("you'd have %(total)s (the others would have %(them)s)",
                        total=totals[seat], them=them))
        else:
            title = _("Everyone else up %(points)s", points=value)
            they = list_words([f"{names[s]}: {totals[s]}" for s in others])
            result = (_("they'd have %(they)s (you stay at %(total)s)", they=they,
                        total=totals[seat]) if totals[seat] == state.totals[seat] else
                      _("they'd have %(they)s (you'd have %(total)s)", they=they,
                        total=totals[seat]))
        if after.game_over:
            if list(after.winners) == [seat]:
                outcome = _("That ends the game: you win.")
            else:
                winners = [_("you") if s == seat else names[s] for s in after.winners]
                outcome = ngettext("That ends the game: %(names)s wins.",
                                   "That ends the game: %(names)s win.", len(winners),
                                   names=list_words(winners))
        else:
            outcome = _("The game goes on.")
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
    chips = unit == "chips"
    lines = [_collects(names[s], a, chips) if a > 0 else
             _pays(names[s], -a, chips) if a < 0 else _("%(name)s is square", name=names[s])
             for s, a in sorted(enumerate(result.amounts), key=lambda p: -p[1])]
    if result.pot:
        lines.append(ngettext("%(num)d chip stays in the pot", "%(num)d chips stay in the pot",
                              result.pot) if chips else
                     ngettext("%(num)d point stays in the pot",
                              "%(num)d points stay in the pot", result.pot))
    return lines


def _collects(name: str, amount: int, chips: bool) -> str:
    if chips:
        return ngettext("%(name)s collects %(num)d chip", "%(name)s collects %(num)d chips",
                        amount, name=name)
    return ngettext("%(name)s collects %(num)d point", "%(name)s collects %(num)d points",
                    amount, name=name)


def _pays(name: str, amount: int, chips: bool) -> str:
    if chips:
        return ngettext("%(name)s pays %(num)d chip", "%(name)s pays %(num)d chips", amount,
                        name=name)
    return ngettext("%(name)s pays %(num)d point", "%(name)s pays %(num)d points", amount,
                    name=name)
