"""Cancellation Hearts in words: cards held twice, cancelled cards, tricks nobody won, the
widow."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.engine import Phase, SeatView, Trick, nobody_could_win
from pbem.present.presenters.base import FIXED_IN_VARIANTS, Presenter
from pbem.present.words import capital, cards_count, verb, who


class CancellationPresenter(Presenter):
    kitty_name = "Widow"
    fixes_options = True
    hidden_options = FIXED_IN_VARIANTS
    help_notes = ("Two decks: a card you hold twice is one command, e.g. QS plays one of your "
                  "two queens of spades.",)
    email_rules = ("By email: a card you hold twice shows as “Q♠ (QS) ×2”; replying QS, or its "
                   "link, plays one of them.",)

    def table_notes(self, view: SeatView, names: Sequence[str], seat: int | None) -> list[str]:
        rules = self.rules
        if view.phase is not Phase.PLAY:
            return []
        if view.trick_number == 1 and rules.kitty_size:
            return [f"The widow ({cards_count(rules.kitty_size)}) goes with the first trick."]
        if view.carried:
            widow = f" (the widow's {rules.kitty_size} included)" if rules.kitty_size and all(
                t.winner is None for t in view.tricks) else ""
            return [f"{cards_count(len(view.carried)).capitalize()} from tricks nobody won"
                    f"{widow} wait for the winner of the next trick."]
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
            with_widow = f" (the widow's {widow} included)" if widow \
                and all(t.winner is None for t in tricks[:n - 1]) else ""
            if trick.winner is None:
                waiting += len(trick.plays)
                out.append(("Nobody won this trick (no card of the suit led stands "
                            "uncancelled): its cards wait for the winner of the next trick, "
                            f"{cards_count(waiting)} in all{with_widow}.",))
                continue
            notes = []
            name, takes = capital(who(trick.winner, seat, names)), verb(trick.winner, seat)
            if unwinnable_last and n == len(tricks):
                notes.append(f"Nobody could win this last trick, so it goes to its leader, "
                             f"{who(trick.winner, seat, names)}.")
            if n == 1 and widow:
                notes.append(f"{name} also {takes} the widow ({cards_count(widow)}).")
            elif waiting:
                notes.append(f"{name} also {takes} the {cards_count(waiting)} waiting from "
                             f"tricks nobody won{with_widow}.")
            waiting = 0
            out.append(tuple(notes))
        return out
