"""Auction Hearts in words: the bids, the suit to avoid, the pot and the chips."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem.engine import Event, GameState, Phase, SeatView, Suit, list_in_words
from pbem.present.codes import high_bid
from pbem.present.presenters.base import FIXED_IN_VARIANTS, Command, Presenter
from pbem.present.words import capital, chips_words, suit_title, verb, who

AUCTION_PHASES = (Phase.BID, Phase.NAME_SUIT, Phase.PLAY)
_COMMANDS = [
    {"example": "bid 5", "meaning": "bid 5 chips for naming the suit to avoid (more than the "
                                    "highest bid so far)"},
    {"example": "pass", "meaning": "pass in the bidding (also “no bid”)"},
    {"example": "avoid spades", "meaning": "if you won the bidding: name the suit to avoid "
                                           "(“avoid ♠”, or just “spades”)"},
]


@dataclass(frozen=True)
class BidRow:
    name: str
    is_you: bool
    words: str  # "3 chips", "passed", "to bid now", "not yet"


class AuctionPresenter(Presenter):
    fixes_options = True
    cost_unit = "chips"  # a hand's real stake: the chips it costs
    hidden_options = FIXED_IN_VARIANTS | {
        "cancels", "moon", "queen_scores", "queen_breaks_hearts", "first_trick_fallback",
        "only_hearts_and_queen_lead", "settlement"}
    # The named suit takes the place of hearts.
    option_labels = {"hearts_must_be_broken": "The named suit can't be led until broken",
                     "points_on_first_trick": "The named suit may be played on the first trick"}
    help_notes = ("The named suit takes the place of hearts: each card of it taken is a point "
                  "and a chip into the pot.",)
    email_rules = ("By email: when it's your turn to bid, reply “bid 5” (any number of chips) "
                   "or “pass”; if you win the bidding, reply “avoid spades” (or clubs, "
                   "diamonds, hearts). Each email also has a link for each choice.",)

    hand_notes_open = True  # beside the bids: the pot they paid into

    def help_commands(self, commands: list[Command]) -> list[Command]:
        return [*commands[:1], *_COMMANDS, *commands[1:]]

    # --- the table now -----------------------------------------------------------------

    def table_notes(self, view: SeatView, names: Sequence[str], seat: int | None) -> list[str]:
        notes = []
        if view.named_suit is not None and view.bidder is not None:
            again = (" again without bidding, as the pot carried over"
                     if view.bids and all(b < 0 for b in view.bids) else "")
            notes.append(f"{suit_title(view.named_suit)} are the suit to avoid this hand, "
                         f"named by {who(view.bidder, seat, names)}{again}: each card of it "
                         "taken is a point and a chip into the pot.")
        elif view.phase is Phase.BID:
            high = high_bid(view.bids)
            notes.append("Bidding for the suit to avoid: " + (
                f"the highest bid so far is {chips_words(high)}." if high else "no bids yet."))
        elif view.phase is Phase.NAME_SUIT and view.bidder is not None:
            notes.append("You name the suit to avoid." if view.bidder == seat
                         else f"Waiting for {names[view.bidder]} to name the suit to avoid.")
        notes.append(f"The pot holds {chips_words(view.pot)}.")
        return notes

    def broken_text(self, view: SeatView) -> str:
        """The named suit takes the place of hearts (nothing before it is named)."""
        if view.named_suit is None:
            return ""
        state = "broken" if view.hearts_broken else "not broken yet"
        return f"{view.named_suit.plural.capitalize()}, the suit to avoid, are {state}."

    def bids_so_far(self, view: SeatView, names: Sequence[str]) -> list[str]:
        return [f"{row.name} {row.words}" for row in bid_rows(view, names, None)
                if row.words not in ("not yet", "to bid now")]

    def question(self, view: SeatView, names: Sequence[str], seat: int) -> dict[str, Any]:
        if view.phase is Phase.BID:
            high = high_bid(view.bids)
            dealer = who(view.dealer, seat, names)
            return {"minimum": high + 1, "bid_rule": bid_rule(high),
                    "bids": bid_rows(view, names, seat),
                    "dealer_words": f"If everyone passes, {dealer} (the dealer) "
                                    f"{verb(view.dealer, seat, 'name')} the suit for nothing.",
                    "preheader": f"Your bid: {bid_rule(high)}"}
        if view.phase is Phase.NAME_SUIT:
            situation = name_suit_situation(view, names)
            return {"situation": situation,
                    "preheader": f"Name the suit to avoid. {situation}"}
        return {}

    def page_context(self, state: GameState, view: SeatView, names: Sequence[str],
                     seat: int | None) -> dict[str, Any]:
        high = high_bid(state.bids)
        bidding = state.phase in AUCTION_PHASES and any(b >= 0 for b in state.bids)
        naming = state.phase is Phase.NAME_SUIT and seat is not None and seat == state.bidder
        avoid = view.named_suit
        instead = avoid is not None and avoid is not Suit.HEARTS
        return {"bids": bid_rows(view, names, seat) if bidding else [],
                "avoid_note": f"The {avoid.plural} score instead of the hearts: hearts count "
                              "nothing this hand." if avoid is not None and instead else "",
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
        notes = [f"{suit_title(suit)} were the suit to avoid, named by "
                 f"{who(before.bidder, seat, names)}."]
        if len(takers) == 1:
            notes.append(f"{capital(who(takers[0], seat, names))} took no {suit.plural} and "
                         f"{verb(takers[0], seat)} the pot: "
                         f"{chips_words(shares[takers[0]])}.")
        elif takers:
            notes.append(f"{capital(list_in_words([who(s, seat, names) for s in takers]))} "
                         f"took no {suit.plural} and split the pot: "
                         f"{chips_words(shares[takers[0]])} each.")
        else:
            clean = [s for s in range(after.seats) if not counts[s]]
            why = ("one player took every card of it" if max(counts) == sum(counts)
                   else "everyone took some" if not clean
                   else "more than two players took none")
            notes.append(f"Nobody wins the pot ({why}).")
        if after.pot and not after.game_over:
            notes.append(_pot_left(before, after, names, seat, bool(takers)))
        return notes


def _pot_left(before: GameState, after: GameState, names: Sequence[str], seat: int | None,
              taken: bool) -> str:
    if taken:
        stay = "stays" if after.pot == 1 else "stay"
        return (f"{capital(chips_words(after.pot))} {stay} in the pot for the next deal, "
                "which is bid for afresh.")
    return (f"The pot carries over ({chips_words(after.pot)}): next deal "
            f"{who(before.bidder, seat, names)} {verb(before.bidder, seat, 'name')} the suit "
            "again without bidding.")


def bid_rule(high: int) -> str:
    """What a legal bid is now."""
    if not high:
        return "Bid 1 chip or more, or pass."
    return f"Bid more than {chips_words(high)} (the highest bid so far), or pass."


def bid_rows(view: SeatView, names: Sequence[str], seat: int | None) -> list[BidRow]:
    """The bids so far, in bidding order (from the dealer's left)."""
    rows = []
    for k in range(1, view.seats + 1):
        s = (view.dealer + k) % view.seats
        bid = view.bids[s] if view.bids else -1
        words = ("passed" if bid == 0 else chips_words(bid) if bid > 0
                 else "to bid now" if s in view.to_move else "not yet")
        rows.append(BidRow(names[s], s == seat, words))
    return rows


def name_suit_situation(view: SeatView, names: Sequence[str]) -> str:
    """Why this player names the suit: they won the bidding, all passed, or the pot carried."""
    if all(b < 0 for b in view.bids):
        return (f"Nobody won the pot last hand, so it carries over ({chips_words(view.pot)}) "
                "and you, who bought the right to name the suit, name it again without "
                "bidding. You may name the same suit or another.")
    high = high_bid(view.bids)
    if not high:
        return ("Everyone passed, so you, the dealer, name the suit for nothing "
                f"(the pot holds {chips_words(view.pot)}).")
    return (f"You won the bidding with {chips_words(high)}: they go into the pot, which now "
            f"holds {chips_words(view.pot)}.")
