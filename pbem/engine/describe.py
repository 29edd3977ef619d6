"""The rules as facts (a code and data per rule option) for invitations, emails and pages:
pbem.present.rules_words words them. Also the short phrases of a preset's summary."""

from __future__ import annotations

from typing import Any

from pbem.engine.rules import (
    BonusCard,
    Cancels,
    FirstDealer,
    KittyTo,
    OnlyHeartsAndQueenLead,
    OpeningLead,
    Rules,
    Settlement,
    Ties,
    Variant,
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

def differences(rules: Rules) -> list[Fact]:
    """A fact for each option where `rules` differ from the standard game (the summary
    `pbem presets` and the docs show beside each preset, so it can't drift from the options):
    codes and data, worded as short phrases by pbem.present.rules_words.summary_words."""
    base = Rules()
    found = [_table_phrase(rules), _pass_phrase(rules, base)]
    found += _play_phrases(rules, base)
    found += _points_phrases(rules, base)
    found += _game_phrases(rules, base)
    return [f for f in found if f is not None]


def _table_phrase(rules: Rules) -> Fact | None:
    if rules.variant is not Variant.STANDARD:
        return "variant_table", {"variant": rules.variant.value, "players": rules.players,
                                 "same_rank": rules.cancels is Cancels.SAME_RANK}
    if rules.removed:
        return "players_removed", {"players": rules.players, "removed": rules.removed}
    if rules.kitty:
        return "players_kitty", {
            "players": rules.players, "kitty": rules.kitty_size,
            "trick": "first" if rules.kitty_to is KittyTo.FIRST_TRICK else "last"}
    return None if rules.players == 4 else ("players", {"players": rules.players})


def _pass_phrase(rules: Rules, base: Rules) -> Fact | None:
    if not rules.pass_count:
        return "no_pass", {}
    if rules.pass_cycle == base.pass_cycle and rules.pass_count == base.pass_count:
        return None
    return "pass", {"count": rules.pass_count, "cycle": rules.pass_cycle,
                    "players": rules.players}


def _play_phrases(rules: Rules, base: Rules) -> list[Fact]:
    found: list[Fact] = []
    if rules.opening_lead is not base.opening_lead and rules.variant is Variant.STANDARD:
        found.append(("opening", {"lead": rules.opening_lead.value}))
    if rules.points_on_first_trick:
        found.append(("points_on_first_trick", {}))
    if not rules.hearts_must_be_broken:
        found.append(("no_hearts_broken_rule", {}))
    elif rules.variant is Variant.STANDARD:
        found.append(("hearts_broken_by", {"queen": rules.queen_breaks_hearts,
                                           "on_discard": rules.hearts_break_on_discard}))
    if rules.first_trick_fallback is not base.first_trick_fallback:
        found.append(("first_trick_heart_before_queen", {}))
    if rules.only_hearts_and_queen_lead is not base.only_hearts_and_queen_lead:
        found.append(("may_lead_heart", {}))
    if rules.forced_queen:
        found.append(("forced_queen", {}))
    if rules.forced_queen_discard:
        found.append(("forced_queen_discard", {}))
    return found


def _points_phrases(rules: Rules, base: Rules) -> list[Fact]:
    """What a hand's cards score: the queen, the moon, the bonus card, a false claim."""
    found: list[Fact] = []
    if not rules.queen_scores:
        found.append(("queen_not_scored", {}))
    if rules.moon is not base.moon and rules.variant is not Variant.AUCTION:
        found.append(("moon", {"rule": rules.moon.value, "points": rules.moon_points}))
    if rules.bonus_card is BonusCard.JACK_OF_DIAMONDS:
        found.append(("jack_of_diamonds", {}))
    if rules.bonus_card is BonusCard.TEN_OF_DIAMONDS:
        found.append(("ten_of_diamonds", {"points": rules.moon_points}))
    if rules.moon_needs_bonus_card:
        found.append(("moon_needs_ten_of_diamonds", {}))
    if rules.claim_penalty:
        found.append(("claim_penalty", {"points": rules.moon_points}))
    return found


def _game_phrases(rules: Rules, base: Rules) -> list[Fact]:
    """How the game ends and is settled, and who deals first."""
    found: list[Fact] = []
    if rules.target != base.target:
        found.append(("target", {"target": rules.target}))
    if rules.ties is not base.ties:
        found.append(("ties_shared", {}))
    if rules.sinkhole_99:
        found.append(("sinkhole_99", {}))
    if rules.first_dealer is FirstDealer.DRAW:
        found.append(("draw_first_dealer", {}))
    if rules.settlement is not Settlement.SCORE_SHEET:
        found.append(("settlement", {"how": rules.settlement.value}))
    return found
