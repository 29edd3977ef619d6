"""The rules as facts (a code and data per rule option) for invitations, emails and pages:
pbem.present.rules_words words them. Also the short phrases of a preset's summary."""

from __future__ import annotations

from typing import Any

from pbem.engine.rules import (
    BonusCard,
    Cancels,
    FirstDealer,
    KittyTo,
    MoonRule,
    OnlyHeartsAndQueenLead,
    OpeningLead,
    Rules,
    Settlement,
    Ties,
    Variant,
    describe_offset,
    removed_in_words,
)
from pbem.engine.state import Phase

Fact = tuple[str, dict[str, Any]]


def rules_facts(rules: Rules) -> list[Fact]:
    """The rules as facts, one per rule option that a player reads about, in reading order:
    a code and its data (pbem.present.rules_words words each as one sentence or two)."""
    auction = rules.variant is Variant.AUCTION
    found: list[Fact | None] = [
        _variant(rules), _deck(rules), _passing(rules), _opening(rules), _first_trick(rules),
        None if auction else _hearts(rules),
        _forced_queen(rules), None if auction else _points(rules),
        None if auction else ("moon", {"rule": rules.moon.value, "points": rules.moon_points,
                                       "from": rules.target - rules.moon_points}),
        _claims(rules), ("end", {"target": rules.target, "shared": rules.ties is not Ties.PLAY_ON}),
        ("sinkhole_99", {}) if rules.sinkhole_99 else None,
        ("draw_first_dealer", {}) if rules.first_dealer is FirstDealer.DRAW else None,
        None if rules.settlement is Settlement.SCORE_SHEET
        else ("settlement", {"how": rules.settlement.value}),
    ]
    return [f for f in found if f is not None]


def _variant(rules: Rules) -> Fact | None:
    if rules.variant is Variant.STANDARD:
        return None
    return "variant", {"variant": rules.variant.value,
                       "same_rank": rules.cancels is Cancels.SAME_RANK}


def _forced_queen(rules: Rules) -> Fact | None:
    if rules.forced_queen:
        return "forced_queen", {"when": "safely"}
    if rules.forced_queen_discard:
        return "forced_queen", {"when": "discard"}
    return None


def _claims(rules: Rules) -> Fact | None:
    if not rules.claim_penalty or rules.variant in (Variant.CANCELLATION, Variant.DOMINO):
        return None
    return "claim_penalty", {"points": rules.moon_points}


def _deck(rules: Rules) -> Fact:
    data: dict[str, Any] = {"players": rules.players, "hand": rules.hand_size}
    if rules.variant is Variant.CANCELLATION:
        data["widow"] = rules.kitty_size
    elif rules.variant is Variant.DOMINO:
        data["stock"] = rules.kitty_size
    elif rules.removed:
        data["removed"] = rules.removed
    elif rules.kitty_size:
        data["kitty"] = rules.kitty_size
        data["kitty_trick"] = "first" if rules.kitty_to is KittyTo.FIRST_TRICK else "last"
    return "deck", data


def _passing(rules: Rules) -> Fact:
    if not rules.pass_count:
        return "no_pass", {}
    return "pass", {"count": rules.pass_count, "cycle": rules.pass_cycle,
                    "players": rules.players}


def _opening(rules: Rules) -> Fact:
    if rules.variant is Variant.AUCTION:
        return "opening", {"lead": "bidder"}
    if rules.opening_lead is OpeningLead.LEFT_OF_DEALER:
        return "opening", {"lead": "left_of_dealer"}
    if rules.opening_lead is OpeningLead.ANY_CLUB:
        return "opening", {"lead": "any_club"}
    return "opening", {"lead": "lowest_club"}


def _first_trick(rules: Rules) -> Fact:
    if rules.points_on_first_trick:
        return "first_trick", {"points": "allowed"}
    if rules.variant is Variant.AUCTION:
        return "first_trick", {"points": "named_suit_waits"}
    # The QS is a point card only when it scores (Hearts Without Black Lady, Domino: it's free).
    return "first_trick", {"points": "wait" if rules.queen_scores else "hearts_wait"}


def _hearts(rules: Rules) -> Fact:
    return "hearts", {
        "broken": rules.hearts_must_be_broken, "queen_breaks": rules.queen_breaks_hearts,
        "on_discard": rules.hearts_break_on_discard,
        "may_lead_heart":
            rules.only_hearts_and_queen_lead is OnlyHeartsAndQueenLead.MAY_LEAD_HEART}


def _points(rules: Rules) -> Fact:
    return "points", {"queen": rules.queen_scores, "bonus": rules.bonus_card.value,
                      "slam": rules.moon_points, "needs_bonus": rules.moon_needs_bonus_card}


_AWAITED = {Phase.PASS: "pass", Phase.MOON_CHOICE: "moon_choice", Phase.BID: "bid",
            Phase.NAME_SUIT: "suit_to_avoid"}


def awaited_code(phase: Phase) -> str:
    """What the game waits for from a player in `phase`, for reminders and nudges, as a code
    (pbem.present.refusals.awaited_words words it: "your pass")."""
    return _AWAITED.get(phase, "card")


