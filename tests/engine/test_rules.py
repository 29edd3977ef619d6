"""Rule tests: one per rule option and edge case of RULES.md, named after the rule."""

from __future__ import annotations

import pytest

from pbem.engine import (
    ALL_CARDS,
    BonusCard,
    Card,
    CardPlayed,
    CardsPassed,
    ChooseMoon,
    ClaimAccepted,
    Event,
    FirstTrickFallback,
    GameCreated,
    GameState,
    HandDealt,
    IllegalMove,
    MoonChosen,
    MoonRule,
    NotYourTurn,
    OnlyHeartsAndQueenLead,
    OpeningLead,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    Settlement,
    Ties,
    WrongPhase,
    apply,
    dealer_from_draw,
    decide,
    legal_cards,
    parse_cards,
    preset,
    replay,
    seat_view,
    settlement,
    start,
)
from tests.helpers import play

NO_PASS = {"pass_count": 0, "pass_cycle": (0,)}


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def deal_for(rules: Rules, dealer: int, hands: dict[int, str]) -> HandDealt:
    """A deal giving each listed seat exactly those cards; the rest fills the other seats."""
    n, size = rules.players, rules.hand_size
    wanted = {seat: list(cards(text)) for seat, text in hands.items()}
    taken = {c for hand in wanted.values() for c in hand}
    spare = [c for c in ALL_CARDS if c not in taken and c not in rules.removed]
    for seat in range(n):
        hand = wanted.setdefault(seat, [])
        while len(hand) < size:
            hand.append(spare.pop(0))
    order = [wanted[(dealer + 1 + k) % n][k // n] for k in range(size * n)]
    return HandDealt(tuple(order + spare))


def game(rules: Rules, hands: dict[int, str], dealer: int = 3,
         prior: tuple[int, ...] | None = None) -> GameState:
    """A game whose first hand is dealt as given (dealer 3, so seat 0 is left of the dealer)."""
    state = replay([GameCreated(rules, rules.players, dealer)])
    if prior is not None:
        state = _with_totals(state, prior)
    return apply(state, deal_for(rules, dealer, hands))


def _with_totals(state: GameState, totals: tuple[int, ...]) -> GameState:
    from dataclasses import replace

    return replace(state, totals=totals)


def legal(state: GameState, seat: int | None = None) -> str:
    return " ".join(str(c) for c in legal_cards(state, state.turn if seat is None else seat))


STANDARD = preset("standard").replace(**NO_PASS)


# --- opening lead -------------------------------------------------------------------------

def test_holder_of_two_of_clubs_must_lead_it() -> None:
    state = game(STANDARD, {2: "2C 3C AH KS"})
    assert state.turn == 2
    assert legal(state) == "2C"
    with pytest.raises(IllegalMove, match=r"^opening_lead_card .*opening=Card\('2C'\)"):
        decide(state, PlayCard(2, Card.parse("3C")))


def test_three_of_clubs_leads_when_two_of_clubs_is_removed() -> None:
    rules = preset("five").replace(**NO_PASS)
    state = game(rules, {3: "3C 4C"})
    assert Card.parse("2C") in rules.removed
    assert (state.turn, legal(state)) == (3, "3C")


def test_opening_lead_any_club_lets_the_holder_of_the_lowest_club_lead_any_club() -> None:
    rules = STANDARD.replace(opening_lead=OpeningLead.ANY_CLUB)
    state = game(rules, {1: "2C 9C KC AH"})
    assert state.turn == 1
    assert legal(state) == "2C 9C KC"


def test_opening_lead_left_of_dealer_leads_any_card() -> None:
    rules = preset("club").replace(**NO_PASS)
    state = game(rules, {0: "AS 5D 2H", 1: "2C"}, dealer=3)
    assert state.turn == 0
    assert set(legal(state).split()) >= {"AS", "5D", "2H"}  # club rules: hearts any time


# --- the first trick ------------------------------------------------------------------------

def test_no_points_on_first_trick() -> None:
    state = game(STANDARD, {0: "2C", 1: "QS AH 5D 6D 7D 8D 9D TD JD QD KD AD 2H"})
    state = play(state, "2C")
    assert legal(state) == "5D 6D 7D 8D 9D TD JD QD KD AD"
    with pytest.raises(IllegalMove, match="^no_points_first_trick"):
        decide(state, PlayCard(1, Card.parse("QS")))


def test_first_trick_fallback_player_holding_only_point_cards_may_play_one() -> None:
    hearts_and_queen = "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    state = play(game(STANDARD, {0: "2C", 1: hearts_and_queen}), "2C")
    assert legal(state) == hearts_and_queen.replace("QS ", "").replace("KH", "KH QS")


def test_first_trick_fallback_heart_not_queen_keeps_the_queen_back() -> None:
    rules = STANDARD.replace(first_trick_fallback=FirstTrickFallback.HEART_NOT_QUEEN)
    state = play(game(rules, {0: "2C", 1: "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"}), "2C")
    assert "QS" not in legal(state)
    assert legal(state).startswith("2H")


def test_points_on_first_trick_allowed_when_the_option_is_on() -> None:
    rules = STANDARD.replace(points_on_first_trick=True)
    state = play(game(rules, {0: "2C", 1: "QS AH 5D"}), "2C")
    assert {"QS", "AH"} <= set(legal(state).split())


# --- leading hearts -----------------------------------------------------------------------

def _first_trick(state: GameState) -> GameState:
    mine = {0: "AC", 1: "2C", 2: "3C", 3: "4C"}
    while state.trick or not state.tricks:
        state = play(state, mine[state.turn])
    return state


def test_hearts_cannot_be_led_until_broken() -> None:
    state = _first_trick(game(STANDARD, {0: "AC 2H 3H 5S", 1: "2C", 2: "3C", 3: "4C"}))
    assert state.turn == 0
    assert "2H" not in legal(state)
    with pytest.raises(IllegalMove, match="^hearts_not_broken "):
        decide(state, PlayCard(0, Card.parse("2H")))


def test_hearts_may_be_led_when_the_hand_holds_only_hearts() -> None:
    only_hearts = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    state = _first_trick(game(STANDARD, {0: "AC " + only_hearts, 1: "2C", 2: "3C", 3: "4C"}))
    assert legal(state) == only_hearts


def test_hearts_may_be_led_any_time_without_the_broken_rule() -> None:
    rules = STANDARD.replace(hearts_must_be_broken=False)
    state = _first_trick(game(rules, {0: "AC 2H 5S", 1: "2C", 2: "3C", 3: "4C"}))
    assert "2H" in legal(state)


def test_leading_with_only_hearts_and_the_queen_unbroken_must_lead_the_queen() -> None:
    hand = "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"
    state = _first_trick(game(STANDARD, {0: "AC " + hand, 1: "2C", 2: "3C", 3: "4C"}))
    assert legal(state) == "QS"
    with pytest.raises(IllegalMove, match="^hearts_not_broken_lead_queen"):
        decide(state, PlayCard(0, Card.parse("2H")))


def test_leading_with_only_hearts_and_the_queen_may_lead_a_heart_when_the_option_allows() -> None:
    rules = STANDARD.replace(only_hearts_and_queen_lead=OnlyHeartsAndQueenLead.MAY_LEAD_HEART)
    hand = "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"
    state = _first_trick(game(rules, {0: "AC " + hand, 1: "2C", 2: "3C", 3: "4C"}))
    assert set(legal(state).split()) == set(hand.split())


def test_a_heart_played_breaks_hearts() -> None:
    state = game(STANDARD.replace(points_on_first_trick=True),
                 {0: "AC 5H", 1: "2C", 2: "3C", 3: "2H 3H 4H 6H 7H 8H 9H TH JH QH KH AH 2S"})
    state = play(state, "2C", "3C", "2H")
    assert state.hearts_broken


def test_queen_of_spades_breaks_hearts() -> None:
    state = game(STANDARD.replace(points_on_first_trick=True),
                 {0: "AC", 1: "2C", 2: "3C", 3: "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"})
    state = play(state, "2C", "3C", "QS")
    assert state.hearts_broken


def test_queen_of_spades_does_not_break_hearts_when_the_option_is_off() -> None:
    rules = STANDARD.replace(points_on_first_trick=True, queen_breaks_hearts=False)
    state = game(rules, {0: "AC", 1: "2C", 2: "3C", 3: "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"})
    state = play(state, "2C", "3C", "QS")
    assert not state.hearts_broken


# --- following suit -------------------------------------------------------------------------

def test_must_follow_suit() -> None:
    state = game(STANDARD, {0: "2C", 1: "9C KC 5D"})
    state = play(state, "2C")
    with pytest.raises(IllegalMove, match=r"^must_follow_suit \(card=Card\('5D'\), "
                       r"legal=\(Card\('9C'\), Card\('KC'\)\), led=<Suit.CLUBS: 0>, "
                       r"held=\(Card\('9C'\), Card\('KC'\)\)\)"):
        decide(state, PlayCard(1, Card.parse("5D")))


# --- forced queen ---------------------------------------------------------------------------

def test_forced_queen_on_a_spade_trick_already_won_by_a_higher_spade() -> None:
    rules = preset("club").replace(**NO_PASS)
    state = game(rules, {0: "KS 2C", 1: "QS 3S 4S"}, dealer=3)
    state = play(state, "KS")
    assert legal(state, 1) == "QS"
    with pytest.raises(IllegalMove, match="^forced_queen "):
        decide(state, PlayCard(1, Card.parse("3S")))


def test_forced_queen_does_not_apply_when_the_queen_could_win() -> None:
    rules = preset("club").replace(**NO_PASS)
    state = play(game(rules, {0: "JS 2C", 1: "QS 3S 4S"}, dealer=3), "JS")
    assert legal(state, 1) == "3S 4S QS"


def test_forced_queen_must_be_discarded_when_void_in_the_suit_led() -> None:
    rules = preset("club").replace(**NO_PASS)
    hand = "QS 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"
    state = play(game(rules, {0: "2D 2C", 1: hand}, dealer=3), "2D")
    assert legal(state, 1) == "QS"


# --- turns and phases ---------------------------------------------------------------------

def test_playing_out_of_turn_is_refused() -> None:
    state = game(STANDARD, {0: "2C"})
    with pytest.raises(NotYourTurn, match=r"^not_your_turn_play \(waiting=0\)"):
        decide(state, PlayCard(2, state.hand(2)[0]), names=["Bob", "Ann", "Cy", "Di"])


def test_card_not_in_hand_is_refused() -> None:
    state = game(STANDARD, {0: "2C", 1: "AS"})
    with pytest.raises(IllegalMove, match=r"^not_held \(cards=\(Card\('AS'\),\)"):
        decide(state, PlayCard(0, Card.parse("AS")))


def test_playing_during_the_pass_is_the_wrong_phase() -> None:
    state = game(preset("standard"), {0: "2C"})
    assert state.phase is Phase.PASS
    with pytest.raises(WrongPhase, match=r"^pass_first \(count=3, "):
        decide(state, PlayCard(0, Card.parse("2C")))


def test_passing_is_simultaneous_and_cards_received_stay_hidden_until_all_have_passed() -> None:
    rules = preset("standard")
    state = game(rules, {0: "2C 3C 4C AS", 1: "5C 6C 7C KS"})
    assert state.to_move == (0, 1, 2, 3)
    state = apply(state, decide(state, PassCards(1, cards("5C 6C 7C")))[0])
    state = apply(state, decide(state, PassCards(0, cards("2C 3C 4C")))[0])
    assert state.to_move == (2, 3)
    assert seat_view(state, 1).received_cards == ()
    assert Card.parse("2C") not in state.hand(1)
    for seat in (3, 2):
        state = apply(state, CardsPassed(seat, state.hand(seat)[:3]))
    assert state.phase is Phase.PLAY
    assert seat_view(state, 1).received_cards == cards("2C 3C 4C")
    assert {Card.parse("2C"), Card.parse("3C"), Card.parse("4C")} <= set(state.hand(1))


def test_passing_the_wrong_number_of_cards_is_refused() -> None:
    state = game(preset("standard"), {0: "2C 3C 4C AS"})
    with pytest.raises(IllegalMove,
                       match=r"^pass_count \(count=3, cards=\(Card\('2C'\), Card\('3C'\)\)\)"):
        decide(state, PassCards(0, cards("2C 3C")))


def test_pass_cycle_for_each_player_count() -> None:
    expected = {"standard": (1, -1, 2, 0), "three": (1, -1, 0), "five": (1, -1, 2, -2, 0),
                "six": (1, -1, 2, -2, 3, 0), "seven": (1, -1)}
    for name, cycle in expected.items():
        rules = preset(name)
        assert tuple(rules.pass_offset(h) for h in range(1, len(cycle) + 1)) == cycle, name


def test_hold_hand_has_no_pass() -> None:
    rules = preset("standard")
    state = replay([GameCreated(rules, 4, 3)])
    for _ in range(3):
        state = _skip_hand(state)
    assert state.hand_number == 4
    state = apply(state, deal_for(rules, state.dealer, {}))
    assert state.phase is Phase.PLAY


def _skip_hand(state: GameState) -> GameState:
    state = apply(state, deal_for(state.rules, state.dealer, {}))
    for seat in range(state.seats):
        if state.phase is Phase.PASS:
            state = apply(state, CardsPassed(seat, state.hand(seat)[:3]))
    return apply(state, ClaimAccepted(state.turn)) if state.phase is Phase.PLAY else state


# --- scoring and the moon -------------------------------------------------------------------

def _moon_by_claim(rules: Rules, prior: tuple[int, ...] | None = None) -> GameState:
    """Seat 0 claims everything before a card is played: all hearts and the QS (a moon)."""
    return apply(game(rules, {0: "2C"}, prior=prior), ClaimAccepted(0))


def test_moon_others_score_26() -> None:
    state = _moon_by_claim(STANDARD)
    assert state.sheet[-1].points == (0, 26, 26, 26)
    assert state.sheet[-1].moon == 0


def test_moon_shooter_minus_26() -> None:
    state = _moon_by_claim(STANDARD.replace(moon=MoonRule.SHOOTER_MINUS))
    assert state.totals == (-26, 0, 0, 0)


def test_moon_shooters_choice() -> None:
    state = _moon_by_claim(STANDARD.replace(moon=MoonRule.SHOOTER_CHOICE))
    assert state.phase is Phase.MOON_CHOICE and state.to_move == (0,)
    with pytest.raises(NotYourTurn):
        decide(state, ChooseMoon(1, True))
    down = apply(state, decide(state, ChooseMoon(0, True))[0])
    up = apply(state, MoonChosen(0, False))
    assert down.totals == (-26, 0, 0, 0)
    assert up.totals == (0, 26, 26, 26)


def test_moon_74_rule_gives_no_choice_below_74() -> None:
    state = _moon_by_claim(STANDARD.replace(moon=MoonRule.CHOICE_AT_74), prior=(10, 73, 20, 30))
    assert state.phase is Phase.DEAL
    assert state.totals == (10, 99, 46, 56)


def test_moon_74_rule_offers_the_choice_when_a_score_is_74_or_more() -> None:
    state = _moon_by_claim(STANDARD.replace(moon=MoonRule.CHOICE_AT_74), prior=(10, 74, 20, 30))
    assert state.phase is Phase.MOON_CHOICE
    state = apply(state, MoonChosen(0, True))
    assert state.totals == (-16, 74, 20, 30)


def test_shooter_protection_goes_down_when_going_up_would_lose() -> None:
    state = _moon_by_claim(STANDARD.replace(moon=MoonRule.PROTECTION), prior=(60, 80, 20, 55))
    assert state.totals == (34, 80, 20, 55)
    assert state.sheet[-1].moon_down is True


def test_shooter_protection_puts_the_others_up_when_that_does_not_lose() -> None:
    state = _moon_by_claim(STANDARD.replace(moon=MoonRule.PROTECTION), prior=(10, 80, 50, 55))
    assert state.totals == (10, 106, 76, 81)
    assert state.game_over and state.winners == (0,)


def test_moon_with_the_jack_of_diamonds() -> None:
    state = _moon_by_claim(STANDARD.replace(bonus_card=BonusCard.JACK_OF_DIAMONDS))
    assert state.sheet[-1].points == (-10, 26, 26, 26)


def test_jack_of_diamonds_counts_minus_ten() -> None:
    rules = STANDARD.replace(bonus_card=BonusCard.JACK_OF_DIAMONDS, points_on_first_trick=True)
    state = game(rules, {0: "2C", 1: "AC", 2: "JD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", 3: "3C"})
    state = play(state, "2C", "AC", "JD", "3C")
    assert state.tricks[0].winner == 1
    assert state.hand_points == (0, -10, 0, 0)


def test_ten_of_diamonds_slam_scores_minus_26() -> None:
    state = _moon_by_claim(STANDARD.replace(bonus_card=BonusCard.TEN_OF_DIAMONDS))
    assert state.sheet[-1].points == (-26, 0, 0, 0)
    assert state.sheet[-1].slam


def test_ten_of_diamonds_moon_without_the_ten_is_an_ordinary_moon() -> None:
    rules = STANDARD.replace(bonus_card=BonusCard.TEN_OF_DIAMONDS)
    state = game(rules, {0: "2C", 1: "AC", 2: "TD 2D 3D 4D 5D 6D 7D 8D 9D JD QD KD AD",
                        3: "3C"})
    state = play(state, "2C", "AC", "TD", "3C")
    state = apply(state, ClaimAccepted(0))
    assert state.sheet[-1].points == (0, 16, 26, 26)
    assert not state.sheet[-1].slam


def test_queen_of_spades_not_scored_gives_13_points_a_hand() -> None:
    rules = preset("no-black-lady")
    state = game(rules, {0: "2C", 1: "AC", 2: "QS"})
    state = play(state, "2C", "AC", "QS")
    state = apply(state, ClaimAccepted(3))
    assert state.sheet[-1].points == (0, 0, 0, 13)
    assert state.sheet[-1].moon is None  # no moon in this variant


# --- the end of the game ------------------------------------------------------------------

def test_game_ends_when_someone_reaches_the_target_and_lowest_wins() -> None:
    state = _moon_by_claim(STANDARD, prior=(5, 80, 70, 60))
    assert state.game_over
    assert state.winners == (0,)


def test_target_score_50() -> None:
    state = _moon_by_claim(STANDARD.replace(target=50), prior=(5, 30, 20, 10))
    assert state.game_over and state.totals == (5, 56, 46, 36)


def test_a_tie_at_the_target_plays_on() -> None:
    state = _moon_by_claim(STANDARD, prior=(40, 80, 14, 30))
    assert state.totals == (40, 106, 40, 56)
    assert not state.game_over and state.phase is Phase.DEAL


def test_a_tie_at_the_target_is_shared_when_the_option_says_so() -> None:
    state = _moon_by_claim(STANDARD.replace(ties=Ties.SHARED), prior=(40, 80, 14, 30))
    assert state.game_over and state.winners == (0, 2)


def test_99_sinkhole_drops_a_score_of_exactly_99_to_zero() -> None:
    state = _moon_by_claim(STANDARD.replace(sinkhole_99=True), prior=(0, 73, 10, 20))
    assert state.totals == (0, 0, 36, 46)


def test_99_is_kept_without_the_sinkhole() -> None:
    state = _moon_by_claim(STANDARD, prior=(0, 73, 10, 20))
    assert state.totals == (0, 99, 36, 46)


# --- other player counts ------------------------------------------------------------------

def test_kitty_goes_to_the_winner_of_the_first_trick() -> None:
    rules = preset("three-kitty").replace(**NO_PASS)
    state = game(rules, {0: "2C", 1: "AC", 2: "3C"})
    kitty = state.kitty_cards
    assert len(kitty) == 1
    state = play(state, "2C", "AC", "3C")
    assert state.tricks[0].winner == 1
    assert set(kitty) <= set(state.taken(1))
    assert state.kitty == 0


def test_kitty_goes_to_the_last_trick_when_the_option_says_so() -> None:
    from pbem.engine import KittyTo

    rules = preset("five-kitty").replace(kitty_to=KittyTo.LAST_TRICK, **NO_PASS)
    state = game(rules, {0: "2C"})
    kitty = state.kitty_cards
    state = play(state, *[str(legal_cards(state, state.turn)[0]) for _ in range(1)])
    assert state.kitty_cards == kitty
    state = apply(state, ClaimAccepted(2))
    assert set(kitty) <= set(state.taken(2))


def test_card_removal_lists_make_the_deck_divide_evenly() -> None:
    for name, size in {"three": 17, "five": 10, "six": 8, "six-hoyle": 8, "seven": 7}.items():
        rules = preset(name)
        assert rules.hand_size == size and rules.kitty_size == 0, name


# --- first dealer, settlement ---------------------------------------------------------------

def test_first_dealer_by_draw_high_card_deals_and_suit_breaks_ties() -> None:
    assert dealer_from_draw(cards("5C KD 9S 2H")) == 1
    assert dealer_from_draw(cards("KC KD KS KH")) == 2  # spades > hearts > diamonds > clubs
    rules = preset("hoyle")
    with pytest.raises(WrongPhase):
        start(GameCreated(rules, 4, 0, cards("KC KD KS KH")))
    assert start(GameCreated(rules, 4, 2, cards("KC KD KS KH"))).dealer == 2


def test_pairwise_settlement_pays_a_player_below_zero_double() -> None:
    from pbem.engine.settlement import pairwise

    assert pairwise((10, 20, 30, 40)) == (60, 20, -20, -60)
    assert pairwise((-10, 0, 10, 20)) == (120, 10, -40, -90)
    assert sum(pairwise((-10, 0, 10, 20))) == 0


def test_howell_settlement_seven_hearts_pays_21_and_collects_6() -> None:
    from pbem.engine.settlement import howell
    from pbem.engine.state import HandResult

    sheet = (HandResult(1, 0, (7, 3, 2, 1), (7, 3, 2, 1), hearts=(7, 3, 2, 1)),)
    net = howell(sheet, 4)
    assert net[0] == 6 - 21
    assert sum(net) == 0


def test_chip_settlement_lowest_takes_the_pot_and_odd_chips_carry() -> None:
    from pbem.engine.settlement import pot_settlement
    from pbem.engine.state import HandResult

    sheet = (HandResult(1, 0, (0, 0, 13, 13), (0, 0, 13, 13)),
             HandResult(2, 1, (1, 5, 20, 0), (1, 5, 33, 13)))
    net, pot = pot_settlement(sheet, 4, zero_only=False)
    assert (net, pot) == ((12, 8, -33, 13), 0)


def test_sweepstakes_pot_carries_over_when_nobody_is_on_zero() -> None:
    from pbem.engine.settlement import pot_settlement
    from pbem.engine.state import HandResult

    sheet = (HandResult(1, 0, (1, 5, 7, 13), (1, 5, 7, 13)),)
    assert pot_settlement(sheet, 4, zero_only=True) == ((-1, -5, -7, -13), 26)


def test_settlement_follows_the_rules_option() -> None:
    state = _moon_by_claim(STANDARD.replace(settlement=Settlement.PAIRWISE))
    assert settlement(state).amounts == (78, -26, -26, -26)


# --- the log --------------------------------------------------------------------------------

def test_replay_of_the_log_equals_the_live_state() -> None:
    rules = STANDARD
    log: list[Event] = [GameCreated(rules, 4, 3), deal_for(rules, 3, {0: "2C"})]
    live = replay(log)
    for _ in range(8):
        event = CardPlayed(live.turn, legal_cards(live, live.turn)[0])
        live = apply(live, event)
        log.append(event)
    assert replay(log) == live


def test_a_rank_without_a_suit_asks_which_card_was_meant() -> None:
    from pbem.engine import UnreadableInput

    with pytest.raises(UnreadableInput, match="^card_without_suit"):
        Card.parse("Q")


def test_rules_from_stored_json_are_strict() -> None:
    from pbem.engine import EventDecodeError

    with pytest.raises(EventDecodeError):
        Rules.from_dict({"pass_cycle": [1.5]})
    with pytest.raises(EventDecodeError):
        Rules.from_dict({"players": 3, "removed": ["2d"]})
