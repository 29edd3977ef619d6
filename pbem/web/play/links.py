"""One-time links from the emails (/t/<token>, /p/<token>).

Mail scanners GET (and HEAD) every link within seconds of delivery, so GET only renders: it
shows what the link would do and a button. The button POSTs (CSRF-protected) and the move
goes through the service's one move command. Each link's token says which game, seat, turn and
card (for the two moon-choice links the "card" is `moondown` or `moonup`; for a bid it is
`bid:5` or `bid:pass`, or the suit to avoid, `suit:S`: see `pbem.present.codes.read_choice`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flask import (
    abort,
    render_template,
    request,
)
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf
from sqlalchemy import Engine, bindparam, update
from sqlmodel import Session, col, select

from pbem import service
from pbem.engine import (
    Ask,
    Bid,
    BidMade,
    Card,
    CardsPassed,
    ChooseMoon,
    Command,
    Event,
    HandDealt,
    MoonChosen,
    NameSuit,
    PassCards,
    Phase,
    PlayCard,
    Suit,
    SuitNamed,
    UnreadableInput,
    asked,
    moves_turn,
    parse_card,
    turn_before,
)
from pbem.present import codes, views
from pbem.present.i18n import _, pgettext
from pbem.present.refusals import mistake_words
from pbem.present.tokens import consume_token, live_token, token_hashes
from pbem.present.words import chips_words
from pbem.service.games import awaits_confirmation, is_organiser, organiser_seat
from pbem.service.moves import same_move
from pbem.store.app_engine import db_engine
from pbem.store.db import execute_write, planning, transaction
from pbem.store.events import (
    LoadedState,
    ReadLog,
    load_events_by,
    load_state,
    load_state_read,
)
from pbem.store.gamerows import LinkRows, read_game, read_link
from pbem.store.models import Game, Player, Token
from pbem.store.types import utcnow
from pbem.web.play.common import (
    DONE,
    INVITE_ANSWERS,
    LINK_PURPOSES,
    MOON_CODES,
    READY,
    ROBOT_ACTORS,
    STALE,
    Table,
    bp,
    check_csrf,
    choice_words,
    load_table,
    mail_url,
    pass_target,
    table_of,
)
from pbem.web.play.gathering import gathering
from pbem.web.signedin import signed_in_player


@dataclass(frozen=True)
class Link:
    """A live link token, its game, and whether it can still act (ready), did (done) or is late."""

    token: Token
    table: Table
    status: str
    known: service.Known | None = None  # the game as read with the link: its move starts there

    @property
    def kind(self) -> str:
        return link_kind(self.token)

    @property
    def card(self) -> Card | None:
        if self.kind != "card" or not self.token.card:
            return None
        return parse_card(self.token.card)

    @property
    def moon_down(self) -> bool:
        """For a moon link: does it choose to go down (else everyone else goes up)?"""
        return self.token.card == views.MOON_DOWN

    @property
    def chips(self) -> int | None:
        """For a bid link: the chips it bids (None: it passes)."""
        choice = codes.read_choice(self.token.card)
        if choice is None or choice[0] != "bid" or isinstance(choice[1], Suit):
            return None
        return choice[1]

    @property
    def suit(self) -> Suit | None:
        """For a suit link: the suit it names to avoid."""
        choice = codes.read_choice(self.token.card)
        return choice[1] if choice and isinstance(choice[1], Suit) else None


def link_kind(token: Token) -> str:
    """What a link does: its token's purpose, "moon" for the two moon-choice links (tokens of
    purpose "card" whose card is `moondown` / `moonup`), "bid" or "suit" for the Auction links
    (whose card is `bid:5`, `bid:pass` or `suit:S`)."""
    if token.purpose == "card" and token.card in MOON_CODES:
        return "moon"
    choice = codes.read_choice(token.card) if token.purpose == "card" else None
    return choice[0] if choice else token.purpose


def load_link(raw: str, purposes: frozenset[str] = LINK_PURPOSES) -> Link:
    """The link for a raw token, or a 404 for unknown, expired or foreign tokens. Read once,
    without the writer lock (a planning session: pbem.store.db.planning), in one statement
    (pbem.store.gamerows.read_link): the token, the game with its seats, players, pending
    deadlines and latest snapshot, the events since that snapshot or the link's turn; the
    state from this process's copy folded with the events after it when it has one that
    recent, else from that snapshot. Its page and its move (`Link.known`) both start from
    that."""
    with planning(db_engine()) as session:
        read = read_link(session.connection(), token_hashes(raw))
        token = live_token(read.tokens, purposes)
        if token is None or token.game_id is None or token.seat_no is None:
            abort(404)
        turn = token.turn_seq or 0
        whole = len(read.tokens) == 1 and read.game is not None
        # else two tokens were found (one typed in capitals): the game and the events read
        # may be the other's
        rows = read.game if whole else read_game(session.connection(), token.game_id,
                                                 deadlines=True)
        if rows is None or rows.game.last_seq == 0:
            abort(404)
        if whole:
            loaded, since_by = _state_from_read(session, token.game_id, rows.game.last_seq,
                                                turn, read)
        else:
            since_by = load_events_by(session, token.game_id, turn)
            loaded = load_state(session, token.game_id, rows.game.last_seq)
    table = table_of(rows, loaded.state, token.seat_no)
    known = service.Known(rows, loaded, turn, tuple((e, by or None) for e, by in since_by))
    return Link(token, table, link_status(token, table, [e for e, _by in since_by]), known)


def _state_from_read(session: Session, game_id: int, last_seq: int, turn: int,
                     read: LinkRows) -> tuple[LoadedState, list[tuple[Event, str]]]:
    """The game's state from the link's read (this process's copy of it, or the latest
    snapshot, folded with the events read after it), and the events since the link's turn
    with who made them."""
    log = ReadLog(read.snapshot, read.complete_after,
                  [(seq, payload) for seq, payload, _by in read.events])
    loaded = load_state_read(session, game_id, last_seq, log)
    actors = {seq: by or "" for seq, _payload, by in read.events}
    return loaded, [(event, actors[seq]) for seq, event in log.events_after(turn)]


def link_status(token: Token, table: Table, since: Sequence[Event]) -> str:
    """READY to act, DONE (this link or another way did it already), or STALE (too late)."""
    check: dict[str, Callable[[Token, Table, Sequence[Event]], str]] = {
        "card": _card_status, "pass": _pass_status, "invite": _invite_status,
        "moon": _moon_status, "bid": _choice_status, "suit": _choice_status}
    return check[link_kind(token)](token, table, since)


def still_asked(token: Token, table: Table, since: Sequence[Event], kind: Ask) -> bool:
    """Is the link's seat asked `kind` now, in the very turn the link was sent for (the
    engine's `asked` and the seat's turn number; other seats' moves don't make it late)?"""
    seat = token.seat_no or 0
    now = asked(table.state, seat)
    return now.kind is kind and turn_before(table.state, seat, since) == now.turn


def decision_since(token: Token, table: Table, since: Sequence[Event]) -> Event | None:
    """The event that ended the seat's turn the link was sent for (its decision then, or a
    deal), by the engine's turn numbers as the service's move reads them; None while that
    turn lasts."""
    seat = token.seat_no or 0
    if turn_before(table.state, seat, since) == table.state.turns[seat]:
        return None
    return next((e for e in since if moves_turn(e, seat)), None)


def _card_status(token: Token, table: Table, since: Sequence[Event]) -> str:
    made = decision_since(token, table, since)
    played = PlayCard(token.seat_no or 0, parse_card(token.card or ""))
    if token.used_at is not None or (made is not None and same_move(made, played)):
        return DONE  # either copy of a Cancellation card
    return READY if still_asked(token, table, since, Ask.PLAY) else STALE


def _pass_status(token: Token, table: Table, since: Sequence[Event]) -> str:
    if token.used_at is not None or isinstance(decision_since(token, table, since), CardsPassed):
        return DONE
    return READY if still_asked(token, table, since, Ask.PASS) else STALE


def _moon_status(token: Token, table: Table, since: Sequence[Event]) -> str:
    if token.used_at is not None or isinstance(decision_since(token, table, since), MoonChosen):
        return DONE  # this link, the other one, or a reply made the choice
    return READY if still_asked(token, table, since, Ask.MOON) else STALE


def moon_choice_in(events: Sequence[Event], seat: int) -> bool | None:
    """The first moon choice (down?) `seat` made in `events`, or None."""
    return next((e.down for e in events if isinstance(e, MoonChosen) and e.seat == seat), None)


def _choice_status(token: Token, table: Table, since: Sequence[Event]) -> str:
    """An Auction link: DONE once this seat made its bid (or named its suit) in that auction,
    READY while it can still act, else STALE (`choice_problem` says why)."""
    if token.used_at is not None or choice_made(token, since) is not None:
        return DONE
    return READY if choice_problem(token, table, since) is None else STALE


def this_hand(since: Sequence[Event]) -> Sequence[Event]:
    """The events of `since` before the next deal."""
    dealt = next((n for n, e in enumerate(since) if isinstance(e, HandDealt)), len(since))
    return since[:dealt]


def choice_made(token: Token, since: Sequence[Event]) -> BidMade | SuitNamed | None:
    """The bid (or suit naming, for a suit link) this link's seat made in the link's hand."""
    kind = BidMade if link_kind(token) == "bid" else SuitNamed
    return next((e for e in this_hand(since) if isinstance(e, kind)
                 and e.seat == token.seat_no), None)


def choice_problem(token: Token, table: Table, since: Sequence[Event]) -> str | None:
    """Why an Auction link can't act now, in words for the player; None when it can."""
    state, game = table.state, table.game
    if state.game_over:
        return _("The game is over, so there is nothing more to choose.")
    if game.status != "active":
        return _("The game is paused at the moment, so nothing can be done from this link.")
    if any(isinstance(e, HandDealt) for e in since):
        return _("That hand's auction is over: a new hand has been dealt since this email was "
                 "sent.")
    problem = (_bid_problem if link_kind(token) == "bid" else _suit_problem)(token, table)
    kind = Ask.BID if link_kind(token) == "bid" else Ask.NAME_SUIT
    if problem is None and not still_asked(token, table, since, kind):
        return _("The game has moved on since this email was sent.")
    return problem


