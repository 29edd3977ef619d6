"""The standard game's presenter, and the base every variant's presenter changes a part of.

A presenter gives a variant's words and view data to emails and pages alike: the notes on the
table, what became of a trick or a hand, the rules by email, the help commands, the options the
new-game form offers. Adapters ask `presenter(rules)` (pbem.present.presenters) and render what
they get; they never branch on a variant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.engine import Card, Event, GameState, Phase, Rules, SeatView, Trick
from pbem.present.i18n import _
from pbem.present.words import card_words, cards_count

PLAYING = (Phase.PLAY, Phase.DRAW, Phase.MOON_CHOICE)
# The whole variants fix some options (RULES.md): the new-game form does not offer them. The
# engine's rules.problems() still refuses them in words should they come another way.
FIXED_IN_VARIANTS = frozenset({"pass_count", "bonus_card", "forced_queen", "opening_lead",
                               "kitty_to"})
Command = dict[str, str]  # one line of the help email: {"example": ..., "meaning": ...}


class Presenter:
    """A standard game (and the base of the whole variants')."""

    kitty_name = "Kitty"  # the kitty's name on the finished game's page
    cost_unit = "points"  # what a hand costs a player (the review's estimates are in it)
    # Rule options the new-game form does not offer for this variant (RULES.md fixes them).
    hidden_options: frozenset[str] = frozenset({"cancels"})
    option_labels: Mapping[str, str] = {}  # options worded for this variant
    fixes_options = False  # the form says the variant's rules fix the options not offered
    help_notes: tuple[str, ...] = ()  # the help email's notes on this variant
    email_rules: tuple[str, ...] = ()  # what the variant asks of a player by email
    shows_draws = False  # the private page lists the cards the seat drew this hand
    hand_notes_open = False  # the finished game's page shows the hand notes before the tricks

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    # --- the table now -----------------------------------------------------------------

    def table_notes(self, view: SeatView, names: Sequence[str], seat: int | None) -> list[str]:
        """What the variant adds to the table an email or page shows."""
        return []

    def broken_text(self, view: SeatView) -> str:
        """`Hearts are broken.` (or what takes their place)."""
        return _("Hearts are broken.") if view.hearts_broken else _("Hearts are not broken yet.")

    def is_out(self, view: SeatView, seat: int) -> bool:
        """Whether `seat` is out of the hand being played (no cards left, others still in)."""
        return False

    def bids_so_far(self, view: SeatView, names: Sequence[str]) -> list[str]:
        """The bids made so far, in words (`Ann 3 chips`), for the status email."""
        return []

    def question(self, view: SeatView, names: Sequence[str], seat: int) -> dict[str, Any]:
        """The words of a question only this variant asks (a bid, the suit to name), with its
        `preheader`; empty when the variant asks nothing of its own now."""
        return {}

    def page_context(self, state: GameState, view: SeatView, names: Sequence[str],
                     seat: int | None) -> dict[str, Any]:
        """The page values only this variant fills (the bids, the suit to name)."""
        return {}

    # --- tricks and hands --------------------------------------------------------------

    def draw_notes(self, draws: Sequence[tuple[int, tuple[Card, ...]]], names: Sequence[str],
                   seat: int | None) -> list[str]:
        """Draws from the stock: the drawer learns the cards, everyone else only how many."""
        return [_("You drew %(cards)s from the stock.", cards=card_words(cards)) if drawer == seat
                else _("%(name)s drew %(cards)s from the stock.", name=names[drawer],
                       cards=cards_count(len(cards)))
                for drawer, cards in draws]

    def trick_notes(self, tricks: Sequence[Trick], names: Sequence[str], seat: int | None,
                    hand_over: bool = False) -> list[tuple[str, ...]]:
        """Per completed trick, what else happened to it (empty in a standard game)."""
        return [()] * len(tricks)

    def hand_notes(self, before: GameState, after: GameState, last: Event,
                   names: Sequence[str], seat: int | None) -> list[str]:
        """How a hand ended, beyond its points (`last`: the event that ended it)."""
        return []

    def kitty_shown(self, state: GameState) -> tuple[Card, ...]:
        """The kitty as the finished game's page shows it with the deal."""
        return state.kitty_cards

    # --- words about the rules ---------------------------------------------------------

    def help_commands(self, commands: list[Command]) -> list[Command]:
        """The help email's commands with this variant's own."""
        return commands
