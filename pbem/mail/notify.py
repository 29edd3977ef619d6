"""Decide who gets which email after a move, render it, and queue it in the same transaction.

The service layer calls `notify(...)` after appending events, and `send_invites`,
`send_declined`, `send_error`, `send_reminder`, `send_digest` for mail that no game event causes.

Emails asking a move (one template pair each, with one-time links): `turn`, `pass`,
`moon_choice`, `bid` (links coded `bid:pass`, `bid:N`) and `name_suit` (`suit:C` ... `suit:S`);
the variant's words come from its presenter (pbem.present.presenters) and go in every game email.
A draw from the stock is named only in the drawer's email; the others learn how many cards.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from pbem.engine import (
    BidMade,
    Card,
    CardPlayed,
    CardsDrawn,
    CardsPassed,
    Event,
    GameCreated,
    GameState,
    MoonChosen,
    Phase,
    Rules,
    SeatView,
    SuitNamed,
    apply,
    drawn_cards,
    list_in_words,
    seat_view,
    start,
)
from pbem.engine.describe import awaited_words
from pbem.mail.compose import MailSettings, build_headers
from pbem.mail.outbox import enqueue
from pbem.mail.render import Renderer, default_renderer
from pbem.present import codes, views
from pbem.present.presenters import presenter
from pbem.present.tokens import insert_tokens, new_token, token_values
from pbem.present.words import chips_words, suit_title
from pbem.roster import Roster, load_roster
from pbem.store.models import Game, OutboxEmail, Player, Seat
from pbem.store.types import utcnow
from pbem.zones import deadline_text

MARKER = "--- Reply above this line ---"
UNSUBSCRIBE_TTL = timedelta(days=365)


@dataclass
class GameMail:
    """One game's recipients and the means to queue mail to them, in the caller's transaction.

    The token rows an email needs (its reply token, one-time card links) are collected by
    `token` and inserted together when it is queued (`send`), in one statement; each player's
    unsubscribe token and private seat link are made once per GameMail and shared by the
    emails it queues to them."""

    session: Session
    game: Game
    settings: MailSettings
    now: datetime
    renderer: Renderer
    names: list[str] = field(default_factory=list)
    players: dict[int, Player] = field(default_factory=dict)  # seat_no -> human player
    failing: frozenset[int] = frozenset()  # seats whose address bounces
    draws: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list)  # Domino, this move
    _tokens: list[dict[str, Any]] = field(default_factory=list)  # rows not inserted yet
    _unsubscribe: dict[int | None, str] = field(default_factory=dict)  # player id -> raw
    _private: dict[int, str | None] = field(default_factory=dict)  # seat -> private URL

    @classmethod
    def load(cls, session: Session, game: Game, settings: MailSettings | None = None,
             now: datetime | None = None, renderer: Renderer | None = None,
             roster: Roster | None = None) -> GameMail:
        """`roster`: the game's roster if the caller has it already (else it is loaded)."""
        mail = cls(session, game, settings or _default_settings(), now or utcnow(),
                   renderer or default_renderer())
        if roster is None:
            seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(
                col(Seat.seat_no))).all()
            roster = load_roster(session, seats)
        mail.names, mail.players, mail.failing = roster.names, roster.players, roster.failing
        return mail

    @property
    def game_url(self) -> str:
        return self.settings.url(f"games/{self.game.id}")

    def token(self, purpose: str, seat: int | None, *, turn_seq: int | None = None,
              card: str | None = None, ttl: timedelta | None = None) -> str:
        """A new token for the email being prepared (its row is inserted by `send`, or by
        `flush_tokens`)."""
        player = self.players.get(seat) if seat is not None else None
        kwargs: dict[str, Any] = {"ttl": ttl} if ttl else {}
        raw, row = token_values(purpose, game_id=self.game.id, seat_no=seat,
                                player_id=player.id if player else None, turn_seq=turn_seq,
                                card=card, now=self.now, **kwargs)
        self._tokens.append(row)
        return raw

    def flush_tokens(self) -> None:
        """Insert the token rows made so far (one statement)."""
        rows, self._tokens = self._tokens, []
        insert_tokens(self.session, rows)

    def link(self, raw_token: str) -> str:
        return self.settings.url(f"t/{raw_token}")

    def send(self, kind: str, seat: int, context: dict[str, Any], *,
             turn_seq: int | None = None, preheader: str = "") -> OutboxEmail | None:
        """Render and queue one email to the player in `seat` (None if they get no mail)."""
        player = self.players.get(seat)
        if player is None or not deliverable(player):
            self.flush_tokens()
            return None
        reply = self.token("reply", seat, turn_seq=turn_seq)
        unsubscribe = self._unsubscribe.get(player.id)
        if unsubscribe is None:
            unsubscribe, row = token_values("unsubscribe", player_id=player.id, now=self.now,
                                            ttl=UNSUBSCRIBE_TTL)
            self._tokens.append(row)
            self._unsubscribe[player.id] = unsubscribe
        private = self.private_url(seat, player)
        self.flush_tokens()
        return queue_mail(self.session, self.settings, self.renderer, kind, player,
                          game=self.game, reply_token=reply, now=self.now,
                          unsubscribe=unsubscribe,
                          context={"preheader": preheader,
                                   **({"game_url": private} if private else {}), **context})

    def private_url(self, seat: int, player: Player) -> str | None:
        """The player's private view of this game (/s/<token>: their hand), linked as the
        game page; None without an app (and so no secret key) to make it."""
        if seat in self._private:
            return self._private[seat]
        from flask import has_app_context

        url = None
        if has_app_context() and self.game.id is not None and player.id is not None:
            from pbem.present.links import seat_link

            raw = seat_link(self.session, self.game.id, seat, player.id, now=self.now)
            url = self.settings.url(f"s/{raw}")
        self._private[seat] = url
        return url