def _bid_problem(token: Token, table: Table) -> str | None:
    state, seat, names = table.state, token.seat_no or 0, table.names
    if state.phase is Phase.NAME_SUIT:
        if state.bidder == seat:
            return _("The bidding for this hand is over, and you name the suit to avoid.")
        return _("The bidding for this hand is over, and %(name)s names the suit to avoid.",
                 name=names[state.bidder])
    if state.phase is not Phase.BID:
        named = _named(table)
        return _("The bidding for this hand is over: %(named)s.", named=named) if named \
            else _("The bidding for this hand is over.")
    if asked(state, seat).kind is not Ask.BID:
        return _("It's %(name)s's turn to bid, not yours.", name=table.waiting_for)
    chips, high = Link(token, table, STALE).chips, codes.high_bid(state.bids)
    if chips is not None and chips <= high:
        return _("The highest bid is now %(high)s, so a bid of %(chips)s is too low: bid more "
                 "from your page, or pass.", high=chips_words(high), chips=chips_words(chips))
    return None


def _suit_problem(token: Token, table: Table) -> str | None:
    state = table.state
    if state.phase is Phase.BID:
        return _("The bidding isn't over yet, so no suit can be named.")
    if state.phase is not Phase.NAME_SUIT:
        named = _named(table)
        return _("The suit to avoid is already named: %(named)s.", named=named) if named \
            else _("The suit to avoid is already named.")
    if asked(state, token.seat_no or 0).kind is not Ask.NAME_SUIT:
        return _("%(name)s won the bidding, so %(name)s names the suit, not you.",
                 name=table.names[state.bidder])
    return None


