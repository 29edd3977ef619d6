"""Rules where a text differs from the common game, and `pbem presets NAME` read against the
engine's behaviour. Each test cites the seed text (../shared/seeds/) it comes from."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.dealing import create_game, deal
from pbem.engine import (
    ALL_PRESETS,
    PRESETS,
    CardPlayed,
    GameCreated,
    GameState,
    Phase,
    Rules,
    Ties,
    Trick,
    Variant,
    apply,
    describe_offset,
    legal_cards,
    parse_cards,
    preset,
    replay,
    start,
)
from pbem.engine.cards import mask_of
from pbem.engine.table import Table
from pbem.engine.variants import thaw
from pbem.present.rules_words import preset_summary, preset_title, rules_sentences
from pbem.rules_cli import presets
from tests.engine.test_claims_and_forced import deal_for

# A position where seat 0 leads the QS, then spades, then discards; seat 1 holds hearts.
DISCARD_HANDS = {
    0: "2C 3C 4C 5C 6C 7C QS 8C 9C TC JC QC KC",
    1: "AC 2D 3D 4D 5D 6D 2H 3H 4H 5H 6H 7H 2S",
    2: "AS KS JS TS 9S 8S 7S 6S 5S 4S 3S 7D 8D",
    3: "9D TD JD QD KD AD 8H 9H TH JH QH KH AH",
}


def _play(rules: Rules, hands: dict[int, str], plays: str, dealer: int = 3) -> GameState:
    rules = rules.replace(pass_count=0, pass_cycle=(0,))
    state = replay([GameCreated(rules, len(hands), dealer), deal_for(hands, dealer)])
    for move in plays.split():
        seat, card = move.split(":")
        state = apply(state, CardPlayed(int(seat), parse_cards(card)[0]))
    return state


def test_hearts_are_broken_only_by_a_discarded_heart_or_queen_seed_001() -> None:
    """Seed 001: "Hearts may not be led until a heart or the queen of spades has been
    discarded. ... The queen can be led at any time." (preset `hoyle`)"""
    hoyle = preset("hoyle")
    assert hoyle.hearts_break_on_discard
    # 2C led; AC wins (seat 1), who leads the 2S; seat 2's AS wins, seat 0 plays the QS on the
    # spade lead: a spade played to spades is no discard.
    state = _play(hoyle, DISCARD_HANDS, "0:2C 1:AC 2:7D 3:9D 1:2S 2:AS 3:TD 0:QS")
    assert not state.hearts_broken
    assert not any(c.suit.letter == "H" for c in legal_cards(state, 2))  # 2 holds no heart
    # The common reading breaks hearts with that QS.
    standard = _play(preset("standard"), DISCARD_HANDS, "0:2C 1:AC 2:7D 3:9D 1:2S 2:AS 3:TD 0:QS")
    assert standard.hearts_broken


def test_hearts_are_broken_by_a_heart_discarded_seed_001() -> None:
    """Seed 001: a heart discarded on another suit's lead breaks hearts."""
    before = _play(preset("hoyle"), DISCARD_HANDS, "0:2C 1:AC 2:7D 3:9D 1:2S 2:AS")
    assert not before.hearts_broken
    after = apply(before, CardPlayed(3, parse_cards("8H")[0]))  # seat 3 has no spade
    assert after.hearts_broken


def test_the_queen_of_spades_discarded_breaks_hearts_seed_001() -> None:
    """Seed 001: "until a heart or the queen of spades has been discarded"."""
    hands = dict(DISCARD_HANDS)
    hands[0], hands[2] = ("2C 3C 4C 5C 6C 7C QS 8C 9C TC JC QC 3S",
                          "AS KS JS TS 9S 8S 7S 6S 5S 4S KC 7D 8D")
    state = _play(preset("hoyle"), hands, "0:2C 1:AC 2:KC 3:9D 1:2D 2:7D 3:TD 0:QS")
    assert state.hearts_broken
    assert any(c.suit.letter == "H" for c in legal_cards(state, 3))


