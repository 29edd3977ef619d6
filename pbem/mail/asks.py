"""The emails asking a seat to move: turn, pass, bid, name the suit, the moon choice, and the
reminder, each with its one-time links."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from sqlmodel import Session

from pbem.engine import (
    Ask,
    Card,
    GameState,
    SeatView,
    asked,
    seat_view,
)
from pbem.mail.compose import MailSettings
from pbem.mail.gamemail import GameMail
from pbem.mail.sending import deliverable
from pbem.present import codes, views
from pbem.present.i18n import _
from pbem.present.presenters import presenter
from pbem.present.refusals import awaited_words
from pbem.present.words import deadline_words, list_words
from pbem.store.models import Game, OutboxEmail

Asked = tuple[str, dict[str, Any], str]  # an email's kind, its own context, its preheader


def ask(mail: GameMail, state: GameState, seat: int, deadline: datetime | None,
        what: Callable[[GameMail, GameState, SeatView, int, timedelta | None], Asked],
        ) -> OutboxEmail | None:
    """An email asking `seat` to move (`what` makes its kind and context): the table as the
    seat sees it, the deadline, and the one-time links, which last `ttl`."""
    player = mail.players.get(seat)
    if player is None or not deliverable(player):
        return None
    view = seat_view(state, seat)
    with mail.speaking(seat):
        kind, context, pre = what(mail, state, view, seat, link_ttl(mail.now, deadline))
        context = {**table(mail, state, view, seat),
                   "deadline": deadline_words(deadline, player.time_zone), **context}
        return mail.send(kind, seat, context, turn_seq=mail.game.last_seq, preheader=pre)


def ask_turn(mail: GameMail, state: GameState, view: SeatView, seat: int,
             ttl: timedelta | None) -> Asked:
    legal = card_links(mail, seat, asked(state, seat).cards, ttl)
    pre = turn_preheader(view)
    received = received_words(mail, state, seat) if view.trick_number == 1 else ""
    return "turn", {"legal": legal, "example": legal[0].code if legal else "QS",
                    "received": received}, pre


def turn_preheader(view: SeatView) -> str:
    """What a turn email wants, first in its preview: "Your turn: play to the 7♥ (trick 5,
    hand 2)." or, to lead, "Your turn: lead to trick 1 (hand 2)." """
    plays = view.current_trick.plays
    if plays:
        return _("Your turn: play to the %(card)s (trick %(trick)s, hand %(hand)s).",
                 card=plays[0][1].symbol, trick=view.trick_number,
                 hand=view.hand_number)
    return _("Your turn: lead to trick %(trick)s (hand %(hand)s).", trick=view.trick_number,
             hand=view.hand_number)


def received_words(mail: GameMail, state: GameState, seat: int) -> str:
    """"You received 3♣, 8♦ and A♥ from Bob." in the hand's first play email ("" with no
    pass this hand)."""
    cards = state.received_cards(seat)
    if not cards:
        return ""
    labels = list_words([views.card_view(c).label for c in sorted(cards)])
    return _("You received %(cards)s from %(name)s.", cards=labels,
             name=mail.names[state.pass_source(seat)])


def table(mail: GameMail, state: GameState, view: SeatView, seat: int) -> dict[str, Any]:
    """The table as `seat` sees it, with what this move drew from the Domino stock."""
    context = views.table_context(view, mail.names, seat, mail.failing, rules=state.rules)
    drawn = presenter(state.rules).draw_notes(mail.draws, mail.names, seat)
    context["notes"] = drawn + context["notes"]
    return context


def card_links(mail: GameMail, seat: int, cards: Sequence[Card],
               ttl: timedelta | None) -> list[views.CardView]:
    """A one-time link per distinct card (a link naming QS plays a QS you hold)."""
    seq = mail.game.last_seq
    distinct = views.distinct_cards(cards)
    urls = {str(c): mail.link(mail.token("card", seat, turn_seq=seq, card=str(c), ttl=ttl))
            for c in distinct}
    return views.card_views(distinct, urls)


def choice_links(mail: GameMail, state: GameState, seat: int,
                 ttl: timedelta | None) -> list[codes.Choice]:
    """A one-time link for each bid or suit choice the seat has now."""
    question = asked(state, seat)
    if question.kind is Ask.BID:
        offered = codes.bid_codes(question.min_bid - 1)
    elif question.kind is Ask.NAME_SUIT:
        offered = [codes.suit_code(suit) for suit in question.suits]
    else:
        return []
    seq = mail.game.last_seq
    return [codes.choice(code, mail.link(mail.token("card", seat, turn_seq=seq, card=code,
                                                    ttl=ttl)))
            for code in offered]