def _named(table: Table) -> str:
    """`Ann named spades as the suit to avoid`, once named."""
    state = table.state
    if state.named_suit is None or state.bidder < 0:
        return ""
    return _("%(name)s named %(suit)s as the suit to avoid", name=table.names[state.bidder],
             suit=state.named_suit.plural)


def _invite_status(token: Token, table: Table, since: Sequence[Event]) -> str:
    seat = next(s for s in table.seats if s.seat_no == token.seat_no)
    if seat.player_id != token.player_id or seat.is_bot:
        return STALE  # the seat went to someone else, or a robot (its organiser started)
    if token.used_at is not None or seat.invite_status != "invited":
        return DONE
    return READY if table.game.status == "inviting" else STALE


def claim_link(engine: Engine, token_id: int) -> bool:
    """Mark the token used unless this seat's player already used a link for this turn.

    The game row is locked first so that two links of one turn (two cards clicked at once)
    cannot both pass the check; the service's own duplicate check covers the rest. (The player
    is part of the turn: a seat given to someone new gets fresh invitation links that the
    previous invitee's used link must not block.)
    """
    with transaction(engine) as session:
        token = session.get(Token, token_id)
        if token is None or token.game_id is None:
            return False
        session.get(Game, token.game_id, with_for_update=True)
        siblings = select(Token.id).where(
            Token.game_id == token.game_id, Token.seat_no == token.seat_no,
            Token.turn_seq == token.turn_seq, Token.purpose == token.purpose,
            Token.player_id == token.player_id, col(Token.used_at).is_not(None))
        if session.exec(siblings).first() is not None:
            return False
        return consume_token(session, token, now=utcnow())


