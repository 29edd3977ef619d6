"""A player's private view of a game (/s/<token>) and its move buttons, which all go through
the service's one move command with the page's turn."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, NoReturn

from flask import (
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf
from sqlalchemy import and_, bindparam
from sqlalchemy import select as core_select
from sqlmodel import Session

from pbem import service
from pbem.engine import (
    Bid,
    BidMade,
    ChooseMoon,
    Command,
    NameSuit,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    Suit,
    SuitNamed,
    UnreadableInput,
    VoteEnd,
    asked,
    parse_card,
)
from pbem.present import codes, views
from pbem.present import links as seat_links
from pbem.present import pages as variants
from pbem.present.i18n import _, lazy
from pbem.present.refusals import mistake_words
from pbem.present.rules_words import rules_sentences
from pbem.present.service_words import explain_outcome
from pbem.present.tokens import hash_token
from pbem.service.deadlines import held_since
from pbem.service.games import awaits_confirmation, is_unanswered, organiser_seat
from pbem.service.moves import ends_at_once
from pbem.service.policy import DeadlinePolicy
from pbem.store.app_engine import db_engine
from pbem.store.db import planning, read_alone, transaction
from pbem.store.models import Game, Player, Seat, Token
from pbem.web.i18n import first_language, format_deadline, names_in_words
from pbem.web.play.common import (
    INVITE_ANSWERS,
    MOON_CODES,
    Table,
    bp,
    check_csrf,
    choice_words,
    load_table,
    mail_url,
    pass_target,
)
from pbem.web.play.public import seats_due
from pbem.zones import player_zone


@dataclass(frozen=True)
class SeatPage:
    token: Token
    table: Table


def load_seat(raw: str) -> SeatPage:
    """The private view's token and table, or a 404 (unknown, expired, or no longer the
    player's seat)."""
    with planning(db_engine()) as session:  # a read: the game's state as this process has it
        token = seat_links.find_seat_token(session, raw)
        if token is None or token.game_id is None:
            not_theirs(session, raw)
        table = load_table(session, token.game_id, token.seat_no)
        if table is None or (awaits_confirmation(table.game, table.seats)
                             and token.player_id != table.game.organiser_id):
            abort(404)  # nobody but its organiser knows of a game not confirmed yet
        drawn = variants.drawn_this_hand(session, token.game_id, table.state,
                                         token.seat_no or 0)
        return SeatPage(token, replace(table, drawn=tuple(drawn)))


@dataclass(frozen=True)
class SeatKey:
    """What a move's POST needs before the move: whose seat the private link is, and the
    game's rules, not the game's state: the service's move loads that once, in its own
    transaction, and the page is loaded again only to show a refusal."""

    game_id: int
    seat: int
    player_id: int
    rules_data: dict[str, Any]

    @property
    def rules(self) -> Rules:
        return Rules.from_dict(self.rules_data)


_T, _S, _G = (Token.__table__, Seat.__table__,  # type: ignore[attr-defined]
              Game.__table__)  # type: ignore[attr-defined]
# `find_seat_token` and the game row in one statement: a live seat token still its player's,
# of a game with a table.
_SEAT_KEY = (
    core_select(_T.c.game_id, _T.c.seat_no, _T.c.player_id, _T.c.expires_at, _G.c.rules)
    .select_from(_T.join(_S, and_(_S.c.game_id == _T.c.game_id, _S.c.seat_no == _T.c.seat_no))
                 .join(_G, _G.c.id == _T.c.game_id))
    .where(_T.c.token_hash.in_([bindparam("hash"), bindparam("lower")]),
           _T.c.purpose == seat_links.PURPOSE, _T.c.used_at.is_(None), _T.c.turn_seq.is_(None),
           _S.c.is_bot.is_(False), _S.c.player_id == _T.c.player_id, _G.c.last_seq > 0))


def find_seat(raw: str) -> SeatKey:
    """The private link's seat and game, or a 404 as `load_seat` gives (unknown, expired, no
    longer the player's seat, or a game with no table yet)."""
    raw, now = raw.strip(), datetime.now(UTC)
    hashes = {"hash": hash_token(raw), "lower": hash_token(raw.lower())}
    rows = read_alone(db_engine(), _SEAT_KEY, hashes)
    for game_id, seat, player_id, expires_at, rules in rows:
        if expires_at is None or expires_at > now:
            return SeatKey(game_id, seat, player_id, rules)
    with transaction(db_engine(), read_only=True) as session:
        not_theirs(session, raw)


