"""One game's mail: its recipients, their names, and the token rows its emails need, collected
and inserted in one statement when an email is queued (token batching)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from pbem.engine import (
    Card,
)
from pbem.mail.compose import MailSettings
from pbem.mail.render import Renderer, default_renderer
from pbem.mail.sending import UNSUBSCRIBE_TTL, default_settings, deliverable, queue_mail
from pbem.present.i18n import using
from pbem.present.links import seat_link
from pbem.present.tokens import insert_tokens, token_values
from pbem.roster import Roster, load_roster
from pbem.store.models import Game, OutboxEmail, Player, Seat
from pbem.store.types import utcnow


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
    echo: dict[int, str] = field(default_factory=dict)  # seat -> "you played 3♣.", not yet sent
    _tokens: list[dict[str, Any]] = field(default_factory=list)  # rows not inserted yet
    _unsubscribe: dict[int | None, str] = field(default_factory=dict)  # player id -> raw
    _private: dict[int, str | None] = field(default_factory=dict)  # seat -> private URL
    _voices: dict[int, str] = field(default_factory=dict)  # seat -> language (`speaking`)

    @classmethod
    def load(cls, session: Session, game: Game, settings: MailSettings | None = None,
             now: datetime | None = None, renderer: Renderer | None = None,
             roster: Roster | None = None) -> GameMail:
        """`roster`: the game's roster if the caller has it already (else it is loaded)."""
        mail = cls(session, game, settings or default_settings(), now or utcnow(),
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

    def language(self, seat: int | None) -> str | None:
        """The language of the player in `seat` (None: not known, English)."""
        player = self.players.get(seat) if seat is not None else None
        return player.language if player is not None else None

    @contextmanager
    def speaking(self, seat: int | None, language: str | None = None) -> Iterator[str]:
        """Write in the language of the player in `seat` (or `language`) inside the block:
        the words of their email made in Python (previews, notes) as well as its template."""
        if language is None or seat is None:
            with using(language or self.language(seat)) as chosen:
                yield chosen
            return
        before = self._voices.get(seat)
        self._voices[seat] = language  # its emails too, unless `send` is told otherwise
        try:
            with using(language) as chosen:
                yield chosen
        finally:
            if before is None:
                self._voices.pop(seat, None)
            else:
                self._voices[seat] = before

    def send(self, kind: str, seat: int, context: dict[str, Any], *,
             turn_seq: int | None = None, preheader: str = "",
             in_reply_to: str = "", language: str | None = None) -> OutboxEmail | None:
        """Render and queue one email to the player in `seat` (None if they get no mail);
        `in_reply_to`: the Message-ID of the player's email it answers; `language`: write in
        it rather than in the player's own (an answer in the language of their reply)."""
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
        if seat in self.echo:  # a reply's move, said in the first email that goes to them
            context = {"echo": self.echo.pop(seat), **context}
        return queue_mail(self.session, self.settings, self.renderer, kind, player,
                          game=self.game, reply_token=reply, now=self.now,
                          unsubscribe=unsubscribe, in_reply_to=in_reply_to,
                          language=language or self._voices.get(seat),
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
            raw = seat_link(self.session, self.game.id, seat, player.id, now=self.now)
            url = self.settings.url(f"s/{raw}")
        self._private[seat] = url
        return url