def test_club_game_ends_at_100_even_with_a_tie_for_lowest_seed_003() -> None:
    """Seed 003: "The game officially ends when someone reaches a score of 100 or more
    points" (settlement is pairwise, so no single winner is needed)."""
    club = preset("club")
    assert club.ties is Ties.SHARED
    table = _table_at(club, [99, 40, 40, 60])
    assert table._game_ends() and table.winners == (1, 2)
    assert "a tie for lowest shares the win" in " ".join(rules_sentences(club))
    h2g2 = _table_at(preset("h2g2"), [99, 40, 40, 60])  # seed 002: "further hands are played"
    assert not h2g2._game_ends()


def _table_at(rules: Rules, totals: list[int]) -> Table:
    state = start(create_game(rules, random.Random(1)))
    table = thaw(apply(state, deal(rules, random.Random(2))))
    table.totals = tuple(t + (1 if s == 0 else 0) for s, t in enumerate(totals))
    return table


def test_three_kitty_says_one_card_seed_002() -> None:
    """Seed 002: three players keep all 52; the extra card is a kitty."""
    words = " ".join(rules_sentences(preset("three-kitty")))
    assert "1 card forms a kitty" in words and "1 cards" not in words


def test_five_offers_seed_001_left_then_right_and_seed_002_cycle() -> None:
    """Seed 001: "With more than four players the passing rotation should be left and then
    right"; seed 002: "Left, Right, Two Players to the Left, Two Players to the Right"."""
    assert preset("five-hoyle").pass_cycle == (1, -1)
    assert preset("five").pass_cycle == (1, -1, 2, -2, 0)
    assert "seed 002" in PRESETS["five"].source and "seed 001" in PRESETS["five-hoyle"].source


def test_seven_kitty_cites_what_the_texts_cover_seed_002() -> None:
    """Seed 002 covers three to six players; the seven-player kitty extends it."""
    source = PRESETS["seven-kitty"].source
    assert "three to six" in source and "seed 001" in source


# --- `pbem presets NAME` reads true: the generated words checked against the engine ----------

def _dealt(rules: Rules, seed: int = 7) -> GameState:
    state = start(create_game(rules, random.Random(seed)))
    return apply(state, deal(rules, random.Random(seed)))


def _probe_table(rules: Rules, leader_card: str, hand: str, first: bool) -> tuple[Table, int]:
    """A table in play where the leader led `leader_card` and the next seat holds `hand`."""
    table = thaw(_dealt(rules))
    table.phase, table.trick, table.tricks = Phase.PLAY, [], ()
    if not first:
        table.tricks = replay_one_trick(rules).tricks
    if rules.variant is Variant.DOMINO:
        table.stock = []  # type: ignore[attr-defined]  # a void player may discard
    lead = parse_cards(leader_card)[0]
    table.trick, table.leader = [(0, lead.index)], 0
    table.turn = 1
    table.hands[1] = mask_of(parse_cards(hand))
    return table, 1


def replay_one_trick(rules: Rules) -> GameState:
    state = _dealt(rules)
    while state.phase is not Phase.PLAY or not state.tricks:
        if state.phase is not Phase.PLAY:
            return state
        state = apply(state, CardPlayed(state.turn, legal_cards(state, state.turn)[0]))
    return state


def _first_trick_queen_legal(rules: Rules) -> bool:
    table, seat = _probe_table(rules, "5C", "QS 5D", first=True)
    return bool(table.legal_mask(seat) & parse_cards("QS")[0].bit)


def _heart_lead_legal_unbroken(rules: Rules) -> bool:
    table = thaw(_dealt(rules))
    table.phase, table.trick, table.hearts_broken = Phase.PLAY, [], False
    table.tricks = replay_one_trick(rules).tricks or table.tricks
    table.leader = table.turn = 0
    table.hands[0] = mask_of(parse_cards("5H 5D"))
    return bool(table.legal_mask(0) & parse_cards("5H")[0].bit)