def use_link(engine: Engine, token_id: int) -> None:
    """Mark a link used (its move was made, or found made): the page then says so."""
    with transaction(engine) as session:
        token = session.get(Token, token_id)
        if token is not None and token.used_at is None:
            consume_token(session, token, now=utcnow())


def release_link(engine: Engine, token_id: int) -> None:
    """Undo `claim_link` when the move could not be made, so the player may try again."""
    with transaction(engine) as session:
        session.execute(update(Token).where(col(Token.id) == token_id).values(used_at=None)
                        .execution_options(synchronize_session=False))


def act(link: Link, command: Callable[[service.Context], service.Outcome]) -> ResponseReturnValue:
    """Claim the link, run the service command, and show what happened."""
    engine = db_engine()
    if link.token.id is None or not claim_link(engine, link.token.id):
        return lost_claim(link)
    try:
        outcome = command(service.Context(engine=engine))
    except service.PlayerMistake as exc:
        release_link(engine, link.token.id)
        return render_link(link, message=mistake_words(exc), code=409)
    except Exception:  # a system failure: log it (Flask does), leave the link usable
        release_link(engine, link.token.id)
        raise
    return show(link.token.id, DONE, fresh=not outcome.duplicate)


def lost_claim(link: Link) -> ResponseReturnValue:
    """Another link (or page, or reply) of this seat's turn got there first."""
    now = load_link(request.view_args["token"] if request.view_args else "")
    status = STALE if now.status == READY else now.status  # the winner is still playing
    return render_link(Link(now.token, now.table, status), code=200 if status == DONE else 409)


def show(token_id: int | None, status: str, *, fresh: bool = False) -> ResponseReturnValue:
    """Re-load the token's game after a command and render it with `status`."""
    with transaction(db_engine(), read_only=True) as session:
        token = session.get(Token, token_id)
        if token is None or token.game_id is None:
            abort(404)
        table = load_table(session, token.game_id, token.seat_no)
        if table is None:
            abort(404)
    return render_link(Link(token, table, status), fresh=fresh)


def render_link(link: Link, *, fresh: bool = False, message: str = "",
                code: int = 200) -> ResponseReturnValue:
    template = {"card": "web/card.html", "pass": "web/pass.html",
                "invite": "web/invite.html", "moon": "web/moon.html",
                "bid": "web/choice.html", "suit": "web/choice.html"}[link.kind]
    card = link.card
    context = {
        **_confirmed_context(link), **_accepted_context(link), **_moon_context(link),
        **_choice_context(link),
        **link.table.context, "status": link.status, "fresh": fresh, "message": message,
        "token": link.token, "csrf": generate_csrf(), "card": views.card_view(card) if card
        else None, "answer": request.args.get("a", ""), "pass_count":
        link.table.state.rules.pass_count, "pass_target": pass_target(link.table),
        "mail_url": mail_url(), "picked": request.form.getlist("cards"),
    }
    return render_template(template, ctx=context, **context), code


