"""The strong robot: it sees only its seat's view, it is deterministic for a seed, its worlds agree
with what its seat has seen, and it (and every rollout) plays only legal moves in every preset and
whole variant."""

from __future__ import annotations

import inspect
import random
from dataclasses import replace
from itertools import combinations

import pytest

from pbem.bots import choose_event
from pbem.bots.rollout import own_policy, play_policy
from pbem.bots.strong import Budget, choose, distinct_plays, play_options
from pbem.bots.worlds import Draw, Seen, knowledge, public_state, sample_world, seen_by
from pbem.dealing import create_game, deal
from pbem.engine import (
    ALL_PRESETS,
    Card,
    CardsDrawn,
    GameState,
    Phase,
    Suit,
    Table,
    apply,
    forced_events,
    preset,
    restore,
    snapshot,
    start,
)

QUEEN_OF_SPADES = Card(12, Suit.SPADES)
SMALL = Budget(plays=400, min_worlds=2, max_worlds=3, pass_plays=400)


def dealt_state(name: str, seed: int) -> GameState:
    rng = random.Random(seed)
    rules = preset(name)
    state = start(create_game(rules, rng))
    return apply(state, deal(rules, rng))


def advance(state: GameState, moves: int) -> GameState:
    """`moves` moves of the heuristic robot (and any forced ones)."""
    for _ in range(moves):
        forced = forced_events(state)
        state = apply(state, forced[0] if forced else choose_event(state, state.to_move[0]))
    return state


def swap_hidden(state: GameState, a: int, b: int) -> GameState:
    """The same game but seats `a` and `b` hold each other's lowest card of one suit: what any
    third seat sees is unchanged."""
    hands = list(state.hands)
    for suit in range(4):
        bits = 0x1FFF << (13 * suit)
        ha, hb = hands[a] & bits, hands[b] & bits
        if ha and hb:
            ca, cb = ha & -ha, hb & -hb
            hands[a] = hands[a] & ~ca | cb
            hands[b] = hands[b] & ~cb | ca
            return replace(state, hands=tuple(hands))
    raise AssertionError("no suit to swap")


def test_the_robot_is_given_a_seat_view_never_a_game_state() -> None:
    parameters = inspect.signature(choose).parameters
    assert list(parameters)[0] == "seen"
    assert "GameState" not in str(parameters["seen"].annotation)
    assert set(Seen.__dataclass_fields__) == {"rules", "view", "draws"}


@pytest.mark.parametrize("moves", [0, 4, 9])
def test_states_differing_only_in_hidden_cards_give_the_same_decision(moves: int) -> None:
    state = advance(dealt_state("standard", 3), moves)
    me = state.to_move[0]
    a, b = [s for s in range(4) if s != me][:2]
    other = swap_hidden(state, a, b)
    assert other.hands != state.hands
    assert seen_by(state, me) == seen_by(other, me)
    assert choose(seen_by(state, me), seed=5) == choose(seen_by(other, me), seed=5)


def test_the_same_seed_gives_the_same_decision() -> None:
    state = advance(dealt_state("standard", 8), 6)
    me = state.to_move[0]
    first = [choose(seen_by(state, me), seed=s, budget=SMALL) for s in range(5)]
    again = [choose(seen_by(state, me), seed=s, budget=SMALL) for s in range(5)]
    assert first == again


def heuristic_views(name: str, games: int) -> list[Seen]:
    """Every play decision with a choice of a few whole hands of the heuristic robot."""
    views = []
    for seed in range(games):
        state = dealt_state(name, seed)
        while state.phase is not Phase.DEAL and not state.game_over:
            forced = forced_events(state)
            mover = state.to_move[0] if not forced else -1
            if mover >= 0 and state.phase is Phase.PLAY and len(state.hand(mover)) > 1:
                views.append(seen_by(state, mover))
            state = apply(state, forced[0] if forced else choose_event(state, mover))
    return views