# --- a preset's summary: what differs from the standard game, generated from its options ----

_SHORT_MOON = {
    MoonRule.NONE: "no moon", MoonRule.SHOOTER_MINUS: "moon: shooter -{v}",
    MoonRule.SHOOTER_CHOICE: "moon: the shooter chooses", MoonRule.OTHERS_PLUS: "moon: others +{v}",
    MoonRule.CHOICE_AT_74: "the 74 rule for the moon", MoonRule.PROTECTION: "shooter protection",
    MoonRule.PROTECTION_CHOICE: "shooter protection, the shooter asked",
}
_SHORT_SETTLE = {
    Settlement.SCORE_SHEET: "", Settlement.PAIRWISE: "pairwise settlement, below zero paid double",
    Settlement.CHIPS: "chips: the deal's lowest score takes the pot",
    Settlement.SWEEPSTAKES: "sweepstakes: only a zero score takes the pot",
    Settlement.HOWELL: "Howell settlement",
    Settlement.AUCTION: "bid chips to name the suit to avoid",
}


def differences(rules: Rules) -> list[str]:
    """Short phrases for each option where `rules` differ from the standard game (the summary
    `pbem presets` and the docs show beside each preset, so it can't drift from the options)."""
    base = Rules()
    found = [_table_phrase(rules), _pass_phrase(rules, base)]
    found += _play_phrases(rules, base)
    found += _points_phrases(rules, base)
    found += _game_phrases(rules, base)
    return [f for f in found if f]


def _table_phrase(rules: Rules) -> str:
    if rules.variant is not Variant.STANDARD:
        same_rank = ", same rank cancels" if rules.cancels is Cancels.SAME_RANK else ""
        return f"{rules.variant.value} hearts, {rules.players} players{same_rank}"
    if rules.removed:
        return f"{rules.players} players, {removed_in_words(rules)} removed"
    if rules.kitty:
        trick = "first" if rules.kitty_to is KittyTo.FIRST_TRICK else "last"
        return f"{rules.players} players, a kitty of {rules.kitty_size} to the {trick} trick"
    return "" if rules.players == 4 else f"{rules.players} players"


def _pass_phrase(rules: Rules, base: Rules) -> str:
    if not rules.pass_count:
        return "no pass"
    if rules.pass_cycle == base.pass_cycle and rules.pass_count == base.pass_count:
        return ""
    cycle = ", ".join(describe_offset(o, rules.players) for o in rules.pass_cycle)
    return f"pass {rules.pass_count}: {cycle}"


def _play_phrases(rules: Rules, base: Rules) -> list[str]:
    found = []
    if rules.opening_lead is not base.opening_lead and rules.variant is Variant.STANDARD:
        found.append("left of dealer leads any card"
                     if rules.opening_lead is OpeningLead.LEFT_OF_DEALER else "any club leads")
    if rules.points_on_first_trick:
        found.append("points allowed on the first trick")
    if not rules.hearts_must_be_broken:
        found.append("no hearts-broken rule")
    elif rules.variant is Variant.STANDARD:
        breaker = "hearts or the QS" if rules.queen_breaks_hearts else "only hearts"
        found.append(f"{breaker} break hearts"
                     + (" when discarded" if rules.hearts_break_on_discard else ""))
    if rules.first_trick_fallback is not base.first_trick_fallback:
        found.append("holding only points on trick one, a heart before the QS")
    if rules.only_hearts_and_queen_lead is not base.only_hearts_and_queen_lead:
        found.append("holding only hearts and the QS, a heart may be led")
    if rules.forced_queen:
        found.append("forced queen")
    if rules.forced_queen_discard:
        found.append("the QS discarded at the first chance")
    return found


def _points_phrases(rules: Rules, base: Rules) -> list[str]:
    """What a hand's cards score: the queen, the moon, the bonus card, a false claim."""
    found = []
    if not rules.queen_scores:
        found.append("QS not scored")
    if rules.moon is not base.moon and rules.variant is not Variant.AUCTION:
        found.append(_SHORT_MOON[rules.moon].format(v=rules.moon_points))
    if rules.bonus_card is BonusCard.JACK_OF_DIAMONDS:
        found.append("JD counts -10")
    if rules.bonus_card is BonusCard.TEN_OF_DIAMONDS:
        found.append(f"TD counts -10; all 15 counting cards: -{rules.moon_points}")
    if rules.moon_needs_bonus_card:
        found.append("no moon without the TD")
    if rules.claim_penalty:
        found.append(f"a false claim costs {rules.moon_points}")
    return found


def _game_phrases(rules: Rules, base: Rules) -> list[str]:
    """How the game ends and is settled, and who deals first."""
    found = []
    if rules.target != base.target:
        found.append(f"game to {rules.target}")
    if rules.ties is not base.ties:
        found.append("a tie for lowest shares the win")
    if rules.sinkhole_99:
        found.append("99 drops to 0")
    if rules.first_dealer is FirstDealer.DRAW:
        found.append("draw for first dealer")
    found.append(_SHORT_SETTLE[rules.settlement])
    return found
