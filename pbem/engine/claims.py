"""Claims and forced play: is a claim of every remaining trick sure to succeed, and is the rest
of a hand forced.

A claim is decided exactly, at any point of a hand, in two parts (docs/engine.md has the proof):

1. **On lead, past the first trick** (and, with the forced queen, once no opponent holds the QS),
   the answer is a closed formula, `top_cards_hold`: for every suit, the claimer's i-th highest
   card must beat the top card of every opponent who holds at least i cards of that suit.
2. **Everywhere else** (the trick in progress, the first trick, an opponent who may be forced to
   give up the QS) a search plays the moves out, trying only the moves that can matter (below),
   until part 1 applies. Its node budget is a safety valve: if it runs out the claim is refused
   as unproven, never accepted.
"""

from __future__ import annotations

from pbem.engine.cards import HEARTS_MASK, SUIT_MASKS, iter_indices
from pbem.engine.rules import Rules, Variant
from pbem.engine.scoring import QS_BIT
from pbem.engine.state import (
    PLAY,
    GameState,
)
from pbem.engine.table import FOLLOW_MASKS, Table, trick_winner
from pbem.engine.variants import thaw

CLAIM_SEARCH_BUDGET = 200_000
# Two decks (a card's twin cancels it) and a stock to draw from: see docs/engine.md, Claims.
NO_CLAIMS = frozenset({Variant.CANCELLATION, Variant.DOMINO})
SPADES_MASK = SUIT_MASKS[3]


class _Budget:
    def __init__(self, nodes: int) -> None:
        self.nodes = nodes

    def spend(self) -> None:
        self.nodes -= 1
        if self.nodes < 0:
            raise _TooComplex


class _TooComplex(Exception):
    pass


def claim_holds(state: GameState, claimer: int, budget: int = CLAIM_SEARCH_BUDGET) -> bool | None:
    """True if `claimer` wins every remaining trick however the others play; None only if the
    search's safety budget ran out (the claim is then refused as unproven)."""
    if state.phase is not PLAY or state.rules.variant in NO_CLAIMS:
        return False
    table = thaw(state)
    table.simulating = True
    try:
        return _claimer_wins_rest(table, claimer, {}, _Budget(budget))
    except _TooComplex:
        return None


def top_cards_hold(hands: list[int], claimer: int) -> bool:
    """The claimer, on lead, wins every trick iff in each suit its i-th highest card beats the
    top card of each opponent holding at least i cards of the suit (single deck, equal hands,
    past the first trick, no opponent bound by the forced queen)."""
    return not any(_suit_fails(hands, claimer, m) for m in SUIT_MASKS)


def _suit_fails(hands: list[int], claimer: int, suit_mask: int) -> bool:
    own = hands[claimer] & suit_mask
    theirs = [h & suit_mask for s, h in enumerate(hands) if s != claimer and h & suit_mask]
    if not own or not theirs:
        return False
    for i, card in enumerate(_descending(own), start=1):
        tops = [t.bit_length() - 1 for t in theirs if t.bit_count() >= i]
        if not tops:
            return False
        if card < max(tops):
            return True
    return False


def _descending(mask: int) -> list[int]:
    return sorted(iter_indices(mask), reverse=True)


def _on_lead_answer(table: Table, claimer: int) -> bool | None:
    """The formula's answer when the claimer is on lead past the first trick, or None when the
    search must decide: with the forced queen, an opponent holding the QS may have to give it
    up, so a formula that fails in spades alone is not the last word (in other suits the
    forced QS is just a discard the defence can spare, and the proof's strategy still works)."""
    if table.trick or table.turn != claimer or not table.tricks or table.rules.decks != 1:
        return None
    hands = table.hands
    rules = table.rules
    queen_bound = (rules.forced_queen or rules.forced_queen_discard) and any(
        h & QS_BIT for s, h in enumerate(hands) if s != claimer)
    if not queen_bound:
        return top_cards_hold(hands, claimer)
    if any(_suit_fails(hands, claimer, m) for m in SUIT_MASKS[:3]):
        return False
    if not _suit_fails(hands, claimer, SPADES_MASK):
        return True
    # Spades fail. If they fail against the other opponents alone, the forced queen (which
    # binds only the QS's holder) changes nothing: they keep their guard.
    holder = next(s for s, h in enumerate(hands) if s != claimer and h & QS_BIT)
    without = [0 if s == holder else h for s, h in enumerate(hands)]
    if _suit_fails(without, claimer, SPADES_MASK):
        return False
    if rules.hearts_must_be_broken and not table.hearts_broken and hands[claimer] & HEARTS_MASK:
        return None  # whether the others break hearts would matter: the search decides
    return _strips_the_queen(hands[claimer], hands[holder], rules.forced_queen, {})


