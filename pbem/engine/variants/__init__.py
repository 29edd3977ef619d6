"""The whole variants: one Table subclass per variant, chosen once per game by `Rules.variant`.

fold.py asks `new_table` / `thaw` for the working table, so a standard game runs the plain
`Table` untouched and a variant game runs its own fold (see docs/engine.md, "Whole variants").
"""

from __future__ import annotations

from pbem.engine.cards import ALL_CARDS, DOUBLE_DECK, Card
from pbem.engine.events import GameCreated
from pbem.engine.rules import Rules, Variant
from pbem.engine.state import GameState
from pbem.engine.table import Table, kept_state
from pbem.engine.variants.auction import AuctionTable
from pbem.engine.variants.cancellation import CancellationTable
from pbem.engine.variants.domino import DominoTable

TABLES: dict[Variant, type[Table]] = {
    Variant.STANDARD: Table, Variant.CANCELLATION: CancellationTable,
    Variant.DOMINO: DominoTable, Variant.AUCTION: AuctionTable,
}


def new_table(created: GameCreated) -> Table:
    return TABLES[created.rules.variant](created)


def thaw(state: GameState) -> Table:
    """A working table of `state`, the caller's to change."""
    kept = state._table
    if isinstance(kept, Table):
        return kept.clone()
    return TABLES[state.rules.variant].thaw(state)


def reader(state: GameState) -> Table:
    """The working table `state` was frozen from, for questions only: never change it. A
    state the fold made keeps its table; any other gets one on its first question."""
    kept = state._table
    if isinstance(kept, Table):
        return kept
    table = TABLES[state.rules.variant].thaw(state)
    state._keep(table)  # a cache, not part of the value
    return table


def freeze_keeping(table: Table) -> GameState:
    """`table.freeze()`, the state keeping `table` for its questions: the caller must not
    change `table` afterwards."""
    return kept_state(table)


def deck_cards(rules: Rules) -> tuple[Card, ...]:
    """Every card a deal of these rules holds, in order (both decks for Cancellation Hearts):
    the service shuffles this and records it as HandDealt."""
    if rules.decks == 2:
        return DOUBLE_DECK
    if not rules.removed:
        return ALL_CARDS
    removed = set(rules.removed)
    return tuple(card for card in ALL_CARDS if card not in removed)
