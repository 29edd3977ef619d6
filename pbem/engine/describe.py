"""The rules in plain words, one sentence per option, for invitations, emails and pages."""

from __future__ import annotations

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

_MOON = {
    MoonRule.NONE: "There is no shooting the moon: every point counts as taken.",
    MoonRule.OTHERS_PLUS: "Shooting the moon (all the points): you score 0 and everyone else {v}.",
    MoonRule.SHOOTER_MINUS: "Shooting the moon (all the points): you go down {v}.",
    MoonRule.SHOOTER_CHOICE: "Shooting the moon: you choose to go down {v} or put everyone else "
                             "up {v}.",
    MoonRule.CHOICE_AT_74: "Shooting the moon: everyone else scores {v}; once a score is "
                           "{t} or more the shooter may go down {v} instead.",
    MoonRule.PROTECTION: "Shooting the moon: everyone else scores {v}, unless that would make "
                         "the shooter lose; then the shooter goes down {v} instead.",
    MoonRule.PROTECTION_CHOICE: "Shooting the moon: everyone else scores {v}, unless that would "
                                "make the shooter lose; then the shooter may choose to go down "
                                "{v} instead.",
}
_SETTLE = {
    Settlement.SCORE_SHEET: "",  # the end's sentence says who wins (`_end`)
    Settlement.PAIRWISE: "At the end every pair settles the difference of their scores; "
                         "a player below zero is paid double.",
    Settlement.CHIPS: "Chips: everyone pays their points into the pot and the deal's lowest "
                      "score takes it (ties split, odd chips stay).",
    Settlement.SWEEPSTAKES: "Sweepstakes: everyone pays their points into the pot; only a "
                            "player with zero takes it, otherwise it carries over.",
    Settlement.HOWELL: "Howell settlement: for each heart you pay a chip to each other "
                       "player, and collect 13 minus your hearts.",
    Settlement.AUCTION: "Chips: the winning bid and a chip per card of the named suit taken go "
                        "into the pot. A sole player with none of the suit takes the pot; two "
                        "split it (an odd chip stays); otherwise it carries over and the same "
                        "bidder names the suit next deal without bidding.",
}
_VARIANT = {
    Variant.CANCELLATION: "Cancellation Hearts: two decks shuffled together. Two {what} in one "
                          "trick cancel and neither can win it; a trick nobody can win goes to "
                          "the winner of the next trick (the last one to its leader).",
    Variant.DOMINO: "Domino Hearts: six cards each, the rest is a stock. If you can't follow "
                    "suit you draw from the stock until you can; once it is gone you may "
                    "discard. You drop out when your hand is empty; the last player left takes "
                    "the cards still in hand and the stock.",
    Variant.AUCTION: "Auction Hearts: after the deal everyone bids once, in turn, chips for "
                     "naming the suit to avoid (more than the last bid, or pass; if all pass "
                     "the dealer names it for nothing). The winner pays, names the suit and "
                     "leads; that suit counts one point a card and must be broken before it "
                     "is led.",
}


def describe_rules(rules: Rules) -> list[str]:
    variant = _VARIANT.get(rules.variant, "").format(
        what="identical cards" if rules.cancels is Cancels.IDENTICAL
        else "cards of the same rank")
    auction = rules.variant is Variant.AUCTION
    return [s for s in (
        variant, _deck(rules), _passing(rules), _opening(rules), _first_trick(rules),
        "" if auction else _hearts(rules),
        _forced_queen(rules), "" if auction else _points(rules),
        "" if auction else _MOON[rules.moon].format(v=rules.moon_points,
                                                     t=rules.target - rules.moon_points),
        _claims(rules), _end(rules),
        "A score of exactly 99 drops to 0." if rules.sinkhole_99 else "",
        "Cards are drawn to choose the first dealer." if rules.first_dealer is FirstDealer.DRAW
        else "", _SETTLE[rules.settlement],
    ) if s]


def _forced_queen(rules: Rules) -> str:
    if rules.forced_queen:
        return ("The queen of spades must be played as soon as it safely can: discarded when "
                "you can't follow suit, and played under a higher spade.")
    if rules.forced_queen_discard:
        return ("The queen of spades must be discarded at the first chance: when you can't "
                "follow suit and hold it, you play it.")
    return ""


