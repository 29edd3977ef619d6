"""Events, rules and snapshots: their JSON forms round-trip and the decoders are strict."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pbem.engine import (
    ALL_CARDS,
    PRESETS,
    Card,
    CardPlayed,
    CardsPassed,
    ClaimAccepted,
    EngineError,
    EventDecodeError,
    GameCreated,
    GameState,
    HandDealt,
    MoonChosen,
    Rules,
    apply,
    decode_event,
    encode_event,
    event_type,
    parse_cards,
    preset,
    replay,
    replay_json,
    restore,
    snapshot,
)
from pbem.engine.rules import (
    BonusCard,
    FirstTrickFallback,
    KittyTo,
    MoonRule,
    OnlyHeartsAndQueenLead,
    OpeningLead,
    Settlement,
    Ties,
)
from pbem.playout import random_game

DECK = tuple(random.Random(7).sample(ALL_CARDS, 52))

EXAMPLES: dict[str, Any] = {
    "game_created": GameCreated(preset("standard"), 4, 2),
    "game_created_draw": GameCreated(preset("hoyle"), 4, 1, parse_cards("3C AS 2D 9H")),
    "game_created_seven": GameCreated(preset("seven-kitty"), 7, 6),
    "hand_dealt": HandDealt(DECK),
    "hand_dealt_short": HandDealt(tuple(c for c in DECK if str(c) != "2D")),
    "cards_passed": CardsPassed(3, parse_cards("2C QS TH")),
    "cards_passed_none": CardsPassed(0, ()),
    "card_played": CardPlayed(1, Card.parse("QS")),
    "card_played_ten": CardPlayed(0, Card.parse("10D")),
    "moon_up": MoonChosen(2, False),
    "moon_down": MoonChosen(0, True),
    "claim": ClaimAccepted(3),
}

VALID: dict[str, dict[str, Any]] = {
    "game_created": encode_event(EXAMPLES["game_created"]),
    "hand_dealt": encode_event(EXAMPLES["hand_dealt"]),
    "cards_passed": encode_event(EXAMPLES["cards_passed"]),
    "card_played": encode_event(EXAMPLES["card_played"]),
    "moon_chosen": encode_event(EXAMPLES["moon_down"]),
    "claim_accepted": encode_event(EXAMPLES["claim"]),
}


# --- events ---------------------------------------------------------------------------------

def test_every_event_kind_has_an_example() -> None:
    assert {event_type(e) for e in EXAMPLES.values()} == set(VALID)


@pytest.mark.parametrize("name", EXAMPLES)
def test_event_round_trips(name: str) -> None:
    event = EXAMPLES[name]
    data = encode_event(event)
    assert data["type"] == event_type(event)
    assert data["v"] == 1
    assert decode_event(data) == event
    through_json = json.loads(json.dumps(data))
    assert through_json == data
    again = decode_event(through_json)
    assert again == event
    assert type(again) is type(event)
    assert encode_event(again) == data


def test_encoded_cards_are_canonical() -> None:
    data = encode_event(EXAMPLES["card_played_ten"])
    assert data == {"type": "card_played", "v": 1, "seat": 0, "card": "TD"}
    data = encode_event(EXAMPLES["cards_passed"])
    assert data["cards"] == ["2C", "QS", "TH"]


def test_decoded_cards_are_the_interned_cards() -> None:
    event = decode_event({"type": "card_played", "v": 1, "seat": 0, "card": "QS"})
    assert isinstance(event, CardPlayed)
    assert event.card is Card.parse("QS")


def test_game_created_without_a_draw_may_omit_it() -> None:
    data = dict(VALID["game_created"])
    del data["dealer_draw"]
    assert decode_event(data) == EXAMPLES["game_created"]


def test_events_decode_from_a_whole_game_log() -> None:
    events, state = random_game(preset("standard"), seed=3, max_hands=2)
    payloads = json.loads(json.dumps([encode_event(e) for e in events]))
    assert [decode_event(p) for p in payloads] == events
    assert replay_json(payloads) == state


def bad(name: str, **changes: Any) -> dict[str, Any]:
    data = dict(VALID[name])
    for key, value in changes.items():
        if value is _DROP:
            data.pop(key)
        else:
            data[key] = value
    return data


_DROP = object()

BAD_PAYLOADS: dict[str, Any] = {
    "not a dict": ["card_played", 1, 0, "QS"],
    "none": None,
    "unknown type": bad("card_played", type="card_burned"),
    "type missing": bad("card_played", type=_DROP),
    "type not a string": bad("card_played", type=3),
    "version missing": bad("card_played", v=_DROP),
    "version 0": bad("card_played", v=0),
    "version 2": bad("card_played", v=2),
    "version as text": bad("card_played", v="1"),
    "version float": bad("card_played", v=1.5),
    "missing seat": bad("card_played", seat=_DROP),
    "missing card": bad("card_played", card=_DROP),
    "extra field": bad("card_played", extra=1),
    "extra cards field": bad("card_played", cards=["QS"]),
    "lower-case card": bad("card_played", card="qs"),
    "ten as 10": bad("card_played", card="10S"),
    "symbol card": bad("card_played", card="Q♠"),
    "word card": bad("card_played", card="queen of spades"),
    "card with spaces": bad("card_played", card=" QS"),
    "card not a string": bad("card_played", card=44),
    "card is junk": bad("card_played", card="XS"),
    "negative seat": bad("card_played", seat=-1),
    "seat as text": bad("card_played", seat="1"),
    "seat as bool": bad("card_played", seat=True),
    "seat as float": bad("card_played", seat=1.0),
    "seat null": bad("card_played", seat=None),
    "claim negative seat": bad("claim_accepted", seat=-2),
    "claim seat text": bad("claim_accepted", seat="north"),
    "claim extra": bad("claim_accepted", card="QS"),
    "moon down not bool": bad("moon_chosen", down=1),
    "moon down text": bad("moon_chosen", down="yes"),
    "moon missing down": bad("moon_chosen", down=_DROP),
    "moon bad seat": bad("moon_chosen", seat=-1),
    "passed lower-case": bad("cards_passed", cards=["2c", "QS", "TH"]),
    "passed 10H": bad("cards_passed", cards=["2C", "QS", "10H"]),
    "passed not a list": bad("cards_passed", cards="2C QS TH"),
    "passed list of ints": bad("cards_passed", cards=[0, 1, 2]),
    "passed bad seat": bad("cards_passed", seat=-1),
    "passed missing cards": bad("cards_passed", cards=_DROP),
    "dealt non-canonical": bad("hand_dealt", cards=["10S" if str(c) == "TS" else str(c)
                                                    for c in DECK]),
    "dealt not a list": bad("hand_dealt", cards=" ".join(str(c) for c in DECK)),
    "dealt extra field": bad("hand_dealt", seat=0),
    "created unknown rule": bad("game_created", rules={**VALID["game_created"]["rules"],
                                                       "jokers": True}),
    "created rules not a dict": bad("game_created", rules="standard"),
    "created bad rule value": bad("game_created", rules={**VALID["game_created"]["rules"],
                                                         "moon": "sideways"}),
    "created seats mismatch": bad("game_created", seats=5),
    "created dealer too big": bad("game_created", first_dealer=4),
    "created dealer negative": bad("game_created", first_dealer=-1),
    "created seats text": bad("game_created", seats="4"),
    "created missing rules": bad("game_created", rules=_DROP),
    "created bad draw card": bad("game_created", dealer_draw=["as", "2C", "3C", "4C"]),
    "created extra": bad("game_created", winner=0),
}


@pytest.mark.parametrize("payload", BAD_PAYLOADS.values(), ids=BAD_PAYLOADS.keys())
def test_decode_rejects(payload: Any) -> None:
    with pytest.raises(EventDecodeError) as info:
        decode_event(payload)
    assert str(info.value)
    assert isinstance(info.value, EngineError)


def test_decode_rejects_boolean_version() -> None:
    with pytest.raises(EventDecodeError):
        decode_event(bad("card_played", v=True))
    with pytest.raises(EventDecodeError):
        decode_event(bad("game_created", first_dealer=True))


def test_decode_error_names_the_problem() -> None:
    with pytest.raises(EventDecodeError, match="card_burned"):
        decode_event(bad("card_played", type="card_burned"))
    with pytest.raises(EventDecodeError, match="version"):
        decode_event(bad("card_played", v=2))
    with pytest.raises(EventDecodeError, match="10S"):
        decode_event(bad("card_played", card="10S"))
    with pytest.raises(EventDecodeError, match="jokers"):
        decode_event(bad("game_created", rules={**VALID["game_created"]["rules"], "jokers": 1}))


def test_fold_rejects_a_seat_beyond_the_table() -> None:
    rules = preset("standard")
    state = apply(replay([GameCreated(rules, 4, 0)]), HandDealt(DECK))
    # A stored payload the decoder accepts (seat is a non-negative whole number)…
    event = decode_event({"type": "cards_passed", "v": 1, "seat": 7,
                          "cards": [str(c) for c in state.hand(0)[:3]]})
    # …must be refused by the fold with an EngineError, not crash it.
    with pytest.raises(EngineError):
        apply(state, event)


# --- rules ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", PRESETS)
def test_rules_round_trip(name: str) -> None:
    rules = PRESETS[name].rules
    data = rules.to_dict()
    assert Rules.from_dict(data) == rules
    through_json = json.loads(json.dumps(data))
    assert Rules.from_dict(through_json) == rules
    assert through_json == data
    assert rules.replace() == rules
    assert PRESETS[name].name == name


def test_rules_dict_is_plain_json() -> None:
    data = preset("six").to_dict()
    assert data["removed"] == ["2D", "2C", "2S", "3D"]
    assert data["pass_cycle"] == [1, -1, 2, -2, 3, 0]
    assert data["moon"] == "others_plus"
    assert all(isinstance(v, (str, int, bool, list)) for v in data.values())


def test_rules_with_every_option_changed_round_trip() -> None:
    rules = Rules(players=5, removed=parse_cards("2D 2C"), pass_count=2,
                  pass_cycle=(2, -2, 0), opening_lead=OpeningLead.ANY_CLUB,
                  points_on_first_trick=True,
                  first_trick_fallback=FirstTrickFallback.HEART_NOT_QUEEN,
                  hearts_must_be_broken=False, queen_breaks_hearts=False,
                  only_hearts_and_queen_lead=OnlyHeartsAndQueenLead.MAY_LEAD_HEART,
                  forced_queen=True, moon=MoonRule.SHOOTER_MINUS,
                  bonus_card=BonusCard.TEN_OF_DIAMONDS, queen_scores=False, target=50,
                  ties=Ties.SHARED, sinkhole_99=True, settlement=Settlement.CHIPS)
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    kitty = Rules(players=3, kitty=True, kitty_to=KittyTo.LAST_TRICK)
    assert Rules.from_dict(kitty.to_dict()) == kitty


def test_a_partial_rules_dict_takes_the_defaults() -> None:
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"target": 50}) == Rules(target=50)


@pytest.mark.parametrize(("changes", "fragment"), [
    ({"jokers": True}, "jokers"),
    ({"Target": 100}, "Target"),
    ({"moon": "sideways"}, "bad_rules"),
    ({"kitty": "yes"}, "kitty"),
    ({"target": "100"}, "target"),
    ({"target": True}, "target"),
    ({"players": 9}, "players_range.*'low': 3, 'high': 7"),
    ({"players": 5}, "deck_does_not_divide"),
    ({"target": 0}, "target_not_positive"),
])
def test_rules_from_dict_rejects(changes: dict[str, Any], fragment: str) -> None:
    with pytest.raises(EventDecodeError, match=fragment):
        Rules.from_dict({**Rules().to_dict(), **changes})


def test_rules_from_dict_rejects_a_junk_removed_card() -> None:
    with pytest.raises(EventDecodeError):
        Rules.from_dict({"players": 3, "removed": ["XS"]})


def test_rules_reject_a_card_removed_twice() -> None:
    with pytest.raises(EventDecodeError):
        Rules.from_dict({"players": 5, "removed": ["2D", "2D"]})


# --- snapshots ------------------------------------------------------------------------------

SNAPSHOT_PRESETS = ["standard", "club", "omnibus-td", "three-kitty", "five", "seven-kitty",
                    "no-black-lady", "hoyle"]


def sample_states(name: str, seed: int) -> list[GameState]:
    events, final = random_game(preset(name), seed=seed, max_hands=4)
    states = [replay(events[:1])]
    for event in events[1:]:
        states.append(apply(states[-1], event))
    assert states[-1] == final
    rng = random.Random(seed)
    picked = rng.sample(states, min(12, len(states)))
    return [states[0], states[1], *picked, final]


@pytest.mark.parametrize("name", SNAPSHOT_PRESETS)
def test_snapshot_restore_round_trips(name: str) -> None:
    for state in sample_states(name, seed=11):
        data = snapshot(state)
        assert restore(data) == state
        through_json = json.loads(json.dumps(data))
        restored = restore(through_json)
        assert restored == state
        assert snapshot(restored) == data
        # The restored state carries on like the original.
        assert restored.to_move == state.to_move
        assert all(restored.hand(s) == state.hand(s) for s in range(state.seats))


def test_snapshot_mid_trick_keeps_the_trick() -> None:
    events, _ = random_game(preset("standard"), seed=5, max_hands=1)
    plays = [i for i, e in enumerate(events) if isinstance(e, CardPlayed)]
    state = replay(events[:plays[6] + 1])  # one full trick, then three cards
    assert len(state.current_trick.plays) == 3
    restored = restore(json.loads(json.dumps(snapshot(state))))
    assert restored.current_trick == state.current_trick
    assert restored.previous_trick == state.previous_trick
    assert restored == state
    # The game continues identically from the restored state.
    for event in events[plays[6] + 1:]:
        state, restored = apply(state, event), apply(restored, event)
        assert restored == state


def test_snapshot_of_a_finished_game() -> None:
    _, final = random_game(preset("standard"), seed=2)
    assert final.game_over
    assert restore(json.loads(json.dumps(snapshot(final)))) == final


@pytest.mark.parametrize("mutation", ["version", "missing", "phase"])
def test_restore_rejects_malformed_snapshots(mutation: str) -> None:
    events, state = random_game(preset("standard"), seed=1, max_hands=1)
    data = snapshot(replay(events[:20]))
    if mutation == "version":
        data["v"] = 99
    elif mutation == "missing":
        del data["hands"]
    else:
        data["phase"] = "dancing"
    with pytest.raises(EventDecodeError):
        restore(data)
