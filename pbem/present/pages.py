"""What the pages add for the whole variants (Auction, Domino, Cancellation).

The words the emails use too come from `pbem.present.variants` and `pbem.present.views`; this
module adds what only a page has: the bid form's bounds and the suit buttons, the carried cards,
and the cards a player drew, read from the event log for their own private view. A standard
game gets empty values and its pages are unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from pbem.engine import (
    Card,
    CardsDrawn,
    GameState,
    HandDealt,
    Phase,
    SeatView,
    Variant,
    event_type,
)
from pbem.present import variants as words
from pbem.present import views
from pbem.store.events import load_events
from pbem.store.models import Event as EventRow

PLAYING = (Phase.PLAY, Phase.DRAW, Phase.MOON_CHOICE)
AUCTION_PHASES = (Phase.BID, Phase.NAME_SUIT, Phase.PLAY)
SUIT_CHOICES = tuple(words.choice(code) for code in words.SUIT_CODES)


def variant_context(state: GameState, view: SeatView, names: Sequence[str], seat: int | None,
                    drawn: Sequence[Card] = ()) -> dict[str, Any]:
    """The template values of the game's variant (empty in a standard game)."""
    auction = state.rules.variant is Variant.AUCTION
    high = words.high_bid(state.bids) if auction else 0
    bidding = auction and state.phase in AUCTION_PHASES and any(b >= 0 for b in state.bids)
    return {
        "variant": state.rules.variant.value,
        "bids": words.bid_rows(view, names, seat) if bidding else [],
        "min_bid": high + 1, "bid_rule": words.bid_rule(high),
        "suit_choices": SUIT_CHOICES,
        "naming": words.name_suit_situation(view, names)
        if state.phase is Phase.NAME_SUIT and seat is not None and seat == state.bidder else "",
        "avoid": view.named_suit.plural if view.named_suit is not None else "",
        "carried": views.counted(views.card_views(view.carried)) if state.phase in PLAYING
        else [],
        "drawn": [views.card_view(c) for c in drawn],
    }


def drawn_this_hand(session: Session, game_id: int, state: GameState, seat: int) -> list[Card]:
    """Domino: the cards `seat` drew from the stock this hand, in the order drawn.

    The stock is the rest of the deal after the hands, drawn from the top, so each draw's cards
    follow from the deal and the counts of the draws before it."""
    if state.rules.variant is not Variant.DOMINO or state.phase not in PLAYING:
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