def ask_bid(mail: GameMail, state: GameState, view: SeatView, seat: int,
            ttl: timedelta | None) -> Asked:
    """To the seat whose turn it is to bid: the bids so far and a link per choice."""
    words = presenter(state.rules).question(view, mail.names, seat)
    pre = words.pop("preheader")
    return "bid", {**words, "choices": choice_links(mail, state, seat, ttl)}, pre


def ask_name_suit(mail: GameMail, state: GameState, view: SeatView, seat: int,
                  ttl: timedelta | None) -> Asked:
    """To the seat that names the suit to avoid (the winning bidder, the dealer when all
    passed, or the same bidder again when the pot carried over)."""
    words = presenter(state.rules).question(view, mail.names, seat)
    pre = words.pop("preheader")
    return "name_suit", {**words, "choices": choice_links(mail, state, seat, ttl)}, pre


def ask_pass(mail: GameMail, state: GameState, view: SeatView, seat: int,
             ttl: timedelta | None) -> Asked:
    page = mail.link(mail.token("pass", seat, turn_seq=mail.game.last_seq, ttl=ttl))
    count = state.rules.pass_count
    target = mail.names[view.pass_target] if view.pass_target is not None else _("nobody")
    context = {
        "count": count, "target": target,
        "direction": views.direction_words(view.pass_offset, view.seats), "pass_url": page,
        "example": " ".join(str(c) for c in view.hand[:count]),
    }
    return "pass", context, _("Pass %(count)s cards to %(target)s.", count=count, target=target)


def ask_moon(mail: GameMail, state: GameState, seat: int,
             deadline: datetime | None) -> OutboxEmail | None:
    """To the shooter only: what each choice gives, a one-time link for each, reply words."""
    player = mail.players.get(seat)
    if player is None or not deliverable(player):
        return None
    seq = mail.game.last_seq
    ttl = link_ttl(mail.now, deadline)
    urls = {code: mail.link(mail.token("card", seat, turn_seq=seq, card=code, ttl=ttl))
            for code in (codes.MOON_DOWN, codes.MOON_UP)}
    with mail.speaking(seat):
        options = views.moon_options(state, seat, mail.names, urls)
        context = {
            "hand_number": state.hand_number, "moon_points": state.rules.moon_points,
            "options": options, "rows": views.moon_rows(state, seat, mail.names, options),
            "deadline": deadline_words(deadline, player.time_zone),
        }
        pre = _("You shot the moon in hand %(hand)s: go down or put the others up?",
                hand=state.hand_number)
        return mail.send("moon_choice", seat, context, turn_seq=seq, preheader=pre)


def link_ttl(now: datetime, deadline: datetime | None) -> timedelta | None:
    # Links outlive the deadline a little: the web page explains a late click.
    return (deadline - now) + timedelta(days=1) if deadline else None


def send_reminder(
    session: Session, game: Game, state: GameState, seat: int, *,
    deadline: datetime | None = None, settings: MailSettings | None = None,
    now: datetime | None = None,
) -> OutboxEmail | None:
    """The seat's turn email again (its hand, its one-time links: the reply or a click works
    from it as from the first), said to be a reminder; a question with no such email (the
    moon choice) gets the plain reminder, which links the game page."""
    mail = GameMail.load(session, game, settings, now)
    player = mail.players.get(seat)
    if player is None:
        return None
    question = asked(state, seat)
    repeated = REPEATED.get(question.kind)
    if repeated is not None:
        return ask(mail, state, seat, deadline, partial(_as_reminder, repeated))
    with mail.speaking(seat):
        waiting_for = awaited_words(question.awaited)
        context = {"waiting_for": waiting_for, "asked_template": "",
                   "deadline": deadline_words(deadline, player.time_zone)}
        return mail.send("reminder", seat, context, turn_seq=game.last_seq,
                         preheader=_("Waiting for %(what)s.", what=waiting_for))


AskWhat = Callable[[GameMail, GameState, SeatView, int, timedelta | None], Asked]


def _as_reminder(what: AskWhat, mail: GameMail, state: GameState, view: SeatView, seat: int,
                 ttl: timedelta | None) -> Asked:
    kind, context, preheader = what(mail, state, view, seat, ttl)
    return ("reminder", {**context, "asked_template": kind},
            _("Reminder: %(preview)s", preview=preheader))


# The questions whose turn email a reminder repeats (see `send_reminder`).
REPEATED: dict[Ask, AskWhat] = {Ask.PLAY: ask_turn, Ask.PASS: ask_pass, Ask.BID: ask_bid,
                                Ask.NAME_SUIT: ask_name_suit}
