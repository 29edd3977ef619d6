"""Named rule presets: one per rules text where it differs, and the 3/5/6/7-player forms."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.engine.cards import Card, parse_cards
from pbem.engine.describe import differences
from pbem.engine.rules import (
    HOLD,
    LEFT,
    RIGHT,
    BonusCard,
    Cancels,
    FirstDealer,
    MoonRule,
    OpeningLead,
    Rules,
    Settlement,
    Ties,
    Variant,
    removed_in_words,
)


@dataclass(frozen=True, slots=True)
class Preset:
    """A named `Rules`. `name` is its key (the title players read is the presentation's:
    pbem.present.rules_words.preset_title); `family` the name of the presets it is one
    table size of (`omnibus-jd` for `omnibus-jd-five`), empty for a preset of its own."""

    name: str
    source: str  # which text(s) it follows, and where (for the docs and `pbem presets`)
    rules: Rules
    family: str = ""

    @property
    def differences(self) -> list[tuple[str, dict[str, Any]]]:
        """What differs from the standard game, as facts generated from the options (never
        drifts); pbem.present.rules_words.summary_words words them."""
        return differences(self.rules)


def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


_STANDARD = Rules()
# Seed 001 for more than four players: "the passing rotation should be left and then right".
_LEFT_RIGHT = (LEFT, RIGHT)
_CYCLE_002 = {3: (LEFT, RIGHT, HOLD), 5: (LEFT, RIGHT, 2, -2, HOLD),
              6: (LEFT, RIGHT, 2, -2, 3, HOLD)}
_REMOVED_001 = {3: "2D", 5: "2D 2C", 6: "2D 3D 3C 4C", 7: "2S 3D 3C"}
_REMOVED_002 = {3: "2D", 5: "2D 2C", 6: "2D 2C 2S 3D"}
_CLUB = _STANDARD.replace(opening_lead=OpeningLead.LEFT_OF_DEALER, hearts_must_be_broken=False,
                          forced_queen=True, points_on_first_trick=True,
                          moon=MoonRule.SHOOTER_CHOICE, first_dealer=FirstDealer.DRAW,
                          settlement=Settlement.PAIRWISE, ties=Ties.SHARED, claim_penalty=True)
_OMNIBUS_TD = _STANDARD.replace(bonus_card=BonusCard.TEN_OF_DIAMONDS)
_OMNIBUS_JD = _STANDARD.replace(bonus_card=BonusCard.JACK_OF_DIAMONDS)


def _at(rules: Rules, players: int, removed: str, cycle: tuple[int, ...]) -> Rules:
    return rules.replace(players=players, removed=_cards(removed), pass_cycle=cycle)


_PRESET_LIST = [
    Preset("standard",
           "the rules all five texts share (seeds 000, 001, 002, 004)", _STANDARD),
    Preset("bicycle", "seed 000",
           _STANDARD.replace(queen_breaks_hearts=False, moon=MoonRule.CHOICE_AT_74)),
    Preset("hoyle",
           "seed 001, with its \"recent popular\" hold hand",
           _STANDARD.replace(first_dealer=FirstDealer.DRAW, hearts_break_on_discard=True)),
    Preset("hoyle-no-hold",
           "seed 001: \"a passing rotation of left, right and across\"",
           _STANDARD.replace(first_dealer=FirstDealer.DRAW, hearts_break_on_discard=True,
                             pass_cycle=(LEFT, RIGHT, 2))),
    Preset("hoyle-forced-queen",
           "seed 001's variant: \"discard the \u2660Q at the first opportunity\"",
           _STANDARD.replace(first_dealer=FirstDealer.DRAW, hearts_break_on_discard=True,
                             forced_queen_discard=True)),
    Preset("h2g2", "seed 002",
           _STANDARD.replace(points_on_first_trick=True, queen_breaks_hearts=False)),
    Preset("h2g2-protected",
           "seed 002 with its optional rules \"Shooter Protection\" and \"No Blood on First "
           "Trick\"", _STANDARD.replace(moon=MoonRule.PROTECTION)),
    Preset("club", "seed 003", _CLUB),
    Preset("club-five",
           "seed 003 allows four to six players; 2D 2C removed as seeds 001 and 002 say, "
           "seed 002's pass cycle", _at(_CLUB, 5, _REMOVED_002[5], _CYCLE_002[5])),
    Preset("club-six",
           "seed 003 allows four to six players; seed 002's removals and pass cycle",
           _at(_CLUB, 6, _REMOVED_002[6], _CYCLE_002[6])),
    Preset("simple", "seed 004",
           _STANDARD.replace(queen_breaks_hearts=False)),
    Preset("omnibus-jd", "seed 002",
           _OMNIBUS_JD),
    *[Preset(f"omnibus-jd-{word}", f"seed 002: Omnibus is Black Lady plus the JD; its "
             f"{n}-player removals and pass", _at(_OMNIBUS_JD, n, _REMOVED_002[n], _CYCLE_002[n]),
             family="omnibus-jd")
      for n, word in ((3, "three"), (5, "five"), (6, "six"))],
    Preset("omnibus-td",
           "seed 001", _OMNIBUS_TD),
    Preset("omnibus-td-five",
           "seed 001: Omnibus for four to six; its five-player removals and pass",
           _at(_OMNIBUS_TD, 5, _REMOVED_001[5], _LEFT_RIGHT)),
    Preset("omnibus-td-six",
           "seed 001: Omnibus for four to six; its six-player removals and pass",
           _at(_OMNIBUS_TD, 6, _REMOVED_001[6], _LEFT_RIGHT)),
    Preset("no-black-lady", "seed 001",
           _STANDARD.replace(queen_scores=False, pass_count=0, pass_cycle=(HOLD,),
                             queen_breaks_hearts=False, moon=MoonRule.NONE,
                             settlement=Settlement.HOWELL)),
    Preset("chips", "seed 001, variation 1",
           _STANDARD.replace(settlement=Settlement.CHIPS)),
    Preset("sweepstakes", "seed 001, variation 2",
           _STANDARD.replace(settlement=Settlement.SWEEPSTAKES)),
    Preset("three",
           "seeds 001 and 002 remove 2D; seed 002's pass cycle (seed 001 gives none for three)",
           _at(_STANDARD, 3, _REMOVED_002[3], _CYCLE_002[3])),
    Preset("three-kitty", "seed 002: all 52, the kitty to trick one",
           _STANDARD.replace(players=3, kitty=True, pass_cycle=_CYCLE_002[3])),
    Preset("five",
           "seed 002 (seed 001 removes the same cards but passes left then right: five-hoyle)",
           _at(_STANDARD, 5, _REMOVED_002[5], _CYCLE_002[5])),
    Preset("five-hoyle",
           "seed 001: 2D 2C removed; \"with more than four players ... left and then right\"",
           _at(_STANDARD, 5, _REMOVED_001[5], _LEFT_RIGHT)),
    Preset("five-kitty", "seed 002",
           _STANDARD.replace(players=5, kitty=True, pass_cycle=_CYCLE_002[5])),
    Preset("six", "seed 002",
           _at(_STANDARD, 6, _REMOVED_002[6], _CYCLE_002[6])),
    Preset("six-hoyle", "seed 001",
           _at(_STANDARD, 6, _REMOVED_001[6], _LEFT_RIGHT)),
    Preset("six-kitty", "seed 002",
           _STANDARD.replace(players=6, kitty=True, pass_cycle=_CYCLE_002[6])),
    Preset("seven", "seed 001: left then right",
           _at(_STANDARD, 7, _REMOVED_001[7], _LEFT_RIGHT)),
    Preset("seven-kitty",
           "seed 002's kitty (its text covers three to six players) at seven, with seed 001's "
           "left-then-right pass for more than four", _STANDARD.replace(
               players=7, kitty=True, pass_cycle=_LEFT_RIGHT)),
]
PRESETS: dict[str, Preset] = {p.name: p for p in _PRESET_LIST}

# The whole variants, each at every allowed number of players (RULES.md): the preset at the usual
# table has the family's name, the others `NAME-three` and so on. They are kept apart from
# PRESETS, whose presets all share the standard fold (the engine's tests iterate them).
_NO_PASS = _STANDARD.replace(pass_count=0, pass_cycle=(HOLD,),
                             opening_lead=OpeningLead.LEFT_OF_DEALER)
_COUNT_WORDS = {2: "two", 3: "three", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
                10: "ten"}
# Auction Hearts is dealt from one deck: other tables remove cards as the seed 001 presets do.
_REMOVED_FOR = {3: "three", 5: "five", 6: "six-hoyle", 7: "seven"}  # 001 and 002 agree on 3, 5


def _seated(name: str, source: str, rules: Rules, counts: range) -> list[Preset]:
    """One preset per number of players; `rules.players` is the one called plain `name`."""
    found = []
    for n in counts:
        removed = PRESETS[_REMOVED_FOR[n]].rules.removed \
            if rules.variant is Variant.AUCTION and n in _REMOVED_FOR else ()
        at = rules.replace(players=n, removed=removed)
        text = f"{source}; {removed_in_words(at)} removed" if removed else source
        suffix = "" if n == rules.players else f"-{_COUNT_WORDS[n]}"
        found.append(Preset(name + suffix, text, at, family=name))
    return found


_VARIANT_LIST = [
    *_seated("cancellation",
             "two decks, identical cards cancel, a widow to the first trick, no pass",
             _NO_PASS.replace(variant=Variant.CANCELLATION, players=8), range(7, 11)),
    Preset("cancellation-rank",
           "two decks, any two cards of the same rank cancel, a widow of 5",
           _NO_PASS.replace(variant=Variant.CANCELLATION, players=9, cancels=Cancels.SAME_RANK)),
    *_seated("domino",
             "six cards each and a stock; draw until you can follow; QS not scored",
             _NO_PASS.replace(variant=Variant.DOMINO, queen_scores=False,
                              queen_breaks_hearts=False, target=50), range(2, 8)),
    *_seated("auction",
             "bid chips to name the suit to avoid; the pot is won, split or carried over",
             _NO_PASS.replace(variant=Variant.AUCTION, queen_scores=False,
                              queen_breaks_hearts=False, moon=MoonRule.NONE,
                              settlement=Settlement.AUCTION), range(3, 8)),
]
VARIANT_PRESETS: dict[str, Preset] = {p.name: p for p in _VARIANT_LIST}
ALL_PRESETS: dict[str, Preset] = {**PRESETS, **VARIANT_PRESETS}


def preset(name: str) -> Rules:
    """The rules of a named preset (whole variants included); KeyError with the known names."""
    found = ALL_PRESETS.get(name)
    if found is None:
        known = ", ".join(ALL_PRESETS)
        raise KeyError(f"unknown preset {name!r}; known: {known}")
    return found.rules
