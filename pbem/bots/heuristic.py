"""A heuristic Hearts bot: pass danger away, duck under the winner, dump points when void.

It decides from what its seat can see alone: `choose_event`, `choose_play` and `choose_pass`
first rebuild the game from the seat's view (`pbem.bots.worlds.public_state`: the view's facts
and one fixed deal of the unseen cards), so two games that look the same from the seat get the
same move, whatever the other hands, the kitty, the widow or the stock hold; and the rules of
thumb below count only cards the seat has seen (a kitty that goes with the first trick is
counted as possibly holding points). It only ever chooses among the engine's legal cards, so
it follows every rule option. In the
whole variants it bids for (and names) the suit its hand is safest against (Auction Hearts),
treats the named suit as the one to avoid, cancels a winning card with its twin (Cancellation
Hearts) and counts only the players still in (Domino Hearts). Domino's draw is forced: never
the bot's move."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.bots.worlds import public_state, seen_by
from pbem.engine import (
    BidMade,
    Cancels,
    Card,
    CardPlayed,
    CardsPassed,
    Event,
    GameState,
    KittyTo,
    MoonChosen,
    Phase,
    Rules,
    Suit,
    SuitNamed,
    Variant,
    WrongPhase,
    deck_cards,
    legal_cards,
)

Plays = tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True)
class Scoring:
    """Which cards cost points: the penalty suit (hearts, or Auction's named suit) and whether
    the queen of spades counts (either copy of it in Cancellation Hearts)."""

    suit: Suit = Suit.HEARTS
    queen: bool = True

    def is_queen(self, card: Card) -> bool:
        return self.queen and card.suit is Suit.SPADES and card.rank == 12

    def is_point(self, card: Card) -> bool:
        return card.suit is self.suit or self.is_queen(card)


HEARTS_AND_QUEEN = Scoring()


def scoring_of(state: GameState) -> Scoring:
    named = state.named_suit
    return Scoring(Suit.HEARTS if named is None else named, state.rules.queen_scores)


def as_seen(state: GameState, seat: int) -> GameState:
    """The game rebuilt from `seat`'s view alone (see the module's note)."""
    return public_state(seen_by(state, seat))


def choose_event(state: GameState, seat: int) -> Event:
    """The bot's move for `seat` in whatever phase the game is in."""
    if state.phase is Phase.PASS:
        return CardsPassed(seat, _pass(as_seen(state, seat), seat))
    if seat in state.to_move:
        state = as_seen(state, seat)
        if state.phase is Phase.PLAY:
            return CardPlayed(seat, _play(state, seat))
        if state.phase is Phase.MOON_CHOICE:
            return MoonChosen(seat, _moon_down_is_better(state, seat))
        if state.phase is Phase.BID:
            return BidMade(seat, choose_bid(state, seat))
        if state.phase is Phase.NAME_SUIT:
            return SuitNamed(seat, choose_suit(state.hand(seat)))
    raise WrongPhase("not_this_seats_move")


# --- Auction Hearts: the bid and the suit to avoid -------------------------------------------

SAFE_SUIT_WORTH = 3  # chips a suit without a card above the eight is worth to the bot


def suit_danger(hand: tuple[Card, ...], suit: Suit) -> int:
    """How likely the hand is to take cards of `suit` were it the suit to avoid: its cards of
    that suit above the eight win tricks of it (a nine 1, ..., an ace 6); low ones duck."""
    return sum(c.rank - 8 for c in hand if c.suit is suit and c.rank > 8)


def choose_suit(hand: tuple[Card, ...]) -> Suit:
    """The suit to name: the least dangerous, then the one the hand holds fewest of."""
    return min(Suit, key=lambda s: (suit_danger(hand, s), sum(c.suit is s for c in hand)))


def choose_bid(state: GameState, seat: int) -> int | None:
    """Bid one chip over the high bid while the hand's safest suit is worth it, else pass."""
    hand = state.hand(seat)
    worth = SAFE_SUIT_WORTH - suit_danger(hand, choose_suit(hand))
    bid = max(0, *state.bids) + 1
    return bid if bid <= worth else None


# --- passing -----------------------------------------------------------------------------

def choose_pass(state: GameState, seat: int) -> tuple[Card, ...]:
    return _pass(as_seen(state, seat), seat)


def _pass(state: GameState, seat: int) -> tuple[Card, ...]:
    hand = state.hand(seat)
    scoring = scoring_of(state)
    ranked = sorted(hand, key=lambda c: _pass_danger(c, hand, scoring), reverse=True)
    return tuple(sorted(ranked[: state.rules.pass_count]))