def _claims(rules: Rules) -> str:
    if not rules.claim_penalty or rules.variant in (Variant.CANCELLATION, Variant.DOMINO):
        return ""
    return ("A claim of the remaining tricks that could be beaten costs the claimer "
            f"{rules.moon_points} points (the others 0); with three or fewer tricks left the "
            "claimer takes the remaining points instead.")


def _deck(rules: Rules) -> str:
    text = f"{rules.players} players, {rules.hand_size} cards each"
    if rules.variant is Variant.CANCELLATION:
        widow = f"; {rules.kitty_size} cards form a widow added to the first trick" \
            if rules.kitty_size else ""
        return f"{text}{widow}."
    if rules.variant is Variant.DOMINO:
        return f"{text}; a stock of {rules.kitty_size}."
    if rules.removed:
        return f"{text} ({removed_in_words(rules)} taken out)."
    if rules.kitty_size:
        trick = "first" if rules.kitty_to.value == "first_trick" else "last"
        kitty = "1 card forms" if rules.kitty_size == 1 else f"{rules.kitty_size} cards form"
        return f"{text}; {kitty} a kitty for the {trick} trick's winner."
    return text + "."


def _passing(rules: Rules) -> str:
    if not rules.pass_count:
        return "No cards are passed."
    cycle = ", ".join(describe_offset(o, rules.players) for o in rules.pass_cycle)
    return f"Pass {rules.pass_count} cards before each hand: {cycle}, then again."


def _opening(rules: Rules) -> str:
    if rules.variant is Variant.AUCTION:
        return "The winning bidder leads any card to the first trick."
    if rules.opening_lead is OpeningLead.LEFT_OF_DEALER:
        return "The player left of the dealer leads any card to the first trick."
    if rules.opening_lead is OpeningLead.ANY_CLUB:
        return "The holder of the lowest club leads a club to the first trick."
    return "The holder of the lowest club (2C, or 3C when it is taken out) leads it."


def _first_trick(rules: Rules) -> str:
    if rules.points_on_first_trick:
        return "Points may be played on the first trick."
    if rules.variant is Variant.AUCTION:
        return "No cards of the named suit on the first trick, unless you hold nothing else."
    # The QS is a point card only when it scores (Hearts Without Black Lady, Domino: it's free).
    cards = "hearts or queen of spades" if rules.queen_scores else "hearts (the queen of spades " \
        "is free and may be played)"
    return f"No {cards} on the first trick, unless you hold nothing else."


def _hearts(rules: Rules) -> str:
    if not rules.hearts_must_be_broken:
        return "Hearts may be led at any time."
    breaker = "a heart or the queen of spades" if rules.queen_breaks_hearts else "a heart"
    if rules.hearts_break_on_discard:
        text = (f"Hearts can't be led until {breaker} has been discarded, that is played "
                "on another suit's lead (or you hold only hearts).")
    else:
        text = f"Hearts can't be led until {breaker} has been played (or you hold only hearts)."
    if rules.only_hearts_and_queen_lead is OnlyHeartsAndQueenLead.MAY_LEAD_HEART:
        text += " Holding only hearts and the queen of spades, you may lead a heart."
    return text


def _points(rules: Rules) -> str:
    text = "Each heart is 1 point"
    text += ", the queen of spades 13." if rules.queen_scores else "; the queen of spades is free."
    if rules.bonus_card is BonusCard.JACK_OF_DIAMONDS:
        text += " The jack of diamonds counts -10."
    if rules.bonus_card is BonusCard.TEN_OF_DIAMONDS:
        text += (" The ten of diamonds counts -10; taking all 15 counting cards is a slam: "
                 f"-{rules.moon_points}.")
        if rules.moon_needs_bonus_card:
            text += " Without the ten of diamonds, taking every heart and the queen is no moon."
    return text


def _end(rules: Rules) -> str:
    tie = ("a tie for lowest plays on" if rules.ties is Ties.PLAY_ON
           else "a tie for lowest shares the win")
    return f"The game ends when someone reaches {rules.target}; lowest wins, {tie}."


_AWAITED = {Phase.PASS: "your pass", Phase.MOON_CHOICE: "your moon choice",
            Phase.BID: "your bid", Phase.NAME_SUIT: "your choice of the suit to avoid"}


def awaited_words(phase: Phase) -> str:
    """What the game waits for from a player in `phase`, for reminders and nudges."""
    return _AWAITED.get(phase, "your card")


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
