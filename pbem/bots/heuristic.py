"""A heuristic Hearts bot: pass danger away, duck under the winner, dump points when void.

It only ever chooses among the engine's legal cards, so it follows every rule option."""

from __future__ import annotations

from pbem.engine import (
    Card,
    CardPlayed,
    CardsPassed,
    Event,
    GameState,
    MoonChosen,
    Phase,
    Suit,
    WrongPhase,
    legal_cards,
)

QUEEN_OF_SPADES = Card(12, Suit.SPADES)


def choose_event(state: GameState, seat: int) -> Event:
    """The bot's move for `seat` in whatever phase the game is in."""
    if state.phase is Phase.PASS:
        return CardsPassed(seat, choose_pass(state, seat))
    if state.phase is Phase.PLAY and state.turn == seat:
        return CardPlayed(seat, choose_play(state, seat))
    if state.phase is Phase.MOON_CHOICE and state.moon_shooter == seat:
        return MoonChosen(seat, _moon_down_is_better(state, seat))
    raise WrongPhase("It isn't this seat's move.")


# --- passing -----------------------------------------------------------------------------

def choose_pass(state: GameState, seat: int) -> tuple[Card, ...]:
    hand = state.hand(seat)
    ranked = sorted(hand, key=lambda c: _pass_danger(c, hand), reverse=True)
    return tuple(sorted(ranked[: state.rules.pass_count]))


def _pass_danger(card: Card, hand: tuple[Card, ...]) -> float:
    length = sum(1 for c in hand if c.suit is card.suit)
    spades = [c for c in hand if c.suit is Suit.SPADES]
    low_spades = sum(1 for c in spades if c.rank < 12)
    if card == QUEEN_OF_SPADES:
        return 100.0 if low_spades < 4 else 0.0
    if card.suit is Suit.SPADES and card.rank > 12:
        holds_queen = QUEEN_OF_SPADES in hand
        return 90.0 if (holds_queen or low_spades < 4) else 5.0
    if card.suit is Suit.HEARTS:
        return 30.0 + card.rank * 2
    shortness = 6.0 if length <= 3 else 0.0  # helps make a void
    return card.rank * 2 + shortness


# --- playing -----------------------------------------------------------------------------

def choose_play(state: GameState, seat: int) -> Card:
    legal = legal_cards(state, seat)
    if len(legal) == 1:
        return legal[0]
    trick = state.current_trick
    moon = _moon_plan(state, seat)
    if moon == "shoot":
        return _play_to_win(legal, trick.plays)
    if moon is not None:
        chosen = _stop_the_moon(legal, trick.plays, threat=moon)
        if chosen is not None:
            return chosen
    if not trick.plays:
        return _lead(state, seat, legal)
    led = trick.plays[0][1].suit
    if legal[0].suit is led:
        return _follow(state, legal, trick.plays)
    return _discard(legal)


# --- the moon: shoot it when it is sure enough, stop anyone else's ---------------------------

def _penalty_taken(state: GameState, seat: int) -> int:
    return sum(1 for c in state.taken(seat) if c.suit is Suit.HEARTS or c == QUEEN_OF_SPADES)


def _moon_plan(state: GameState, seat: int) -> str | int | None:
    """"shoot" when this seat holds every point so far and its hearts are on top; the seat of
    an opponent who is on the way to the moon; None otherwise."""
    if state.rules.moon.value == "none":
        return None
    taken = [_penalty_taken(state, s) for s in range(state.seats)]
    takers = [s for s, n in enumerate(taken) if n]
    if takers != [seat] and len(takers) == 1 and taken[takers[0]] >= 5:
        return takers[0]
    if takers == [seat] and taken[seat] >= 8 and _hearts_on_top(state, seat):
        return "shoot"
    return None


def _hearts_on_top(state: GameState, seat: int) -> bool:
    mine = [c.rank for c in state.hand(seat) if c.suit is Suit.HEARTS]
    seen = {c for t in state.tricks for c in t.cards} | set(state.current_trick.cards)
    out = [r for r in range(2, 15) if Card(r, Suit.HEARTS) not in seen and r not in mine]
    return not out or (bool(mine) and min(mine) > max(out))


