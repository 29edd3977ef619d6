"""The rules in words (issue 34): what the engine states as facts, worded for the reader."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pbem.engine import HOLD, BonusCard, Preset, Rules, Variant, differences
from pbem.present.i18n import _, ngettext
from pbem.present.refusals import cards_list


def offset_words(offset: int, players: int) -> str:
    """Where the cards go: ``left``, ``right``, ``across``, ``2 to the left``, or no pass."""
    if offset == HOLD:
        return _("no pass (hold)")
    if players % 2 == 0 and abs(offset) == players // 2:
        return _("across")
    if offset == 1:
        return _("left")
    if offset == -1:
        return _("right")
    if offset > 0:
        return _("%(num)s to the left", num=abs(offset))
    return _("%(num)s to the right", num=abs(offset))


# --- the rules text: one sentence (or two) per fact of pbem.engine.describe.rules_facts ---

def rules_sentences(rules: Rules) -> list[str]:
    """The rules in plain words, one item per rule option, for invitations, emails and pages."""
    return [_FACTS[code](data) for code, data in rules.facts()]


def _variant(data: dict[str, Any]) -> str:
    variant = data["variant"]
    if variant == "cancellation" and data["same_rank"]:
        return _("Cancellation Hearts: two decks shuffled together. Two cards of the same rank "
                 "in one trick cancel and neither can win it; a trick nobody can win goes to "
                 "the winner of the next trick (the last one to its leader).")
    if variant == "cancellation":
        return _("Cancellation Hearts: two decks shuffled together. Two identical cards in one "
                 "trick cancel and neither can win it; a trick nobody can win goes to the "
                 "winner of the next trick (the last one to its leader).")
    if variant == "domino":
        return _("Domino Hearts: six cards each, the rest is a stock. If you can't follow suit "
                 "you draw from the stock until you can; once it is gone you may discard. You "
                 "drop out when your hand is empty; the last player left takes the cards still "
                 "in hand and the stock.")
    return _("Auction Hearts: after the deal everyone bids once, in turn, chips for naming the "
             "suit to avoid (more than the last bid, or pass; if all pass the dealer names it "
             "for nothing). The winner pays, names the suit and leads; that suit counts one "
             "point a card and must be broken before it is led.")


def _deck(data: dict[str, Any]) -> str:
    players, hand = data["players"], data["hand"]
    if "widow" in data and data["widow"]:
        return ngettext("%(players)s players, %(hand)s cards each; %(num)d card forms a widow "
                        "added to the first trick.",
                        "%(players)s players, %(hand)s cards each; %(num)d cards form a widow "
                        "added to the first trick.", data["widow"], players=players, hand=hand)
    if "stock" in data:
        return _("%(players)s players, %(hand)s cards each; a stock of %(stock)s.",
                 players=players, hand=hand, stock=data["stock"])
    if "removed" in data:
        return _("%(players)s players, %(hand)s cards each (%(cards)s taken out).",
                 players=players, hand=hand, cards=cards_list(data["removed"]))
    if "kitty" in data and data["kitty_trick"] == "first":
        return ngettext("%(players)s players, %(hand)s cards each; %(num)d card forms a kitty "
                        "for the first trick's winner.",
                        "%(players)s players, %(hand)s cards each; %(num)d cards form a kitty "
                        "for the first trick's winner.", data["kitty"], players=players,
                        hand=hand)
    if "kitty" in data:
        return ngettext("%(players)s players, %(hand)s cards each; %(num)d card forms a kitty "
                        "for the last trick's winner.",
                        "%(players)s players, %(hand)s cards each; %(num)d cards form a kitty "
                        "for the last trick's winner.", data["kitty"], players=players,
                        hand=hand)
    return _("%(players)s players, %(hand)s cards each.", players=players, hand=hand)


def _pass(data: dict[str, Any]) -> str:
    cycle = ", ".join(offset_words(o, data["players"]) for o in data["cycle"])
    return ngettext("Pass %(num)d card before each hand: %(cycle)s, then again.",
                    "Pass %(num)d cards before each hand: %(cycle)s, then again.",
                    data["count"], cycle=cycle)


def _opening(data: dict[str, Any]) -> str:
    lead = data["lead"]
    if lead == "bidder":
        return _("The winning bidder leads any card to the first trick.")
    if lead == "left_of_dealer":
        return _("The player left of the dealer leads any card to the first trick.")
    if lead == "any_club":
        return _("The holder of the lowest club leads a club to the first trick.")
    return _("The holder of the lowest club (2C, or 3C when it is taken out) leads it.")


def _first_trick(data: dict[str, Any]) -> str:
    points = data["points"]
    if points == "allowed":
        return _("Points may be played on the first trick.")
    if points == "named_suit_waits":
        return _("No cards of the named suit on the first trick, unless you hold nothing else.")
    if points == "hearts_wait":
        return _("No hearts (the queen of spades is free and may be played) on the first "
                 "trick, unless you hold nothing else.")
    return _("No hearts or queen of spades on the first trick, unless you hold nothing else.")


def _hearts(data: dict[str, Any]) -> str:
    if not data["broken"]:
        return _("Hearts may be led at any time.")
    queen, discard = data["queen_breaks"], data["on_discard"]
    if queen and discard:
        text = _("Hearts can't be led until a heart or the queen of spades has been discarded, "
                 "that is played on another suit's lead (or you hold only hearts).")
    elif discard:
        text = _("Hearts can't be led until a heart has been discarded, that is played on "
                 "another suit's lead (or you hold only hearts).")
    elif queen:
        text = _("Hearts can't be led until a heart or the queen of spades has been played (or "
                 "you hold only hearts).")
    else:
        text = _("Hearts can't be led until a heart has been played (or you hold only hearts).")
    if data["may_lead_heart"]:
        text += " " + _("Holding only hearts and the queen of spades, you may lead a heart.")
    return text


def _forced_queen(data: dict[str, Any]) -> str:
    if data["when"] == "safely":
        return _("The queen of spades must be played as soon as it safely can: discarded when "
                 "you can't follow suit, and played under a higher spade.")
    return _("The queen of spades must be discarded at the first chance: when you can't follow "
             "suit and hold it, you play it.")


def _points(data: dict[str, Any]) -> str:
    text = _("Each heart is 1 point, the queen of spades 13.") if data["queen"] \
        else _("Each heart is 1 point; the queen of spades is free.")
    if data["bonus"] == "jack_of_diamonds":
        text += " " + _("The jack of diamonds counts -10.")
    if data["bonus"] == "ten_of_diamonds":
        text += " " + _("The ten of diamonds counts -10; taking all 15 counting cards is a "
                        "slam: -%(points)s.", points=data["slam"])
        if data["needs_bonus"]:
            text += " " + _("Without the ten of diamonds, taking every heart and the queen is "
                            "no moon.")
    return text


def _moon(data: dict[str, Any]) -> str:
    rule, v = data["rule"], data["points"]
    if rule == "none":
        return _("There is no shooting the moon: every point counts as taken.")
    if rule == "others_plus":
        return _("Shooting the moon (all the points): you score 0 and everyone else %(v)s.", v=v)
    if rule == "shooter_minus":
        return _("Shooting the moon (all the points): you go down %(v)s.", v=v)
    if rule == "shooter_choice":
        return _("Shooting the moon: you choose to go down %(v)s or put everyone else up "
                 "%(v)s.", v=v)
    if rule == "choice_at_74":
        return _("Shooting the moon: everyone else scores %(v)s; once a score is %(t)s or more "
                 "the shooter may go down %(v)s instead.", v=v, t=data["from"])
    if rule == "protection":
        return _("Shooting the moon: everyone else scores %(v)s, unless that would make the "
                 "shooter lose; then the shooter goes down %(v)s instead.", v=v)
    return _("Shooting the moon: everyone else scores %(v)s, unless that would make the shooter "
             "lose; then the shooter may choose to go down %(v)s instead.", v=v)


def _claim_penalty(data: dict[str, Any]) -> str:
    return _("A claim of the remaining tricks that could be beaten costs the claimer "
             "%(points)s points (the others 0); with three or fewer tricks left the claimer "
             "takes the remaining points instead.", points=data["points"])


def _end(data: dict[str, Any]) -> str:
    if data["shared"]:
        return _("The game ends when someone reaches %(target)s; lowest wins, a tie for lowest "
                 "shares the win.", target=data["target"])
    return _("The game ends when someone reaches %(target)s; lowest wins, a tie for lowest "
             "plays on.", target=data["target"])


def _settlement(data: dict[str, Any]) -> str:
    how = data["how"]
    if how == "pairwise":
        return _("At the end every pair settles the difference of their scores; a player below "
                 "zero is paid double.")
    if how == "chips":
        return _("Chips: everyone pays their points into the pot and the deal's lowest score "
                 "takes it (ties split, odd chips stay).")
    if how == "sweepstakes":
        return _("Sweepstakes: everyone pays their points into the pot; only a player with zero "
                 "takes it, otherwise it carries over.")
    if how == "howell":
        return _("Howell settlement: for each heart you pay a chip to each other player, and "
                 "collect 13 minus your hearts.")
    return _("Chips: the winning bid and a chip per card of the named suit taken go into the "
             "pot. A sole player with none of the suit takes the pot; two split it (an odd chip "
             "stays); otherwise it carries over and the same bidder names the suit next deal "
             "without bidding.")


_FACTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "variant": _variant, "deck": _deck, "pass": _pass,
    "no_pass": lambda d: _("No cards are passed."),
    "opening": _opening, "first_trick": _first_trick, "hearts": _hearts,
    "forced_queen": _forced_queen, "points": _points, "moon": _moon,
    "claim_penalty": _claim_penalty, "end": _end,
    "sinkhole_99": lambda d: _("A score of exactly 99 drops to 0."),
    "draw_first_dealer": lambda d: _("Cards are drawn to choose the first dealer."),
    "settlement": _settlement,
}


# --- preset titles: the engine names a preset by its key; its title is read here ----------

def preset_title(preset: Preset) -> str:
    """The title players read for `preset` (`Standard Hearts (Black Lady)`)."""
    own = _own_title(preset.name)
    if own is not None:
        return own
    players = preset.rules.players
    if preset.family == "omnibus-jd":
        return ngettext("Omnibus Hearts, jack of diamonds -10, %(num)d player",
                        "Omnibus Hearts, jack of diamonds -10, %(num)d players",
                        players)
    if preset.family == "cancellation":
        return ngettext("Cancellation Hearts, %(num)d player",
                        "Cancellation Hearts, %(num)d players", players)
    if preset.family == "domino":
        return ngettext("Domino Hearts, %(num)d player",
                        "Domino Hearts, %(num)d players", players)
    if preset.family == "auction":
        return ngettext("Auction Hearts, %(num)d player",
                        "Auction Hearts, %(num)d players", players)
    return preset.name


def _own_title(name: str) -> str | None:  # noqa: C901 (one title per preset)
    titles = {
        "standard": _("Standard Hearts (Black Lady)"),
        "bicycle": _("Bicycle rules"),
        "hoyle": _("Hoyle rules"),
        "hoyle-no-hold": _("Hoyle rules, pass left, right, across"),
        "hoyle-forced-queen": _("Hoyle rules with the forced queen"),
        "h2g2": _("Black Lady, optional rules off"),
        "h2g2-protected": _("Black Lady with shooter protection and no blood"),
        "club": _("Club rules"),
        "club-five": _("Club rules, 5 players"),
        "club-six": _("Club rules, 6 players"),
        "simple": _("Simple rules"),
        "omnibus-jd": _("Omnibus Hearts, jack of diamonds -10"),
        "omnibus-td": _("Omnibus Hearts, ten of diamonds -10 with the slam"),
        "omnibus-td-five": _("Omnibus Hearts, ten of diamonds -10, 5 players"),
        "omnibus-td-six": _("Omnibus Hearts, ten of diamonds -10, 6 players"),
        "no-black-lady": _("Hearts Without Black Lady"),
        "chips": _("Chip scoring"),
        "sweepstakes": _("Sweepstakes"),
        "three": _("Three players (2D removed)"),
        "three-kitty": _("Three players with a kitty"),
        "five": _("Five players (2D 2C removed)"),
        "five-hoyle": _("Five players, pass left then right"),
        "five-kitty": _("Five players with a kitty"),
        "six": _("Six players (2D 2C 2S 3D removed)"),
        "six-hoyle": _("Six players (2D 3D 3C 4C removed)"),
        "six-kitty": _("Six players with a kitty"),
        "seven": _("Seven players (2S 3D 3C removed)"),
        "seven-kitty": _("Seven players with a kitty"),
        "cancellation-rank": _("Cancellation Hearts, same rank cancels, 9 players"),
    }
    return titles.get(name)


# --- a preset's summary: short phrases for what differs from the standard game -----------

def summary_phrases(rules: Rules) -> list[str]:
    """What differs from the standard game, one short phrase per difference (none for it)."""
    return [_SHORT[code](data) for code, data in differences(rules)]


def summary_words(rules: Rules) -> str:
    """`3 players, 2D removed; pass 3: left, right, no pass (hold)`; or the standard game."""
    return "; ".join(summary_phrases(rules)) or _("the standard game")


def short_summary(rules: Rules, width: int = 60) -> str:
    """`summary_words` cut after the phrases that fit in `width` characters (at least one),
    with "…" when some were left out, without the table a preset's title already says: the
    short form a menu option carries."""
    phrases = [_SHORT[code](data) for code, data in differences(rules)
               if code not in ("variant_table", "players")]
    if not phrases:
        return _("the standard game")
    kept = [phrases[0]]
    for phrase in phrases[1:]:
        if len("; ".join([*kept, phrase])) > width:
            return _("%(phrases)s…", phrases="; ".join(kept))
        kept.append(phrase)
    return "; ".join(kept)


def preset_summary(preset: Preset) -> str:
    return summary_words(preset.rules)


def _short_table(data: dict[str, Any]) -> str:
    players, variant = data["players"], data["variant"]
    if variant == "cancellation" and data["same_rank"]:
        return _("cancellation hearts, %(players)s players, same rank cancels", players=players)
    if variant == "cancellation":
        return _("cancellation hearts, %(players)s players", players=players)
    if variant == "domino":
        return _("domino hearts, %(players)s players", players=players)
    return _("auction hearts, %(players)s players", players=players)


def _short_hearts(data: dict[str, Any]) -> str:
    if data["queen"] and data["on_discard"]:
        return _("hearts or the QS break hearts when discarded")
    if data["queen"]:
        return _("hearts or the QS break hearts")
    if data["on_discard"]:
        return _("only hearts break hearts when discarded")
    return _("only hearts break hearts")


def _short_moon(data: dict[str, Any]) -> str:
    rule, v = data["rule"], data["points"]
    if rule == "none":
        return _("no moon")
    if rule == "shooter_minus":
        return _("moon: shooter -%(v)s", v=v)
    if rule == "shooter_choice":
        return _("moon: the shooter chooses")
    if rule == "others_plus":
        return _("moon: others +%(v)s", v=v)
    if rule == "choice_at_74":
        return _("the 74 rule for the moon")
    if rule == "protection":
        return _("shooter protection")
    return _("shooter protection, the shooter asked")


def _short_settlement(data: dict[str, Any]) -> str:
    how = data["how"]
    if how == "pairwise":
        return _("pairwise settlement, below zero paid double")
    if how == "chips":
        return _("chips: the deal's lowest score takes the pot")
    if how == "sweepstakes":
        return _("sweepstakes: only a zero score takes the pot")
    if how == "howell":
        return _("Howell settlement")
    return _("bid chips to name the suit to avoid")


_SHORT: dict[str, Callable[[dict[str, Any]], str]] = {
    "variant_table": _short_table,
    "players_removed": lambda d: _("%(players)s players, %(cards)s removed",
                                   players=d["players"], cards=cards_list(d["removed"])),
    "players_kitty": lambda d: _("%(players)s players, a kitty of %(kitty)s to the first trick",
                                 players=d["players"], kitty=d["kitty"])
    if d["trick"] == "first" else _("%(players)s players, a kitty of %(kitty)s to the last "
                                    "trick", players=d["players"], kitty=d["kitty"]),
    "players": lambda d: _("%(players)s players", players=d["players"]),
    "no_pass": lambda d: _("no pass"),
    "pass": lambda d: _("pass %(count)s: %(cycle)s", count=d["count"], cycle=", ".join(
        offset_words(o, d["players"]) for o in d["cycle"])),
    "opening": lambda d: _("left of dealer leads any card") if d["lead"] == "left_of_dealer"
    else _("any club leads"),
    "points_on_first_trick": lambda d: _("points allowed on the first trick"),
    "no_hearts_broken_rule": lambda d: _("no hearts-broken rule"),
    "hearts_broken_by": _short_hearts,
    "first_trick_heart_before_queen": lambda d: _(
        "holding only points on trick one, a heart before the QS"),
    "may_lead_heart": lambda d: _("holding only hearts and the QS, a heart may be led"),
    "forced_queen": lambda d: _("forced queen"),
    "forced_queen_discard": lambda d: _("the QS discarded at the first chance"),
    "queen_not_scored": lambda d: _("QS not scored"),
    "moon": _short_moon,
    "jack_of_diamonds": lambda d: _("JD counts -10"),
    "ten_of_diamonds": lambda d: _("TD counts -10; all 15 counting cards: -%(points)s",
                                   points=d["points"]),
    "moon_needs_ten_of_diamonds": lambda d: _("no moon without the TD"),
    "claim_penalty": lambda d: _("a false claim costs %(points)s", points=d["points"]),
    "target": lambda d: _("game to %(target)s", target=d["target"]),
    "ties_shared": lambda d: _("a tie for lowest shares the win"),
    "sinkhole_99": lambda d: _("99 drops to 0"),
    "draw_first_dealer": lambda d: _("draw for first dealer"),
    "settlement": _short_settlement,
}


# --- the preset menu (/new): grouped by what players know, not by source ---------------

@dataclass(frozen=True, slots=True)
class MenuPreset:
    """One option of the preset menu: its `name` (the form's value), the title players read
    and the one line saying how it differs from the standard game (full and short)."""

    name: str
    title: str
    summary: str
    short: str


_SEATED_GROUPS = (3, 5, 6, 7)


def _menu_group(preset: Preset) -> str:
    """The key of the menu group `preset` belongs to: by what players know, not by source."""
    rules = preset.rules
    if preset.name == "standard":
        return "standard"
    if rules.variant is not Variant.STANDARD:
        return rules.variant.value
    if rules.bonus_card is not BonusCard.NONE:
        return "omnibus"
    if not rules.queen_scores or preset.name.startswith("h2g2"):
        return "black-lady"
    if rules.players != 4 and not preset.name.startswith("club"):
        return f"players-{rules.players}"
    return "house"


def _group_title(key: str) -> str:
    if key.startswith("players-"):
        count = int(key.removeprefix("players-"))
        return ngettext("For %(num)d player", "For %(num)d players", count)
    return {"standard": _("Standard Hearts"),
            "black-lady": _("Black Lady variants, and Hearts without her"),
            "omnibus": _("Omnibus (jack or ten of diamonds)"),
            "cancellation": _("Cancellation Hearts (two decks)"),
            "domino": _("Domino Hearts"),
            "auction": _("Auction Hearts"),
            "house": _("House rules")}[key]


def preset_menu(presets: Iterable[Preset]) -> list[tuple[str, list[MenuPreset]]]:
    """The preset menu grouped by what players know (Standard, Black Lady, Omnibus, by number
    of players, Cancellation, Domino, Auction, house rules): every preset once, in the given
    order within a group, words in the reader's language; no empty group."""
    keys = ["standard", "black-lady", "omnibus", *(f"players-{n}" for n in _SEATED_GROUPS),
            "cancellation", "domino", "auction", "house"]
    grouped: dict[str, list[MenuPreset]] = {key: [] for key in keys}
    for preset in presets:
        grouped.setdefault(_menu_group(preset), []).append(MenuPreset(
            preset.name, preset_title(preset), preset_summary(preset),
            short_summary(preset.rules)))
    return [(_group_title(key), found) for key, found in grouped.items() if found]
