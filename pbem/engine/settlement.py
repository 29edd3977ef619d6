"""Settlement at the end of a game: score sheet, pairwise net, chips, sweepstakes and Howell."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.rules import Settlement
from pbem.engine.state import GameState, HandResult


@dataclass(frozen=True, slots=True)
class SettlementResult:
    kind: Settlement
    amounts: tuple[int, ...]  # net per seat: positive wins, negative pays; sums to zero but pot
    pot: int = 0              # chips still in the pot (carried over, never won)


def settlement(state: GameState) -> SettlementResult:
    kind = state.rules.settlement
    if kind is Settlement.PAIRWISE:
        return SettlementResult(kind, pairwise(state.totals))
    if kind is Settlement.AUCTION:  # the bids and the chips per card, as the fold kept them
        return SettlementResult(kind, state.chips or (0,) * state.seats, state.pot)
    if kind is Settlement.HOWELL:
        return SettlementResult(kind, howell(state.sheet, state.seats))
    if kind in (Settlement.CHIPS, Settlement.SWEEPSTAKES):
        amounts, pot = pot_settlement(state.sheet, state.seats,
                                      zero_only=kind is Settlement.SWEEPSTAKES)
        return SettlementResult(kind, amounts, pot)
    return SettlementResult(kind, tuple(-t for t in state.totals))


def pairwise(totals: tuple[int, ...]) -> tuple[int, ...]:
    """Each pair settles the difference of their scores; a player below zero is paid double."""
    net = [0] * len(totals)
    for low, low_score in enumerate(totals):
        for high, high_score in enumerate(totals):
            if low_score < high_score:
                amount = (high_score - low_score) * (2 if low_score < 0 else 1)
                net[low] += amount
                net[high] -= amount
    return tuple(net)


def howell(sheet: tuple[HandResult, ...], seats: int) -> tuple[int, ...]:
    """Per heart taken pay one chip to each other player; collect 13 minus the hearts taken."""
    net = [0] * seats
    for result in sheet:
        for seat, hearts in enumerate(result.hearts):
            net[seat] += (13 - hearts) - hearts * (seats - 1)
    return tuple(net)


def pot_settlement(sheet: tuple[HandResult, ...], seats: int,
                   *, zero_only: bool) -> tuple[tuple[int, ...], int]:
    """Everyone pays their points into the pot each deal; the lowest (or only a zero) takes it.
    Ties split it and odd chips stay for the next deal."""
    net, pot = [0] * seats, 0
    for result in sheet:
        for seat, points in enumerate(result.points):
            paid = max(points, 0)
            net[seat] -= paid
            pot += paid
        low = min(result.points)
        takers = [s for s, p in enumerate(result.points) if p == low]
        if zero_only and low > 0 or len(takers) == seats:
            continue
        share = pot // len(takers)
        for seat in takers:
            net[seat] += share
        pot -= share * len(takers)
    return tuple(net), pot
