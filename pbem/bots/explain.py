"""Why a card was a mistake, as plain facts from what its player could see (data for the
review's words, which live in pbem.present.review): codes with a card or a number after a colon.

- `queen_into:A♠`: the Q♠ played where a higher spade still out could win over it.
- `spade_over_queen:Q♠`: the K♠ or A♠ played to a spade trick it may win, the Q♠ still out.
- `kept_queen`: a discard (no card of the suit led) that kept the Q♠ in hand.
- `took_points:5`: the last card of a trick, winning it with that many points on it.

Only the standard game with one deck (elsewhere the queen and the points work otherwise).
"""

from __future__ import annotations

from pbem.bots.worlds import seen_by
from pbem.engine import Card, CardPlayed, Event, GameState, SeatView, Suit, Variant

QUEEN, KING, ACE = 12, 13, 14
QUEEN_OF_SPADES = Card(QUEEN, Suit.SPADES)


def why(state: GameState, event: Event) -> str:
    """The code of the plain fact that made `event` costly (empty when none is known)."""
    rules = state.rules
    if not isinstance(event, CardPlayed) or rules.variant is not Variant.STANDARD \
            or rules.decks != 1:
        return ""
    view = seen_by(state, event.seat).view
    card, out = event.card, _unseen(view)
    queen = rules.queen_scores
    if queen and card == QUEEN_OF_SPADES and _may_win(view, card):
        higher = [c for c in out if c.suit is Suit.SPADES and c.rank > QUEEN]
        if higher:
            return f"queen_into:{max(higher, key=lambda c: c.rank).symbol}"
    if queen and card.suit is Suit.SPADES and card.rank in (KING, ACE) \
            and QUEEN_OF_SPADES in out and _may_win(view, card):
        return f"spade_over_queen:{QUEEN_OF_SPADES.symbol}"
    led = view.current_trick.plays[0][1].suit if view.current_trick.plays else None
    if queen and led is not None and card.suit is not led and card != QUEEN_OF_SPADES \
            and QUEEN_OF_SPADES in view.legal:
        return "kept_queen"
    return _took_points(view, card)


def _unseen(view: SeatView) -> set[Card]:
    """The cards of one deck not in the seat's hand nor played this hand."""
    seen = {*view.hand, *(c for t in (*view.tricks, view.current_trick) for c in t.cards)}
    return {Card.from_index(i) for i in range(52)} - seen


def _may_win(view: SeatView, card: Card) -> bool:
    """Does `card` lead, or beat every card of the suit led on the trick so far?"""
    plays = view.current_trick.plays
    if not plays:
        return True
    led = plays[0][1].suit
    return card.suit is led and all(c.rank < card.rank for _, c in plays if c.suit is led)


def _took_points(view: SeatView, card: Card) -> str:
    plays = view.current_trick.plays
    if len(plays) != view.seats - 1 or not _may_win(view, card):
        return ""
    cards = [c for _, c in plays] + [card]
    points = sum(1 for c in cards if c.suit is Suit.HEARTS) + \
        sum(13 for c in cards if c == QUEEN_OF_SPADES)
    return f"took_points:{points}" if points else ""