def not_theirs(session: Session, raw: str) -> NoReturn:
    """The answer to a private link that opens no seat: if its seat is no longer its
    player's, what became of it and since when (410: they left, or someone else took it
    over); else "Link not found" (404)."""
    closed = seat_links.closed_seat(session, raw)
    if closed is None:
        abort(404)
    when = closed.when.astimezone(player_zone(closed.time_zone)) if closed.when else None
    abort(make_response(render_template("web/seat_closed.html", closed=closed, when=when,
                                        me_url=url_for("accounts.me")), 410))


def render_seat(page: SeatPage, *, message: str = "", code: int = 200) -> ResponseReturnValue:
    table, seat = page.table, page.token.seat_no or 0
    context = {**table.context, "message": message, "csrf": generate_csrf(),
               "turn": asked(table.state, seat).turn,
               "pass_count": table.state.rules.pass_count,
               "pass_target": pass_target(table), "picked": request.form.getlist("cards"),
               "mail_url": mail_url(), "raw_token": _raw_token(),
               "can_pass": table.state.phase is Phase.PASS and seat in table.state.to_move
               and table.game.status == "active",
               "passed": [views.card_view(c) for c in table.state.passed_cards(seat)],
               "received": [views.card_view(c) for c in table.state.received_cards(seat)]
               if table.state.phase is not Phase.PASS else [],
               "received_from": table.names[table.state.pass_source(seat)],
               "moon_options": views.moon_options(table.state, seat, table.names)
               if table.state.phase is Phase.MOON_CHOICE and table.state.moon_shooter == seat
               and table.game.status == "active" else [],
               "playable": table.game.status == "active" and table.state.phase is Phase.PLAY
               and seat in table.state.to_move,
               "can_bid": _my_move(table, seat, Phase.BID),
               "can_name": _my_move(table, seat, Phase.NAME_SUIT),
               "bid_typed": request.form.get("chips", ""),
               "can_nudge": table.game.status == "active" and bool(table.state.to_move)
               and seat not in table.state.to_move,
               "away": service.away_dates(service.Context(engine=db_engine()),
                                          page.token.player_id or 0),
               "end_vote": end_vote_context(table, seat),
               "invitation": invitation_context(table, seat), "held": held_context(page),
               "may_leave": table.game.status in service.UNDER_WAY
               and not table.state.game_over,
               "time_left": seats_due(table, lambda: _player_zone(page))}
    return render_template("web/seat.html", ctx=context, **context), code


def _player_zone(page: SeatPage) -> str | None:
    """The private page's reader's time zone (the seat's player's)."""
    with transaction(db_engine(), read_only=True) as session:
        player = session.get(Player, page.token.player_id)
    return player.time_zone if player is not None else None


def invitation_context(table: Table, seat: int) -> dict[str, object]:
    """The seat's invitation while the game gathers players: whether it awaits this player's
    answer (the page then offers Accept and Decline, as the invitation email does), whether
    the answer is the organiser's confirmation of their own game, and what the game is."""
    if table.game.status not in ("inviting", "cancelled"):
        return {}
    mine = next(s for s in table.seats if s.seat_no == seat)
    organiser = organiser_seat(table.game, table.seats)
    return {"pending": table.game.status == "inviting" and is_unanswered(mine),
            "declined": mine.invite_status == "declined",
            "confirming": organiser is not None and organiser.seat_no == seat
            and awaits_confirmation(table.game, table.seats),
            "rules": rules_sentences(table.state.rules),
            "organiser": table.names[organiser.seat_no] if organiser is not None else ""}


def held_context(page: SeatPage) -> dict[str, object] | None:
    """If a robot holds the seat (its player missed deadlines): since when, in the player's
    time zone, and how many deadlines in a row they missed; else None."""
    seat = page.table.seats[page.token.seat_no or 0]
    if not seat.bot_holding or seat.is_bot or page.table.game.status not in service.UNDER_WAY:
        return None
    policy = DeadlinePolicy.from_dict(page.table.game.deadline_policy)
    with transaction(db_engine(), read_only=True) as session:
        since = held_since(session, seat.game_id, seat.seat_no, seat.timeouts_in_row, policy)
        player = session.get(Player, page.token.player_id)
    zone = player.time_zone if player is not None else None
    return {"since": format_deadline(since, zone), "missed": seat.timeouts_in_row,
            "open": policy.on_timeout == "open_seat"}