def _pass_danger(card: Card, hand: tuple[Card, ...], scoring: Scoring) -> float:
    length = sum(1 for c in hand if c.suit is card.suit)
    holds_queen = any(scoring.is_queen(c) for c in hand)
    low_spades = sum(1 for c in hand if c.suit is Suit.SPADES and c.rank < 12)
    if scoring.is_queen(card):
        return 100.0 if low_spades < 4 else 0.0
    if scoring.queen and card.suit is Suit.SPADES and card.rank > 12:
        return 90.0 if (holds_queen or low_spades < 4) else 5.0
    if card.suit is scoring.suit:
        return 30.0 + card.rank * 2
    shortness = 6.0 if length <= 3 else 0.0  # helps make a void
    return card.rank * 2 + shortness


# --- playing -----------------------------------------------------------------------------

def choose_play(state: GameState, seat: int) -> Card:
    return _play(as_seen(state, seat), seat)


def _play(state: GameState, seat: int) -> Card:
    legal = legal_cards(state, seat)
    if len(legal) == 1:
        return legal[0]
    scoring = scoring_of(state)
    plays = state.current_trick.plays
    moon = _moon_plan(state, seat, scoring)
    if moon == "shoot":
        return _play_to_win(legal, plays, scoring)
    if isinstance(moon, int):
        chosen = _stop_the_moon(legal, plays, threat=moon, scoring=scoring)
        if chosen is not None:
            return chosen
    if not plays:
        return _lead(state, seat, legal, scoring)
    if legal[0].suit is plays[0][1].suit:
        return _follow(state, legal, plays, scoring)
    return _discard(state, seat, legal, scoring)


# --- the trick: who is winning it, who is still to play ----------------------------------------

def _cancel_key(state: GameState, card: Card) -> tuple[int, int]:
    """Cards with the same key cancel each other (Cancellation Hearts)."""
    same_rank = state.rules.cancels is Cancels.SAME_RANK
    return (card.rank, -1 if same_rank else int(card.suit))


def _cancelled(state: GameState, cards: tuple[Card, ...]) -> set[Card]:
    if state.rules.variant is not Variant.CANCELLATION:
        return set()
    keys = [_cancel_key(state, c) for c in cards]
    return {c for c, key in zip(cards, keys, strict=True) if keys.count(key) > 1}


def _is_cancelled_by(state: GameState, plays: Plays, card: Card) -> bool:
    """Would `card` be cancelled by a card already in the trick (and so never win it)?"""
    return state.rules.variant is Variant.CANCELLATION and any(
        _cancel_key(state, c) == _cancel_key(state, card) for _, c in plays)


def _winning_rank(state: GameState, plays: Plays) -> int:
    """The rank of the card winning the trick so far; 0 when every card of the suit led is
    cancelled (any card of it not cancelled would win)."""
    led = plays[0][1].suit
    cards = tuple(c for _, c in plays)
    gone = _cancelled(state, cards)
    return max((c.rank for c in cards if c.suit is led and c not in gone), default=0)


def _is_last_to_play(state: GameState, plays: Plays) -> bool:
    """Nobody plays after this seat: every other player still in (Domino: holding cards) has
    played to the trick."""
    played = {s for s, _ in plays}
    return sum(1 for s in range(state.seats) if state.hands[s] and s not in played) == 1


def _points_at_stake(state: GameState, plays: Plays, scoring: Scoring) -> bool:
    """Could the trick's winner take points besides the cards still to come: in the cards
    played, the cards carried from tricks nobody won, or an unseen kitty or widow that goes
    with the first trick (counted as holding points: the seat cannot know)?"""
    if any(scoring.is_point(c) for c in (*(c for _, c in plays), *state.carried_cards)):
        return True
    return not state.tricks and state.rules.kitty_to is KittyTo.FIRST_TRICK and state.kitty != 0


# --- the moon: shoot it when it is sure enough, stop anyone else's ---------------------------

def _penalty_taken(state: GameState, scoring: Scoring) -> list[int]:
    """Per seat, the penalty cards seen going to it in this hand's tricks (with the cards of
    tricks nobody won that went to the next winner)."""
    taken = [0] * state.seats
    carried = 0
    for trick in state.tricks:
        points = carried + sum(1 for c in trick.cards if scoring.is_point(c))
        if trick.winner is None:
            carried = points
            continue
        taken[trick.winner] += points
        carried = 0
    return taken


def _moon_plan(state: GameState, seat: int, scoring: Scoring) -> str | int | None:
    """"shoot" when this seat holds every point so far and its penalty cards are on top; the
    seat of an opponent who is on the way to the moon; None otherwise."""
    if state.rules.moon.value == "none":
        return None
    taken = _penalty_taken(state, scoring)
    takers = [s for s, n in enumerate(taken) if n]
    if takers != [seat] and len(takers) == 1 and taken[takers[0]] >= 5:
        return takers[0]
    if takers == [seat] and taken[seat] >= 8 and _penalty_suit_on_top(state, seat, scoring):
        return "shoot"
    return None


def _seen_cards(state: GameState) -> set[Card]:
    return {c for t in state.tricks for c in t.cards} | set(state.current_trick.cards)