def _confirmed_context(link: Link) -> dict[str, Any]:
    """The page an organiser lands on once they have confirmed their game: its seats not
    taken yet, when robots take them (in the organiser's time zone), and how to start now."""
    t, table = link.token, link.table
    seat = organiser_seat(table.game, table.seats)
    if link.kind == "invite" and link.status == READY and seat is not None \
            and seat.seat_no == t.seat_no and awaits_confirmation(table.game, table.seats):
        return {"confirming": True}  # the organiser's own game, to confirm or cancel
    if link.kind != "invite" or link.status != DONE or seat is None \
            or seat.seat_no != t.seat_no or not is_organiser(table.game, table.seats, t.player_id):
        return {}
    return {"confirmed": True, **gathering(table, signed_in_player, _time_zone(t))}


def _accepted_context(link: Link) -> dict[str, Any]:
    """The page an invitee other than the organiser lands on once they have accepted: while
    the game still gathers players, when robots take the seats not taken (in the invitee's
    time zone), as the game's page says it. Starting now is the organiser's: not offered."""
    t, table = link.token, link.table
    seat = next((s for s in table.seats if s.seat_no == t.seat_no), None)
    if link.kind != "invite" or link.status != DONE or seat is None \
            or seat.player_id != t.player_id or seat.invite_status != "accepted" \
            or is_organiser(table.game, table.seats, t.player_id):
        return {}
    return {"accepted": True, **gathering(table, lambda: None, _time_zone(t))}


def _time_zone(token: Token) -> str | None:
    """The time zone of the link's player, to say dates in."""
    with transaction(db_engine(), read_only=True) as session:
        player = session.get(Player, token.player_id)
    return player.time_zone if player else None


def _moon_context(link: Link) -> dict[str, Any]:
    """A moon link's page: the choice it makes, and the one already made (if any)."""
    if link.kind != "moon":
        return {}
    t, seat = link.token, link.token.seat_no or 0
    option, chosen = None, None
    if link.status == READY:
        options = views.moon_options(link.table.state, seat, link.table.names)
        option = next(o for o in options if o.down == link.moon_down)
    by = ""
    if link.status != READY:
        with transaction(db_engine(), read_only=True) as session:
            since_by = load_events_by(session, t.game_id or 0, t.turn_seq or 0)
        chosen = moon_choice_in([e for e, _by in since_by], seat)
        by = next((who for e, who in since_by if isinstance(e, MoonChosen)), "")
    points = link.table.state.rules.moon_points
    words = None if chosen is None else (
        _("you went down %(points)s", points=points) if chosen
        else _("you put everyone else up %(points)s", points=points))
    if chosen is not None and by in ROBOT_ACTORS:
        words = (_("the robot chose for you: you went down %(points)s", points=points) if chosen
                 else _("the robot chose for you: everyone else went up %(points)s",
                        points=points))
    return {"moon_option": option, "moon_down": link.moon_down, "moon_points": points,
            "moon_chosen_words": words}


def _choice_context(link: Link) -> dict[str, Any]:
    """An Auction link's page: what it does, and (once too late or done) why or what was done."""
    if link.kind not in ("bid", "suit"):
        return {}
    t = link.token
    with transaction(db_engine(), read_only=True) as session:
        since_by = load_events_by(session, t.game_id or 0, t.turn_seq or 0)
    since = [event for event, _by in since_by]
    chips, suit = link.chips, link.suit
    if link.kind == "bid":
        what = (_("Bid %(chips)s for the right to name the suit to avoid",
                  chips=chips_words(chips)) if chips is not None else pgettext("bid", "Pass"))
        button = _("Bid %(chips)s", chips=chips_words(chips)) if chips is not None \
            else pgettext("bid", "Pass")
    else:
        assert suit is not None
        what = button = _("Avoid %(suit)s", suit=suit.plural)
    made = choice_made(t, since)
    by = next((who for event, who in since_by if event is made), "")
    suit_choice = None if suit is None else codes.choice(codes.suit_code(suit))
    return {"choice": suit_choice,
            "choice_kind": link.kind, "choice_chips": chips, "choice_what": what,
            "choice_button": button, "choice_done": choice_words(made, by),
            "choice_problem": choice_problem(t, link.table, since)
            if link.status == STALE else None}


