"""Rules from the texts that the engine lacked: seed 003 §6's claim penalties, seed 001's
forced-queen variant and pass rotation, the ambiguous readings of seeds 001 and 002 as options,
and the presets for the player counts the texts allow (../shared/seeds/)."""

from __future__ import annotations

from pbem.engine import (
    ALL_PRESETS,
    Claim,
    ClaimAccepted,
    ClaimFailed,
    GameCreated,
    MoonRule,
    Phase,
    PlayCard,
    apply,
    decide,
    decode_event,
    encode_event,
    legal_cards,
    parse_cards,
    preset,
    replay,
    restore,
    snapshot,
)
from pbem.engine.cards import ALL_CARDS, mask_of
from pbem.engine.scoring import penalty_mask
from pbem.present.rules_words import rules_sentences
from tests.engine.test_claims_and_forced import NO_PASS, deal_for, new_hand, scripted_plays
from tests.engine.test_claims_and_forced import play_as as play
from tests.engine.test_rules_texts import _table_at

PENALTY = NO_PASS.replace(claim_penalty=True)


def scripted(plays: int):  # type: ignore[no-untyped-def]
    state = new_hand(PENALTY)
    for seat, card in scripted_plays()[:plays]:
        state = play(state, seat, card)
    return state


def test_a_false_claim_costs_the_claimer_26_seed_003() -> None:
    """Seed 003 §6: "If this claim is false, the claimer is charged 26 points, like a renege"
    (§8: "the reneging player taking 26 points and all other players taking 0")."""
    state = scripted(8 * 4)  # five tricks left; seat 0 holds every top spade
    (event,) = decide(state, Claim(3))
    assert event == ClaimFailed(3)
    assert decode_event(encode_event(event)) == event
    done = apply(state, event)
    line = done.score_sheet[-1]
    assert line.points == (0, 0, 0, 26) and line.false_claim and line.claimed_by == 3
    assert done.phase is Phase.DEAL
    assert restore(snapshot(done)).score_sheet[-1].false_claim


def test_a_claim_in_the_last_three_tricks_takes_the_remaining_points_seed_003() -> None:
    """Seed 003 §6: "If there is a claim for any of the last three tricks ... this player will
    get the remaining points"."""
    state = scripted(10 * 4)  # three tricks left: seat 0 leads QS, JS, TS
    (event,) = decide(state, Claim(1))  # seat 1 holds 6H 7H 8H: sure to lose them
    assert event == ClaimFailed(1)
    done = apply(state, event)
    line = done.score_sheet[-1]
    assert not line.false_claim and line.claimed_by == 1
    before = state.hand_points
    assert line.points[1] == before[1] + 26 - sum(before)  # every point still out is seat 1's
    assert [line.points[s] for s in (0, 2, 3)] == [before[s] for s in (0, 2, 3)]


def test_a_true_claim_is_accepted_whatever_the_penalty_option_seed_003() -> None:
    state = scripted(8 * 4 + 1)  # seat 3 led 3S; seat 0 to play, holding every top spade
    assert decide(state, Claim(0)) == (ClaimAccepted(0),)


def test_without_the_option_a_false_claim_is_refused() -> None:
    import pytest

    from pbem.engine import IllegalMove

    state = new_hand(NO_PASS)
    with pytest.raises(IllegalMove, match="claim_refused"):
        decide(state, Claim(3))


def test_club_presets_charge_false_claims_seed_003() -> None:
    for name in ("club", "club-five", "club-six"):
        assert ALL_PRESETS[name].rules.claim_penalty
        assert "costs the claimer 26 points" in " ".join(rules_sentences(ALL_PRESETS[name].rules))


QUEEN_HANDS = {
    0: "2C 5C 6C 7C 8C 9C TC JC QC KC 3D 4D 5D",
    1: "AC AS 2D 6D 7D 8D 9D TD JD QD KD AD 2H",
    2: "3C 8S 9S TS JS 7H 8H 9H TH JH QH KH AH",
    3: "4C QS KS 2S 3S 4S 5S 6S 7S 3H 4H 5H 6H",
}
FORCED = {"standard": NO_PASS, "seed 001": NO_PASS.replace(forced_queen_discard=True),
          "seed 003": NO_PASS.replace(forced_queen=True)}


def _after_trick_one(rules):  # type: ignore[no-untyped-def]
    state = replay([GameCreated(rules, 4, 3), deal_for(QUEEN_HANDS, 3)])
    for seat, card in ((0, "2C"), (1, "AC"), (2, "3C"), (3, "4C")):
        state = play(state, seat, card)
    return state  # seat 1 won trick one and leads


def test_the_queen_is_discarded_at_the_first_opportunity_seed_001() -> None:
    """Seed 001: "to discard the ♠Q at the first opportunity (when this variant rule is in
    force)": a player void in the suit led who holds the QS must play it."""
    assert preset("hoyle-forced-queen").forced_queen_discard
    for name, rules in FORCED.items():
        state = play(play(_after_trick_one(rules), 1, "2D"), 2, "8S")
        forced = legal_cards(state, 3) == parse_cards("QS")
        assert forced is (name != "standard"), name


