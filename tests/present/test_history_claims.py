"""The finished game's page words a claim from the events: a true claim, and a false one
(seed 003 §6: "If this claim is false, the claimer is charged 26 points, like a renege"; "for
any of the last three tricks ... this player will get the remaining points")."""

from __future__ import annotations

from pbem.engine import CardPlayed, Claim, ClaimAccepted, Event, GameCreated, decide
from pbem.present.history import replay_hands
from tests.engine.test_claims_and_forced import HANDS, deal_for, new_hand, scripted_plays
from tests.engine.test_claims_and_forced import play_as as play
from tests.engine.test_rules_missing import PENALTY
from tests.helpers import card

NAMES = ["Ann", "Bob", "Cy", "Di"]


def hand_with_claim(plays: int, seat: int) -> tuple[list[Event], Event]:
    """The scripted hand's first `plays` cards as events, then `seat`'s claim as decided."""
    state = new_hand(PENALTY)
    events: list[Event] = [GameCreated(PENALTY, PENALTY.players, 3), deal_for(HANDS, 3)]
    for mover, text in scripted_plays()[:plays]:
        state = play(state, mover, text)
        events.append(CardPlayed(mover, card(text)))
    (claim,) = decide(state, Claim(seat))
    return [*events, claim], claim


def test_a_false_claim_is_worded_with_its_26_point_charge_seed_003() -> None:
    events, claim = hand_with_claim(8 * 4, 3)  # five tricks left: seat 3 can't make them all
    (hand,) = replay_hands(events, NAMES)
    assert not isinstance(claim, ClaimAccepted)
    assert hand.claim == ("Di claimed the remaining tricks; the claim was false: 26 points "
                          "for Di, none for the others.")
    assert hand.points == [0, 0, 0, 26]


def test_a_false_claim_in_the_last_three_tricks_takes_the_remaining_points_seed_003() -> None:
    events, _claim = hand_with_claim(10 * 4, 1)
    (hand,) = replay_hands(events, NAMES)
    assert hand.claim == ("Bob claimed the remaining tricks; the claim was false, so Bob took "
                          "the remaining points.")


def test_a_true_claim_says_only_who_claimed() -> None:
    events, claim = hand_with_claim(8 * 4 + 1, 0)  # seat 0 holds every top spade
    assert isinstance(claim, ClaimAccepted)
    (hand,) = replay_hands(events, NAMES)
    assert hand.claim == "Ann claimed the remaining tricks."
