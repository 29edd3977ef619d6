"""Domino Hearts in words: the stock, who is out, the draws, and who took the cards left."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.engine import Card, CardPlayed, Event, GameState, Phase, SeatView
from pbem.present.i18n import _, lazy, ngettext
from pbem.present.presenters.base import FIXED_IN_VARIANTS, PLAYING, Presenter
from pbem.present.words import card_words, cards_count, list_words, who


class DominoPresenter(Presenter):
    fixes_options = True
    hidden_options = FIXED_IN_VARIANTS | {"cancels"}
    help_notes = (lazy("When you can't follow suit, cards are drawn from the stock for you; "
                       "your next email names them."),)
    email_rules = (lazy("By email: when you can't follow suit, the cards are drawn from the "
                        "stock for you, and your next email names them (the others only learn "
                        "how many)."),)
    shows_draws = True

    def table_notes(self, view: SeatView, names: Sequence[str], seat: int | None) -> list[str]:
        if view.phase not in (Phase.PLAY, Phase.DRAW):
            return []
        notes = [ngettext("The stock has %(num)d card.", "The stock has %(num)d cards.",
                          view.stock_size) if view.stock_size
                 else _("The stock is empty: if you can't follow suit, you may play any card.")]
        sizes = [_("%(who)s %(count)s", who=who(s, seat, names), count=n) if n
                 else _("%(who)s out", who=who(s, seat, names))
                 for s, n in enumerate(view.hand_sizes)]
        notes.append(_("Cards in hand: %(sizes)s.", sizes=", ".join(sizes)))
        out = [s for s in range(view.seats) if not view.hand_sizes[s]]
        if out:
            notes.append(_("Out of this hand (no cards left): %(names)s.",
                           names=list_words([who(s, seat, names) for s in out])))
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
        left_over = cards_count(stock)
        if len(left) == 1:
            taker = left[0]
            held = card_words(_cards_of_mask(hands[taker]), codes=False)
            return [_last_player(taker == seat, names[taker], held, left_over if stock else "")]
        winner = after.tricks[-1].winner if after.tricks else None
        if stock and winner is not None:
            return [_("The last trick emptied every hand: you took it and the %(stock)s left in "
                      "the stock.", stock=left_over) if winner == seat else
                    _("The last trick emptied every hand: %(name)s took it and the %(stock)s "
                      "left in the stock.", name=names[winner], stock=left_over)]
        return []


def _last_player(you: bool, name: str, held: str, stock: str) -> str:
    """Who was the last player left, and took the cards still in hand (and the stock's)."""
    if you and stock:
        return _("You were the last player left and take the cards still in hand (%(cards)s) "
                 "and the %(stock)s left in the stock.", cards=held, stock=stock)
    if you:
        return _("You were the last player left and take the cards still in hand (%(cards)s).",
                 cards=held)
    if stock:
        return _("%(name)s was the last player left and takes the cards still in hand "
                 "(%(cards)s) and the %(stock)s left in the stock.", name=name, cards=held,
                 stock=stock)
    return _("%(name)s was the last player left and takes the cards still in hand (%(cards)s).",
             name=name, cards=held)


def _cards_of_mask(mask: int) -> list[Card]:
    return sorted(Card.from_index(i) for i in range(mask.bit_length()) if mask >> i & 1)