def end_vote_context(table: Table, seat: int) -> dict[str, object]:
    """Seed 003's vote to end the game early, as the page shows it to `seat`."""
    question = asked(table.state, seat)
    voters = question.end_voters
    return {"may_vote": question.may_vote_end and table.game.status == "active",
            "open": bool(voters), "mine": seat in voters, "count": len(voters),
            "at_once": ends_at_once(table.state, table.seats, seat),
            "no_hand_yet": not table.state.sheet,
            "ended": table.state.ended_by_agreement,
            "agreed": names_in_words([table.names[s] for s in voters]),
            "waiting": names_in_words([table.names[s] for s in range(table.state.seats)
                                       if s not in voters])}


def _my_move(table: Table, seat: int, phase: Phase) -> bool:
    return table.game.status == "active" and table.state.phase is phase \
        and seat in table.state.to_move


def _raw_token() -> str:
    return str((request.view_args or {}).get("token", ""))


@bp.get("/s/<token>")
def seat_page(token: str) -> ResponseReturnValue:
    """A player's own view of the game (their hand, and buttons for their move). GET and HEAD
    only render; the buttons POST with the CSRF token, the link itself authenticates."""
    return render_seat(load_seat(token))


MOVED_ON = {
    "played": lazy("The game moved on since this page was shown, so nothing was played. Here "
                   "is the table as it is now."),
    "passed": lazy("The game moved on since this page was shown, so nothing was passed. Here "
                   "is the table as it is now."),
    "chosen": lazy("The game moved on since this page was shown, so nothing was chosen. Here "
                   "is the table as it is now."),
    "done": lazy("The game moved on since this page was shown, so nothing was done. Here is "
                 "the table as it is now."),
}


@bp.post("/s/<token>/play")
def seat_play(token: str) -> ResponseReturnValue:
    check_csrf()
    key = find_seat(token)
    try:
        card = parse_card(request.form.get("card", ""))
    except UnreadableInput:
        abort(400)
    return seat_move(token, key, PlayCard(key.seat, card), "played",
                     _("You played %(symbol)s (%(card)s).", symbol=card.symbol, card=str(card)))


@bp.post("/s/<token>/pass")
def seat_pass(token: str) -> ResponseReturnValue:
    check_csrf()
    key = find_seat(token)
    try:
        cards = tuple(parse_card(c) for c in request.form.getlist("cards"))
    except UnreadableInput:
        abort(400)
    count = key.rules.pass_count
    if len(set(cards)) != count:
        return render_seat(load_seat(token), code=422, message=_(
            "Pick exactly %(count)s cards to pass (you picked %(picked)s).", count=count,
            picked=len(set(cards))))
    return seat_move(token, key, PassCards(key.seat, cards), "passed",
                     _("Your cards are passed."))


@bp.post("/s/<token>/moon")
def seat_moon(token: str) -> ResponseReturnValue:
    check_csrf()
    key = find_seat(token)
    choice = request.form.get("choice", "")
    if choice not in MOON_CODES:
        abort(400)
    down, points = choice == views.MOON_DOWN, key.rules.moon_points
    return seat_move(token, key, ChooseMoon(key.seat, down), "chosen",
                     _("You went down %(points)s.", points=points) if down
                     else _("You put everyone else up %(points)s.", points=points))


@bp.post("/s/<token>/bid")
def seat_bid(token: str) -> ResponseReturnValue:
    """Auction Hearts: bid the chips typed in, or pass (the Pass button)."""
    check_csrf()
    key = find_seat(token)
    chips: int | None = None
    if "pass" not in request.form:
        typed = request.form.get("chips", "").strip()
        if not (typed.isascii() and typed.isdigit()) or len(typed) > 6 or int(typed) < 1:
            page = load_seat(token)
            low = asked(page.table.state, key.seat).min_bid or 1
            return render_seat(page, code=422, message=_(
                "Type a whole number of chips to bid, at least %(low)s (“%(typed)s” is not "
                "one), or press Pass.", low=low, typed=typed) if typed else _(
                "Type a whole number of chips to bid, at least %(low)s, or press Pass.",
                low=low))
        chips = int(typed)
    event = BidMade(key.seat, chips)
    return seat_move(token, key, Bid(event.seat, chips), "done",
                     _("Done: %(what)s.", what=choice_words(event)),
                     _("Nothing more to do: %(what)s already.", what=choice_words(event)))


