"""The emails that tell what happened: the confirmation of a move, a trick's or a hand's result,
the start of the game and its summary."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.engine import (
    BidMade,
    CardPlayed,
    CardsPassed,
    EndVoted,
    Event,
    GameState,
    MoonChosen,
    Phase,
    Rules,
    SuitNamed,
    seat_view,
)
from pbem.mail.gamemail import GameMail
from pbem.mail.votes import vote_words
from pbem.present import rules_words, views
from pbem.present.i18n import DEFAULT, _, current, lazy, ngettext
from pbem.present.presenters import presenter
from pbem.present.words import list_words
from pbem.store.models import OutboxEmail

HandEnd = tuple[GameState, GameState, Event]  # before and after the event that ended a hand


def echo_words(after: GameState, events: Sequence[Event], actor: int | None,
               before: GameState | None = None) -> dict[int, str]:
    """What the actor's command did, in their words ("You played 3♣."), by seat."""
    moves = [e for e in events if isinstance(
        e, CardPlayed | CardsPassed | MoonChosen | BidMade | SuitNamed | EndVoted)]
    if actor is None and moves:
        actor = moves[0].seat
    mine = [e for e in moves if e.seat == actor]
    if actor is None or not mine:
        return {}
    opened = before is not None and not before.end_voters
    parts = [vote_words(e, opened, after.ended_by_agreement) if isinstance(e, EndVoted)
             else _("you %(move)s", move=views.move_words(e, after.rules.moon_points))
             for e in mine]
    said = _("%(moves)s.", moves="; ".join(parts))
    return {actor: said[0].upper() + said[1:]}


def confirmation(mail: GameMail, after: GameState) -> list[OutboxEmail | None]:
    """A short confirmation for a reply's move when no other email went to its player."""
    pending, mail.echo = mail.echo, {}
    rows = []
    # An answer to a reply, in the reply's language: mail in makes its move inside
    # `using(the reply's language)`; otherwise (a job's late mail) the player's own.
    language = current() if current() != DEFAULT else None
    for seat, said in pending.items():
        with mail.speaking(seat, language):
            rows.append(mail.send("move_confirmed", seat,
                                  {"understood": said[0].lower() + said[1:],
                                   "next_step": _waiting_words(mail, after, seat)},
                                  preheader=said))
    return rows


def _waiting_words(mail: GameMail, state: GameState, seat: int) -> str | None:
    if state.game_over or not state.to_move or seat in state.to_move:
        return None
    waiting = list_words([mail.names[s] for s in state.to_move])
    return _("Now waiting for %(names)s.", names=waiting)


def trick_mail(mail: GameMail, tricks: list[tuple[GameState, int, bool]],
               seat: int) -> OutboxEmail | None:
    with mail.speaking(seat):
        return _trick_mail(mail, tricks, seat)


def _trick_mail(mail: GameMail, tricks: list[tuple[GameState, int, bool]],
                seat: int) -> OutboxEmail | None:
    last = tricks[-1][0]
    rules = last.rules
    listed = [{"number": n, "view": views.completed_trick(s.tricks, n, mail.names, seat, rules,
                                                          ended)}
              for s, n, ended in tricks]
    variant = presenter(rules)
    notes = variant.draw_notes(mail.draws, mail.names, seat)
    if last.phase is Phase.PLAY:
        notes += variant.table_notes(seat_view(last, None), mail.names, seat)
    context = {"hand_number": last.hand_number, "tricks": listed, "notes": notes,
               "scores": views.score_rows(last.hand_points, last.totals, mail.names, seat,
                                             failing=mail.failing, chips=last.chips)}
    number, shown = tricks[-1][1], listed[-1]["view"]
    pre = (_("Trick %(number)s went to %(name)s.", number=number, name=shown.winner)
           if isinstance(shown, views.TrickView) and shown.winner
           else _("Nobody won trick %(number)s.", number=number))
    return mail.send("trick_result", seat, context, preheader=pre)