def deliverable(player: Player) -> bool:
    """Unsubscribed players get no mail; a bouncing address gets none until it is fixed."""
    return not player.unsubscribed and player.email_status == "ok"


def queue_mail(
    session: Session, settings: MailSettings, renderer: Renderer, kind: str, player: Player,
    *, context: dict[str, Any], game: Game | None = None, reply_token: str | None = None,
    now: datetime | None = None, unsubscribe: str | None = None,
) -> OutboxEmail:
    """Render `kind` for `player` and add the outbox row (with an unsubscribe token: the raw
    `unsubscribe` token given, whose row the caller inserted, or a new one)."""
    if unsubscribe is None:
        unsubscribe, row = token_values("unsubscribe", player_id=player.id, now=now,
                                        ttl=UNSUBSCRIBE_TTL)
        insert_tokens(session, [row])
    game_id = game.id if game else None
    full = {
        "player_name": player.name, "game_name": game.name if game else None,
        "game_url": settings.url(f"games/{game_id}") if game_id else None,
        "unsubscribe_url": settings.url(f"u/{unsubscribe}"), "marker": MARKER,
        "preheader": "", **context,
    }
    rendered = renderer.render(kind, **full)
    headers = build_headers(settings, kind=kind, to_name=player.name, to_addr=player.email,
                            game_id=game_id, player_id=player.id, reply_token=reply_token,
                            unsubscribe_token=unsubscribe)
    return enqueue(session, kind=kind, to_addr=player.email, subject=subject_for(game),
                   body_text=rendered.text, body_html=rendered.html, headers=headers,
                   game_id=game_id, player_id=player.id, now=now)


def subject_for(game: Game | None) -> str:
    """One subject per game, so that mail clients that thread by subject (Gmail) keep one thread;
    what each email is about is its first line (and the HTML preheader)."""
    return f"Hearts: {game.name}" if game else "Hearts: your games today"


# --- after a move --------------------------------------------------------------------------

def notify(
    session: Session,
    game: Game,
    state_before: GameState | None,
    state_after: GameState,
    events: Sequence[Event],
    *,
    actor: int | None = None,
    deadline: datetime | None = None,
    settings: MailSettings | None = None,
    now: datetime | None = None,
    renderer: Renderer | None = None,
    roster: Roster | None = None,
) -> list[OutboxEmail]:
    """Queue every email the new `events` call for (`roster`: the game's, if the caller has
    it loaded already). Call after appending them and moving
    `game.last_seq` (it is the turn_seq of the new tokens). `actor`: the seat whose command
    made the events (gets a confirmation); by default the seat of the first play or pass."""
    if not events:
        return []
    mail = GameMail.load(session, game, settings, now, renderer, roster)
    mail.draws = _draws(state_before, events)
    rows: list[OutboxEmail | None] = []
    rows += _confirmation(mail, state_after, events, actor)
    done = _finished(state_before, events)
    rows += _results(mail, done)
    if _game_started(state_before, state_after):
        rows += [_game_started_mail(mail, state_after, seat) for seat in mail.players]
    if state_after.game_over:
        last = done.hands[-1] if done.hands else None
        rows += [_summary_mail(mail, state_after, seat, last) for seat in mail.players]
    else:
        rows += _asks(mail, state_before, state_after, deadline)
    return [row for row in rows if row is not None]