@bp.post("/s/<token>/suit")
def seat_suit(token: str) -> ResponseReturnValue:
    """Auction Hearts: the winning bidder names the suit to avoid."""
    check_csrf()
    key = find_seat(token)
    choice = codes.read_choice(request.form.get("suit", ""))
    if choice is None or not isinstance(choice[1], Suit):
        abort(400)
    event = SuitNamed(key.seat, choice[1])
    return seat_move(token, key, NameSuit(event.seat, event.suit), "done",
                     _("Done: %(what)s.", what=choice_words(event)),
                     _("Nothing more to do: %(what)s already.", what=choice_words(event)))


@bp.post("/s/<token>/invite")
def seat_invite(token: str) -> ResponseReturnValue:
    """Accept or decline the seat's invitation from the private page: the service commands
    the invitation email's links use (for the organiser of a game not confirmed yet: confirm
    it, or cancel it)."""
    check_csrf()
    key = find_seat(token)
    answer = request.form.get("answer", "")
    if answer not in INVITE_ANSWERS:
        abort(400)
    command = service.accept_invite if answer == "accept" else service.decline_invite
    try:
        out = command(service.Context(engine=db_engine()), key.game_id, key.seat,
                      player_id=key.player_id)
    except service.PlayerMistake as exc:
        return render_seat(load_seat(token), message=mistake_words(exc), code=409)
    if answer == "accept" and key.player_id is not None:
        first_language(key.player_id, remember=False)  # a newcomer's emails: their browser's
    flash(explain_outcome(out) if out.duplicate else _answered(key.game_id, answer))
    return redirect(url_for("play.seat_page", token=token), code=303)


def _answered(game_id: int, answer: str) -> str:
    with transaction(db_engine(), read_only=True) as session:
        game = session.get(Game, game_id)
    status = game.status if game is not None else ""
    if status == "cancelled":
        return _("You cancelled the game: nobody else was invited, and nobody will be.")
    if answer == "decline":
        return _("You declined the invitation: the other players are told.")
    if status == "inviting":
        return _("You accepted: the game starts when everyone has accepted.")
    return _("You accepted, and the game has started.")


END_VOTES = {"end": True, "play-on": False}


@bp.post("/s/<token>/end")
def seat_end(token: str) -> ResponseReturnValue:
    """Seed 003: vote to end the game now (propose or agree), or to play on. Through the one
    move command; a vote is nobody's turn, so the page's turn is not needed."""
    check_csrf()
    key = find_seat(token)
    agree = END_VOTES.get(request.form.get("vote", ""))
    if agree is None:
        abort(400)
    try:
        out = service.move(service.Context(engine=db_engine()), key.game_id,
                           VoteEnd(key.seat, agree), player_id=key.player_id)
    except service.PlayerMistake as exc:
        return render_seat(load_seat(token), message=mistake_words(exc), code=409)
    if out.duplicate:
        flash(explain_outcome(out))
    elif out.state is not None and out.state.ended_by_agreement:
        flash(_("The game has ended by agreement. No hand was finished, so there are no scores "
                "and no winner.") if not out.state.sheet else _(
                "The game has ended by agreement. The scores of the hands completed are final."))
    else:
        flash(_("You agreed to end the game now; the others are asked by email.") if agree
              else _("You chose to play on: the vote to end the game is closed."))
    return redirect(url_for("play.seat_page", token=token), code=303)


def seat_move(token: str, key: SeatKey, command: Command, done: str, made: str,
              repeated: str | None = None) -> ResponseReturnValue:
    """The private page's one protocol for every move: the page's turn goes with the command
    to the service's move command, which refuses it once that turn has passed and answers a
    repeat of the move made then with "already done"; then back to the page (303). The game's
    state is loaded once, by the move; the page again only to show a refusal."""
    turn = _form_int("turn")
    if turn is None:  # a form from no page of ours
        return render_seat(load_seat(token), code=409, message=str(MOVED_ON[done]))
    try:
        out = service.move(service.Context(engine=db_engine()), key.game_id, command,
                           expected_turn=turn, player_id=key.player_id)
    except service.Stale:
        return render_seat(load_seat(token), code=409, message=str(MOVED_ON[done]))
    except service.PlayerMistake as exc:
        return render_seat(load_seat(token), message=mistake_words(exc), code=409)
    flash((repeated or explain_outcome(out)) if out.duplicate else made)
    return redirect(url_for("play.seat_page", token=token), code=303)


def _form_int(name: str) -> int | None:
    value = request.form.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 12 else None