def _penalty_suit_on_top(state: GameState, seat: int, scoring: Scoring) -> bool:
    hand = state.hand(seat)
    mine = [c.rank for c in hand if c.suit is scoring.suit]
    seen = _seen_cards(state)
    out = [c.rank for c in deck_cards(state.rules)
           if c.suit is scoring.suit and c not in seen and c not in hand]
    return not out or (bool(mine) and min(mine) > max(out))


def _play_to_win(legal: tuple[Card, ...], plays: Plays, scoring: Scoring) -> Card:
    if not plays:
        return max(legal, key=lambda c: c.rank)
    led = plays[0][1].suit
    if legal[0].suit is led:
        winning = max(c.rank for _, c in plays if c.suit is led)
        above = [c for c in legal if c.rank > winning]
        return max(above, key=lambda c: c.rank) if above else min(legal, key=lambda c: c.rank)
    clean = [c for c in legal if not scoring.is_point(c)]
    return min(clean or legal, key=lambda c: c.rank)


def _stop_the_moon(legal: tuple[Card, ...], plays: Plays, threat: int,
                   scoring: Scoring = HEARTS_AND_QUEEN) -> Card | None:
    """Take a point away from the shooter: win a trick holding points, or hand points to a
    player who is not the shooter."""
    if not plays:
        penalty = [c for c in legal if c.suit is scoring.suit]
        return max(penalty, key=lambda c: c.rank) if penalty else None
    led = plays[0][1].suit
    winner = max((p for p in plays if p[1].suit is led), key=lambda p: p[1].rank)
    if legal[0].suit is led:
        above = [c for c in legal if c.rank > winner[1].rank]
        return max(above, key=lambda c: c.rank) if above and winner[0] == threat else None
    points = [c for c in legal if scoring.is_point(c)]
    if winner[0] != threat and points:
        return max(points, key=lambda c: (scoring.is_queen(c), c.rank))
    clean = [c for c in legal if c not in points]
    return max(clean, key=lambda c: c.rank) if clean else None


# --- leading, following, discarding -------------------------------------------------------------

def _lead(state: GameState, seat: int, legal: tuple[Card, ...], scoring: Scoring) -> Card:
    queen_out = _queens_out(state, seat, scoring)

    def lead_cost(card: Card) -> float:
        cost = float(card.rank)
        if card.suit is scoring.suit:
            cost += 6
        if card.suit is Suit.SPADES and card.rank > 12 and queen_out:
            cost += 40
        if scoring.is_queen(card):
            cost += 50
        return cost

    return min(legal, key=lead_cost)


def _follow(state: GameState, legal: tuple[Card, ...], plays: Plays, scoring: Scoring) -> Card:
    led = plays[0][1].suit
    winning = _winning_rank(state, plays)
    queens = [c for c in legal if scoring.is_queen(c)]
    if queens and led is Suit.SPADES and winning > 12:
        return queens[0]
    cannot_win = [c for c in legal if (c.rank < winning or _is_cancelled_by(state, plays, c))
                  and not scoring.is_queen(c)]
    if cannot_win:
        return max(cannot_win, key=lambda c: c.rank)
    points_at_stake = _points_at_stake(state, plays, scoring)
    safe = [c for c in legal if not scoring.is_queen(c)]
    if _is_last_to_play(state, plays) and not points_at_stake and safe:
        return max(safe, key=lambda c: c.rank)
    return min(safe or legal, key=lambda c: c.rank)


def _discard(state: GameState, seat: int, legal: tuple[Card, ...], scoring: Scoring) -> Card:
    queens = [c for c in legal if scoring.is_queen(c)]
    if queens:
        return queens[0]
    queen_out = _queens_out(state, seat, scoring)

    def danger(card: Card) -> float:
        if card.suit is Suit.SPADES and card.rank > 12 and queen_out:
            return 60.0 + card.rank
        if card.suit is scoring.suit:
            return 40.0 + card.rank
        return float(card.rank)

    return max(legal, key=danger)


def _queens_out(state: GameState, seat: int, scoring: Scoring) -> bool:
    """Is a scoring queen of spades still in someone else's hand (or the stock)?"""
    hand, seen = state.hand(seat), _seen_cards(state)
    return any(scoring.is_queen(c) and c not in hand and c not in seen
               for c in deck_cards(state.rules))


def _moon_down_is_better(state: GameState, seat: int) -> bool:
    return moon_down_is_better(state.rules, state.totals, seat)


def moon_down_is_better(rules: Rules, totals: Sequence[int], seat: int) -> bool:
    """Go down 26 unless putting the others up ends the game with this seat winning."""
    value = rules.moon_points
    up = [t + (0 if s == seat else value) for s, t in enumerate(totals)]
    wins_by_going_up = max(up) >= rules.target and sorted(up)[:2].count(up[seat]) == 1 \
        and min(up) == up[seat]
    return not wins_by_going_up
