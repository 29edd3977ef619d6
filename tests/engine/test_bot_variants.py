"""The heuristic bot in the whole variants: legal in every phase and player count, bids and
names the suit sensibly (Auction), avoids the named suit, cancels a winner with its twin
(Cancellation), counts only the players still in (Domino), never takes Domino's forced draw."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pbem.bots import choose_event
from pbem.bots.heuristic import choose_bid, choose_play, choose_suit
from pbem.dealing import create_game
from pbem.engine import (
    VARIANT_PRESETS,
    Bid,
    Card,
    GameCreated,
    GameState,
    HandDealt,
    Phase,
    Rules,
    Suit,
    SuitNamed,
    Trick,
    WrongPhase,
    apply,
    decide,
    deck_cards,
    forced_events,
    parse_cards,
    preset,
    replay,
    start,
)
from pbem.engine.cards import mask_of
from pbem.playout import random_event
from tests.helpers import play


def rules_of(name: str) -> Rules:
    return VARIANT_PRESETS[name].rules


def dealt(rules: Rules, hands: dict[int, str], **changes: object) -> GameState:
    """A dealt hand (the last seat deals, so seat 0 leads or bids first) with these hands."""
    n = rules.players
    state = replay([GameCreated(rules, n, n - 1), HandDealt(deck_cards(rules))])
    masks = tuple(mask_of(Card.from_code(c) for c in hands.get(s, "").split()) for s in range(n))
    return replace(state, hands=masks, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(VARIANT_PRESETS))
def test_bot_only_makes_legal_moves_in_every_variant(name: str) -> None:
    rng = random.Random(name)
    state = start(create_game(rules_of(name), rng))
    phases: set[Phase] = set()
    while not state.game_over and state.hand_number <= 3:
        phases.add(state.phase)
        if state.phase is Phase.DEAL:
            state = apply(state, random_event(state, rng))
        elif state.phase is Phase.DRAW:
            state = apply(state, forced_events(state)[0])
        else:  # every seat is the bot; apply() refuses anything illegal
            state = apply(state, choose_event(state, state.to_move[0]))
    expected = {"auction": {Phase.BID, Phase.NAME_SUIT}, "domino": {Phase.DRAW}}
    assert expected.get(name.split("-")[0], {Phase.PLAY}) <= phases


def test_bot_never_takes_the_forced_draw() -> None:
    state = dealt(rules_of("domino"), {0: "5C 9D", 1: "2D 3D", 2: "4C", 3: "6C"},
                  stock=tuple(c.index for c in parse_cards("7H 8S KC")))
    state = play(state, "5C")
    assert state.phase is Phase.DRAW
    with pytest.raises(WrongPhase):
        choose_event(state, state.turn)


def test_bot_bids_only_legal_amounts() -> None:
    rules = rules_of("auction-five")
    for seed in range(40):
        rng = random.Random(seed)
        state = start(create_game(rules, rng))
        state = apply(state, random_event(state, rng))
        while state.phase is Phase.BID:
            seat = state.turn
            chips = choose_bid(state, seat)
            assert chips is None or chips > max(0, *state.bids)
            (event,) = decide(state, Bid(seat, chips))  # decide() refuses an illegal bid
            state = apply(state, event)
        assert state.phase is Phase.NAME_SUIT


def test_bot_bids_for_a_suit_it_can_safely_name_and_passes_a_strong_hand() -> None:
    rules = rules_of("auction")
    low_clubs = "2C 3C 4C AD KD QD AH KH QH AS KS QS JS"
    strong = "AC KC QC AD KD QD AH KH QH AS KS QS JS"
    assert choose_bid(dealt(rules, {0: low_clubs}), 0) == 1
    assert choose_bid(dealt(rules, {0: strong}), 0) is None
    outbid = dealt(rules, {1: low_clubs}, bids=(3, -1, -1, -1), turn=1)
    assert choose_bid(outbid, 1) is None  # a safe suit is worth no more than 3 chips


def test_bot_names_the_suit_its_hand_is_safest_against() -> None:
    hand = parse_cards("AS KS QS AH KH 2D 3D 4D AC KC QC JC TC")
    assert choose_suit(hand) is Suit.DIAMONDS
    state = dealt(rules_of("auction"), {2: " ".join(map(str, hand))},
                  phase=Phase.NAME_SUIT, bidder=2, turn=2)
    assert choose_event(state, 2) == SuitNamed(2, Suit.DIAMONDS)


def auction_trick(named: Suit, hands: dict[int, str]) -> GameState:
    """Auction Hearts after the first trick: `named` is the suit to avoid, seat 3 leads."""
    state = apply(dealt(rules_of("auction"), {}, phase=Phase.NAME_SUIT, bidder=3, turn=3),
                  SuitNamed(3, named))
    masks = tuple(mask_of(parse_cards(hands.get(s, ""))) for s in range(4))
    return replace(state, hands=masks, tricks=(state.current_trick,))


def test_bot_in_auction_avoids_the_named_suit_not_hearts() -> None:
    hands = {3: "5D 2S", 0: "AH 3S", 1: "9S 9C 4S", 2: "KD 7D"}
    hearts_only = play(auction_trick(Suit.CLUBS, hands), "5D", "AH", "9S")
    assert str(choose_play(hearts_only, 2)) == "KD"  # the heart costs nothing: shed the king
    with_a_club = play(auction_trick(Suit.CLUBS, hands), "5D", "AH", "9C")
    assert str(choose_play(with_a_club, 2)) == "7D"  # a club does: keep low


def test_bot_in_auction_discards_the_named_suit() -> None:
    state = play(auction_trick(Suit.CLUBS, {3: "5D 2S", 0: "KC AH 2H"}), "5D")
    assert str(choose_play(state, 0)) == "KC"


def test_bot_in_cancellation_cancels_the_winning_card_with_its_twin() -> None:
    rules = rules_of("cancellation").replace(points_on_first_trick=True)
    state = play(dealt(rules, {0: "5D 2S", 1: "9D 3S", 2: "9D' 6D"}), "5D", "9D")
    assert choose_play(state, 2).code == "9D'"  # cancelled, it can never win: shed it
    state = play(dealt(rules, {0: "5D 2S", 1: "9D 3S", 2: "8D' 6D"}), "5D", "9D")
    assert choose_play(state, 2).code == "8D'"  # under the nine


def test_bot_in_domino_counts_only_the_players_still_in() -> None:
    state = dealt(rules_of("domino"), {0: "5D 9C", 1: "KD 7D"})  # seats 2 and 3 are out
    assert str(choose_play(play(state, "5D"), 1)) == "KD"  # last to play, no points: shed it
    full = dealt(rules_of("domino"), {0: "5D 9C", 1: "KD 7D", 2: "4D", 3: "8D"})
    assert str(choose_play(play(full, "5D"), 1)) == "7D"  # two still to play: play low



def test_bot_in_cancellation_counts_the_cards_carried_to_the_trick() -> None:
    rules = rules_of("cancellation-seven").replace(points_on_first_trick=True)
    hands = {0: "5D 2S", 1: "3C", 2: "4C", 3: "6C", 4: "7C", 5: "8C", 6: "KD 7D"}
    later = {"kitty": 0, "tricks": (Trick(0, ()),)}  # not the first trick (see the next test)
    clean = play(dealt(rules, hands, **later), "5D", "3C", "4C", "6C", "7C", "8C")
    assert str(choose_play(clean, 6)) == "KD"  # last to play, no points: shed the king
    carried = play(dealt(rules, hands, carry=mask_of(parse_cards("AH")), **later),
                   "5D", "3C", "4C", "6C", "7C", "8C")
    assert str(choose_play(carried, 6)) == "7D"  # the carried heart goes with the trick


def test_bot_counts_an_unseen_widow_of_the_first_trick_as_holding_points() -> None:
    """Cancellation: the widow is added to the first trick (RULES.md, Cancellation Hearts),
    and nobody has seen it, so the bot cannot know it is clean: it ducks."""
    rules = rules_of("cancellation-seven").replace(points_on_first_trick=True)
    hands = {0: "5D 2S", 1: "3C", 2: "4C", 3: "6C", 4: "7C", 5: "8C", 6: "KD 7D"}
    first = play(dealt(rules, hands, kitty=0), "5D", "3C", "4C", "6C", "7C", "8C")
    assert str(choose_play(first, 6)) == "7D"


def test_bot_cannot_tell_a_clean_kitty_from_one_with_a_heart() -> None:
    """Three-player kitty game: the kitty goes with the first trick unseen (RULES.md, the
    kitty), so a last player who could win the trick plays the same whatever the kitty holds:
    it ducks, counting the kitty as possibly holding points."""
    rules = preset("three-kitty").replace(points_on_first_trick=True, pass_cycle=(0,))
    hands = {0: "5D 2S", 1: "3D 3S", 2: "KD 7D"}
    games = [play(dealt(rules, hands, kitty=mask_of(parse_cards(kitty))), "5D", "3D")
             for kitty in ("4C", "AH")]
    assert [str(choose_play(state, 2)) for state in games] == ["7D", "7D"]
