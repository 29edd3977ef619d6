"""Claims and forced play, on positions built from an explicit deal and scripted plays.

The main position (standard rules, no pass, dealer 3):

    seat 0: 2C 3C 4C  2D 3D 4D  AS KS QS JS TS 9S 8S
    seat 1: 5C 6C 7C  5D 6D 7D  2H 3H 4H 5H 6H 7H 8H
    seat 2: 8C 9C TC  8D 9D TD  9H TH JH QH KH AH 2S
    seat 3: JC QC KC AC  JD QD KD AD  3S 4S 5S 6S 7S

Seat 3 wins the first eight tricks (clubs then diamonds) and takes 2H 9H 3H TH on the way;
at trick 9 seat 3 holds only low spades and must lead one, while seat 0 holds every top spade.
"""

from __future__ import annotations

import pytest

from pbem.engine import (
    CardPlayed,
    Claim,
    ClaimAccepted,
    EngineError,
    GameCreated,
    GameState,
    HandDealt,
    IllegalMove,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    WrongPhase,
    apply,
    claim_holds,
    decide,
    forced_events,
    legal_cards,
    parse_cards,
    preset,
    replay,
)
from pbem.playout import random_game
from tests.helpers import play

NO_PASS = preset("standard").replace(pass_count=0, pass_cycle=(0,))


