"""A plain robot for bot seats (and resigned players): always legal, never clever."""

from __future__ import annotations

from pbem.engine import (
    Card,
    ChooseMoon,
    Command,
    GameState,
    PassCards,
    Phase,
    PlayCard,
    legal_cards,
)


def _low_first(card: Card) -> tuple[int, int]:
    return (card.rank, int(card.suit))


def bot_command(state: GameState, seat: int) -> Command | None:
    """The bot's move for `seat`, or None if nothing is awaited from it."""
    if seat not in state.to_move:
        return None
    if state.phase is Phase.PASS:
        by_rank = sorted(state.hand(seat), key=_low_first)
        return PassCards(seat, tuple(by_rank[len(by_rank) - state.rules.pass_count :]))
    if state.phase is Phase.PLAY:
        return PlayCard(seat, min(legal_cards(state, seat), key=_low_first))
    if state.phase is Phase.MOON_CHOICE:
        return ChooseMoon(seat, down=True)
    return None