@pytest.mark.parametrize("name", list(ALL_PRESETS))
def test_pbem_presets_name_reads_true(name: str) -> None:
    """Every preset's plain words, as `pbem presets NAME` prints them, sampled against what the
    engine does with its options (cards dealt, the QS and hearts on the first trick, leading
    hearts, the game's end)."""
    rules = ALL_PRESETS[name].rules
    result = CliRunner().invoke(presets, [name])
    assert result.exit_code == 0
    words = result.output
    state = _dealt(rules)
    sizes = {len(state.hand(s)) for s in range(rules.players)}
    assert sizes == {rules.hand_size} or state.phase is Phase.BID
    assert f"{rules.players} players, {rules.hand_size} cards each" in words
    assert preset_summary(ALL_PRESETS[name]) in words
    if rules.variant is not Variant.AUCTION:
        queen_forbidden = "No hearts or queen of spades on the first trick" in words
        assert queen_forbidden == (not _first_trick_queen_legal(rules)), words
        hearts_free = "Hearts may be led at any time" in words
        assert hearts_free == _heart_lead_legal_unbroken(rules), words
    assert f"reaches {rules.target};" in words
    shares = "shares the win" in words
    table = _table_at(rules.replace(players=rules.players), [rules.target - 1, 0, 0]
                      + [50] * (rules.players - 3)) if rules.players >= 3 else None
    if table is not None:
        assert table._game_ends() == shares


def _queen_only_when_void(rules: Rules) -> bool:
    """Void in the suit led (clubs), holding the QS and a diamond, after the first trick: must
    the QS be discarded?"""
    table, seat = _probe_table(rules, "5C", "QS 5D", first=True)
    table.tricks = (Trick(0, (), 0),)  # no longer the first trick
    return table.legal_mask(seat) == parse_cards("QS")[0].bit


def _queen_led_breaks_hearts(rules: Rules) -> bool:
    """After the first trick, the leader leads the QS: are hearts broken by it?"""
    table = thaw(_dealt(rules))
    table.phase, table.hearts_broken = Phase.PLAY, False
    table.tricks = (Trick(0, (), 0),)  # no longer the first trick
    table.trick, table.leader = [], 0
    table.turn = 0
    table.hands[0] = mask_of(parse_cards("QS 5D"))
    table.play(0, parse_cards("QS")[0].index)
    return table.hearts_broken


@pytest.mark.parametrize("name", list(ALL_PRESETS))
def test_pbem_presets_name_reads_true_on_passing_the_forced_queen_and_breaking_hearts(
        name: str) -> None:
    """More of `pbem presets NAME` against the engine: the pass directions hand by hand (seed
    001's left-right rotation, seed 002's cycles), the forced queen (seed 001: "discard the QS
    at the first opportunity"; seed 003: also under a higher spade), and hearts broken only by
    a discard (seed 001: "the queen can be led at any time")."""
    rules = ALL_PRESETS[name].rules
    words = CliRunner().invoke(presets, [name]).output
    if rules.pass_count:
        sentence = next(line for line in words.splitlines() if line.startswith("- Pass "))
        cycle = [describe_offset(rules.pass_offset(h), rules.players)
                 for h in range(1, len(rules.pass_cycle) + 1)]
        said = sentence.split(": ", 1)[1]
        for direction in cycle:
            assert direction in said, (direction, said)
            said = said[said.index(direction) + len(direction):]
    else:
        assert "No cards are passed." in words
    if rules.variant in (Variant.AUCTION, Variant.CANCELLATION):
        return  # the suit to avoid is bid for; two decks: the probes' single QS is not theirs
    forced = "The queen of spades must be" in words
    assert forced == _queen_only_when_void(rules), words
    if rules.queen_breaks_hearts and rules.hearts_must_be_broken:
        on_discard = "has been discarded" in words
        assert on_discard == (not _queen_led_breaks_hearts(rules)), words


def test_engine_guide_preset_table_matches_the_generated_summaries() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text()
    for p in PRESETS.values():
        row = (f"| `{p.name}` | {p.rules.players} | {preset_title(p)} | {preset_summary(p)} "
               f"| {p.source} |")
        assert row in guide, row


def test_the_standard_rules_say_once_that_the_lowest_score_wins() -> None:
    """The start email's rules list ended "lowest wins, a tie for lowest plays on. The lowest
    score wins.": the score sheet's settlement adds nothing to the end's sentence."""
    words = " ".join(rules_sentences(preset("standard"))).lower()
    assert words.count("lowest wins") == 1 and "lowest wins, a tie for lowest" in words
    assert "the lowest score wins" not in words
