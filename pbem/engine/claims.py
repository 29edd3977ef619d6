"""Claims and forced play: exact searches over the rest of a hand on a scratch table."""

from __future__ import annotations

from pbem.engine.cards import SUIT_MASKS, iter_indices
from pbem.engine.rules import Rules, Variant
from pbem.engine.scoring import QS_BIT
from pbem.engine.state import GameState, Phase
from pbem.engine.table import Table
from pbem.engine.variants import thaw

CLAIM_SEARCH_BUDGET = 200_000
# Two decks (the search keeps one card per suit end) and a stock to draw from are not searched.
NO_CLAIMS = frozenset({Variant.CANCELLATION, Variant.DOMINO})


class _Budget:
    def __init__(self, nodes: int) -> None:
        self.nodes = nodes

    def spend(self) -> None:
        self.nodes -= 1
        if self.nodes < 0:
            raise _TooComplex


class _TooComplex(Exception):
    pass


def claim_holds(state: GameState, claimer: int, budget: int = CLAIM_SEARCH_BUDGET) -> bool | None:
    """True if `claimer` wins every remaining trick however the others play; None if undecided
    within the search budget (the claim is then refused as unproven)."""
    if state.phase is not Phase.PLAY or state.rules.variant in NO_CLAIMS:
        return False
    table = thaw(state)
    table.simulating = True
    try:
        return _claimer_wins_rest(table, claimer, {}, _Budget(budget))
    except _TooComplex:
        return None


def _claimer_wins_rest(table: Table, claimer: int, memo: dict[tuple[object, ...], bool],
                       budget: _Budget) -> bool:
    if table.phase is not Phase.PLAY:
        return True
    key = (tuple(table.hands), tuple(table.trick), table.turn, table.hearts_broken,
           bool(table.tricks))
    if key in memo:
        return memo[key]
    budget.spend()
    mover = table.turn
    legal = table.legal_mask(mover)
    options = legal if mover == claimer else _opponent_options(legal)
    result = mover != claimer
    for index in iter_indices(options):
        after = table.clone()
        after.play(mover, index)
        lost = not after.trick and after.tricks[-1].winner != claimer
        wins = not lost and _claimer_wins_rest(after, claimer, memo, budget)
        if mover == claimer and wins:
            result = True
            break
        if mover != claimer and not wins:
            result = False
            break
    memo[key] = result
    return result


def _opponent_options(legal: int) -> int:
    """An opponent either tries to win now (its highest card of a suit) or keeps its high cards
    (its lowest); middle cards are never better for beating the claimer. The QS is kept as an
    option because playing it has side effects (breaking hearts)."""
    options = legal & QS_BIT
    for suit_mask in SUIT_MASKS:
        cards = legal & suit_mask
        if cards:
            options |= (cards & -cards) | (1 << (cards.bit_length() - 1))
    return options


def forced_rest(state: GameState) -> list[tuple[int, int]] | None:
    """The plays (seat, card index) that finish the hand when every remaining move is forced."""
    if state.phase is not Phase.PLAY or state.rules.variant is Variant.DOMINO:
        return None  # Domino's draws are forced events of their own (see decide.forced_events)
    table = thaw(state)
    table.simulating = True
    plays: list[tuple[int, int]] = []
    while table.phase is Phase.PLAY:
        legal = table.legal_mask(table.turn)
        if legal.bit_count() != 1:
            return None
        index = legal.bit_length() - 1
        plays.append((table.turn, index))
        table.play(table.turn, index)
    return plays


def claims_allowed(rules: Rules) -> bool:
    """Whether these rules allow claiming the remaining tricks at all."""
    return rules.variant not in NO_CLAIMS
