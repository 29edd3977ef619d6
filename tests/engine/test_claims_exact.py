"""Seed 003 §6 ("CLAIMS"): the claim check is exact at any point of a hand.

`claim_holds` (a closed formula on lead past trick one, a pruned search elsewhere) is compared
with an exhaustive search over every legal play of every seat, on many random positions: small
decks (so whole hands, the first trick included, can be searched exhaustively), the last tricks
of full decks, the forced queen, hearts broken only by a discard, Auction's named suit, three to
seven players, and positions dealt so the claimer holds most of the top cards."""

from __future__ import annotations

import random

import pytest

from pbem.engine import (
    GameCreated,
    GameState,
    Phase,
    Rules,
    apply,
    claim_holds,
    preset,
    replay,
)
from pbem.engine.cards import ALL_CARDS, Card, mask_of, parse_cards
from pbem.engine.claims import top_cards_hold
from pbem.engine.state import Phase as _Phase
from pbem.engine.table import Table
from pbem.engine.variants import thaw
from pbem.playout import random_event, random_game
from tests.engine.test_claims_and_forced import deal_for


def exhaustive(table: Table, claimer: int, memo: dict[tuple[object, ...], bool]) -> bool:
    """Every legal card of every seat, no pruning (the reference)."""
    if table.phase is not _Phase.PLAY:
        return True
    key = (tuple(table.hands), tuple(table.trick), table.turn, table.hearts_broken,
           len(table.tricks))
    if key in memo:
        return memo[key]
    mover = table.turn
    legal = table.legal_mask(mover)
    result = mover != claimer
    while legal:
        bit = legal & -legal
        legal ^= bit
        after = table.clone()
        after.play(mover, bit.bit_length() - 1)
        ok = (bool(after.trick) or after.tricks[-1].winner == claimer) and \
            exhaustive(after, claimer, memo)
        if ok is (mover == claimer):
            result = ok
            break
    memo[key] = result
    return result


def reference(state: GameState, claimer: int) -> bool:
    table = thaw(state)
    table.simulating = True
    return exhaustive(table, claimer, {})


def small_deck(rules: Rules, per_hand: int, rng: random.Random) -> Rules:
    """The same rules on a deck cut down to `per_hand` cards a player (2C and QS kept)."""
    keep = {Card.parse("2C"), Card.parse("QS")}
    rest = [c for c in ALL_CARDS if c not in keep]
    keep |= set(rng.sample(rest, per_hand * rules.players - 2))
    return rules.replace(removed=tuple(c for c in ALL_CARDS if c not in keep), kitty=False,
                         pass_count=0, pass_cycle=(0,))


def positions(rules: Rules, seed: int, max_left: int) -> list[GameState]:
    """Every play position of one random hand with at most `max_left` tricks left."""
    events, _ = random_game(rules, seed, max_hands=1)
    state = replay(events[:1])
    found = []
    for event in events[1:]:
        state = apply(state, event)
        if state.phase is Phase.PLAY and rules.hand_size - len(state.tricks) <= max_left:
            found.append(state)
    return found


def check(states: list[GameState]) -> tuple[int, int]:
    checked = accepted = 0
    for state in states:
        for seat in range(state.seats):
            expected = reference(state, seat)
            assert claim_holds(state, seat) is expected, (seat, state.current_trick, [
                state.hand(s) for s in range(state.seats)], state.hearts_broken)
            checked += 1
            accepted += expected
    return checked, accepted


SMALL = ["standard", "club", "hoyle", "hoyle-forced-queen", "h2g2", "bicycle", "omnibus-td",
         "three", "five-hoyle", "seven", "auction"]


@pytest.mark.parametrize("name", SMALL)
def test_claim_check_is_exact_on_whole_small_hands_seed_003(name: str) -> None:
    """Whole hands of four cards a player (five with three players), first trick included."""
    rng = random.Random(name)
    checked = accepted = 0
    for seed in range(12):
        base = preset(name)
        rules = small_deck(base, 5 if base.players == 3 else 4 if base.players < 6 else 3, rng)
        c, a = check(positions(rules, seed, max_left=rules.hand_size))
        checked, accepted = checked + c, accepted + a
    assert checked > 150 and 0 < accepted < checked


