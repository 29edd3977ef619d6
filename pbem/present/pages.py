"""What only a page shows: the bid form's bounds and the suit buttons, the carried cards, and
the cards a player drew, read from the event log for their own private view.

The variant's own values come from its presenter (pbem.present.presenters); a standard game
gets empty values and its pages are unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from pbem.engine import Card, CardsDrawn, GameState, HandDealt, SeatView, event_type
from pbem.present import views
from pbem.present.codes import suit_choices
from pbem.present.presenters import PLAYING as PLAYING  # re-exported for the pages
from pbem.present.presenters import presenter
from pbem.store.events import load_events
from pbem.store.models import Event as EventRow


def variant_context(state: GameState, view: SeatView, names: Sequence[str], seat: int | None,
                    drawn: Sequence[Card] = ()) -> dict[str, Any]:
    """The template values of the game's variant (empty in a standard game)."""
    return {
        "bids": [], "min_bid": 1, "bid_rule": "", "naming": "", "avoid_note": "",
        "suit_choices": suit_choices(),
        "carried": views.counted(views.card_views(view.carried)) if state.phase in PLAYING
        else [],
        "drawn": [views.card_view(c) for c in drawn],
        **presenter(state.rules).page_context(state, view, names, seat),
    }


def drawn_this_hand(session: Session, game_id: int, state: GameState, seat: int) -> list[Card]:
    """The cards `seat` drew from the stock this hand, in the order drawn.

    The stock is the rest of the deal after the hands, drawn from the top, so each draw's cards
    follow from the deal and the counts of the draws before it."""
    if not presenter(state.rules).shows_draws or state.phase not in PLAYING:
        return []
    dealt_at = session.exec(select(func.max(EventRow.seq)).where(
        EventRow.game_id == game_id, EventRow.type == event_type(HandDealt(())))).one()
    if dealt_at is None:
        return []
    events = load_events(session, game_id, dealt_at - 1)
    deal = events[0]
    assert isinstance(deal, HandDealt)
    top, mine = state.rules.hand_size * state.seats, list[Card]()
    for draw in (e for e in events if isinstance(e, CardsDrawn)):
        if draw.seat == seat:
            mine.extend(deal.cards[top:top + draw.count])
        top += draw.count
    return mine