def _strips_the_queen(mine: int, holder: int, under: bool,
                      memo: dict[tuple[int, int], bool]) -> bool:
    """Spades fail only because of the QS's holder. The others can't matter (the formula holds
    against them whatever they play, as long as the claimer leads each suit from the top), so
    only the claimer and the holder are played out: the holder follows with its lowest card
    (or, with seed 001's discard rule, the QS if it likes), the QS when a spade above it is led
    (seed 003's rule, `under`), and must throw the QS once void in the suit led. Once the QS is
    gone, the formula against the holder decides."""
    if not holder & QS_BIT:
        return not any(_suit_fails([mine, holder], 0, m) for m in SUIT_MASKS)
    key = (mine, holder)
    if key in memo:
        return memo[key]
    memo[key] = False
    for suit_mask in SUIT_MASKS:
        own = mine & suit_mask
        if not own:
            continue
        lead = 1 << (own.bit_length() - 1)  # each suit from the top
        theirs = holder & suit_mask
        if not theirs or under and suit_mask == SPADES_MASK and lead > QS_BIT:
            replies = QS_BIT
        elif lead < theirs:
            continue  # the holder's higher card wins the trick
        else:
            replies = theirs & -theirs | theirs & QS_BIT
        if all(_strips_the_queen(mine & ~lead, holder & ~reply, under, memo)
               for reply in (1 << i for i in iter_indices(replies))):
            memo[key] = True
            break
    return memo[key]


def _claimer_wins_rest(table: Table, claimer: int, memo: dict[tuple[object, ...], bool],
                       budget: _Budget) -> bool:
    if table.phase is not PLAY:
        return True
    answer = _on_lead_answer(table, claimer)
    if answer is not None:
        return answer
    played = [index for seat, index in table.trick if seat == claimer]
    if played and trick_winner(table.trick)[2] != played[0]:
        return False  # an opponent already beats the claimer's card
    key = (tuple(table.hands), tuple(table.trick), table.turn, table.hearts_broken,
           bool(table.tricks))
    if key in memo:
        return memo[key]
    budget.spend()
    mover = table.turn
    legal = table.legal_mask(mover)
    if mover == claimer:
        options = _claimer_options(table, claimer, legal)
    else:
        options = _defence_options(table, legal, claimer_played=bool(played))
    result = mover != claimer
    for index in iter_indices(options):
        after = table.clone()
        after.play(mover, index)
        lost = not after.trick and after.tricks[-1].winner != claimer
        wins = not lost and _claimer_wins_rest(after, claimer, memo, budget)
        if wins is (mover == claimer):
            result = wins
            break
    memo[key] = result
    return result


def _claimer_options(table: Table, claimer: int, legal: int) -> int:
    """The claimer's cards that can win the trick: following, those above the best card so
    far; leading, those no opponent can beat (any card, while an opponent may be forced to
    play the QS under a higher spade)."""
    if table.trick:
        led = table.trick[0][1] // 13
        best = trick_winner(table.trick)[2]
        follow = legal & FOLLOW_MASKS[led]
        return follow & ~((1 << (best + 1)) - 1)
    others = 0
    for seat, hand in enumerate(table.hands):
        if seat != claimer:
            others |= hand
    winners = 0
    for suit_mask in SUIT_MASKS:
        theirs = others & suit_mask
        floor = (1 << theirs.bit_length()) - 1  # every card up to their top one
        winners |= legal & suit_mask & ~floor
    if table.rules.forced_queen and others & QS_BIT:
        # A spade above the QS also wins when only the QS's holder holds higher spades: the
        # forced queen makes them play the QS under it.
        holder = next(h for s, h in enumerate(table.hands) if s != claimer and h & QS_BIT)
        free = others & ~holder & SPADES_MASK
        floor = (1 << max(free.bit_length(), QS_BIT.bit_length())) - 1
        winners |= legal & SPADES_MASK & ~floor
    return winners


def _defence_options(table: Table, legal: int, claimer_played: bool) -> int:
    """An opponent's plays that can matter. Once the claimer's card leads the trick, an
    opponent beats it with their highest card of the suit led, or else keeps their high cards
    (a lower card of a suit is never worse to give up: higher cards only beat the claimer more
    often, and breaking hearts only helps the claimer). Before the claimer plays, every lead
    and every card of the suit led is tried. A discard tries the lowest card of each suit and,
    in spades, the lowest other than the QS (keeping the QS unbroken vs. a higher spade)."""
    if not table.trick:
        return legal  # an opponent leads: before the claimer, anything may matter
    follow = legal & FOLLOW_MASKS[table.trick[0][1] // 13]
    if follow:
        if not claimer_played:
            return follow
        best = trick_winner(table.trick)[2]
        top = 1 << (follow.bit_length() - 1)
        # The QS too: with seed 001's discard rule its holder may want it gone early.
        return top if top.bit_length() - 1 > best else follow & -follow | follow & QS_BIT
    options = 0
    for suit_mask in SUIT_MASKS:
        cards = legal & suit_mask
        options |= cards & -cards
        if cards & QS_BIT:
            rest = cards & ~QS_BIT
            options |= rest & -rest
    return options


def forced_rest(state: GameState) -> list[tuple[int, int]] | None:
    """The plays (seat, card index) that finish the hand when every remaining move is forced."""
    if state.phase is not PLAY or state.rules.variant is Variant.DOMINO:
        return None  # Domino's draws are forced events of their own (see decide.forced_events)
    table = thaw(state)
    table.simulating = True
    plays: list[tuple[int, int]] = []
    while table.phase is PLAY:
        legal = table.legal_mask(table.turn)
        if legal.bit_count() != 1:
            return None
        index = legal.bit_length() - 1
        plays.append((table.turn, index))
        table.play(table.turn, index)
    return plays


def claims_allowed(rules: Rules) -> bool:
    """Whether these rules allow claiming the remaining tricks at all."""
    return rules.variant not in NO_CLAIMS
