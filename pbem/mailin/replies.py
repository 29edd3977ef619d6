"""Replies: the emails mail-in sends itself (say relays, status, help, notes, wrong sender),
rendered from templates/email/ and queued in the caller's transaction like notify's mail.

Answers to a sender are rate-limited: at most ANSWER_LIMIT an hour to one address, counted
from the outbox (error emails from pbem.mail.errors.send_error included).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from pbem.engine import MoonRule, Rules, claims_allowed
from pbem.mail.compose import MailSettings
from pbem.mail.gamemail import GameMail
from pbem.mail.render import default_renderer
from pbem.mail.sending import deliverable, queue_mail
from pbem.present.i18n import lazy
from pbem.present.presenters import presenter
from pbem.present.tokens import new_token
from pbem.store.models import Game, OutboxEmail, Player
from pbem.store.types import utcnow

KINDS = ("say", "status", "help", "not_your_seat", "note", "unroutable")
ANSWER_KINDS = ("error", "status", "help", "not_your_seat", "note", "unroutable")  # rate-limited
ANSWER_LIMIT = 5
ANSWER_WINDOW = timedelta(hours=1)

HELP = [
    {"example": "QS", "meaning": lazy("play the queen of spades (or “play QS”)")},
    {"example": "pass 2C 3D AH", "meaning": lazy("pass these cards (or write them one a line)")},
    {"example": "claim", "meaning": lazy("claim all the remaining tricks")},
    {"example": "moon down", "meaning": lazy("after shooting the moon: you go down")},
    {"example": "moon up", "meaning": lazy("after shooting the moon: everyone else goes up")},
    {"example": "status", "meaning": lazy("get the table as it is now")},
    {"example": "nudge", "meaning": lazy("a friendly reminder to whoever everyone waits for (once "
                                    "in 12 hours)")},
    {"example": "end", "meaning": lazy("end the game now with the current scores, if everyone "
                                  "agrees (propose it, or agree)")},
    {"example": "play on", "meaning": lazy("keep playing: closes a vote to end the game")},
    {"example": "say good game!", "meaning": lazy("a message to the other players")},
    {"example": "away 1-14 August", "meaning": lazy("tell us you're on holiday (“vacation 1-14 "
                                               "August” too)")},
    {"example": "address you@example.org", "meaning": lazy("also count replies from that address "
                                                      "(we mail it a link to confirm)")},
    {"example": "unsubscribe", "meaning": lazy("how to get fewer emails, or none (the link at the "
                                          "end of every email)")},
    {"example": "leave", "meaning": lazy("how to leave the game (a button on your page of it, "
                                    "which asks first)")},
    {"example": "export", "meaning": lazy("your data (account, addresses, settings, every game "
                                     "and your moves): we mail a link to download it")},
    {"example": "help", "meaning": lazy("this list")},
]
_TWO_DECKS = {"example": "QS", "meaning": lazy("play a queen of spades you hold (either deck's: "
                                          "the two are the same card)")}


def help_context(rules: Rules | None) -> dict[str, Any]:
    """The `help` email's commands: only those of this game's rules and variant."""
    if rules is None:
        return {"commands": [{**c, "meaning": str(c["meaning"])} for c in HELP], "notes": []}
    skip = set()
    if not rules.pass_count:
        skip.add("pass 2C 3D AH")
    if rules.moon not in (MoonRule.SHOOTER_CHOICE, MoonRule.CHOICE_AT_74):
        skip |= {"moon down", "moon up"}  # only there does the shooter choose
    if not claims_allowed(rules):
        skip.add("claim")
    shown = presenter(rules)
    commands = shown.help_commands([c for c in HELP if c["example"] not in skip])
    if rules.decks == 2:
        commands[0] = _TWO_DECKS
    return {"commands": [{**c, "meaning": str(c["meaning"])} for c in commands],
            "notes": [str(note) for note in shown.help_notes]}


def answers_recently(session: Session, to_addr: str, now: datetime | None = None) -> int:
    since = (now or utcnow()) - ANSWER_WINDOW
    query = select(func.count()).select_from(OutboxEmail).where(
        OutboxEmail.to_addr == to_addr, col(OutboxEmail.kind).in_(ANSWER_KINDS),
        col(OutboxEmail.created_at) >= since)
    return int(session.exec(query).one())


def may_answer(session: Session, player: Player, now: datetime | None = None) -> bool:
    """Whether an answer may go to the player now; if not, why not is kept on the session
    (`withheld`), for the message's stored reason: an operator can tell why no answer came."""
    if not deliverable(player):
        _withhold(session, "no answer sent: the player's address is marked failing")
        return False
    if answers_recently(session, player.email, now) >= ANSWER_LIMIT:
        _withhold(session, f"no answer sent: {ANSWER_LIMIT} answers an hour already went to "
                           "this address")
        return False
    return True


_WITHHELD = "pbem.mailin.withheld"  # session.info key: the answers may_answer refused


def _withhold(session: Session, why: str) -> None:
    said: list[str] = session.info.setdefault(_WITHHELD, [])
    if why not in said:
        said.append(why)


def withheld(session: Session) -> list[str]:
    """Why answers were not sent in this session (each reason once), and forget them."""
    said: list[str] = session.info.pop(_WITHHELD, [])
    return said


def game_link(session: Session, settings: MailSettings, game: Game | None, seat: int | None,
              player: Player, now: datetime) -> str | None:
    """The player's private page of the game (as every other email links it), else the
    public one (no seat, or no app to sign the link)."""
    if game is None or game.id is None:
        return None
    mail = GameMail(session, game, settings, now, default_renderer())
    private = mail.private_url(seat, player) if seat is not None else None
    return private or mail.game_url


def queue_reply(
    session: Session, settings: MailSettings, kind: str, player: Player, *,
    context: dict[str, Any], game: Game | None = None, seat: int | None = None,
    now: datetime | None = None, in_reply_to: str = "", language: str | None = None,
) -> OutboxEmail | None:
    """Render `kind` for `player` and add the outbox row (pbem.mail.sending.queue_mail); with
    `seat`, the email carries a fresh reply token for that seat, so it can be answered too.
    `in_reply_to`: the Message-ID of the player's email it answers; `language`: the language
    of the player's email (the answer is in it), else the player's own."""
    if not deliverable(player):
        return None
    if kind not in KINDS:
        raise ValueError(f"unknown mail-in email kind {kind!r}")
    now = now or utcnow()
    reply = None
    if game is not None and seat is not None:
        reply = new_token(session, "reply", game_id=game.id, seat_no=seat,
                          player_id=player.id, turn_seq=game.last_seq, now=now)
    private = {"game_url": game_link(session, settings, game, seat, player, now)}
    return queue_mail(session, settings, default_renderer(), kind, player,
                      context={**private, **context}, game=game, reply_token=reply, now=now,
                      in_reply_to=in_reply_to, language=language)
