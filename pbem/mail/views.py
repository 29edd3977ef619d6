"""Template-ready values for emails: cards with symbols and letter forms, hands, tricks, scores.

Built from an engine `SeatView` (what one seat may see) plus the seat names; templates never
touch the engine.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.engine import (
    Card,
    GameState,
    HandResult,
    MoonChosen,
    SeatView,
    Suit,
    Trick,
    apply,
    describe_offset,
    list_in_words,
    settlement,
    sort_cards,
)

SUIT_NAMES = {Suit.CLUBS: "Clubs", Suit.DIAMONDS: "Diamonds", Suit.HEARTS: "Hearts",
              Suit.SPADES: "Spades"}


@dataclass(frozen=True)
class CardView:
    code: str          # "QS": what a player types
    symbol: str        # "Q♠"
    red: bool
    url: str | None = None  # a one-time link that plays (or picks) this card

    @property
    def label(self) -> str:
        """Plain-text form: `Q♠ (QS)`."""
        return f"{self.symbol} ({self.code})"


@dataclass(frozen=True)
class SuitRow:
    name: str
    symbol: str
    red: bool
    cards: tuple[CardView, ...]


@dataclass(frozen=True)
class PlayView:
    name: str
    card: CardView
    is_you: bool


@dataclass(frozen=True)
class TrickView:
    plays: tuple[PlayView, ...]
    winner: str | None
    winner_is_you: bool = False


@dataclass(frozen=True)
class ScoreRow:
    name: str
    hand: int
    total: int
    is_you: bool
    bar: int = 0  # percent of the largest total, for the HTML bar chart
    winner: bool = False
    mail_failing: bool = False  # our emails to this player bounce: everyone is told


def card_view(card: Card, url: str | None = None) -> CardView:
    return CardView(code=str(card), symbol=card.symbol, red=card.is_red, url=url)


def card_views(cards: Sequence[Card], urls: Mapping[str, str] | None = None) -> list[CardView]:
    urls = urls or {}
    return [card_view(c, urls.get(str(c))) for c in sort_cards(cards)]


def hand_rows(cards: Sequence[Card], urls: Mapping[str, str] | None = None) -> list[SuitRow]:
    """The hand grouped by suit (empty suits left out), each suit sorted by rank."""
    rows = []
    for suit in Suit:
        in_suit = [c for c in cards if c.suit is suit]
        if in_suit:
            rows.append(SuitRow(SUIT_NAMES[suit], suit.symbol, suit.is_red,
                                tuple(card_views(in_suit, urls))))
    return rows


def trick_view(trick: Trick | None, names: Sequence[str], seat: int | None) -> TrickView | None:
    if trick is None:
        return None
    plays = tuple(PlayView(names[s], card_view(c), s == seat) for s, c in trick.plays)
    winner = names[trick.winner] if trick.winner is not None else None
    return TrickView(plays, winner, trick.winner is not None and trick.winner == seat)


def score_rows(points: Sequence[int], totals: Sequence[int], names: Sequence[str],
               seat: int | None, winners: Sequence[int] = (),
               failing: Collection[int] = ()) -> list[ScoreRow]:
    top = max([*totals, 1])
    return [
        ScoreRow(names[s], points[s], totals[s], s == seat, max(0, round(100 * totals[s] / top)),
                 s in winners, s in failing)
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
                     "totals": list(result.totals), "moon": moon})
    return rows


def player_zone(time_zone: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def deadline_text(deadline: datetime | None, time_zone: str | None) -> str | None:
    """`Saturday 1 March 2025, 13:00 CET (Europe/Paris)` in the player's own zone."""
    if deadline is None:
        return None
    zone = player_zone(time_zone)
    local = (deadline if deadline.tzinfo else deadline.replace(tzinfo=UTC)).astimezone(zone)
    return f"{local:%A} {local.day} {local:%B %Y, %H:%M %Z} ({zone.key})"


def direction_words(offset: int, seats: int) -> str:
    """`on your left`, `across`, `2 to the right`."""
    words = describe_offset(offset, seats)
    return f"on your {words}" if words in {"left", "right"} else words


def table_context(view: SeatView, names: Sequence[str], seat: int | None,
                  failing: Collection[int] = ()) -> dict[str, Any]:
    """What every game email may show: the table from this seat's side."""
    return {
        "hand_number": view.hand_number,
        "trick_number": view.trick_number,
        "hand": hand_rows(view.hand),
        "trick": trick_view(view.current_trick, names, seat),
        "previous": trick_view(view.previous_trick, names, seat),
        "scores": score_rows(view.hand_points, view.totals, names, seat, view.winners, failing),
        "hearts_broken": view.hearts_broken,
    }


# --- the moon choice -----------------------------------------------------------------------

MOON_DOWN, MOON_UP = "moondown", "moonup"  # a moon link's token `card` (fits its 8 characters)

# Auction Hearts links are "card" tokens too, their `card` a choice code of at most 8 characters:
# "bid:5" (bid 5 chips), "bid:pass" (pass), "suit:S" (name spades as the suit to avoid).
BID_PASS = "bid:pass"
MAX_LINK_BID = 9999  # a bid link's chips fit the token's 8 characters


def bid_code(chips: int | None) -> str:
    """The link code of a bid (None: pass)."""
    if chips is None:
        return BID_PASS
    if not 0 < chips <= MAX_LINK_BID:
        raise ValueError(f"no link for a bid of {chips}")
    return f"bid:{chips}"


def suit_code(suit: Suit) -> str:
    """The link code for naming `suit` as the suit to avoid."""
    return f"suit:{suit.letter}"


def read_choice(code: str | None) -> tuple[str, int | Suit | None] | None:
    """A link code read back: ("bid", chips or None for a pass), ("suit", Suit), or None when
    the code is no Auction choice (a card or a moon choice)."""
    kind, _, value = (code or "").partition(":")
    if kind == "bid" and value == "pass":
        return "bid", None
    if kind == "bid" and value.isdigit() and 0 < int(value) <= MAX_LINK_BID:
        return "bid", int(value)
    if kind == "suit" and len(value) == 1 and value in "CDHS":
        return "suit", Suit("CDHS".index(value))
    return None


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
                     "howell": "chips"}


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
