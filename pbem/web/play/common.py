"""What the play pages share: the blueprint, a game as one seat sees it (`Table`), CSRF,
the error pages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    current_app,
    get_template_attribute,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError, validate_csrf
from markupsafe import Markup
from sqlmodel import Session
from werkzeug.exceptions import HTTPException
from wtforms import ValidationError

from pbem import service
from pbem.engine import (
    BidMade,
    Card,
    GameState,
    Phase,
    SeatView,
    SuitNamed,
    seat_view,
)
from pbem.present import pages as variants
from pbem.present import views
from pbem.present.i18n import _
from pbem.present.presenters import presenter
from pbem.present.words import chips_words
from pbem.roster import roster_of
from pbem.store.events import load_state
from pbem.store.gamerows import GameRows, read_game
from pbem.store.models import Game, Seat
from pbem.web.errors import http_error
from pbem.web.i18n import names_in_words
from pbem.web.play.kept import kept

bp = Blueprint("play", __name__)


ROBOT_ACTORS = frozenset({service.TIMEOUT, service.HOLDING, service.ROBOT})


LINK_PURPOSES = frozenset({"card", "pass", "invite"})


INVITE_ANSWERS = ("accept", "decline")


MOON_CODES = frozenset({views.MOON_DOWN, views.MOON_UP})


READY, DONE, STALE = "ready", "done", "stale"


@dataclass(frozen=True)
class Table:
    """A game as one seat (or an observer, seat None) may see it, ready for the templates."""

    game: Game
    state: GameState
    seat: int | None
    names: list[str]
    seats: list[Seat]
    failing: frozenset[int] = frozenset()  # seats whose email address bounces
    drawn: tuple[Card, ...] = ()  # Domino: what this seat drew this hand (its own view only)

    @property
    def context(self) -> dict[str, Any]:
        view = seat_view(self.state, self.seat)
        state, names, seat = self.state, self.names, self.seat
        return {
            **views.table_context(view, names, seat, self.failing, rules=state.rules),
            **variants.variant_context(state, view, names, seat, self.drawn),
            "game": self.game, "phase": self.state.phase.value, "seat": self.seat,
            "names": self.names, "waiting_for": self.waiting_for, "view": view,
            "my_turn": view.my_turn, "sheet": self.sheet_html(),
            "winners": names_in_words([self.names[s] for s in self.state.winners]),
            "legal_codes": [str(c) for c in view.legal],
            "failing": self.failing, "tricks": self.tricks_so_far(view),
            "seat_rows": self.seat_rows(view),
        }

    def sheet_html(self) -> Markup:
        """The score sheet of the hands played, rendered once per process (see kept.py)."""
        sheet, names = self.state.score_sheet, self.names
        if not sheet:
            return Markup("")
        key = ("sheet", self.game.id, len(sheet), tuple(names))
        macro = get_template_attribute("web/_macros.html", "sheet_table")
        return Markup(kept(current_app, key,  # the template escaped it
                           lambda: str(macro(views.sheet_rows(sheet, names), names))))

    def tricks_so_far(self, view: SeatView) -> list[tuple[int, views.TrickView]]:
        """The completed tricks of the hand being played (public: everyone saw them played)."""
        if self.state.phase not in variants.PLAYING:
            return []
        shown = views.hand_tricks(view.tricks, self.names, self.seat, self.state.rules)
        return list(enumerate(shown, start=1))

    def seat_rows(self, view: SeatView) -> list[dict[str, Any]]:
        rows = []
        for seat in self.seats:
            n = seat.seat_no
            rows.append({
                "number": n + 1, "name": self.names[n], "is_you": n == self.seat,
                "is_bot": seat.is_bot, "invite": seat.invite_status,
                "held": seat.bot_holding and not seat.is_bot
                and self.game.status in service.UNDER_WAY,
                "to_move": n in view.to_move and self.game.status == "active",
                "failing": n in self.failing, "cards": view.hand_sizes[n],
                "dealer": n == view.dealer and self.state.phase is not Phase.GAME_OVER,
                "out": presenter(self.state.rules).is_out(view, n),
                "organiser": seat.player_id is not None
                and seat.player_id == self.game.organiser_id,
            })
        return rows

    @property
    def waiting_for(self) -> str:
        to_move = self.state.to_move
        return names_in_words([self.names[s] for s in to_move]) if to_move else ""


def load_table(session: Session, game_id: int, seat: int | None) -> Table | None:
    """The game as `seat` sees it: its rows in one statement (pbem.store.gamerows), its
    state (in a planning session, from this process's copy when it is current)."""
    rows = read_game(session.connection(), game_id)
    if rows is None or rows.game.last_seq == 0:
        return None
    return table_of(rows, load_state(session, game_id, rows.game.last_seq).state, seat)


def table_of(rows: GameRows, state: GameState, seat: int | None) -> Table:
    """The Table of a game read as `rows` whose state is `state`."""
    roster = roster_of(rows.seats, rows.players)
    return Table(rows.game, state, seat, roster.names, rows.seats, roster.failing)


def choice_words(made: BidMade | SuitNamed | None, by: str = "") -> str | None:
    """What the seat chose, as "you bid 5 chips", "you passed", "you named spades"; or, when
    a robot made the choice for the player (`by`: the event's actor), "the robot bid ... for
    you", so a timed-out player's old link doesn't claim they did."""
    robot = by in ROBOT_ACTORS
    if isinstance(made, BidMade):
        if robot:
            return (_("the robot bid %(chips)s for you", chips=chips_words(made.chips))
                    if made.chips else _("the robot passed for you"))
        return (_("you bid %(chips)s", chips=chips_words(made.chips)) if made.chips
                else _("you passed"))
    if isinstance(made, SuitNamed):
        if robot:
            return _("the robot named %(suit)s as the suit to avoid for you",
                     suit=made.suit.plural)
        return _("you named %(suit)s as the suit to avoid", suit=made.suit.plural)
    return None


def pass_target(table: Table) -> str | None:
    if table.seat is None or table.state.phase is not Phase.PASS:
        return None
    target = table.state.pass_target(table.seat)
    return table.names[target] if target != table.seat else None


def mail_url() -> str | None:
    """The dev mail catcher's inbox, when this app has it (development only)."""
    return url_for("devmail.inbox") if "devmail" in current_app.blueprints else None


def check_csrf() -> None:
    try:
        validate_csrf(request.form.get("csrf_token"))
    except ValidationError as exc:
        raise CSRFError(str(exc)) from exc


@bp.errorhandler(404)
def not_found(error: HTTPException) -> ResponseReturnValue:
    """A private or emailed link that leads nowhere; a game's number that does: the site's."""
    if "game_id" in (request.view_args or {}):
        return http_error(error)
    return render_template("web/not_found.html"), 404