@bp.get("/t/<token>")
def link_page(token: str) -> ResponseReturnValue:
    """What a link from an email would do; GET and HEAD never change anything."""
    return render_link(load_link(token))


@bp.post("/t/<token>")
def link_action(token: str) -> ResponseReturnValue:
    """A link's button: the move goes to the service's one move command, whose staleness and
    repeat rules decide (the link's status shown on GET is only a preview)."""
    check_csrf()
    link = load_link(token)
    if link.kind == "invite":
        if link.status != READY:
            return render_link(link, code=200 if link.status == DONE else 409)
        return _answer(link)
    if link.kind == "pass":
        return _pass(link)
    return move_by_link(link, link_command(link))


@bp.get("/p/<token>")
def pass_page(token: str) -> ResponseReturnValue:
    return render_link(load_link(token, frozenset({"pass"})))


@bp.post("/p/<token>")
def pass_action(token: str) -> ResponseReturnValue:
    return link_action(token)


def link_command(link: Link) -> Command:
    """The move a one-time link stands for."""
    seat = link.token.seat_no or 0
    if link.kind == "moon":
        return ChooseMoon(seat, link.moon_down)
    if link.kind == "bid":
        return Bid(seat, link.chips)
    if link.kind == "suit":
        assert link.suit is not None
        return NameSuit(seat, link.suit)
    card = link.card
    if card is None:
        abort(404)
    return PlayCard(seat, card)


def move_by_link(link: Link, command: Command) -> ResponseReturnValue:
    """Make a link's move through the service, from the game as the link read it, the link
    marked used in the move's own transaction; the page after it is rendered from the state
    the move left (no second read). A duplicate (the move was made already) marks it used
    on its own and shows the game as it is."""
    engine, t = db_engine(), link.token
    ctx = service.Context(engine=engine, known=link.known,
                          on_applied=lambda session, _outcome: mark_used(session, t.id))
    try:
        outcome = service.move(ctx, t.game_id or 0, command, issued_seq=t.turn_seq,
                               player_id=t.player_id)
    except service.Stale:
        return lost_claim(link)
    except service.PlayerMistake as exc:
        return render_link(link, message=mistake_words(exc), code=409)
    if outcome.duplicate or outcome.game is None or outcome.seats is None \
            or outcome.state is None:
        if t.id is not None:
            use_link(engine, t.id)
        return show(t.id, DONE, fresh=not outcome.duplicate)
    table = replace(link.table, game=outcome.game, state=outcome.state,
                    seats=list(outcome.seats))
    return render_link(Link(t, table, DONE), fresh=True)


_USE_TOKEN = (update(Token).where(col(Token.id) == bindparam("token_id"),
                                  col(Token.used_at).is_(None))
              .values(used_at=bindparam("now")))


def mark_used(session: Session, token_id: int | None) -> None:
    """Mark a link used in the caller's (the move's) transaction."""
    if token_id is not None:
        execute_write(session, _USE_TOKEN, {"token_id": token_id, "now": utcnow()})


def _pass(link: Link) -> ResponseReturnValue:
    chosen = request.form.getlist("cards")
    try:
        cards = tuple(parse_card(c) for c in chosen)
    except UnreadableInput:
        abort(400)
    count = link.table.state.rules.pass_count
    if len(set(cards)) != count:
        return render_link(link, message=_(
            "Pick exactly %(count)s cards to pass (you picked %(picked)s).", count=count,
            picked=len(set(cards))), code=422)
    return move_by_link(link, PassCards(link.token.seat_no or 0, cards))


def _answer(link: Link) -> ResponseReturnValue:
    answer = request.form.get("answer", "")
    if answer not in INVITE_ANSWERS:
        abort(400)
    t = link.token
    command = service.accept_invite if answer == "accept" else service.decline_invite
    return act(link, lambda ctx: command(ctx, t.game_id or 0, t.seat_no or 0,
                                         player_id=t.player_id))