def test_the_search_merges_only_cards_that_play_alike() -> None:
    """Two legal cards count as one choice only when they are of one suit, both hearts or both
    not penalty cards, and every card between them was played or is in the hand."""
    merged = 0
    for seen in heuristic_views("standard", 6):
        legal = play_options(seen).choices
        kept = distinct_plays(seen).choices
        assert set(kept) <= set(legal) and kept
        played = {c.index for t in (*seen.view.tricks, seen.view.current_trick) for c in t.cards}
        known = played | {c.index for c in seen.view.hand}
        for index in set(legal) - set(kept):
            merged += 1
            twin = max(k for k in kept if k < index)
            assert twin // 13 == index // 13
            assert (twin // 13 == 2) or (index != 49 and twin != 49)  # hearts, or no queen
            assert all(i in known for i in range(twin + 1, index))
    assert merged > 50


def test_cards_are_not_merged_where_ranks_are_special() -> None:
    for name in ("cancellation", "omnibus-jd"):
        for seen in heuristic_views(name, 1):
            assert distinct_plays(seen).choices == play_options(seen).choices, name


def test_the_robot_plays_itself_in_rollouts_leading_low_spades_to_drop_the_queen() -> None:
    """In a rollout the searching seat leads its lowest spade while the queen of spades is out
    and it holds no spade above the jack; otherwise it plays the heuristic's card."""
    flushed = 0
    for seen in heuristic_views("standard", 10):
        view = seen.view
        if view.current_trick.plays:
            continue
        table = Table.thaw(public_state(seen))
        me = seen.seat
        played = {c for t in view.tricks for c in t.cards}
        spades = [c for c in view.legal if c.suit is Suit.SPADES]
        queen_out = QUEEN_OF_SPADES not in played and QUEEN_OF_SPADES not in view.hand
        high = any(c.suit is Suit.SPADES and c.rank >= 12 for c in view.hand)
        if queen_out and spades and not high:
            flushed += 1
            assert own_policy(table, me) == min(spades, key=lambda c: c.rank).index
        else:
            assert own_policy(table, me) == play_policy(table, me)
    assert flushed > 10


def test_worlds_respect_shown_voids_and_the_cards_passed() -> None:
    state = dealt_state("standard", 12)  # hand 1 passes left
    state = advance(state, 4)  # the four passes
    assert state.phase is Phase.PLAY
    me = state.turn
    # find a trick where someone shows a void: play on with the heuristic until one does
    for _ in range(40):
        know = knowledge(seen_by(state, me))
        if any(know.voids) and state.turn == me:
            break
        state = advance(state, 1)
        me = state.turn
    know = knowledge(seen_by(state, me))
    assert any(know.voids), "no void shown in this deal"
    rng = random.Random(1)
    for _ in range(50):
        hands, rest = sample_world(know, rng)
        for seat, hand in enumerate(hands):
            assert hand.bit_count() == know.sizes[seat]
            for suit in range(4):
                if know.voids[seat] >> suit & 1:
                    assert not hand & (0x1FFF << (13 * suit)), "a card of a suit shown void"
        for index, seat in know.pinned.items():
            assert hands[seat] >> index & 1, "a passed card not with its receiver"
        union = rest
        for hand in hands:
            assert not union & hand
            union |= hand
        assert union == sum(1 << i for i in know.unseen)


def test_worlds_hold_what_the_view_counts_in_every_variant() -> None:
    for name in ("domino", "cancellation", "auction", "three-kitty", "seven-kitty"):
        state = advance(dealt_state(name, 4), 12)
        me = state.to_move[0]
        know = knowledge(seen_by(state, me))
        hands, rest = sample_world(know, random.Random(2))
        for seat in range(state.seats):
            if seat != me:
                assert hands[seat].bit_count() == state.hands[seat].bit_count(), name


@pytest.mark.parametrize("name", sorted(ALL_PRESETS))
def test_strong_robot_plays_only_legal_moves_in_every_preset_and_variant(name: str) -> None:
    """Every seat is the strong robot (small budget) for one hand; apply() refuses anything
    illegal, and so does the engine table inside every rollout."""
    state = dealt_state(name, 21)
    moves = 0
    while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
        forced = forced_events(state)
        if forced:
            state = apply(state, forced[0])
            continue
        seat = state.to_move[0]
        state = apply(state, choose(seen_by(state, seat), seed=moves, budget=SMALL))
        moves += 1
    assert moves > 0 and state.sheet


def hidden_swaps(state: GameState, me: int) -> list[GameState]:
    """The same game with cards `me` has not seen moved between two other hands, or between
    another hand and the kitty, widow or stock, or the unseen part of a pile taken (a kitty
    that went with the first trick), each swap within one suit and never a card worth other
    points than its swap (so no void or score changes and every public fact stays the same)."""
    known = {c.index for c in state.passed_cards(me)} if state.phase is not Phase.PASS else set()
    known |= {i + 52 * d for i in (Card.parse("QS").index, Card.parse("JD").index)
              for d in range(2)}
    places = [("hand", s) for s in range(state.seats) if s != me] + [("kitty", -1), ("stock", -1)]
    places += [("won", s) for s in range(state.seats)]
    found = []
    for (kind_a, a), (kind_b, b) in combinations(places, 2):
        mask_a, mask_b = _place(state, kind_a, a), _place(state, kind_b, b)
        for suit in range(4):
            bits = sum(1 << (13 * suit + r + 52 * d) for r in range(13) for d in range(2))
            free_a = [i for i in range(104) if (mask_a & bits) >> i & 1 and i not in known]
            free_b = [i for i in range(104) if (mask_b & bits) >> i & 1 and i not in known]
            if free_a and free_b:
                found.append(_moved(state, (kind_a, a, free_a[0]), (kind_b, b, free_b[0])))
                break
    return found


def _place(state: GameState, kind: str, seat: int) -> int:
    if kind == "hand":
        return state.hands[seat]
    if kind == "won":  # the cards taken that no trick showed
        return state.won[seat] & ~sum(1 << c.index for t in state.tricks for c in t.cards)
    if kind == "kitty":
        return state.kitty
    return sum(1 << i for i in state.stock)


def _moved(state: GameState, one: tuple[str, int, int], two: tuple[str, int, int]) -> GameState:
    hands, kitty, stock = list(state.hands), state.kitty, list(state.stock)
    won = list(state.won)
    for (kind, seat, out), (_, _, into) in ((one, two), (two, one)):
        if kind == "hand":
            hands[seat] = hands[seat] & ~(1 << out) | 1 << into
        elif kind == "won":
            won[seat] = won[seat] & ~(1 << out) | 1 << into
        elif kind == "kitty":
            kitty = kitty & ~(1 << out) | 1 << into
        else:
            stock[stock.index(out)] = into
    return replace(state, hands=tuple(hands), kitty=kitty, stock=tuple(stock), won=tuple(won))


@pytest.mark.parametrize("name", sorted(ALL_PRESETS))
def test_the_easy_robot_decides_from_its_seat_view_alone_in_every_preset(name: str) -> None:
    """Two games differing only in cards a seat has not seen (other hands, the kitty, the
    widow, the stock) give the heuristic the same decision, at every stage of a hand."""
    state, checked = dealt_state(name, 6), 0
    for _ in range(3 * state.seats * 2):
        if state.phase in (Phase.DEAL, Phase.GAME_OVER):
            break
        forced = forced_events(state)
        if not forced:
            me = state.to_move[0]
            for other in hidden_swaps(state, me):
                assert seen_by(other, me) == seen_by(state, me)
                assert choose_event(other, me) == choose_event(state, me), state.phase
                checked += 1
        state = advance(state, 1)
    assert checked >= 10, name


def test_domino_draws_reach_the_robots_view_and_survive_a_snapshot() -> None:
    """Domino: who drew how many cards, and when, is public (RULES.md, Domino Hearts: a player
    who cannot follow draws from the stock); the strong robot's `Seen` has this hand's draws."""
    state = dealt_state("domino", 2)
    drawn: list[tuple[int, int, int]] = []
    while len(drawn) < 2 and state.phase is not Phase.DEAL:
        forced = forced_events(state)
        if forced and isinstance(forced[0], CardsDrawn):
            played = sum(len(t.plays) for t in state.tricks) + len(state.current_trick.plays)
            drawn.append((forced[0].seat, forced[0].count, played))
        state = advance(state, 1)
    assert len(drawn) == 2, "no two draws in this deal"
    assert state.drawn == tuple(drawn)
    for seat in range(state.seats):
        assert seen_by(state, seat).draws == tuple(Draw(*d) for d in drawn)
    assert restore(snapshot(state)) == state
