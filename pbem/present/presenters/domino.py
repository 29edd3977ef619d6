"""Domino Hearts in words: the stock, who is out, the draws, and who took the cards left."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.engine import Card, CardPlayed, Event, GameState, Phase, SeatView, list_in_words
from pbem.present.presenters.base import FIXED_IN_VARIANTS, PLAYING, Presenter
from pbem.present.words import capital, card_words, cards_count, verb, who


class DominoPresenter(Presenter):
    fixes_options = True
    hidden_options = FIXED_IN_VARIANTS | {"cancels"}
    help_notes = ("When you can't follow suit, cards are drawn from the stock for you; "
                  "your next email names them.",)
    email_rules = ("By email: when you can't follow suit, the cards are drawn from the stock "
                   "for you, and your next email names them (the others only learn how many).",)
    shows_draws = True

    def table_notes(self, view: SeatView, names: Sequence[str], seat: int | None) -> list[str]:
        if view.phase not in (Phase.PLAY, Phase.DRAW):
            return []
        notes = [f"The stock has {cards_count(view.stock_size)}." if view.stock_size
                 else "The stock is empty: if you can't follow suit, you may play any card."]
        sizes = [f"{who(s, seat, names)} {n}" if n else f"{who(s, seat, names)} out"
                 for s, n in enumerate(view.hand_sizes)]
        notes.append(f"Cards in hand: {', '.join(sizes)}.")
        out = [s for s in range(view.seats) if not view.hand_sizes[s]]
        if out:
            notes.append("Out of this hand (no cards left): "
                         f"{list_in_words([who(s, seat, names) for s in out])}.")
        return notes

    def is_out(self, view: SeatView, seat: int) -> bool:
        return not view.hand_sizes[seat] and view.phase in PLAYING

    def kitty_shown(self, state: GameState) -> tuple[Card, ...]:
        return ()  # the stock: the finished game's page lists the draws instead

    def hand_notes(self, before: GameState, after: GameState, last: Event,
                   names: Sequence[str], seat: int | None) -> list[str]:
        """Who took the cards left when the hand ended: the last player in, or the last
        winner."""
        if not isinstance(last, CardPlayed):
            return []
        hands = list(before.hands)
        hands[last.seat] &= ~last.card.bit
        left = [s for s in range(before.seats) if hands[s]]
        stock = len(before.stock)
        and_stock = f" and the {cards_count(stock)} left in the stock" if stock else ""
        if len(left) == 1:
            taker = left[0]
            held = _cards_of_mask(hands[taker])
            return [f"{capital(who(taker, seat, names))} "
                    f"{'were' if taker == seat else 'was'} the last player left and "
                    f"{verb(taker, seat)} the cards still in hand "
                    f"({card_words(held, codes=False)}){and_stock}."]
        winner = after.tricks[-1].winner if after.tricks else None
        if stock and winner is not None:
            return [f"The last trick emptied every hand: {who(winner, seat, names)} took it "
                    f"{and_stock.strip()}."]
        return []


def _cards_of_mask(mask: int) -> list[Card]:
    return sorted(Card.from_index(i) for i in range(mask.bit_length()) if mask >> i & 1)
