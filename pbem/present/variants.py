"""The whole variants in an email's words: Auction Hearts' bids, suit to avoid, pot and chips
(with the link codes of its choices), Domino Hearts' stock, draws and players out, Cancellation
Hearts' tricks nobody won and its widow.

Pure: engine values in, sentences and small values out (pbem.present.views builds on these).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.engine import (
    Card,
    CardPlayed,
    GameState,
    Phase,
    Rules,
    SeatView,
    Suit,
    Trick,
    Variant,
    list_in_words,
)

# --- link codes ----------------------------------------------------------------------------

# Auction Hearts links are "card" tokens too, their `card` a choice code of at most 8 characters:
# "bid:5" (bid 5 chips), "bid:pass" (pass), "suit:S" (name spades as the suit to avoid).
BID_PASS = "bid:pass"
MAX_LINK_BID = 9999  # a bid link's chips fit the token's 8 characters
BID_LINKS = 5  # bid links in an email: the smallest legal bid and the next few


def bid_code(chips: int | None) -> str:
    """The link code of a bid (None: pass)."""
    if chips is None:
        return BID_PASS
    if not 0 < chips <= MAX_LINK_BID:
        raise ValueError(f"no link for a bid of {chips}")
    return f"bid:{chips}"


def suit_code(suit: Suit) -> str:
    """The link code for naming `suit` as the suit to avoid."""
    return f"suit:{suit.letter}"


def read_choice(code: str | None) -> tuple[str, int | Suit | None] | None:
    """A link code read back: ("bid", chips or None for a pass), ("suit", Suit), or None when
    the code is no Auction choice (a card or a moon choice)."""
    kind, _, value = (code or "").partition(":")
    if kind == "bid" and value == "pass":
        return "bid", None
    if kind == "bid" and value.isdigit() and 0 < int(value) <= MAX_LINK_BID:
        return "bid", int(value)
    if kind == "suit" and len(value) == 1 and value in "CDHS":
        return "suit", Suit("CDHS".index(value))
    return None


def bid_codes(high: int) -> list[str]:
    """The codes an Auction bid email links: pass, then the smallest legal bids."""
    top = min(high + BID_LINKS, MAX_LINK_BID)
    return [BID_PASS, *(bid_code(chips) for chips in range(high + 1, top + 1))]


SUIT_CODES = [suit_code(suit) for suit in Suit]


@dataclass(frozen=True)
class Choice:
    """One Auction choice as an email offers it: a one-time link and the words to reply."""

    code: str              # the link code: "bid:5", "bid:pass", "suit:S"
    label: str             # "Bid 5 chips", "Pass", "♠ Spades"
    reply: str             # what to reply instead: "bid 5", "pass", "avoid spades"
    url: str | None = None
    red: bool = False


def choice(code: str, url: str | None = None) -> Choice:
    read = read_choice(code)
    if read is None:
        raise ValueError(f"{code!r} is no Auction choice")
    kind, value = read
    if isinstance(value, Suit):
        return Choice(code, suit_title(value), f"avoid {value.plural}", url, value.is_red)
    if value is None:
        return Choice(code, "Pass", "pass", url)
    return Choice(code, f"Bid {chips_words(int(value))}", f"bid {value}", url)


# --- words ---------------------------------------------------------------------------------

def chips_words(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def cards_count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def suit_title(suit: Suit) -> str:
    """`♠ Spades`."""
    return f"{suit.symbol} {suit.plural.capitalize()}"


def card_words(cards: Sequence[Card], codes: bool = True) -> str:
    """`7♣ (7C) and 2♣ (2C)`; without `codes`, `7♣ and 2♣`."""
    return list_in_words([f"{c.symbol} ({c})" if codes else c.symbol for c in cards])


def _who(seat: int, you: int | None, names: Sequence[str]) -> str:
    return "you" if seat == you else names[seat]


def rules_by_email(rules: Rules) -> list[str]:
    """What a variant asks of a player by email, after the rules themselves."""
    if rules.variant is Variant.AUCTION:
        return ["By email: when it's your turn to bid, reply “bid 5” (any number of chips) or "
                "“pass”; if you win the bidding, reply “avoid spades” (or clubs, diamonds, "
                "hearts). Each email also has a link for each choice."]
    if rules.variant is Variant.DOMINO:
        return ["By email: when you can't follow suit, the cards are drawn from the stock for "
                "you, and your next email names them (the others only learn how many)."]
    if rules.variant is Variant.CANCELLATION:
        return ["By email: a card you hold twice shows as “Q♠ (QS) ×2”; replying QS, or its "
                "link, plays one of them."]
    return []


# --- the table now -------------------------------------------------------------------------

def table_notes(view: SeatView, names: Sequence[str], seat: int | None,
                rules: Rules | None) -> list[str]:
    """What a variant adds to the table an email shows (empty for a standard game)."""
    if view.chips:
        return auction_notes(view, names, seat)
    variant = rules.variant if rules else Variant.STANDARD
    if variant is Variant.DOMINO:
        return domino_notes(view, names, seat)
    if variant is Variant.CANCELLATION and rules is not None:
        return cancellation_notes(view, rules)
    return []


def broken_text(view: SeatView) -> str:
    """`Hearts are broken.`; in Auction Hearts the named suit takes their place."""
    state = "broken" if view.hearts_broken else "not broken yet"
    if view.named_suit is not None:
        return f"{view.named_suit.plural.capitalize()}, the suit to avoid, are {state}."
    if view.chips:
        return ""  # no suit named yet
    return f"Hearts are {state}."


def high_bid(bids: Sequence[int]) -> int:
    return max([0, *bids])


def auction_notes(view: SeatView, names: Sequence[str], seat: int | None) -> list[str]:
    notes = []
    if view.named_suit is not None and view.bidder is not None:
        again = (" again without bidding, as the pot carried over"
                 if view.bids and all(b < 0 for b in view.bids) else "")
        notes.append(f"{suit_title(view.named_suit)} are the suit to avoid this hand, named by "
                     f"{_who(view.bidder, seat, names)}{again}: each card of it taken is a "
                     "point and a chip into the pot.")
    elif view.phase is Phase.BID:
        high = high_bid(view.bids)
        notes.append("Bidding for the suit to avoid: " + (
            f"the highest bid so far is {chips_words(high)}." if high else "no bids yet."))
    elif view.phase is Phase.NAME_SUIT and view.bidder is not None:
        notes.append("You name the suit to avoid." if view.bidder == seat
                     else f"Waiting for {names[view.bidder]} to name the suit to avoid.")
    notes.append(f"The pot holds {chips_words(view.pot)}.")
    return notes


def domino_notes(view: SeatView, names: Sequence[str], seat: int | None) -> list[str]:
    if view.phase not in (Phase.PLAY, Phase.DRAW):
        return []
    notes = [f"The stock has {cards_count(view.stock_size)}." if view.stock_size
             else "The stock is empty: if you can't follow suit, you may play any card."]
    sizes = [f"{_who(s, seat, names)} {n}" if n else f"{_who(s, seat, names)} out"
             for s, n in enumerate(view.hand_sizes)]
    notes.append(f"Cards in hand: {', '.join(sizes)}.")
    out = [s for s in range(view.seats) if not view.hand_sizes[s]]
    if out:
        notes.append("Out of this hand (no cards left): "
                     f"{list_in_words([_who(s, seat, names) for s in out])}.")
    return notes


def cancellation_notes(view: SeatView, rules: Rules) -> list[str]:
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


def draw_notes(draws: Sequence[tuple[int, tuple[Card, ...]]], names: Sequence[str],
               seat: int | None) -> list[str]:
    """Domino draws: the drawer learns the cards, everyone else only how many."""
    return [f"You drew {card_words(cards)} from the stock." if who == seat
            else f"{names[who]} drew {cards_count(len(cards))} from the stock."
            for who, cards in draws]


# --- Auction Hearts: the bidding and the named suit ----------------------------------------

@dataclass(frozen=True)
class BidRow:
    name: str
    is_you: bool
    words: str  # "3 chips", "passed", "to bid now", "not yet"


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


def auction_hand_notes(before: GameState, after: GameState, names: Sequence[str],
                       seat: int | None) -> list[str]:
    """The end of an Auction hand: the suit avoided and what became of the pot."""
    suit = before.named_suit
    if suit is None:
        return []
    result = after.sheet[-1]
    counts = result.points  # a point per card of the named suit taken
    shares = {s: after.chips[s] - before.chips[s] + counts[s] for s in range(after.seats)}
    takers = [s for s, share in shares.items() if share > 0]
    notes = [f"{suit_title(suit)} were the suit to avoid, named by "
             f"{_who(before.bidder, seat, names)}."]
    if len(takers) == 1:
        notes.append(f"{_capital(_who(takers[0], seat, names))} took no {suit.plural} and "
                     f"{_verb(takers[0], seat)} the pot: "
                     f"{chips_words(shares[takers[0]])}.")
    elif takers:
        notes.append(f"{_capital(list_in_words([_who(s, seat, names) for s in takers]))} took "
                     f"no {suit.plural} and split the pot: "
                     f"{chips_words(shares[takers[0]])} each.")
    else:
        clean = [s for s in range(after.seats) if not counts[s]]
        why = ("one player took every card of it" if max(counts) == sum(counts)
               else "everyone took some" if not clean
               else "more than two players took none")
        notes.append(f"Nobody wins the pot ({why}).")
    if after.pot and not after.game_over:
        if takers:
            stay = "stays" if after.pot == 1 else "stay"
            notes.append(f"{_capital(chips_words(after.pot))} {stay} in the pot for the next "
                         "deal, which is bid for afresh.")
        else:
            notes.append(f"The pot carries over ({chips_words(after.pot)}): next deal "
                         f"{_who(before.bidder, seat, names)} "
                         f"{_verb(before.bidder, seat, 'name')} the suit again "
                         "without bidding.")
    return notes


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- Domino Hearts: the end of a hand ------------------------------------------------------

def domino_hand_notes(before: GameState, after: GameState, last: CardPlayed,
                      names: Sequence[str], seat: int | None) -> list[str]:
    """Who took the cards left when the hand ended: the last player in, or the last winner."""
    hands = list(before.hands)
    hands[last.seat] &= ~last.card.bit
    left = [s for s in range(before.seats) if hands[s]]
    stock = len(before.stock)
    and_stock = f" and the {cards_count(stock)} left in the stock" if stock else ""
    if len(left) == 1:
        taker = left[0]
        held = _cards_of_mask(hands[taker])
        verb = _verb(taker, seat)
        return [f"{_capital(_who(taker, seat, names))} {'were' if taker == seat else 'was'} "
                f"the last player left and {verb} the cards still in hand "
                f"({card_words(held, codes=False)}){and_stock}."]
    winner = after.tricks[-1].winner if after.tricks else None
    if stock and winner is not None:
        return [f"The last trick emptied every hand: {_who(winner, seat, names)} took it "
                f"{and_stock.strip()}."]
    return []


def _cards_of_mask(mask: int) -> list[Card]:
    return sorted(Card.from_index(i) for i in range(mask.bit_length()) if mask >> i & 1)


# --- Cancellation Hearts: the tricks of a hand ---------------------------------------------

def cancellation_trick_notes(tricks: Sequence[Trick], names: Sequence[str], seat: int | None,
                             widow: int, unwinnable_last: bool = False) -> list[tuple[str, ...]]:
    """Per completed trick: nobody won it (its cards wait), or its winner also took the cards
    waiting (and the widow, which goes with the first trick). `unwinnable_last`: the last
    trick went to its leader because nobody could win it."""
    out: list[tuple[str, ...]] = []
    waiting = widow  # the widow waits for the first trick's winner
    for n, trick in enumerate(tricks, start=1):
        with_widow = f" (the widow's {widow} included)" if widow \
            and all(t.winner is None for t in tricks[:n - 1]) else ""
        if trick.winner is None:
            waiting += len(trick.plays)
            out.append((f"Nobody won this trick (no card of the suit led stands uncancelled): "
                        f"its cards wait for the winner of the next trick, "
                        f"{cards_count(waiting)} in all{with_widow}.",))
            continue
        notes = []
        who, takes = _capital(_who(trick.winner, seat, names)), _verb(trick.winner, seat)
        if unwinnable_last and n == len(tricks):
            notes.append(f"Nobody could win this last trick, so it goes to its leader, "
                         f"{_who(trick.winner, seat, names)}.")
        if n == 1 and widow:
            notes.append(f"{who} also {takes} the widow ({cards_count(widow)}).")
        elif waiting:
            notes.append(f"{who} also {takes} the {cards_count(waiting)} waiting from tricks "
                         f"nobody won{with_widow}.")
        waiting = 0
        out.append(tuple(notes))
    return out


def _verb(seat: int, you: int | None, verb: str = "take") -> str:
    """`take` for you, `takes` for anyone else."""
    return verb if seat == you else f"{verb}s"
