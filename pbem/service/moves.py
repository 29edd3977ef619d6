"""Game moves: pass, play, claim, moon choice; bid and name the suit (Auction Hearts).
Each is one transaction and safe to repeat.

`turn_seq` (optional) is the seq the player's token or page was issued at: with it, a command
already carried out since then is answered "already done" instead of an error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.engine import (
    Bid,
    BidMade,
    Card,
    CardPlayed,
    CardsPassed,
    ChooseMoon,
    Claim,
    ClaimAccepted,
    Event,
    MoonChosen,
    NameSuit,
    PassCards,
    Phase,
    PlayCard,
    Suit,
    SuitNamed,
    UnreadableInput,
    parse_card,
    parse_cards,
    parse_suit,
)
from pbem.service.core import (
    Context,
    Duplicate,
    Loaded,
    Outcome,
    decide_or_reject,
    events_since,
    run,
)
from pbem.service.errors import CommandRejected, NotAllowed


def play_card(
    ctx: Context, game_id: int, seat_no: int, card: Card | str, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    chosen = _card(card)

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        check_seat(g, seat_no, player_id)
        name = str(chosen)  # with two decks "QS" is either copy
        played = {str(c) for c in _played_this_hand(g, seat_no)}
        if (name in played and not _holds_a_copy(g, seat_no, chosen)) or _seen(
            g, turn_seq, lambda e: isinstance(e, CardPlayed) and e.seat == seat_no
            and str(e.card) == name
        ):
            return Duplicate(f"You already played the {chosen}.")
        return decide_or_reject(g, PlayCard(seat_no, chosen))

    return run(ctx, game_id, step, actor=seat_no)


def pass_cards(
    ctx: Context, game_id: int, seat_no: int, cards: Sequence[Card] | str, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    chosen = _cards(cards)

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        check_seat(g, seat_no, player_id)
        same = set(chosen)
        if (g.state.has_passed(seat_no) and set(g.state.passed_cards(seat_no)) == same) or _seen(
            g, turn_seq, lambda e: isinstance(e, CardsPassed) and e.seat == seat_no
            and set(e.cards) == same
        ):
            return Duplicate("You already passed those cards.")
        return decide_or_reject(g, PassCards(seat_no, chosen))

    return run(ctx, game_id, step, actor=seat_no)


def claim(
    ctx: Context, game_id: int, seat_no: int, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        check_seat(g, seat_no, player_id)
        if g.state.claimed_by == seat_no or _seen(
            g, turn_seq, lambda e: e == ClaimAccepted(seat_no)
        ):
            return Duplicate("Your claim was already accepted.")
        return decide_or_reject(g, Claim(seat_no))

    return run(ctx, game_id, step, actor=seat_no)


def choose_moon(
    ctx: Context, game_id: int, seat_no: int, down: bool, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        check_seat(g, seat_no, player_id)
        if _seen(g, turn_seq, lambda e: e == MoonChosen(seat_no, down)):
            return Duplicate("Your moon choice was already recorded.")
        return decide_or_reject(g, ChooseMoon(seat_no, down))

    return run(ctx, game_id, step, actor=seat_no)


def bid(
    ctx: Context, game_id: int, seat_no: int, chips: int | None, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    """Auction Hearts: bid `chips` for the right to name the suit to avoid, or pass (None)."""
    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        check_seat(g, seat_no, player_id)
        if _bid_made(g, seat_no, chips) or _seen(
            g, turn_seq, lambda e: e == BidMade(seat_no, chips)
        ):
            return Duplicate("You already passed." if chips is None
                             else f"Your bid of {chips} was already recorded.")
        return decide_or_reject(g, Bid(seat_no, chips))

    return run(ctx, game_id, step, actor=seat_no)


def name_suit(
    ctx: Context, game_id: int, seat_no: int, suit: Suit | str, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    """Auction Hearts: the winning bidder names the suit everyone must avoid this hand."""
    chosen = _suit(suit)

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        check_seat(g, seat_no, player_id)
        named = g.state.phase is not Phase.NAME_SUIT and g.state.bidder == seat_no \
            and g.state.avoid == chosen
        if named or _seen(g, turn_seq, lambda e: e == SuitNamed(seat_no, chosen)):
            return Duplicate(f"You already named {chosen.plural} as the suit to avoid.")
        return decide_or_reject(g, NameSuit(seat_no, chosen))

    return run(ctx, game_id, step, actor=seat_no)


# --- helpers ------------------------------------------------------------------------------

def check_seat(g: Loaded, seat_no: int, player_id: int | None) -> None:
    """The seat exists, and (when the caller knows who is asking) belongs to that player."""
    seat = g.seat(seat_no)
    if player_id is not None and (seat.player_id != player_id or seat.is_bot):
        raise NotAllowed("That seat isn't yours in this game.")


def _card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    try:
        return parse_card(card)
    except UnreadableInput as exc:
        raise CommandRejected(exc) from exc


def _cards(cards: Sequence[Card] | str) -> tuple[Card, ...]:
    if not isinstance(cards, str):
        return tuple(cards)
    try:
        return parse_cards(cards)
    except UnreadableInput as exc:
        raise CommandRejected(exc) from exc


def _suit(suit: Suit | str) -> Suit:
    if isinstance(suit, Suit):
        return suit
    try:
        return parse_suit(suit)
    except UnreadableInput as exc:
        raise CommandRejected(exc) from exc


def _bid_made(g: Loaded, seat_no: int, chips: int | None) -> bool:
    """Has this seat already made this very bid in the current hand's auction?"""
    state = g.state
    if state.phase not in (Phase.BID, Phase.NAME_SUIT, Phase.PLAY) or not state.bids:
        return False
    return state.bids[seat_no] == (chips or 0)  # 0: passed


def _holds_a_copy(g: Loaded, seat_no: int, card: Card) -> bool:
    """With two decks (Cancellation) a card played may still be held: its twin is a new move."""
    return bool(g.state.hands[seat_no] & (card.bit | card.twin.bit))


def _played_this_hand(g: Loaded, seat_no: int) -> set[Card]:
    tricks = (*g.state.tricks, g.state.current_trick)
    return {card for trick in tricks for seat, card in trick.plays if seat == seat_no}


def _seen(g: Loaded, turn_seq: int | None, match: Callable[[Event], bool]) -> bool:
    """Did a matching event happen after `turn_seq`?"""
    if turn_seq is None or turn_seq >= g.loaded.seq:
        return False
    return any(match(e) for e in events_since(g, turn_seq))
