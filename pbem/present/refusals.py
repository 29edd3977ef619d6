"""The engine's refusals in words: one message per error code (issue 34).

The engine raises errors that carry a code and data (pbem.engine.errors): the seats as
numbers, the cards, the counts. `explain(error, names)` is the sentence the player reads, in
the current language (pbem.present.i18n); `names` are the seats' display names. The same
for what a seat is asked now (`asked_words`) and what the game waits for (`phase_words`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from babel.lists import format_list

from pbem.engine import (
    Ask,
    Asked,
    Card,
    Command,
    EngineError,
    EventDecodeError,
    GameState,
    IllegalMove,
    Suit,
    list_in_words,
    phase_facts,
)
from pbem.present import i18n
from pbem.present.i18n import _, ngettext, pgettext
from pbem.service.errors import BadRequest, CommandRejected, ServiceError

Data = dict[str, Any]
Names = Sequence[str]


# --- small words: seats, cards, suits, lists ---------------------------------------------

def seat_name(names: Names, seat: int) -> str:
    """The seat's player, or "seat 3" when the names are not known."""
    if 0 <= seat < len(names):
        return names[seat]
    return _("seat %(number)s", number=seat + 1)


def words_list(items: Sequence[str], conjunction: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (or ``a, b or c``), in the current language."""
    language = i18n.current()
    if language == i18n.DEFAULT or len(items) <= 1:
        return list_in_words(list(items), conjunction)
    try:
        return format_list(list(items), style="or" if conjunction == "or" else "standard",
                           locale=language)
    except (ValueError, LookupError):  # a language babel has no list patterns for
        return list_in_words(list(items), conjunction)


def cards_list(cards: Sequence[Card], conjunction: str = "and") -> str:
    """Card codes as players type them: ``2C, 3D and AH``."""
    return words_list([str(c) for c in cards], conjunction)


def suit_plural(suit: Suit) -> str:
    """The suit's name as a plural noun (``spades``), as the reply reader knows it."""
    if suit is Suit.CLUBS:
        return pgettext("suit", "clubs")
    if suit is Suit.DIAMONDS:
        return pgettext("suit", "diamonds")
    if suit is Suit.HEARTS:
        return pgettext("suit", "hearts")
    return pgettext("suit", "spades")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _who(names: Names, seats: Sequence[int]) -> str:
    return words_list([seat_name(names, s) for s in seats])


# --- the refusals ------------------------------------------------------------------------

def explain(error: EngineError, names: Names = ()) -> str:
    """The sentence a player reads for `error` (its code and data), in the current language."""
    data = error.data
    if error.code == "worded":  # words made above the engine (the reply reader's own)
        return str(data.get("words", ""))
    if error.code in ("bad_rules", "unknown_rule_options"):
        return rules_refused(error)
    if isinstance(error, EventDecodeError):
        return _("A stored game record could not be read (%(code)s).", code=error.code)
    worder = _REASONS.get(error.code) if isinstance(error, IllegalMove) else None
    if worder is not None:
        reason = worder(data, names)
        if "legal" in data:  # an illegal card play: why, then what can be played
            return _("%(reason)s You can play %(cards)s.", reason=reason,
                     cards=cards_list(data["legal"]))
        return reason
    worder = _MESSAGES.get(error.code) or _REASONS.get(error.code)
    if worder is None:
        return _("That move isn't possible now (%(code)s).", code=error.code)
    return worder(data, names)


def phase_words(state: GameState, names: Names = ()) -> str:
    """What the game is at, for a seat that has nothing to decide now."""
    code, data = phase_facts(state)
    return _MESSAGES[code](data, names)


def asked_words(question: Asked, names: Names = ()) -> str:
    """One sentence saying what the seat is asked, or what the game waits for."""
    from pbem.present.rules_words import offset_words

    state = question.state
    assert state is not None
    if question.kind is Ask.PASS:
        return ngettext("Pass %(num)d card to %(name)s (%(direction)s).",
                        "Pass %(num)d cards to %(name)s (%(direction)s).",
                        question.pass_count, name=seat_name(names, question.pass_to),
                        direction=offset_words(state.pass_offset, state.seats))
    if question.kind is Ask.PLAY:
        return _("It's your turn to play: you can play %(cards)s.",
                 cards=cards_list(question.cards))
    if question.kind is Ask.BID:
        return ngettext("It's your turn to bid for the suit to avoid: %(num)d chip or more, "
                        "or pass.",
                        "It's your turn to bid for the suit to avoid: %(num)d chips or more, "
                        "or pass.", question.min_bid)
    if question.kind is Ask.NAME_SUIT:
        return _("You won the bidding: name the suit to avoid.")
    if question.kind is Ask.MOON:
        return _("You shot the moon: choose to go down or to put everyone else up.")
    return phase_words(state, names)


def why_not(question: Asked, command: Command, names: Names = ()) -> str | None:
    """None when `command` is legal now; else the sentence saying why not."""
    error = question.why_not(command)
    return None if error is None else explain(error, names)


Worder = Callable[[Data, Names], str]


def _no_claims(data: Data, names: Names) -> str:
    variant = data.get("variant")
    if variant == "domino":
        return _("Claims aren't part of Domino Hearts here: please play on.")
    if variant == "cancellation":
        return _("Claims aren't part of Cancellation Hearts here: please play on.")
    if variant == "auction":
        return _("Claims aren't part of Auction Hearts here: please play on.")
    return _("Claims aren't part of this game: please play on.")


def _no_passing(data: Data, names: Names) -> str:
    variant = data.get("variant")
    if variant == "domino":
        return _("Nobody passes cards in Domino Hearts.")
    if variant == "cancellation":
        return _("Nobody passes cards in Cancellation Hearts.")
    if variant == "auction":
        return _("Nobody passes cards in Auction Hearts.")
    return _("Nobody passes cards in this game.")


def _pass_count(data: Data, names: Names) -> str:
    count, cards = data["count"], data.get("cards", ())
    if cards:
        return ngettext("Pass exactly %(count)s card; you named %(named)d: %(cards)s.",
                        "Pass exactly %(count)s cards; you named %(named)d: %(cards)s.",
                        count, count=_count_word(count), named=len(cards),
                        cards=cards_list(cards))
    return ngettext("Pass exactly %(count)s card; you named 0.",
                    "Pass exactly %(count)s cards; you named 0.", count,
                    count=_count_word(count))


def _count_word(n: int) -> str:
    if n == 1:
        return _("one")
    if n == 2:
        return _("two")
    if n == 3:
        return _("three")
    if n == 4:
        return _("four")
    return i18n.format_number(n)


def _already_voted(data: Data, names: Names) -> str:
    if "waiting" in data:
        return _("You have already agreed to end the game; we're waiting for %(names)s to "
                 "agree.", names=_who(names, data["waiting"]))
    return _("You have already agreed to end the game.")


def _bid_too_low(data: Data, names: Names) -> str:
    high = data["high"]
    if "leader" in data:
        return ngettext("%(leader)s already bid %(num)d: bid more than %(num)d chip, or pass.",
                        "%(leader)s already bid %(num)d: bid more than %(num)d chips, or pass.",
                        high, leader=seat_name(names, data["leader"]))
    return ngettext("A bid must be more than %(num)d chip.",
                    "A bid must be more than %(num)d chips.", high)


def _not_bidder(data: Data, names: Names) -> str:
    if "bidder" in data:
        return _("Only %(name)s, who won the bidding, names the suit.",
                 name=seat_name(names, data["bidder"]))
    return _("Only the winning bidder names the suit.")


def _not_your_turn_play(data: Data, names: Names) -> str:
    return _("It's not your turn: we're waiting for %(name)s to play.",
             name=seat_name(names, data["waiting"]))


def _cannot_play_now(data: Data, names: Names) -> str:
    return _("%(card)s can't be played now.", card=str(data["card"]))


# Why a card can't be played (an IllegalMove's reason; with `legal`, what can be).
_REASONS: dict[str, Worder] = {
    "must_follow_suit": lambda d, n: _(
        "You must follow suit: %(suit)s were led and you hold %(cards)s.",
        suit=suit_plural(d["led"]), cards=cards_list(d["held"])),
    "opening_lead_card": lambda d, n: _("The first trick opens with %(card)s.",
                                        card=str(d["opening"])),
    "opening_lead_club": lambda d, n: _("The first trick opens with a club."),
    "forced_queen": lambda d, n: _(
        "The forced-queen rule applies: the queen of spades can't win this trick, so you must "
        "play it now."),
    "forced_queen_discard": lambda d, n: _(
        "The forced-queen rule applies: you can't follow suit, so you must discard the queen "
        "of spades now."),
    "no_points_first_trick": lambda d, n: _(
        "No points on the first trick: hearts and the queen of spades must wait."),
    "hearts_not_broken_lead_queen": lambda d, n: _(
        "Hearts aren't broken and you hold only hearts and the queen of spades, so you must "
        "lead the queen."),
    "hearts_not_broken": lambda d, n: _(
        "Hearts haven't been broken yet, so you can't lead a heart."),
    "no_points_first_trick_avoid": lambda d, n: _(
        "No points on the first trick: %(suit)s, the suit to avoid, must wait.",
        suit=suit_plural(d["suit"])),
    "avoid_not_broken": lambda d, n: _capital(_(
        "%(suit)s, the suit to avoid, haven't been broken yet, so you can't lead them.",
        suit=suit_plural(d["suit"]))),
    "cannot_play_now": _cannot_play_now,
}

_MESSAGES: dict[str, Worder] = {
    # reading what the player wrote
    "not_a_suit": lambda d, n: _(
        "I couldn't read “%(text)s” as a suit: write clubs, diamonds, hearts or spades "
        "(or C, D, H, S).", text=d["text"]),
    "card_without_suit": lambda d, n: _(
        "“%(text)s” has no suit: did you mean %(options)s?", text=d["text"],
        options=cards_list(d["options"], "or")),
    "card_without_rank": lambda d, n: _(
        "“%(text)s” has no rank: name the card with its rank and suit, like QS or 10H.",
        text=d["text"]),
    "not_a_card": lambda d, n: _(
        "I couldn't read “%(text)s” as a card. Write the rank then the suit, like QS, 10H, 2C "
        "or “queen of spades”.", text=d["text"]),
    # whose turn, which phase
    "not_your_turn_play": _not_your_turn_play,
    "not_your_turn_bid": lambda d, n: _(
        "It's not your turn to bid: we're waiting for %(name)s.",
        name=seat_name(n, d["waiting"])),
    "not_your_turn_draw": lambda d, n: _("It's not your turn to draw."),
    "passed_waiting": lambda d, n: _(
        "You've passed your cards; we're waiting for %(names)s to pass.",
        names=_who(n, d["waiting"])),
    "pass_first": lambda d, n: ngettext(
        "First pass %(num)d card to %(name)s, e.g. “pass 2C 3D AH”.",
        "First pass %(num)d cards to %(name)s, e.g. “pass 2C 3D AH”.", d["count"],
        name=seat_name(n, d["to"])),
    "waiting_pass": lambda d, n: _("We're waiting for %(names)s to pass.",
                                   names=_who(n, d["waiting"])),
    "waiting_play": lambda d, n: _("We're waiting for %(name)s to play.",
                                   name=seat_name(n, d["waiting"])),
    "game_over": lambda d, n: _("This game is over."),
    "waiting_moon": lambda d, n: _(
        "We're waiting for %(name)s to choose how to score the moon.",
        name=seat_name(n, d["waiting"])),
    "not_dealt": lambda d, n: _("The next hand hasn't been dealt yet."),
    "waiting_bid": lambda d, n: _(
        "We're bidding for the suit to avoid: it's %(name)s's turn to bid (a number of chips, "
        "or pass).", name=seat_name(n, d["waiting"])),
    "waiting_name_suit": lambda d, n: _(
        "We're waiting for %(name)s to name the suit to avoid.",
        name=seat_name(n, d["waiting"])),
    "waiting_draw": lambda d, n: _(
        "%(name)s can't follow suit and is drawing from the stock; play goes on after the "
        "draw.", name=seat_name(n, d["waiting"])),
    "bidding_over_play": lambda d, n: _("The bidding is over: it's time to play."),
    "passing_over": lambda d, n: _("Passing is over for this hand: it's time to play."),
    # passing
    "no_passing": _no_passing,
    "hold_hand": lambda d, n: _("There's no pass this hand (a hold hand): play your cards."),
    "already_passed": lambda d, n: _(
        "You already passed %(cards)s to %(name)s.", cards=cards_list(d["cards"]),
        name=seat_name(n, d["to"])),
    "already_passed_hand": lambda d, n: _("You have already passed your cards for this hand."),
    "named_twice": lambda d, n: _("You named %(cards)s more than once.",
                                  cards=cards_list(d["cards"])),
    "pass_count": _pass_count,
    "pass_own_cards": lambda d, n: ngettext(
        "Pass exactly %(num)d card from your own hand.",
        "Pass exactly %(num)d cards from your own hand.", d["count"]),
    "not_held": lambda d, n: _(
        "You don't hold %(cards)s. Your hand: %(hand)s.", cards=cards_list(d["cards"]),
        hand=cards_list(d["hand"])),
    "not_play_time": lambda d, n: _("It isn't time to play a card."),
    "not_this_seats_move": lambda d, n: _("It isn't this seat's move."),
    # claims and the moon
    "no_claims": _no_claims,
    "claim_not_now": lambda d, n: _("You can only claim the rest of the tricks during play."),
    "claim_too_early": lambda d, n: _(
        "Your claim can't be checked quickly this early in the hand; please play on and claim "
        "again later."),
    "claim_refused": lambda d, n: _(
        "Your claim was refused: another player could still win a trick against your cards, "
        "so play goes on."),
    "nothing_to_claim": lambda d, n: _("There is nothing left to claim."),
    "no_claim_penalty": lambda d, n: _("A false claim carries no penalty in this game's rules."),
    "no_moon_shot": lambda d, n: _("There's no moon shot to score right now."),
    "not_moon_shooter": lambda d, n: _("Only the player who shot the moon chooses how it scores."),
    # ending by agreement
    "no_such_seat": lambda d, n: _("There is no seat %(number)s at this table.",
                                   number=d["seat"] + 1),
    "no_vote_open": lambda d, n: _("No vote to end the game is open: play goes on."),
    "already_voted_end": _already_voted,
    # Auction Hearts
    "no_bidding": lambda d, n: _("There's no bidding in this game."),
    "pot_carried_over": lambda d, n: _(
        "There's no bidding this deal: the pot carried over, so %(name)s names the suit "
        "again.", name=seat_name(n, d["bidder"])),
    "bidding_over": lambda d, n: _("The bidding is over for this deal."),
    "already_bid": lambda d, n: _("You've already bid this deal: everyone bids once."),
    "bid_not_positive": lambda d, n: _("A bid is a whole number of chips, at least 1; or pass."),
    "bid_too_low": _bid_too_low,
    "no_suit_to_name": lambda d, n: _(
        "Nobody names a suit in this game: hearts are the suit to avoid."),
    "no_suit_to_name_now": lambda d, n: _("There's no suit to name now."),
    "suit_already_named": lambda d, n: _("The suit to avoid is already named: %(suit)s.",
                                         suit=suit_plural(d["suit"])),
    "not_bidder": _not_bidder,
    # Domino Hearts
    "no_draw_now": lambda d, n: _("Nobody needs to draw from the stock now."),
    "wrong_draw_count": lambda d, n: ngettext(
        "Drawing until you can follow suit takes %(num)d card, not %(count)d.",
        "Drawing until you can follow suit takes %(num)d cards, not %(count)d.",
        d["needed"], count=d["count"]),
    # a game's log that doesn't fit (a system error more than a player's)
    "already_created": lambda d, n: _("This game has already been created."),
    "already_dealt": lambda d, n: _("The hand has already been dealt."),
    "bad_deal": lambda d, n: _("A deal must hold every card of the deck exactly once."),
    "event_out_of_place": lambda d, n: _(
        "A %(event)s event has no place in this game's rules.", event=d["event"]),
    "bad_dealer_draw": lambda d, n: _("The draw for first dealer needs one card per seat."),
    "wrong_first_dealer": lambda d, n: _(
        "The first dealer must be the seat that drew the highest card."),
    "log_without_creation": lambda d, n: _("A game's log must start with its creation."),
}


def mistake_words(error: Exception) -> str:
    """The sentence for a player's mistake the service refused: the engine's refusal worded
    here (CommandRejected carries the engine's error and the seats' names, BadRequest may
    carry one); any other mistake's own words."""
    if isinstance(error, CommandRejected):
        return explain(error.engine_error, error.names)
    if isinstance(error, BadRequest) and error.engine_error is not None:
        return explain(error.engine_error)
    if isinstance(error, EngineError):
        return explain(error)
    if isinstance(error, ServiceError):
        from pbem.present import service_words  # it words the engine's refusals from here

        return service_words.explain(error)
    return str(error)


# --- rules that can't be played (pbem.engine.rules.Rules.problems) ------------------------

def rules_refused(error: EngineError) -> str:
    """Why rule options were refused: the rules' problems, or the options nobody knows."""
    data = error.data
    if error.code == "unknown_rule_options":
        detail = _("unknown rule options: %(options)s",
                   options=", ".join(str(o) for o in data.get("options", ())))
    elif "problems" in data:
        detail = "; ".join(problem_words(code, facts) for code, facts in data["problems"])
    else:
        detail = str(data.get("detail", error.code))
    return _("Those rule options don't work together: %(problems)s.",
             problems=detail.rstrip("."))


def _variant_title(variant: str) -> str:
    if variant == "cancellation":
        return _("Cancellation Hearts")
    if variant == "domino":
        return _("Domino Hearts")
    if variant == "auction":
        return _("Auction Hearts")
    return _("Hearts")


def problem_words(code: str, data: Data) -> str:  # noqa: C901 (one message per problem)
    """One problem of rules that can't be played, as a phrase (they are joined by "; ")."""
    name = _variant_title(data.get("variant", "standard"))
    messages: dict[str, Callable[[], str]] = {
        "players_range": lambda: _("%(variant)s needs %(low)s to %(high)s players",
                                   variant=name, low=data["low"], high=data["high"]),
        "removed_twice": lambda: _("a card is removed twice"),
        "cancels_outside_cancellation": lambda: _(
            "cancelling cards belong to Cancellation Hearts"),
        "auction_pot_outside_auction": lambda: _("the auction pot belongs to Auction Hearts"),
        "deck_does_not_divide": lambda: _("%(deck)s cards do not divide among %(players)s "
                                          "players", deck=data["deck"],
                                          players=data["players"]),
        "kitty_keeps_all_cards": lambda: _("a kitty game keeps all 52 cards"),
        "pass_offset_too_large": lambda: _("a pass offset is larger than the table"),
        "too_many_passed": lambda: _("too many cards passed"),
        "target_not_positive": lambda: _("the target score must be positive"),
        "two_forced_queen_rules": lambda: _("choose one forced-queen rule"),
        "moon_needs_ten_of_diamonds": lambda: _(
            "only the ten of diamonds' slam can be required for the moon"),
        "variant_has_no_pass": lambda: _("%(variant)s has no pass", variant=name),
        "variant_has_no_bonus_card": lambda: _("%(variant)s has no bonus card", variant=name),
        "variant_has_no_forced_queen": lambda: _("%(variant)s has no forced queen",
                                                 variant=name),
        "claim_penalty_outside_standard": lambda: _(
            "claim penalties belong to the standard game"),
        "auction_settles_pot": lambda: _(
            "Auction Hearts settles with the auction pot (settlement auction)"),
        "auction_scores_named_suit": lambda: _(
            "Auction Hearts scores only the named suit: no queen, no moon"),
        "variant_whole_decks": lambda: _(
            "%(variant)s plays with whole decks: no cards removed, no kitty option",
            variant=name),
        "variant_left_of_dealer_leads": lambda: _(
            "in %(variant)s the player left of the dealer leads", variant=name),
        "auction_bidder_leads": lambda: _(
            "in Auction Hearts the winning bidder leads any card (opening_lead left_of_dealer)"),
        "cancellation_widow_first_trick": lambda: _(
            "the Cancellation widow goes with the first trick"),
    }
    worder = messages.get(code)
    return worder() if worder is not None else code


def awaited_words(code: str) -> str:
    """What the game waits for from a player (`Asked.awaited`'s code), e.g. "your pass"."""
    if code == "pass":
        return _("your pass")
    if code == "moon_choice":
        return _("your moon choice")
    if code == "bid":
        return _("your bid")
    if code == "suit_to_avoid":
        return _("your choice of the suit to avoid")
    if code == "card":
        return _("your card")
    return code  # words already (a caller that still passes them)


def no_command_while_waiting(written: str) -> str:
    """A reply with no command from a seat nothing is asked of (someone else is to move): not
    "reply with the card you play", but that we'll write when it's their turn, and `nudge`."""
    return _("We found no command in “%(text)s”. It isn't your turn: we'll email you when it "
             "is. To remind whoever everyone waits for, reply “nudge”; “help” lists every "
             "command.", text=written)