def resend_turns(
    session: Session, game: Game, state: GameState, *, deadline: datetime | None = None,
    settings: MailSettings | None = None, now: datetime | None = None,
) -> list[OutboxEmail]:
    """Ask every player the game waits for for their move afresh (a paused game resumed:
    their earlier links still work, but the deadline is new)."""
    if state.game_over:
        return []
    mail = GameMail.load(session, game, settings, now)
    return [row for row in _asks(mail, None, state, deadline) if row is not None]


def _asks(mail: GameMail, before: GameState | None, after: GameState,
          deadline: datetime | None) -> list[OutboxEmail | None]:
    """The emails asking for the next moves (`before` None: ask whoever is waited for)."""
    if after.phase is Phase.PASS and _pass_began(before, after):
        return [_ask(mail, after, seat, deadline, _pass) for seat in after.to_move]
    if after.phase is Phase.PLAY:
        return [_ask(mail, after, seat, deadline, _turn) for seat in after.to_move]
    if after.phase is Phase.MOON_CHOICE and _moon_began(before, after):
        return [_moon_mail(mail, after, after.moon_shooter, deadline)]
    if after.phase in (Phase.BID, Phase.NAME_SUIT):
        what = _bid if after.phase is Phase.BID else _name_suit
        return [_ask(mail, after, seat, deadline, what) for seat in after.to_move]
    return []


def _game_started(before: GameState | None, after: GameState) -> bool:
    fresh = before is None or (before.phase is Phase.DEAL and before.hand_number == 1
                               and not before.sheet)
    return fresh and after.phase is not Phase.DEAL


def _pass_began(before: GameState | None, after: GameState) -> bool:
    return (before is None or before.phase is not Phase.PASS
            or before.hand_number != after.hand_number)


def _moon_began(before: GameState | None, after: GameState) -> bool:
    return (before is None or before.phase is not Phase.MOON_CHOICE
            or before.hand_number != after.hand_number)


def _fold(
    before: GameState | None, events: Iterable[Event]
) -> Iterable[tuple[GameState, GameState, Event]]:
    state = before
    for event in events:
        if state is None:
            if not isinstance(event, GameCreated):
                continue
            state = start(event)
            continue
        after = apply(state, event)
        yield state, after, event
        state = after


def _draws(before: GameState | None,
           events: Sequence[Event]) -> list[tuple[int, tuple[Card, ...]]]:
    """Domino: who drew which cards from the stock in `events`."""
    if not any(isinstance(e, CardsDrawn) for e in events):
        return []
    return [(event.seat, drawn_cards(prev, event)) for prev, _, event in _fold(before, events)
            if isinstance(event, CardsDrawn)]


# --- the emails ----------------------------------------------------------------------------

Asked = tuple[str, dict[str, Any], str]  # an email's kind, its own context, its preheader


def _ask(mail: GameMail, state: GameState, seat: int, deadline: datetime | None,
         what: Callable[[GameMail, GameState, SeatView, int, timedelta | None], Asked],
         ) -> OutboxEmail | None:
    """An email asking `seat` to move (`what` makes its kind and context): the table as the
    seat sees it, the deadline, and the one-time links, which last `ttl`."""
    player = mail.players.get(seat)
    if player is None or not deliverable(player):
        return None
    view = seat_view(state, seat)
    kind, context, pre = what(mail, state, view, seat, _ttl(mail.now, deadline))
    context = {**_table(mail, state, view, seat),
               "deadline": deadline_text(deadline, player.time_zone), **context}
    return mail.send(kind, seat, context, turn_seq=mail.game.last_seq, preheader=pre)


