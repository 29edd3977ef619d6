"""Seed 003 (../shared/seeds/003): "The game officially ends when someone reaches a score of 100
or more points, although a game can be terminated earlier by agreement", and §1: a game "must
be played to completion unless all players agree otherwise". Any seat may vote to end the game
now (the first vote opens it), the others agree or vote to play on (which closes the vote); when
every seat has agreed, the game ends with the totals of the hands completed."""

from __future__ import annotations

import pytest

from pbem.engine import (
    ALL_PRESETS,
    Ask,
    EndVoted,
    GameCreated,
    IllegalMove,
    Phase,
    VoteEnd,
    WrongPhase,
    acting_seat,
    apply,
    asked,
    decide,
    decision_seat,
    decode_event,
    encode_event,
    legal_cards,
    restore,
    snapshot,
    start,
)
from pbem.engine.state import GameState
from tests.engine.test_claims_and_forced import HANDS, deal_for, play_as, position


def second_hand_under_way() -> GameState:
    """Hand 1 played out (totals on the sheet), hand 2 dealt and its first trick begun."""
    state = apply(position(52), deal_for(HANDS, dealer=0))
    assert state.hand_number == 2 and len(state.sheet) == 1
    seat = state.turn
    return play_as(state, seat, str(legal_cards(state, seat)[0]))


def vote(state: GameState, seat: int, agree: bool = True) -> GameState:
    (event,) = decide(state, VoteEnd(seat, agree))
    assert event == EndVoted(seat, agree)
    return apply(state, event)


def test_the_game_ends_by_agreement_with_the_current_scores_seed_003() -> None:
    """"A game can be terminated earlier by agreement": every seat agrees, the game is over
    with the totals of the completed hands (the hand under way is not scored), lowest wins."""
    state = second_hand_under_way()
    totals = state.totals
    for seat in (2, 0, 3):
        state = vote(state, seat)
        assert not state.game_over and state.phase is Phase.PLAY
    assert state.end_voters == (0, 2, 3)
    state = vote(state, 1)
    assert state.game_over and state.ended_by_agreement
    assert state.totals == totals and len(state.sheet) == 1
    assert state.winners == tuple(s for s, t in enumerate(totals) if t == min(totals))
    assert state.to_move == ()
    assert restore(snapshot(state)).ended_by_agreement
    assert decode_event(encode_event(EndVoted(1, True))) == EndVoted(1, True)


def test_one_vote_to_play_on_closes_the_vote_seed_003() -> None:
    """§1: "must be played to completion unless all players agree otherwise": one player who
    wants to play on is enough; the votes so far lapse, and a new vote starts from scratch."""
    state = vote(vote(second_hand_under_way(), 0), 1)
    turn, legal = state.turn, legal_cards(state, state.turn)
    state = vote(state, 3, agree=False)
    assert state.end_voters == () and not state.game_over
    assert state.turn == turn and legal_cards(state, turn) == legal
    state = vote(state, 2)
    assert state.end_voters == (2,)


def test_a_vote_is_nobodys_turn_and_moves_no_turn_on() -> None:
    """Votes come at any time from any seat: the turn numbers that links, pages and replies
    carry stay as they were, and each seat is still asked what it was asked, plus the vote."""
    state = second_hand_under_way()
    voted = vote(state, (state.turn + 1) % 4)
    assert voted.turns == state.turns and voted.to_move == state.to_move
    question = asked(voted, voted.turn)
    assert question.kind is Ask.PLAY and question.end_voters == ((state.turn + 1) % 4,)
    assert question.may_vote_end
    assert decision_seat(EndVoted(2, True)) is None and acting_seat(EndVoted(2, True)) == 2


def test_votes_that_change_nothing_are_refused_in_words() -> None:
    state = second_hand_under_way()
    with pytest.raises(IllegalMove, match="^no_vote_open"):
        decide(state, VoteEnd(1, agree=False))
    state = vote(state, 1)
    with pytest.raises(IllegalMove, match="^already_voted_end"):
        decide(state, VoteEnd(1))
    for seat in (0, 2, 3):
        state = vote(state, seat)
    with pytest.raises(WrongPhase, match="^game_over"):
        decide(state, VoteEnd(0))
    assert not asked(state, 0).may_vote_end


@pytest.mark.parametrize("name", sorted(ALL_PRESETS))
def test_every_preset_can_end_by_agreement_seed_003(name: str) -> None:
    """Every game may end early so (a game by email can otherwise drag on for weeks); each
    variant's table keeps the votes."""
    rules = ALL_PRESETS[name].rules
    state = start(GameCreated(rules, rules.players, 0))
    for seat in range(rules.players):
        state = vote(state, seat)
    # no hand was scored: no winner (issue 37; it was a shared win of every seat while the
    # summary said "no winner")
    assert state.ended_by_agreement and state.winners == ()