@pytest.mark.parametrize("name", ["standard", "club", "hoyle", "omnibus-jd", "auction"])
def test_claim_check_is_exact_in_the_last_tricks_of_full_hands_seed_003(name: str) -> None:
    checked = accepted = 0
    for seed in range(10):
        c, a = check(positions(preset(name), 100 + seed, max_left=3))
        checked, accepted = checked + c, accepted + a
    assert checked > 100 and 0 < accepted < checked


def top_heavy_state(rules: Rules, rng: random.Random) -> GameState:
    """A hand dealt so seat 0 holds most of the high cards (claims near the line)."""
    deck = [c for c in ALL_CARDS if c not in rules.removed]
    deck.sort(key=lambda c: c.rank + rng.random() * 6, reverse=True)
    per, others = rules.hand_size, rules.players - 1
    hands = [deck[:per]] + [deck[per + k::others] for k in range(others)]
    dealer = others
    dealt = deal_for({s: " ".join(map(str, h)) for s, h in enumerate(hands)}, dealer)
    return replay([GameCreated(rules, rules.players, dealer), dealt])


@pytest.mark.parametrize("name", ["standard", "club", "hoyle"])
def test_claim_check_is_exact_when_the_claimer_holds_the_top_cards_seed_003(name: str) -> None:
    rng = random.Random(name)
    checked = accepted = 0
    for _ in range(25):
        rules = small_deck(preset(name), 5, rng)
        state = top_heavy_state(rules, rng)
        while state.phase is Phase.PLAY:
            c, a = check([state])
            checked, accepted = checked + c, accepted + a
            state = apply(state, random_event(state, rng))
    assert checked > 200 and 0 < accepted < checked


def test_top_cards_hold_needs_length_to_draw_a_guard() -> None:
    """AD then QD wins against KD alone, not against KD with a small diamond."""
    def hands(*texts: str) -> list[int]:
        return [mask_of(parse_cards(t)) for t in texts]

    assert top_cards_hold(hands("AD QD", "KD 2C", "3C 4C", "5C 6C"), 0)
    assert not top_cards_hold(hands("AD QD", "KD 2D", "3C 4C", "5C 6C"), 0)


def spade_heavy(rules: Rules, rng: random.Random) -> Rules:
    """All thirteen spades and a few other cards, five a player: the QS is often held against
    a claimer who holds higher spades."""
    others = [c for c in ALL_CARDS if c.suit.letter != "S" and c != Card.parse("2C")]
    keep = {c for c in ALL_CARDS if c.suit.letter == "S"} | {Card.parse("2C")}
    keep |= set(rng.sample(others, 5 * rules.players - len(keep)))
    return rules.replace(removed=tuple(c for c in ALL_CARDS if c not in keep), kitty=False,
                         pass_count=0, pass_cycle=(0,))


@pytest.mark.parametrize("name", ["club", "forced-queen-standard", "hoyle-forced-queen"])
def test_claim_check_is_exact_with_the_forced_queen_held_against_the_claimer_seed_003(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 003: "The queen of spades must be played to a trick as soon as one is legally
    able, provided the person playing it is assured of not winning the trick": the QS's holder
    may be made to give up a guard, which the claim check plays out."""
    import pbem.engine.claims as claims

    played_out = []
    real = claims._strips_the_queen

    def counted(mine: int, holder: int, under: bool,
                memo: dict[tuple[int, int], bool]) -> bool:
        played_out.append(1)
        return real(mine, holder, under, memo)

    monkeypatch.setattr(claims, "_strips_the_queen", counted)
    base = preset(name) if name != "forced-queen-standard" else \
        preset("standard").replace(forced_queen=True)
    rng = random.Random(name)
    checked = accepted = 0
    for _ in range(30):
        state = top_heavy_state(spade_heavy(base, rng), rng)
        while state.phase is Phase.PLAY:
            c, a = check([state])
            checked, accepted = checked + c, accepted + a
            state = apply(state, random_event(state, rng))
    assert checked > 200 and 0 < accepted < checked
    if name != "forced-queen-standard":  # hearts unbroken there: the search decides
        assert len(played_out) > 10