def _turn(mail: GameMail, state: GameState, view: SeatView, seat: int,
          ttl: timedelta | None) -> Asked:
    legal = _card_links(mail, seat, view.legal, ttl)
    pre = f"Your turn: hand {view.hand_number}, trick {view.trick_number}."
    return "turn", {"legal": legal, "example": legal[0].code if legal else "QS"}, pre


def _table(mail: GameMail, state: GameState, view: SeatView, seat: int) -> dict[str, Any]:
    """The table as `seat` sees it, with what this move drew from the Domino stock."""
    context = views.table_context(view, mail.names, seat, mail.failing, rules=state.rules)
    drawn = presenter(state.rules).draw_notes(mail.draws, mail.names, seat)
    context["notes"] = drawn + context["notes"]
    return context


def _card_links(mail: GameMail, seat: int, cards: Sequence[Card],
                ttl: timedelta | None) -> list[views.CardView]:
    """A one-time link per distinct card (a link naming QS plays a QS you hold)."""
    seq = mail.game.last_seq
    distinct = views.distinct_cards(cards)
    urls = {str(c): mail.link(mail.token("card", seat, turn_seq=seq, card=str(c), ttl=ttl))
            for c in distinct}
    return views.card_views(distinct, urls)


def _choice_links(mail: GameMail, state: GameState, seat: int,
                  ttl: timedelta | None) -> list[codes.Choice]:
    """A one-time link for each bid or suit choice the seat has now."""
    if state.phase is Phase.BID:
        offered = codes.bid_codes(codes.high_bid(state.bids))
    elif state.phase is Phase.NAME_SUIT:
        offered = codes.SUIT_CODES
    else:
        return []
    seq = mail.game.last_seq
    return [codes.choice(code, mail.link(mail.token("card", seat, turn_seq=seq, card=code,
                                                    ttl=ttl)))
            for code in offered]


def _bid(mail: GameMail, state: GameState, view: SeatView, seat: int,
         ttl: timedelta | None) -> Asked:
    """To the seat whose turn it is to bid: the bids so far and a link per choice."""
    words = presenter(state.rules).question(view, mail.names, seat)
    pre = words.pop("preheader")
    return "bid", {**words, "choices": _choice_links(mail, state, seat, ttl)}, pre


def _name_suit(mail: GameMail, state: GameState, view: SeatView, seat: int,
               ttl: timedelta | None) -> Asked:
    """To the seat that names the suit to avoid (the winning bidder, the dealer when all
    passed, or the same bidder again when the pot carried over)."""
    words = presenter(state.rules).question(view, mail.names, seat)
    pre = words.pop("preheader")
    return "name_suit", {**words, "choices": _choice_links(mail, state, seat, ttl)}, pre


def _pass(mail: GameMail, state: GameState, view: SeatView, seat: int,
          ttl: timedelta | None) -> Asked:
    page = mail.link(mail.token("pass", seat, turn_seq=mail.game.last_seq, ttl=ttl))
    count = state.rules.pass_count
    target = mail.names[view.pass_target] if view.pass_target is not None else "nobody"
    context = {
        "count": count, "target": target,
        "direction": views.direction_words(view.pass_offset, view.seats), "pass_url": page,
        "example": " ".join(str(c) for c in view.hand[:count]),
    }
    return "pass", context, f"Pass {count} cards to {target}."


def _moon_mail(mail: GameMail, state: GameState, seat: int,
               deadline: datetime | None) -> OutboxEmail | None:
    """To the shooter only: what each choice gives, a one-time link for each, reply words."""
    player = mail.players.get(seat)
    if player is None or not deliverable(player):
        return None
    seq = mail.game.last_seq
    ttl = _ttl(mail.now, deadline)
    urls = {code: mail.link(mail.token("card", seat, turn_seq=seq, card=code, ttl=ttl))
            for code in (codes.MOON_DOWN, codes.MOON_UP)}
    options = views.moon_options(state, seat, mail.names, urls)
    context = {
        "hand_number": state.hand_number, "moon_points": state.rules.moon_points,
        "options": options, "rows": views.moon_rows(state, seat, mail.names, options),
        "deadline": deadline_text(deadline, player.time_zone),
    }
    pre = f"You shot the moon in hand {state.hand_number}: go down or put the others up?"
    return mail.send("moon_choice", seat, context, turn_seq=seq, preheader=pre)