def hand_mail(mail: GameMail, before: GameState, state: GameState, last: Event,
              seat: int) -> OutboxEmail | None:
    with mail.speaking(seat):
        return _hand_mail(mail, before, state, last, seat)


def _hand_mail(mail: GameMail, before: GameState, state: GameState, last: Event,
               seat: int) -> OutboxEmail | None:
    result = state.sheet[-1]
    rows = views.sheet_rows([result], mail.names)
    context = {"hand_number": result.hand_number, "moon": rows[0]["moon"],
               "notes": hand_notes(mail, before, state, last, seat),
               "scores": views.score_rows(result.points, result.totals, mail.names, seat,
                                          chips=state.chips)}
    return mail.send("hand_result", seat, context,
                     preheader=_("Hand %(number)s is over.", number=result.hand_number))


def hand_notes(mail: GameMail, before: GameState, after: GameState, last: Event,
               seat: int) -> list[str]:
    """How a variant's hand ended (the pot, the cards left over)."""
    return presenter(after.rules).hand_notes(before, after, last, mail.names, seat)


def game_started_mail(mail: GameMail, state: GameState, seat: int) -> OutboxEmail | None:
    with mail.speaking(seat):
        return _game_started_mail(mail, state, seat)


def _game_started_mail(mail: GameMail, state: GameState, seat: int) -> OutboxEmail | None:
    seats = [{"number": s + 1, "name": mail.names[s], "is_you": s == seat,
              "is_bot": s not in mail.players} for s in range(state.seats)]
    notes = presenter(state.rules).table_notes(seat_view(state, None), mail.names, seat)
    if state.phase is Phase.BID:
        notes.append(_("You bid first, then each player in turn to the left.")
                     if state.turn == seat else
                     _("%(name)s bids first, then each player in turn to the left.",
                       name=mail.names[state.turn]))
    context = {"seats": seats, "rules": rules_sentences(state.rules), "notes": notes}
    return mail.send("game_started", seat, context, preheader=_("The game has started."))


NO_HAND_SCORED = lazy("Ended by agreement before the first hand was finished: no hand was "
                      "scored, so there are no scores and no winner.")


def summary_mail(mail: GameMail, state: GameState, seat: int,
                 last: HandEnd | None) -> OutboxEmail | None:
    """`last`: the hand that ended the game, whose variant notes (the Auction pot, the Domino
    cards left) the summary repeats for players who get no hand results."""
    with mail.speaking(seat):
        return _summary_mail(mail, state, seat, last)


def _summary_mail(mail: GameMail, state: GameState, seat: int,
                  last: HandEnd | None) -> OutboxEmail | None:
    rows = views.score_rows(state.totals, state.totals, mail.names, seat, state.winners)
    standings = sorted(rows, key=lambda r: r.total)
    sheet = views.sheet_rows(state.sheet, mail.names)
    winners = list_words([mail.names[s] for s in state.winners])
    won = ngettext("%(names)s wins.", "%(names)s win.", len(state.winners), names=winners)
    result = ngettext("%(names)s wins!", "%(names)s win!", len(state.winners), names=winners)
    if not state.sheet:  # ended by agreement in the first hand, as the summary page says
        result = str(NO_HAND_SCORED)
    context = {
        "standings": standings, "sheet": sheet, "names": mail.names,
        "totals": list(state.totals), "winners_text": result,
        "moons": [f"{row['hand']}: {row['moon']}" for row in sheet if row["moon"]],
        "settlement": views.settlement_lines(state, mail.names),
        "notes": hand_notes(mail, *last, seat) if last else [],
        "ended_by_agreement": state.ended_by_agreement, "hands_played": len(state.sheet),
    }
    return mail.send("summary", seat, context,
                     preheader=result if not state.sheet else won)


def rules_sentences(rules: Rules) -> list[str]:
    """The rules in words, and what a whole variant asks of a player by email."""
    return [*rules_words.rules_sentences(rules),
            *(str(line) for line in presenter(rules).email_rules)]