def test_only_seed_003_forces_the_queen_under_a_higher_spade() -> None:
    """Seed 001's rule is only about discarding; seed 003's also makes it fall under a higher
    spade: "as soon as one is legally able, provided ... assured of not winning the trick"."""
    for name, rules in FORCED.items():
        state = play(play(_after_trick_one(rules), 1, "AS"), 2, "8S")
        forced = legal_cards(state, 3) == parse_cards("QS")
        assert forced is (name == "seed 003"), name


def test_the_forced_queen_message_says_why_seed_001() -> None:
    import pytest

    from pbem.engine import IllegalMove

    state = play(play(_after_trick_one(FORCED["seed 001"]), 1, "2D"), 2, "8S")
    with pytest.raises(IllegalMove, match="^forced_queen_discard"):
        decide(state, PlayCard(3, parse_cards("3H")[0]))


def test_seed_001_pass_rotation_left_right_across_without_a_hold_hand() -> None:
    """Seed 001: "There is a passing rotation of left, right and across"; the hold hand is
    "a recent popular passing variation"."""
    rules = preset("hoyle-no-hold")
    assert [rules.pass_offset(h) for h in range(1, 7)] == [1, -1, 2, 1, -1, 2]
    assert "left, right, across, then again" in " ".join(rules_sentences(rules))


def test_presets_for_the_player_counts_the_texts_allow_seeds_001_002_003() -> None:
    """Seed 001: Omnibus for "four to six"; seed 003: "four, five or six players"; seed 002:
    three to six, with its removal lists."""
    expect = {"omnibus-td-five": (5, "2D 2C"), "omnibus-td-six": (6, "2D 3D 3C 4C"),
              "omnibus-jd-three": (3, "2D"), "omnibus-jd-five": (5, "2D 2C"),
              "omnibus-jd-six": (6, "2D 2C 2S 3D"), "club-five": (5, "2D 2C"),
              "club-six": (6, "2D 2C 2S 3D")}
    for name, (players, removed) in expect.items():
        rules = ALL_PRESETS[name].rules
        assert rules.players == players and set(rules.removed) == set(parse_cards(removed))


def _moon_table(rules, totals):  # type: ignore[no-untyped-def]
    table = _table_at(rules, totals)
    table.phase = Phase.PLAY
    table.hands = [0] * rules.players
    everything = mask_of(c for c in ALL_CARDS if c not in rules.removed)
    table.won = [everything & penalty_mask(rules)] + [0] * (rules.players - 1)
    table.won[1] = everything & ~table.won[0]
    table.totals = tuple(totals)
    return table


def test_shooter_protection_may_be_a_choice_seed_002() -> None:
    """Seed 002: "the Shooter may choose to reduce his own score by 26": the option asks the
    shooter when protection applies; the preset applies it automatically."""
    asked = preset("h2g2-protected").replace(moon=MoonRule.PROTECTION_CHOICE)
    table = _moon_table(asked, [80, 50, 90, 70])  # +26 would end the game, seat 1 first
    table._end_hand()
    assert table.phase is Phase.MOON_CHOICE and table.moon_shooter == 0
    table = _moon_table(asked, [10, 60, 20, 30])  # no danger: the others go up, no question
    table._end_hand()
    assert table.phase is Phase.DEAL and table.sheet[-1].points == (0, 26, 26, 26)
    automatic = _moon_table(preset("h2g2-protected"), [80, 50, 90, 70])
    automatic._end_hand()
    assert automatic.sheet[-1].points == (-26, 0, 0, 0)


def test_omnibus_moon_without_the_ten_of_diamonds_seed_001() -> None:
    """Seed 001 Omnibus: "When a player wins all fifteen counting cards ... it is called a slam
    and he scores 26 plus (instead of 16 minus)". Read literally (`moon_needs_bonus_card`), the
    13 hearts and the QS without the TD are no moon; the preset keeps the ordinary moon."""
    literal = preset("omnibus-td").replace(moon_needs_bonus_card=True)
    table = _moon_table(literal, [0, 0, 0, 0])  # seat 1 took the TD
    table._end_hand()
    assert table.sheet[-1].points == (26, -10, 0, 0) and table.sheet[-1].moon is None
    ordinary = _moon_table(preset("omnibus-td"), [0, 0, 0, 0])
    ordinary._end_hand()
    assert ordinary.sheet[-1].points == (0, 16, 26, 26) and ordinary.sheet[-1].moon == 0
    assert "no moon" in " ".join(rules_sentences(literal))


def test_play_is_unchanged_by_the_new_options_when_off() -> None:
    state = new_hand(NO_PASS)
    assert decide(state, PlayCard(0, parse_cards("2C")[0]))
    assert "claim_penalty" not in NO_PASS.to_dict()