def _confirmation(mail: GameMail, after: GameState, events: Sequence[Event],
                  actor: int | None) -> list[OutboxEmail | None]:
    moves = [e for e in events
             if isinstance(e, CardPlayed | CardsPassed | MoonChosen | BidMade | SuitNamed)]
    if actor is None and moves:
        actor = moves[0].seat
    mine = [e for e in moves if e.seat == actor]
    if actor is None or not mine:
        return []
    understood = "; ".join(_move_words(e, after.rules.moon_points) for e in mine) + "."
    next_step = _waiting_words(mail, after, actor)
    return [mail.send("move_confirmed", actor, {"understood": understood,
                                                 "next_step": next_step},
                      preheader=understood)]


def _move_words(event: CardPlayed | CardsPassed | MoonChosen | BidMade | SuitNamed,
                moon_points: int = 26) -> str:
    if isinstance(event, CardPlayed):
        return f"you played {views.card_view(event.card).label}"
    if isinstance(event, BidMade):
        return "you passed" if event.chips is None else \
            f"you bid {chips_words(event.chips)}"
    if isinstance(event, SuitNamed):
        return f"you named {suit_title(event.suit)} as the suit to avoid"
    if isinstance(event, MoonChosen):
        return (f"you shot the moon and went down {moon_points}" if event.down
                else f"you shot the moon and put everyone else up {moon_points}")
    cards = list_in_words([views.card_view(c).label for c in sorted(event.cards)])
    return f"you passed {cards}"


def _waiting_words(mail: GameMail, state: GameState, seat: int) -> str | None:
    if state.game_over or not state.to_move or seat in state.to_move:
        return None
    waiting = list_in_words([mail.names[s] for s in state.to_move])
    return f"Now waiting for {waiting}."


HandEnd = tuple[GameState, GameState, Event]  # before and after the event that ended a hand


@dataclass
class Finished:
    """The tricks and hands the new events completed."""

    tricks: list[tuple[GameState, int, bool]]  # state after the trick, its number, last?
    hands: list[HandEnd]


def _finished(before: GameState | None, events: Sequence[Event]) -> Finished:
    done = Finished([], [])
    for prev, after, event in _fold(before, events):
        ended = len(after.sheet) > len(prev.sheet)
        if len(after.tricks) > len(prev.tricks) and prev.hand_number == after.hand_number:
            done.tricks.append((after, len(after.tricks), ended))
        if ended:
            done.hands.append((prev, after, event))
    return done


def _results(mail: GameMail, done: Finished) -> list[OutboxEmail | None]:
    rows: list[OutboxEmail | None] = []
    for seat, player in mail.players.items():
        if player.notify == "each_trick" and done.tricks:
            rows.append(_trick_mail(mail, done.tricks, seat))
        if player.notify in {"each_trick", "each_hand"}:
            rows += [_hand_mail(mail, *hand, seat) for hand in done.hands]
    return rows


def _trick_mail(mail: GameMail, tricks: list[tuple[GameState, int, bool]],
                seat: int) -> OutboxEmail | None:
    last = tricks[-1][0]
    rules = last.rules
    listed = [{"number": n, "view": views.completed_trick(s.tricks, n, mail.names, seat, rules,
                                                          ended)}
              for s, n, ended in tricks]
    shown = presenter(rules)
    notes = shown.draw_notes(mail.draws, mail.names, seat)
    if last.phase is Phase.PLAY:
        notes += shown.table_notes(seat_view(last, None), mail.names, seat)
    context = {"hand_number": last.hand_number, "tricks": listed, "notes": notes,
               "scores": views.score_rows(last.hand_points, last.totals, mail.names, seat,
                                             failing=mail.failing, chips=last.chips)}
    number, shown = tricks[-1][1], listed[-1]["view"]
    pre = (f"Trick {number} went to {shown.winner}." if isinstance(shown, views.TrickView)
           and shown.winner else f"Nobody won trick {number}.")
    return mail.send("trick_result", seat, context, preheader=pre)


