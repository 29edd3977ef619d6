"""Auction Hearts in words: the bids, the suit to avoid, the pot and the chips."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem.engine import Event, GameState, Phase, SeatView, Suit
from pbem.present.codes import high_bid
from pbem.present.i18n import _, lazy, ngettext
from pbem.present.presenters.base import FIXED_IN_VARIANTS, Command, Presenter
from pbem.present.words import chips_words, list_words, suit_plural, suit_title

AUCTION_PHASES = (Phase.BID, Phase.NAME_SUIT, Phase.PLAY)
_COMMANDS = [
    {"example": "bid 5", "meaning": lazy("bid 5 chips for naming the suit to avoid (more than "
                                         "the highest bid so far)")},
    {"example": "pass", "meaning": lazy("pass in the bidding (also “no bid”)")},
    {"example": "avoid spades", "meaning": lazy("if you won the bidding: name the suit to avoid "
                                                "(“avoid ♠”, or just “spades”)")},
]


@dataclass(frozen=True)
class BidRow:
    name: str
    is_you: bool
    words: str  # "3 chips", "passed", "to bid now", "not yet"
    bid: int | None = None  # the chips bid (0: passed); None: not bid yet


class AuctionPresenter(Presenter):
    fixes_options = True
    cost_unit = "chips"  # a hand's real stake: the chips it costs
    hidden_options = FIXED_IN_VARIANTS | {
        "cancels", "moon", "queen_scores", "queen_breaks_hearts", "first_trick_fallback",
        "only_hearts_and_queen_lead", "settlement"}
    # The named suit takes the place of hearts.
    option_labels = {"hearts_must_be_broken": "The named suit can't be led until broken",
                     "points_on_first_trick": "The named suit may be played on the first trick"}
    help_notes = (lazy("The named suit takes the place of hearts: each card of it taken is a "
                       "point and a chip into the pot."),)
    email_rules = (lazy("By email: when it's your turn to bid, reply “bid 5” (any number of "
                        "chips) or “pass”; if you win the bidding, reply “avoid spades” (or "
                        "clubs, diamonds, hearts). Each email also has a link for each "
                        "choice."),)

    hand_notes_open = True  # beside the bids: the pot they paid into

    def help_commands(self, commands: list[Command]) -> list[Command]:
        return [*commands[:1], *_COMMANDS, *commands[1:]]

    # --- the table now -----------------------------------------------------------------

    def table_notes(self, view: SeatView, names: Sequence[str], seat: int | None) -> list[str]:
        notes = []
        if view.named_suit is not None and view.bidder is not None:
            again = bool(view.bids) and all(b < 0 for b in view.bids)
            notes.append(_named_note(suit_title(view.named_suit), view.bidder == seat,
                                     names[view.bidder], again))
        elif view.phase is Phase.BID:
            high = high_bid(view.bids)
            notes.append(_("Bidding for the suit to avoid: the highest bid so far is "
                           "%(chips)s.", chips=chips_words(high)) if high else
                         _("Bidding for the suit to avoid: no bids yet."))
        elif view.phase is Phase.NAME_SUIT and view.bidder is not None:
            notes.append(_("You name the suit to avoid.") if view.bidder == seat
                         else _("Waiting for %(name)s to name the suit to avoid.",
                                name=names[view.bidder]))
        notes.append(_("The pot holds %(chips)s.", chips=chips_words(view.pot)))
        return notes

    def broken_text(self, view: SeatView) -> str:
        """The named suit takes the place of hearts (nothing before it is named)."""
        if view.named_suit is None:
            return ""
        suit = suit_plural(view.named_suit)
        suit = suit[:1].upper() + suit[1:]
        return (_("%(suit)s, the suit to avoid, are broken.", suit=suit) if view.hearts_broken
                else _("%(suit)s, the suit to avoid, are not broken yet.", suit=suit))

    def bids_so_far(self, view: SeatView, names: Sequence[str]) -> list[str]:
        return [f"{row.name} {row.words}" for row in bid_rows(view, names, None)
                if row.bid is not None]

    def question(self, view: SeatView, names: Sequence[str], seat: int) -> dict[str, Any]:
        if view.phase is Phase.BID:
            high = high_bid(view.bids)
            dealer_words = (_("If everyone passes, you (the dealer) name the suit for nothing.")
                            if view.dealer == seat else
                            _("If everyone passes, %(name)s (the dealer) names the suit for "
                              "nothing.", name=names[view.dealer]))
            return {"minimum": high + 1, "bid_rule": bid_rule(high),
                    "bids": bid_rows(view, names, seat), "dealer_words": dealer_words,
                    "preheader": _("Your bid: %(rule)s", rule=bid_rule(high))}
        if view.phase is Phase.NAME_SUIT:
            situation = name_suit_situation(view, names)
            return {"situation": situation,
                    "preheader": _("Name the suit to avoid. %(situation)s",
                                   situation=situation)}
        return {}

    def page_context(self, state: GameState, view: SeatView, names: Sequence[str],
                     seat: int | None) -> dict[str, Any]:
        high = high_bid(state.bids)
        bidding = state.phase in AUCTION_PHASES and any(b >= 0 for b in state.bids)
        naming = state.phase is Phase.NAME_SUIT and seat is not None and seat == state.bidder
        avoid = view.named_suit
        instead = avoid is not None and avoid is not Suit.HEARTS
        return {"bids": bid_rows(view, names, seat) if bidding else [],
                "avoid_note": _("The %(suit)s score instead of the hearts: hearts count nothing "
                                "this hand.", suit=suit_plural(avoid))
                if avoid is not None and instead else "",
                "min_bid": high + 1, "bid_rule": bid_rule(high),
                "naming": name_suit_situation(view, names) if naming else ""}

    # --- the end of a hand -------------------------------------------------------------

    def hand_notes(self, before: GameState, after: GameState, last: Event,
                   names: Sequence[str], seat: int | None) -> list[str]:
        """The suit avoided and what became of the pot."""
        suit = before.named_suit
        if suit is None:
            return []
        counts = after.sheet[-1].points  # a point per card of the named suit taken
        shares = {s: after.chips[s] - before.chips[s] + counts[s] for s in range(after.seats)}
        takers = [s for s, share in shares.items() if share > 0]
        title, plural = suit_title(suit), suit_plural(suit)
        notes = [_("%(suit)s were the suit to avoid, named by you.", suit=title)
                 if before.bidder == seat else
                 _("%(suit)s were the suit to avoid, named by %(name)s.", suit=title,
                   name=names[before.bidder] if before.bidder is not None else "")]
        if len(takers) == 1:
            won = chips_words(shares[takers[0]])
            notes.append(_("You took no %(suit)s and take the pot: %(chips)s.", suit=plural,
                           chips=won) if takers[0] == seat else
                         _("%(name)s took no %(suit)s and takes the pot: %(chips)s.",
                           name=names[takers[0]], suit=plural, chips=won))
        elif takers:
            who_took = list_words([_("you") if s == seat else names[s] for s in takers])
            who_took = who_took[:1].upper() + who_took[1:]
            notes.append(_("%(names)s took no %(suit)s and split the pot: %(chips)s each.",
                           names=who_took, suit=plural, chips=chips_words(shares[takers[0]])))
        else:
            clean = [s for s in range(after.seats) if not counts[s]]
            notes.append(_("Nobody wins the pot (one player took every card of it).")
                         if max(counts) == sum(counts) else
                         _("Nobody wins the pot (everyone took some).") if not clean else
                         _("Nobody wins the pot (more than two players took none)."))
        if after.pot and not after.game_over:
            notes.append(_pot_left(before, after, names, seat, bool(takers)))
        return notes


def _pot_left(before: GameState, after: GameState, names: Sequence[str], seat: int | None,
              taken: bool) -> str:
    if taken:
        return ngettext("%(num)d chip stays in the pot for the next deal, which is bid for "
                        "afresh.", "%(num)d chips stay in the pot for the next deal, which is "
                        "bid for afresh.", after.pot)
    if before.bidder == seat:
        return _("The pot carries over (%(chips)s): next deal you name the suit again without "
                 "bidding.", chips=chips_words(after.pot))
    return _("The pot carries over (%(chips)s): next deal %(name)s names the suit again "
             "without bidding.", chips=chips_words(after.pot),
             name=names[before.bidder] if before.bidder is not None else "")


def bid_rule(high: int) -> str:
    """What a legal bid is now."""
    if not high:
        return _("Bid 1 chip or more, or pass.")
    return _("Bid more than %(chips)s (the highest bid so far), or pass.",
             chips=chips_words(high))


def bid_rows(view: SeatView, names: Sequence[str], seat: int | None) -> list[BidRow]:
    """The bids so far, in bidding order (from the dealer's left)."""
    rows = []
    for k in range(1, view.seats + 1):
        s = (view.dealer + k) % view.seats
        bid = view.bids[s] if view.bids else -1
        words = (_("passed") if bid == 0 else chips_words(bid) if bid > 0
                 else _("to bid now") if s in view.to_move else _("not yet"))
        rows.append(BidRow(names[s], s == seat, words, bid if bid >= 0 else None))
    return rows


def name_suit_situation(view: SeatView, names: Sequence[str]) -> str:
    """Why this player names the suit: they won the bidding, all passed, or the pot carried."""
    if all(b < 0 for b in view.bids):
        return _("Nobody won the pot last hand, so it carries over (%(chips)s) and you, who "
                 "bought the right to name the suit, name it again without bidding. You may "
                 "name the same suit or another.", chips=chips_words(view.pot))
    high = high_bid(view.bids)
    if not high:
        return _("Everyone passed, so you, the dealer, name the suit for nothing (the pot holds "
                 "%(chips)s).", chips=chips_words(view.pot))
    return _("You won the bidding with %(bid)s: they go into the pot, which now holds "
             "%(chips)s.", bid=chips_words(high), chips=chips_words(view.pot))


def _named_note(suit: str, you: bool, name: str, again: bool) -> str:
    """The suit to avoid this hand, who named it, and whether again without bidding."""
    if you and again:
        return _("%(suit)s are the suit to avoid this hand, named by you again without bidding, "
                 "as the pot carried over: each card of it taken is a point and a chip into the "
                 "pot.", suit=suit)
    if you:
        return _("%(suit)s are the suit to avoid this hand, named by you: each card of it taken "
                 "is a point and a chip into the pot.", suit=suit)
    if again:
        return _("%(suit)s are the suit to avoid this hand, named by %(name)s again without "
                 "bidding, as the pot carried over: each card of it taken is a point and a chip "
                 "into the pot.", suit=suit, name=name)
    return _("%(suit)s are the suit to avoid this hand, named by %(name)s: each card of it "
             "taken is a point and a chip into the pot.", suit=suit, name=name)