def _play_to_win(legal: tuple[Card, ...], plays: tuple[tuple[int, Card], ...]) -> Card:
    if not plays:
        return max(legal, key=lambda c: c.rank)
    led = plays[0][1].suit
    if legal[0].suit is led:
        winning = max(c.rank for _, c in plays if c.suit is led)
        above = [c for c in legal if c.rank > winning]
        return max(above, key=lambda c: c.rank) if above else min(legal, key=lambda c: c.rank)
    clean = [c for c in legal if c.suit is not Suit.HEARTS and c != QUEEN_OF_SPADES]
    return min(clean or legal, key=lambda c: c.rank)


def _stop_the_moon(legal: tuple[Card, ...], plays: tuple[tuple[int, Card], ...],
                   threat: int) -> Card | None:
    """Take a point away from the shooter: win a trick holding points, or hand points to a
    player who is not the shooter."""
    if not plays:
        hearts = [c for c in legal if c.suit is Suit.HEARTS]
        return max(hearts, key=lambda c: c.rank) if hearts else None
    led = plays[0][1].suit
    winner = max((p for p in plays if p[1].suit is led), key=lambda p: p[1].rank)
    if legal[0].suit is led:
        above = [c for c in legal if c.rank > winner[1].rank]
        return max(above, key=lambda c: c.rank) if above and winner[0] == threat else None
    points = [c for c in legal if c.suit is Suit.HEARTS or c == QUEEN_OF_SPADES]
    if winner[0] != threat and points:
        return max(points, key=lambda c: (c == QUEEN_OF_SPADES, c.rank))
    clean = [c for c in legal if c not in points]
    return max(clean, key=lambda c: c.rank) if clean else None


def _lead(state: GameState, seat: int, legal: tuple[Card, ...]) -> Card:
    hand = state.hand(seat)
    queen_out = QUEEN_OF_SPADES not in hand and not _queen_played(state)

    def lead_cost(card: Card) -> float:
        cost = float(card.rank)
        if card.suit is Suit.HEARTS:
            cost += 6
        if card.suit is Suit.SPADES and card.rank > 12 and queen_out:
            cost += 40
        if card == QUEEN_OF_SPADES:
            cost += 50
        return cost

    return min(legal, key=lead_cost)


def _follow(state: GameState, legal: tuple[Card, ...],
            plays: tuple[tuple[int, Card], ...]) -> Card:
    led = plays[0][1].suit
    winning = max(c.rank for _, c in plays if c.suit is led)
    if QUEEN_OF_SPADES in legal and led is Suit.SPADES and winning > 12:
        return QUEEN_OF_SPADES
    under = [c for c in legal if c.rank < winning and c != QUEEN_OF_SPADES]
    if under:
        return max(under, key=lambda c: c.rank)
    last_to_play = len(plays) == state.seats - 1
    points_in_trick = any(c.suit is Suit.HEARTS or c == QUEEN_OF_SPADES for _, c in plays)
    safe = [c for c in legal if c != QUEEN_OF_SPADES]
    if last_to_play and not points_in_trick and safe:
        return max(safe, key=lambda c: c.rank)
    return min(safe or legal, key=lambda c: c.rank)


def _discard(legal: tuple[Card, ...]) -> Card:
    if QUEEN_OF_SPADES in legal:
        return QUEEN_OF_SPADES

    def danger(card: Card) -> float:
        if card.suit is Suit.SPADES and card.rank > 12:
            return 60.0 + card.rank
        if card.suit is Suit.HEARTS:
            return 40.0 + card.rank
        return float(card.rank)

    return max(legal, key=danger)


def _queen_played(state: GameState) -> bool:
    return any(QUEEN_OF_SPADES in t.cards for t in state.tricks) or any(
        c == QUEEN_OF_SPADES for _, c in state.current_trick.plays)


def _moon_down_is_better(state: GameState, seat: int) -> bool:
    """Go down 26 unless putting the others up ends the game with this seat winning."""
    value = state.rules.moon_points
    up = [t + (0 if s == seat else value) for s, t in enumerate(state.totals)]
    wins_by_going_up = max(up) >= state.rules.target and sorted(up)[:2].count(up[seat]) == 1 \
        and min(up) == up[seat]
    return not wins_by_going_up
