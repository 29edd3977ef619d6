"""The words for what the service says: its errors' codes and data (pbem.service.errors), a
duplicate's `Outcome.said`, the problems with an address or a name, why a game was rated or
not. In the current language (pbem.present.i18n); English as the service said it before it
spoke in codes.

    except service.PlayerMistake as exc:
        flash(explain(exc))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.present import refusals
from pbem.present.i18n import _, lazy, ngettext
from pbem.service.addresses import address_fault
from pbem.service.core import Outcome
from pbem.service.errors import BadRequest, CommandRejected, Said, ServiceError
from pbem.service.names import MAX_NAME, name_fault
from pbem.service.ratings import MAX_TOGETHER, TOGETHER_DAYS
from pbem.zones import deadline_text

Words = Callable[[Mapping[str, Any]], str]


# code -> its words, from its data. Each message is marked (`_`) where it is written, so
# extraction finds it; a code not listed reads as "Sorry, that can't be done now."
_WORDS: dict[str, Words] = {
    # the game and the seat (pbem.service.core)
    "no_game": lambda d: _("There is no such game."),
    "no_seat": lambda d: _("This game has no seat %(seat)s.", seat=d["seat"]),
    "game_inviting": lambda d: _(
        "This game hasn't started yet: not everyone has accepted the invitation."),
    "game_paused": lambda d: _("This game is paused at the moment."),
    "game_finished": lambda d: _("This game is over."),
    "game_cancelled": lambda d: _("This game was cancelled by its organiser."),
    "game_active": lambda d: _("This game has already started."),
    "game_unavailable": lambda d: _("This game can't take that now."),
    "someone_moved_first": lambda d: _(
        "Someone moved first and the game changed while your move was being made. "
        "Please look at the new position and send your move again."),
    "no_player": lambda d: _("There is no such player."),
    # setting a game up, invitations, seats (pbem.service.games)
    "no_preset": lambda d: _("There is no rule set called %(name)s.", name=repr(d["name"])),
    "rules_conflict": lambda d: _("Those rule options don't work together: %(detail)s",
                                  detail=d["detail"]),
    "robot_strength": lambda d: _("The computer players are either easy or strong."),
    "organiser_not_player": lambda d: _("The organiser is one of the game's players."),
    "player_count": lambda d: ngettext("This game needs %(num)d player, robots included.",
                                       "This game needs %(num)d players, robots included.",
                                       int(d["players"])),
    "same_address": lambda d: _("Each player needs their own email address."),
    "organiser_quota": lambda d: _(
        "That address has set up too many games in the last hour; please confirm or finish "
        "those first, or try again later."),
    "invitation_accepted": lambda d: _("You have already accepted this invitation."),
    "invitation_declined": lambda d: _("You have already declined this invitation."),
    "started_without_you": lambda d: _("This game has already started without you."),
    "started_resign": lambda d: _("This game has already started; to leave it, resign."),
    "already_left": lambda d: _("You have already left this game."),
    "robot_has_seat": lambda d: _("A robot already plays that seat."),
    "has_seat": lambda d: _("%(name)s already has that seat.", name=d["name"]),
    "plays_already": lambda d: _("%(name)s already plays in this game.", name=d["name"]),
    # the lobby (pbem.service.lobby)
    "table_full": lambda d: _(
        "This table is full: someone took the last seat just before you."),
    "one_quick_table": lambda d: _(
        "You are already waiting for players at another quick table (see My games): one "
        "quick table at a time, until it starts."),
    "have_table_seat": lambda d: _("You already have a seat at this table."),
    "table_unconfirmed": lambda d: _(
        "This table isn't open yet: its organiser hasn't confirmed it."),
    "pace_range": lambda d: _("The time per move is from 1 hour to 30 days."),
    "wait_range": lambda d: _("The wait for players is from 0 minutes to a week."),
    "open_seats": lambda d: ngettext(
        "A table of %(players)s has from 1 to %(num)d open seat.",
        "A table of %(players)s has from 1 to %(num)d open seats.", int(d["most"]),
        players=d["players"]),
    "choose_pace": lambda d: _("Choose one of the paces and waits offered."),
    "start_with_robots": lambda d: _(
        "Only the organiser of this game, once they have confirmed it, can start it with "
        "robots in the empty seats."),
    "no_open_seat": lambda d: _("No seat is open."),
    # moves (pbem.service.moves)
    "stale": lambda d: _("That was for an earlier turn, and the game has moved on: "
                         "%(since)s, so that move was not made. Nothing changed.",
                         since=since_words(str(d["why"]))),
    "not_your_seat": lambda d: _("That seat isn't yours in this game."),
    "already_played": lambda d: _("You already played the %(card)s.", card=str(d["card"])),
    "already_passed_cards": lambda d: _("You already passed those cards."),
    "claim_accepted": lambda d: _("Your claim was already accepted."),
    "bid_passed": lambda d: _("You already passed."),
    "bid_recorded": lambda d: _("Your bid of %(chips)s was already recorded.",
                                chips=d["chips"]),
    "suit_named": lambda d: _("You already named %(suit)s as the suit to avoid.",
                              suit=d["suit"].plural),
    "moon_recorded": lambda d: _("Your moon choice was already recorded."),
    "ended_by_agreement": lambda d: _("The game has already ended by agreement."),
    "already_agreed": lambda d: _("You have already agreed to end the game."),
    "ends_at_once": lambda d: _(
        "That would end the game at once: the other seats are computer players, who agree "
        "straight away."),
    "no_vote_open": lambda d: _("No vote to end the game is open: play goes on."),
    "robots_idle": lambda d: _("The robots have nothing to play in this game."),
    # time: away dates, nudges, a paused game, deadlines (pbem.service.time, .timeouts)
    "away_order": lambda d: _("The last away day comes before the first one."),
    "away_span": lambda d: ngettext("Away dates can span at most %(num)d day.",
                                    "Away dates can span at most %(num)d days.",
                                    int(d["days"])),
    "away_past": lambda d: _("Those dates are in the past."),
    "not_waiting": lambda d: _("This game isn't waiting for anybody's move."),
    "own_move": lambda d: _("The game is waiting for your own move."),
    "nobody_to_nudge": lambda d: _("Nobody to nudge: the game isn't waiting for a player."),
    "nudge_too_soon": lambda d: _(
        "A nudge was sent less than 12 hours ago; you can nudge again after %(when)s.",
        when=deadline_text(d["after"], d.get("zone"))),
    "not_paused": lambda d: _("This game is not paused: it goes on already."),
    "deadline_handled": lambda d: _("That deadline was handled already."),
    "seat_not_waited": lambda d: _("That seat isn't waited for any more."),
    "deadline_not_passed": lambda d: _("That deadline hasn't passed yet."),
    # accounts (pbem.service.accounts), rematches, names, addresses
    "notify_choice": lambda d: _(
        "Choose how often to hear about the play: after every trick, after every hand, or "
        "only when it is your turn."),
    "unknown_zone": lambda d: _(
        "“%(zone)s” is not a time zone we know; give a city such as Berlin or New York, a "
        "zone such as Europe/Paris, or an offset such as GMT+1.", zone=d["zone"]),
    "rematch_not_player": lambda d: _(
        "Only the people who played this game can ask for a rematch."),
    "rematch_not_over": lambda d: _("A rematch can be asked for once the game is over."),
    "name_missing": lambda d: _("Give a name for the other players to see."),
    "name_too_long": lambda d: name_problem_words("name_too_long", None),
    "name_invisible": lambda d: name_problem_words("name_invisible", None),
    "address_non_ascii": lambda d: _(
        "Hearts can't send mail to an address with letters like “ü” before the @ yet (not "
        "every mail server carries them); please give another address."),
    "address_invalid": lambda d: _("That doesn't look like an email address: %(detail)s",
                                   detail=d["detail"]),
    "address_too_long": lambda d: ngettext(
        "That email address is too long (at most %(num)d character).",
        "That email address is too long (at most %(num)d characters).", int(d["most"])),
}


def explain(said: ServiceError | Said) -> str:
    """The words for a service error, or for what an outcome said (`Outcome.said`)."""
    if isinstance(said, CommandRejected):
        return engine_words(said)
    if isinstance(said, BadRequest) and said.engine_error is not None:
        return refusals.explain(said.engine_error)
    if isinstance(said, ServiceError):
        said = said.said
    words = _WORDS.get(said.code)
    if words is None:
        return _("Sorry, that can't be done now.")
    return words(said.data)


def explain_outcome(outcome: Outcome) -> str:
    """Why a command changed nothing (a duplicate's `Outcome.said`); "" if it said nothing."""
    return explain(outcome.said) if outcome.said is not None else ""


def engine_words(error: CommandRejected) -> str:
    """The words of the engine's refusal a CommandRejected carries, with the seats' names
    (pbem.present.refusals words the engine's codes)."""
    return refusals.explain(error.engine_error, error.names)


# Stale.why -> what ended the seat's turn (pbem.service.moves `_since`)
_SINCE: dict[str, Any] = {
    "dealt": lazy("a new hand was dealt since"),
    "timeout": lazy("the deadline passed and a robot moved for you"),
    "holding": lazy("a robot has moved for you since, holding your seat"),
    "played": lazy("you have played since"),
    "passed": lazy("you have passed since"),
    "moon": lazy("you have chosen how the moon scores since"),
    "claimed": lazy("you have claimed since"),
    "bid": lazy("you have bid since"),
    "named": lazy("you have named the suit since"),
    "moved": lazy("you have moved since"),
    "not_yet": lazy("this seat's turn hasn't come"),
}


def since_words(why: str) -> str:
    """What happened since a stale move's turn (`Stale.why`), as a clause."""
    found = _SINCE.get(why)
    return str(found) if found is not None else why


# --- addresses and names, as the forms show their problems ---------------------------------

INVISIBLE = lazy("contains invisible formatting characters (such as right-to-left marks), "
                 "which can disguise the text around it; please type it without them")


def address_problem(text: str) -> str:
    """Why `text` can't be used as a player's address, in a sentence ("" if it can)."""
    fault = address_fault(text)
    return explain(fault) if fault is not None else ""


def name_problem(name: str, what: str | None = None) -> str:
    """Why `name` (already one line) can't be shown, as a sentence starting with `what`
    ("That name" by default); "" if it can."""
    fault = name_fault(name)
    return name_problem_words(fault, what) if fault else ""


def name_problem_words(fault: str, what: str | None) -> str:
    if what is None:
        if fault == "name_too_long":
            return ngettext("That name is too long (at most %(num)d character).",
                            "That name is too long (at most %(num)d characters).", MAX_NAME)
        return _("That name contains invisible formatting characters (such as right-to-left "
                 "marks), which can disguise the text around it; please type it without "
                 "them.")
    if fault == "name_too_long":
        return ngettext("%(what)s is too long (at most %(num)d character).",
                        "%(what)s is too long (at most %(num)d characters).", MAX_NAME,
                        what=what)
    return _("%(what)s contains invisible formatting characters (such as right-to-left "
             "marks), which can disguise the text around it; please type it without them.",
             what=what)


# --- ratings ---------------------------------------------------------------------------------


def rating_reason(reason: str) -> str:
    """Why a game was rated or not (RatedGame.reason, a code: pbem.service.ratings); a reason
    stored in words before the codes reads as it was."""
    code, _sep, count = reason.partition(":")
    if code == "not_standard":
        return _("Only standard four-player games are rated.")
    if code == "no_whole_hand":
        return _("No whole hand was played.")
    if code == "too_few_people":
        return _("Fewer than two seats were played by people (robots made too many moves, or "
                 "too few were their own).")
    if code == "met_too_often":
        return _("Two of its people were already rated together in %(games)s games in the "
                 "last %(days)s days.", games=MAX_TOGETHER, days=TOGETHER_DAYS)
    if code == "rated" and count.isdigit():
        return ngettext("Rated: %(num)d person played it.", "Rated: %(num)d people played it.",
                        int(count))
    return reason
