"""The emails of seed 003's vote to end a game early: the others are told a vote is open (with
the reply word and their page's buttons to agree or to play on), and that it closed when one
player chose to play on. The end itself is the summary ("ended by agreement")."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.engine import EndVoted, Event, GameState
from pbem.mail.gamemail import GameMail
from pbem.present import views
from pbem.present.i18n import _
from pbem.present.words import list_words
from pbem.store.models import OutboxEmail

AGREE_WORD, PLAY_ON_WORD = "end", "play on"


def vote_mails(mail: GameMail, before: GameState | None, after: GameState,
               events: Sequence[Event]) -> list[OutboxEmail | None]:
    """The emails the votes among `events` call for (none once the game is over)."""
    votes = [e for e in events if isinstance(e, EndVoted)]
    if not votes or before is None or after.game_over:
        return []
    if after.end_voters and not before.end_voters:
        return _opened(mail, after, votes[0].seat)
    if before.end_voters and not after.end_voters:
        decliner = next(e.seat for e in votes if not e.agree)
        return [_closed(mail, after, decliner, seat) for seat in mail.players if seat != decliner]
    return []


def _opened(mail: GameMail, state: GameState, proposer: int) -> list[OutboxEmail | None]:
    waiting = [s for s in mail.players if s not in state.end_voters]
    rows: list[OutboxEmail | None] = []
    for seat in waiting:
        others = [mail.names[s] for s in waiting if s != seat]
        with mail.speaking(seat):
            context = {
                "open": True, "proposer": mail.names[proposer],
                "agreed": list_words([mail.names[s] for s in state.end_voters]),
                "also_waiting": list_words(others), "hand_number": state.hand_number,
                "scores": views.score_rows(state.totals, state.totals, mail.names, seat,
                                           failing=mail.failing),
                "agree_word": AGREE_WORD, "play_on_word": PLAY_ON_WORD,
            }
            rows.append(mail.send("end_vote", seat, context, preheader=_(
                "%(name)s proposes to end the game now. Reply “%(word)s” to agree.",
                name=mail.names[proposer], word=AGREE_WORD)))
    return rows


def _closed(mail: GameMail, state: GameState, decliner: int, seat: int) -> OutboxEmail | None:
    context = {"open": False, "decliner": mail.names[decliner],
               "agree_word": AGREE_WORD, "play_on_word": PLAY_ON_WORD}
    with mail.speaking(seat):
        return mail.send("end_vote", seat, context, preheader=_(
            "%(name)s wants to play on: the game goes on.", name=mail.names[decliner]))


def only_votes(events: Sequence[Event]) -> bool:
    return all(isinstance(e, EndVoted) for e in events)


def vote_words(event: EndVoted, opened: bool, ended: bool = False) -> str:
    """The voter's own vote, echoed back to them ("you agreed to end the game"); `ended`:
    the vote ended the game (never "the others are asked" in the email saying it is over)."""
    if not event.agree:
        return _("you chose to play on: the vote to end the game is closed")
    if ended and opened:
        return _("you ended the game now: the others agreed at once")
    if opened:
        return _("you proposed to end the game now; the others are asked to agree")
    return _("you agreed to end the game now")