def _hand_mail(mail: GameMail, before: GameState, state: GameState, last: Event,
               seat: int) -> OutboxEmail | None:
    result = state.sheet[-1]
    rows = views.sheet_rows([result], mail.names)
    context = {"hand_number": result.hand_number, "moon": rows[0]["moon"],
               "notes": _hand_notes(mail, before, state, last, seat),
               "scores": views.score_rows(result.points, result.totals, mail.names, seat,
                                          chips=state.chips)}
    return mail.send("hand_result", seat, context,
                     preheader=f"Hand {result.hand_number} is over.")


def _hand_notes(mail: GameMail, before: GameState, after: GameState, last: Event,
                seat: int) -> list[str]:
    """How a variant's hand ended (the pot, the cards left over)."""
    return presenter(after.rules).hand_notes(before, after, last, mail.names, seat)


def _game_started_mail(mail: GameMail, state: GameState, seat: int) -> OutboxEmail | None:
    seats = [{"number": s + 1, "name": mail.names[s], "is_you": s == seat,
              "is_bot": s not in mail.players} for s in range(state.seats)]
    notes = presenter(state.rules).table_notes(seat_view(state, None), mail.names, seat)
    if state.phase is Phase.BID:
        first = "You bid" if state.turn == seat else f"{mail.names[state.turn]} bids"
        notes.append(f"{first} first, then each player in turn to the left.")
    context = {"seats": seats, "rules": rules_sentences(state.rules), "notes": notes}
    return mail.send("game_started", seat, context, preheader="The game has started.")


def _summary_mail(mail: GameMail, state: GameState, seat: int,
                  last: HandEnd | None) -> OutboxEmail | None:
    """`last`: the hand that ended the game, whose variant notes (the Auction pot, the Domino
    cards left) the summary repeats for players who get no hand results."""
    rows = views.score_rows(state.totals, state.totals, mail.names, seat, state.winners)
    standings = sorted(rows, key=lambda r: r.total)
    sheet = views.sheet_rows(state.sheet, mail.names)
    winners = list_in_words([mail.names[s] for s in state.winners])
    won = "wins" if len(state.winners) == 1 else "win"
    context = {
        "standings": standings, "sheet": sheet, "names": mail.names,
        "totals": list(state.totals), "winners_text": f"{winners} {won}!",
        "moons": [f"{row['hand']}: {row['moon']}" for row in sheet if row["moon"]],
        "settlement": views.settlement_lines(state, mail.names),
        "notes": _hand_notes(mail, *last, seat) if last else [],
    }
    return mail.send("summary", seat, context, preheader=f"{winners} {won}.")


def rules_sentences(rules: Rules) -> list[str]:
    """The rules in words, and what a whole variant asks of a player by email."""
    return [*rules.describe(), *presenter(rules).email_rules]


def _ttl(now: datetime, deadline: datetime | None) -> timedelta | None:
    # Links outlive the deadline a little: the web page explains a late click.
    return (deadline - now) + timedelta(days=1) if deadline else None


def _default_settings() -> MailSettings:
    from flask import current_app, has_app_context

    if has_app_context():
        return MailSettings.from_config(current_app.config)
    return MailSettings(domain="localhost", base_url="http://127.0.0.1:5000")


# --- mail no event causes ------------------------------------------------------------------

def send_error(
    session: Session, game: Game, state: GameState, seat: int, *, what_was_read: str,
    reason: str, settings: MailSettings | None = None, now: datetime | None = None,
) -> OutboxEmail | None:
    """Answer a move that couldn't be made: what we read, why not (the engine error's
    sentence), and what is legal now (with fresh one-time links)."""
    mail = GameMail.load(session, game, settings, now)
    legal: list[views.CardView] = []
    choices: list[codes.Choice] = []
    if seat in state.to_move and state.phase is Phase.PLAY:
        legal = _card_links(mail, seat, seat_view(state, seat).legal, None)
    elif seat in state.to_move:
        choices = _choice_links(mail, state, seat, None)
    context = {"what_was_read": what_was_read, "reason": reason, "legal": legal,
               "choices": choices}
    return mail.send("error", seat, context, turn_seq=game.last_seq,
                     preheader=f"That move can't be made: {reason}")


