"""Cancellation Hearts in words: cards held twice, cancelled cards, tricks nobody won, the
widow."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.engine import Phase, SeatView, Trick, nobody_could_win
from pbem.present.i18n import _, lazy, ngettext
from pbem.present.presenters.base import FIXED_IN_VARIANTS, Presenter
from pbem.present.words import cards_count


class CancellationPresenter(Presenter):
    kitty_name = "Widow"
    fixes_options = True
    hidden_options = FIXED_IN_VARIANTS
    help_notes = (lazy("Two decks: a card you hold twice is one command, e.g. QS plays one of "
                       "your two queens of spades."),)
    email_rules = (lazy("By email: a card you hold twice shows as “Q♠ (QS) ×2”; replying QS, or "
                        "its link, plays one of them."),)

    def table_notes(self, view: SeatView, names: Sequence[str], seat: int | None) -> list[str]:
        rules = self.rules
        if view.phase is not Phase.PLAY:
            return []
        if view.trick_number == 1 and rules.kitty_size:
            return [_("The widow (%(cards)s) goes with the first trick.",
                      cards=cards_count(rules.kitty_size))]
        if view.carried:
            count = len(view.carried)
            if rules.kitty_size and all(t.winner is None for t in view.tricks):
                return [ngettext("%(num)d card from tricks nobody won (the widow's %(widow)s "
                                 "included) waits for the winner of the next trick.",
                                 "%(num)d cards from tricks nobody won (the widow's %(widow)s "
                                 "included) wait for the winner of the next trick.", count,
                                 widow=rules.kitty_size)]
            return [ngettext("%(num)d card from tricks nobody won waits for the winner of the "
                             "next trick.", "%(num)d cards from tricks nobody won wait for the "
                             "winner of the next trick.", count)]
        return []

    def trick_notes(self, tricks: Sequence[Trick], names: Sequence[str], seat: int | None,
                    hand_over: bool = False) -> list[tuple[str, ...]]:
        """Per completed trick: nobody won it (its cards wait), or its winner also took the
        cards waiting (and the widow, which goes with the first trick). `hand_over`: the last
        of `tricks` ended the hand (if nobody could win it, it went to its leader)."""
        widow = self.rules.kitty_size
        unwinnable_last = hand_over and bool(tricks) and nobody_could_win(self.rules, tricks[-1])
        out: list[tuple[str, ...]] = []
        waiting = widow  # the widow waits for the first trick's winner
        for n, trick in enumerate(tricks, start=1):
            with_widow = bool(widow) and all(t.winner is None for t in tricks[:n - 1])
            if trick.winner is None:
                waiting += len(trick.plays)
                out.append((_nobody_won(cards_count(waiting), widow if with_widow else 0),))
                continue
            notes = []
            you, name = trick.winner == seat, names[trick.winner]
            if unwinnable_last and n == len(tricks):
                notes.append(_("Nobody could win this last trick, so it goes to its leader, "
                               "you.") if you else
                             _("Nobody could win this last trick, so it goes to its leader, "
                               "%(name)s.", name=name))
            if n == 1 and widow:
                notes.append(_("You also take the widow (%(cards)s).",
                               cards=cards_count(widow)) if you else
                             _("%(name)s also takes the widow (%(cards)s).", name=name,
                               cards=cards_count(widow)))
            elif waiting:
                notes.append(_also_takes(you, name, cards_count(waiting),
                                         widow if with_widow else 0))
            waiting = 0
            out.append(tuple(notes))
        return out


def _nobody_won(waiting: str, widow: int) -> str:
    if widow:
        return _("Nobody won this trick (no card of the suit led stands uncancelled): its "
                 "cards wait for the winner of the next trick, %(cards)s in all (the widow's "
                 "%(widow)s included).", cards=waiting, widow=widow)
    return _("Nobody won this trick (no card of the suit led stands uncancelled): its cards "
             "wait for the winner of the next trick, %(cards)s in all.", cards=waiting)


def _also_takes(you: bool, name: str, waiting: str, widow: int) -> str:
    if you and widow:
        return _("You also take the %(cards)s waiting from tricks nobody won (the widow's "
                 "%(widow)s included).", cards=waiting, widow=widow)
    if you:
        return _("You also take the %(cards)s waiting from tricks nobody won.", cards=waiting)
    if widow:
        return _("%(name)s also takes the %(cards)s waiting from tricks nobody won (the "
                 "widow's %(widow)s included).", name=name, cards=waiting, widow=widow)
    return _("%(name)s also takes the %(cards)s waiting from tricks nobody won.", name=name,
             cards=waiting)
