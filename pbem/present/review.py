"""A game's review in words: each player's real mistakes (a cost whose whole interval is at
least half a point, `Verdict.shown`), the largest first, one line each with what was better and
why, for the summary page and the review email:
"Trick 3: Q♠ into the A♠ still out: about 13 points (11 to 15, 64 samples); 5♠ was better."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.bots.review import SHOWN_FROM, Verdict
from pbem.engine import Rules
from pbem.present.i18n import _, ngettext
from pbem.present.presenters import presenter

PER_HAND = 2  # the largest mistakes shown per player and hand (summary page and email)


@dataclass(frozen=True)
class ReviewLine:
    hand: int
    seat: int
    cost: float
    text: str  # "Trick 3: Q♠ into the A♠ still out: about 13 points (11 to 15, 64 samples); ..."


@dataclass(frozen=True)
class PlayerReview:
    """One player's costliest decisions of one hand (or of the game)."""

    name: str
    lines: tuple[ReviewLine, ...]


def decision_words(verdict: Verdict, unit: str) -> str:
    """`Trick 3: Q♠ into the A♠ still out: about 13 points (11 to 15, 64 samples); 5♠ was
    better.` (without a known reason: `Trick 7: K♥ cost about 2.1 points (...); ...`)"""
    where, chosen, best = _said(verdict)
    reason = _reason(verdict.why)
    what = f"{chosen} {reason}:" if reason else f"{chosen} cost"
    return (f"{where}: {what} about {_amount(verdict.cost, unit)} ({_number(verdict.low)} to "
            f"{_number(verdict.high)}, {verdict.worlds} samples); {best} was better.")


def _reason(code: str) -> str:
    """The words of a `Verdict.why` code (pbem.bots.explain)."""
    name, _sep, card = code.partition(":")
    if name == "queen_into":
        return _("into the %(card)s still out", card=card)
    if name == "spade_over_queen":
        return _("with the %(card)s still out", card=card)
    if name == "kept_queen":
        return _("kept the Q♠ when it could go")
    if name == "took_points":
        return ngettext("took a trick of %(num)d point", "took a trick of %(num)d points",
                        int(card))
    return ""


def _number(value: float) -> str:
    return f"{max(0.0, value):.0f}" if value >= 1.95 else f"{max(0.0, value):.1f}"


def _said(verdict: Verdict) -> tuple[str, str, str]:
    if verdict.kind == "pass":
        return "The pass", f"passing {verdict.chosen}", f"passing {verdict.best}"
    if verdict.kind == "bid":
        return "The bidding", _bid(verdict.chosen), _bid(verdict.best)
    if verdict.kind == "suit":
        return "The suit to avoid", f"naming {verdict.chosen}", f"naming {verdict.best}"
    return f"Trick {verdict.trick_number}", verdict.chosen, verdict.best


def _bid(words: str) -> str:
    return "passing" if words == "pass" else f"bidding {words}"


def _amount(cost: float, unit: str) -> str:
    if cost >= 1.95:
        return f"{cost:.0f} {unit}"
    number = f"{cost:.1f}"
    return f"{number} {unit[:-1] if number == '1.0' else unit}"


def costly(verdicts: Sequence[Verdict], rules: Rules) -> list[ReviewLine]:
    """The decisions worth a line, costliest first."""
    unit = presenter(rules).cost_unit
    shown = sorted((v for v in verdicts if v.low >= SHOWN_FROM), key=lambda v: -v.cost)
    return [ReviewLine(v.hand_number, v.seat, v.cost, decision_words(v, unit)) for v in shown]


def by_hand(verdicts: Sequence[Verdict], rules: Rules,
            names: Sequence[str]) -> dict[int, list[PlayerReview]]:
    """Per hand number: each player's costliest decisions of that hand (PER_HAND at most),
    players in seat order, those with none left out."""
    lines = costly(verdicts, rules)
    hands: dict[int, list[PlayerReview]] = {}
    for hand in sorted({line.hand for line in lines}):
        for seat, name in enumerate(names):
            mine = [x for x in lines if x.hand == hand and x.seat == seat][:PER_HAND]
            if mine:
                hands.setdefault(hand, []).append(PlayerReview(name, tuple(mine)))
    return hands


def top_for(verdicts: Sequence[Verdict], rules: Rules, seat: int) -> list[ReviewLine]:
    """The player in `seat`'s largest mistakes of each hand (PER_HAND at most a hand), hand by
    hand: the lines the summary page shows for that player."""
    mine = [line for line in costly(verdicts, rules) if line.seat == seat]
    return [line for hand in sorted({x.hand for x in mine})
            for line in [x for x in mine if x.hand == hand][:PER_HAND]]


def samples(verdicts: Sequence[Verdict]) -> int:
    """The fewest samples any mistake shown had (0: none shown)."""
    return min((v.worlds for v in verdicts if v.low >= SHOWN_FROM), default=0)