def send_reminder(
    session: Session, game: Game, state: GameState, seat: int, *,
    deadline: datetime | None = None, settings: MailSettings | None = None,
    now: datetime | None = None,
) -> OutboxEmail | None:
    mail = GameMail.load(session, game, settings, now)
    player = mail.players.get(seat)
    if player is None:
        return None
    what = awaited_words(state.phase)
    context = {"waiting_for": what, "deadline": deadline_text(deadline, player.time_zone)}
    return mail.send("reminder", seat, context, turn_seq=game.last_seq,
                     preheader=f"Waiting for {what}.")


def send_invite(
    session: Session, game: Game, seat: int, player: Player, *, inviter: str,
    rules: Rules, players: Sequence[str], settings: MailSettings | None = None,
    now: datetime | None = None, organiser: bool = False,
) -> OutboxEmail | None:
    """An invitation with accept and decline links (one "invite" token; the web acts on POST).
    `organiser`: the person who set the game up, asked to confirm it before anyone else is
    emailed."""
    if not deliverable(player):
        return None
    settings = settings or _default_settings()
    raw = new_token(session, "invite", game_id=game.id, seat_no=seat, player_id=player.id,
                    now=now)
    context = {"inviter": inviter, "rules": rules_sentences(rules), "players": list(players),
               "accept_url": settings.url(f"t/{raw}?a=accept"),
               "decline_url": settings.url(f"t/{raw}?a=decline"),
               "organiser": organiser,
               "preheader": "Confirm your game of Hearts." if organiser
               else f"{inviter} invites you to play Hearts."}
    return queue_mail(session, settings, default_renderer(), "invite", player,
                      context=context, game=game, now=now)


def send_invites(
    session: Session, game: Game, seats: Sequence[int], *, rules: Rules,
    settings: MailSettings | None = None, now: datetime | None = None, organiser: bool = False,
) -> list[OutboxEmail]:
    """Invitations to the human players of `seats` (the service calls this when it creates a
    game, or gives a seat to someone new, in the same transaction)."""
    mail = GameMail.load(session, game, settings, now)
    statuses = _invite_statuses(session, game)
    inviter = next((mail.names[s] for s in sorted(mail.players)
                    if statuses.get(s) == "accepted"), "The organiser")
    rows = [send_invite(session, game, seat, mail.players[seat], inviter=inviter, rules=rules,
                        players=mail.names, settings=mail.settings, now=mail.now,
                        organiser=organiser)
            for seat in seats if seat in mail.players]
    return [row for row in rows if row is not None]


def send_declined(
    session: Session, game: Game, seat: int, *, settings: MailSettings | None = None,
    now: datetime | None = None, unaware: Collection[int] = (),
) -> list[OutboxEmail]:
    """Tell the other human players that `seat` declined its invitation: the seat is open.
    `unaware`: seats never told of the game (its organiser did not confirm it): no mail."""
    mail = GameMail.load(session, game, settings, now)
    statuses = _invite_statuses(session, game)
    waiting = list_in_words([mail.names[s] for s in sorted(mail.players)
                             if s != seat and statuses.get(s) == "invited"])
    context = {"decliner": mail.names[seat], "seat_number": seat + 1, "waiting": waiting,
               "preheader": f"{mail.names[seat]} declined the invitation."}
    rows = []
    for other, player in sorted(mail.players.items()):
        if other != seat and other not in unaware and statuses.get(other) != "declined" \
                and deliverable(player):
            rows.append(queue_mail(session, mail.settings, mail.renderer, "invite_declined",
                                   player, context=context, game=game, now=mail.now))
    return rows


def _invite_statuses(session: Session, game: Game) -> dict[int, str]:
    seats = session.exec(select(Seat).where(Seat.game_id == game.id))
    return {s.seat_no: s.invite_status for s in seats}


@dataclass(frozen=True)
class DigestLine:
    name: str
    status: str  # e.g. "your turn", "waiting for Bob", "finished: Ann won"
    url: str


def send_digest(
    session: Session, player: Player, games: Sequence[DigestLine], *,
    settings: MailSettings | None = None, now: datetime | None = None,
) -> OutboxEmail | None:
    """The daily digest for a player with `digest` on (the scheduler picks the games)."""
    if not games or not deliverable(player):
        return None
    context = {"games": list(games), "preheader": f"{len(games)} games."}
    return queue_mail(session, settings or _default_settings(), default_renderer(), "digest",
                      player, context=context, now=now)