def deal_for(hands: dict[int, str], dealer: int, kitty: str = "") -> HandDealt:
    """The HandDealt that gives each seat exactly the cards named (card k goes to seat
    (dealer + 1 + k) % n), the kitty last."""
    n = len(hands)
    parsed = {seat: list(parse_cards(text)) for seat, text in hands.items()}
    assert sorted(parsed) == list(range(n))
    size = len(parsed[0])
    assert all(len(cards) == size for cards in parsed.values()), "hands of unequal size"
    order = [parsed[(dealer + 1 + k) % n][k // n] for k in range(size * n)]
    return HandDealt(tuple(order) + parse_cards(kitty))


HANDS = {
    0: "2C 3C 4C 2D 3D 4D AS KS QS JS TS 9S 8S",
    1: "5C 6C 7C 5D 6D 7D 2H 3H 4H 5H 6H 7H 8H",
    2: "8C 9C TC 8D 9D TD 9H TH JH QH KH AH 2S",
    3: "JC QC KC AC JD QD KD AD 3S 4S 5S 6S 7S",
}
# Tricks in seat order from their leader, as written down above.
SCRIPT = [
    "0:2C 1:5C 2:8C 3:JC",
    "3:QC 0:3C 1:6C 2:9C",
    "3:KC 0:4C 1:7C 2:TC",
    "3:AC 0:2D 1:2H 2:8D",
    "3:JD 0:3D 1:5D 2:9D",
    "3:QD 0:4D 1:6D 2:TD",
    "3:KD 0:8S 1:7D 2:9H",
    "3:AD 0:9S 1:3H 2:TH",
    "3:3S 0:AS 1:4H 2:2S",
    "0:KS 1:5H 2:JH 3:4S",
    "0:QS 1:6H 2:QH 3:5S",
    "0:JS 1:7H 2:KH 3:6S",
    "0:TS 1:8H 2:AH 3:7S",
]


def scripted_plays() -> list[tuple[int, str]]:
    plays = []
    for trick in SCRIPT:
        for item in trick.split():
            seat, card = item.split(":")
            plays.append((int(seat), card))
    return plays


def new_hand(rules: Rules = NO_PASS, hands: dict[int, str] = HANDS, dealer: int = 3) -> GameState:
    created = GameCreated(rules, rules.players, dealer)
    return replay([created, deal_for(hands, dealer)])


def play_as(state: GameState, seat: int, card: str) -> GameState:
    """`seat` plays `card`, and it must be its turn (`play` plays for the seat to move)."""
    assert state.turn == seat
    return play(state, card)


def position(plays: int) -> GameState:
    """The main hand after the first `plays` scripted plays."""
    state = new_hand()
    for seat, card in scripted_plays()[:plays]:
        state = play_as(state, seat, card)
    return state


def hand_text(state: GameState, seat: int) -> str:
    return " ".join(str(c) for c in state.hand(seat))


# --- the helpers themselves -------------------------------------------------------------

def test_deal_for_gives_each_seat_its_cards() -> None:
    for dealer in range(4):
        state = new_hand(dealer=dealer)
        for seat, text in HANDS.items():
            assert set(state.hand(seat)) == set(parse_cards(text))


def test_deal_for_with_a_kitty() -> None:
    rules = preset("three-kitty").replace(pass_count=0, pass_cycle=(0,))
    hands = {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D 5D",
             1: "6D 7D 8D 9D TD JD QD KD AD 2H 3H 4H 5H 6H 7H 8H 9H",
             2: "TH JH QH KH AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"}
    event = deal_for(hands, dealer=1, kitty="AS")
    state = replay([GameCreated(rules, 3, 1), event])
    assert state.kitty_cards == parse_cards("AS")
    assert hand_text(state, 2) == hands[2]


def test_the_script_is_legal_and_plays_as_described() -> None:
    state = position(8 * 4)
    assert state.trick_number == 9 and state.turn == 3
    assert hand_text(state, 0) == "TS JS QS KS AS"
    assert hand_text(state, 3) == "3S 4S 5S 6S 7S"
    assert all(t.winner == 3 for t in state.tricks)
    assert state.hand_points == (0, 0, 0, 4)


# --- claims -------------------------------------------------------------------------------

def test_claim_accepted_on_lead_with_all_top_cards() -> None:
    state = position(9 * 4)  # seat 0 won trick 9 and leads KS QS JS TS
    assert state.turn == 0 and state.trick_number == 10
    assert claim_holds(state, 0) is True
    assert decide(state, Claim(0)) == (ClaimAccepted(0),)


def test_claim_finishes_the_hand() -> None:
    state = position(9 * 4)
    assert state.hand_points == (1, 0, 0, 4)  # 4H went to seat 0 on trick 9
    (event,) = decide(state, Claim(0))
    after = apply(state, event)
    assert after.phase is Phase.DEAL and after.hand_number == 2
    assert all(not after.hand(s) for s in range(4))
    (line,) = after.score_sheet
    assert line.claimed_by == 0
    # Seat 0 takes everything left: QS and the hearts 5H-8H and JH-AH.
    assert line.points == (1 + 13 + 4 + 4, 0, 0, 4)
    assert sum(line.points) == 26
    assert line.moon is None
    assert after.totals == line.points
    assert line.hearts == (9, 0, 0, 4)


def test_claim_gives_the_same_score_as_playing_it_out() -> None:
    claimed = apply(position(9 * 4), ClaimAccepted(0))
    played = position(13 * 4)
    assert played.score_sheet[0].claimed_by is None
    assert claimed.score_sheet[0].points == played.score_sheet[0].points
    assert claimed.totals == played.totals


def test_claim_accepted_before_the_claimer_plays_to_the_trick() -> None:
    state = position(8 * 4 + 1)  # seat 3 led 3S; seat 0 to play with all the top spades
    assert state.turn == 0
    assert claim_holds(state, 0) is True
    after = apply(state, decide(state, Claim(0))[0])
    line = after.score_sheet[0]
    assert line.claimed_by == 0
    assert line.points == (13 + 8 + 1, 0, 0, 4)  # QS, 5H-8H JH-AH, and 4H


def test_claim_accepted_from_a_seat_not_on_turn_that_must_win() -> None:
    state = position(8 * 4)  # seat 3 must lead a low spade; seat 0 beats any of them
    assert state.turn == 3
    assert claim_holds(state, 0) is True
    assert decide(state, Claim(0)) == (ClaimAccepted(0),)


def test_claim_refused_when_an_opponent_holds_a_higher_card() -> None:
    state = position(8 * 4)  # seat 3 on lead with only 3S-7S; seat 0 holds AS-TS
    assert state.turn == 3
    assert claim_holds(state, 3) is False
    with pytest.raises(IllegalMove, match="claim_refused"):
        decide(state, Claim(3))


def test_claim_refused_when_not_on_lead_and_cannot_win_the_trick() -> None:
    state = position(8 * 4 + 3)  # 3S, AS, 4H played; seat 2 (top hearts, 2S) must follow
    assert state.turn == 2
    assert hand_text(state, 2) == "JH QH KH AH 2S"
    assert claim_holds(state, 2) is False
    with pytest.raises(IllegalMove):
        decide(state, Claim(2))
    # …and a seat holding only low hearts can't claim either.
    with pytest.raises(IllegalMove):
        decide(state, Claim(1))


def test_claim_refused_for_an_opponent_who_holds_top_cards_of_a_suit_never_led() -> None:
    state = position(9 * 4)  # seat 0 leads spades; seat 2 holds JH-AH but never gets the lead
    with pytest.raises(IllegalMove):
        decide(state, Claim(2))


def test_claim_that_takes_every_point_is_a_moon() -> None:
    hands = {0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
             1: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
             2: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
             3: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"}
    state = new_hand(hands=hands)
    clubs = parse_cards(hands[0])
    for trick in range(7):  # seat 0 leads its clubs; the others throw their lowest legal card
        state = play_as(state, 0, str(clubs[trick]))
        for seat in (1, 2, 3):
            state = play_as(state, seat, str(legal_cards(state, seat)[0]))
    assert state.trick_number == 8 and state.turn == 0
    assert claim_holds(state, 0) is True
    after = apply(state, decide(state, Claim(0))[0])
    line = after.score_sheet[0]
    assert line.claimed_by == 0 and line.moon == 0 and line.moon_down is False
    assert line.points == (0, 26, 26, 26)


def test_claim_undecided_within_the_budget_is_refused() -> None:
    """The search's node budget is a safety valve: out of it, the answer is None (unproven)."""
    state = position(0)
    assert claim_holds(state, 0, budget=0) is None


def test_claim_outside_play_is_the_wrong_phase() -> None:
    rules = preset("standard")
    state = replay([GameCreated(rules, 4, 3), deal_for(HANDS, 3)])
    assert state.phase is Phase.PASS
    with pytest.raises(WrongPhase):
        decide(state, Claim(0))
    assert claim_holds(state, 0) is False
    over = apply(position(9 * 4), ClaimAccepted(0))
    with pytest.raises(WrongPhase):
        decide(over, Claim(0))
    with pytest.raises(EngineError):
        apply(over, ClaimAccepted(0))


def test_replaying_a_claimed_hand_is_deterministic() -> None:
    rules = NO_PASS
    events = [GameCreated(rules, 4, 3), deal_for(HANDS, 3)]
    state = replay(events)
    for seat, card in scripted_plays()[:36]:
        (event,) = decide(state, PlayCard(seat, parse_cards(card)[0]))
        events.append(event)
        state = apply(state, event)
    events.append(ClaimAccepted(0))
    assert replay(events) == apply(state, ClaimAccepted(0))


# --- forced play ----------------------------------------------------------------------------

def test_forced_events_play_the_last_trick() -> None:
    state = position(12 * 4)
    assert state.trick_number == 13 and state.turn == 0
    events = forced_events(state)
    assert events == tuple(CardPlayed(seat, parse_cards(card)[0])
                           for seat, card in scripted_plays()[48:])
    for event in events:
        state = apply(state, event)
    assert state.phase is Phase.DEAL
    assert state.score_sheet[0].claimed_by is None
    assert state == position(13 * 4)


def test_forced_events_mid_last_trick() -> None:
    state = position(12 * 4 + 2)
    events = forced_events(state)
    assert [(e.seat, str(e.card)) for e in events if isinstance(e, CardPlayed)] == \
        [(2, "AH"), (3, "7S")]
    assert len(events) == 2


@pytest.mark.parametrize("plays", [0, 1, 8 * 4, 8 * 4 + 1, 9 * 4, 11 * 4, 11 * 4 + 1])
def test_no_forced_events_while_a_choice_remains(plays: int) -> None:
    assert forced_events(position(plays)) == ()


def rest_is_forced(state: GameState) -> tuple[CardPlayed, ...] | None:
    """Independently: step with apply() while each move has exactly one legal card."""
    plays: list[CardPlayed] = []
    while state.phase is Phase.PLAY:
        legal = legal_cards(state, state.turn)
        if len(legal) != 1:
            return None
        plays.append(CardPlayed(state.turn, legal[0]))
        state = apply(state, plays[-1])
    return tuple(plays)


@pytest.mark.parametrize(("name", "seed"), [("standard", 1), ("club", 2), ("three-kitty", 3),
                                            ("six", 4), ("seven-kitty", 5)])
def test_forced_events_exactly_when_the_rest_is_forced(name: str, seed: int) -> None:
    events, _ = random_game(preset(name), seed, max_hands=6)
    state = replay(events[:1])
    forced_seen = 0
    for event in events[1:]:
        state = apply(state, event)
        if state.phase is not Phase.PLAY:
            assert forced_events(state) == ()
            continue
        expected = rest_is_forced(state)
        got = forced_events(state)
        assert got == (expected or ())
        forced_seen += bool(got)
    assert forced_seen > 0


def test_forced_events_can_start_before_the_last_trick() -> None:
    """Mid-trick 12, every follower holding one card of the suit led: the rest is forced."""
    events, _ = random_game(preset("standard"), 1, max_hands=6)
    state = replay(events[:1])
    early = []
    for event in events[1:]:
        state = apply(state, event)
        if state.phase is Phase.PLAY and state.trick_number < 13 and forced_events(state):
            early.append(state)
    assert early
    for state in early:
        rest = forced_events(state)
        assert len(rest) > 4 - len(state.current_trick.plays)  # runs into the last trick
        for event in rest:
            state = apply(state, event)
        assert state.phase is not Phase.PLAY


def test_no_forced_events_outside_play() -> None:
    rules = preset("standard")
    state = replay([GameCreated(rules, 4, 3), deal_for(HANDS, 3)])
    assert state.phase is Phase.PASS
    assert forced_events(state) == ()
    (event,) = decide(state, PassCards(0, parse_cards("2C 3C 4C")))
    assert forced_events(apply(state, event)) == ()
    assert forced_events(position(13 * 4)) == ()  # the hand is over, waiting for a deal


# --- the claim search against an exhaustive one -------------------------------------------

def claimer_wins_every_trick(state: GameState, claimer: int) -> bool:
    """Every legal play of every opponent tried (no pruning), through the public API."""
    if state.phase is not Phase.PLAY:
        return True
    mover = state.turn
    for card in legal_cards(state, mover):
        after = apply(state, CardPlayed(mover, card))
        trick_done = len(after.tricks) > len(state.tricks)
        ok = not (trick_done and after.tricks[-1].winner != claimer) and \
            claimer_wins_every_trick(after, claimer)
        if mover == claimer and ok:
            return True
        if mover != claimer and not ok:
            return False
    return mover != claimer


@pytest.mark.parametrize("name", ["standard", "club", "five", "omnibus-td"])
def test_claim_holds_agrees_with_an_exhaustive_search(name: str) -> None:
    checked = accepted = 0
    for seed in range(16):
        events, _ = random_game(preset(name), seed, max_hands=1)
        state = replay(events[:1])
        for event in events[1:]:
            state = apply(state, event)
            if state.phase is not Phase.PLAY or len(state.tricks) < state.rules.hand_size - 3:
                continue
            for seat in range(state.seats):
                expected = claimer_wins_every_trick(state, seat)
                assert claim_holds(state, seat) is expected, (seed, seat, state.current_trick)
                checked += 1
                accepted += expected
    assert checked > 100 and 0 < accepted < checked
