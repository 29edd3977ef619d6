"""Create a game: /new shows a form (a preset, its options, the players, the deadlines); the POST
(CSRF-checked) makes the game through the service, which mails the invitations.

Plain HTML, no JavaScript: `/new?preset=NAME` re-renders the form with that preset's values.
Errors re-render the form with a sentence per field and the typed values kept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf, validate_csrf
from sqlmodel import col, select
from wtforms import ValidationError

from pbem import service
from pbem.bots import DEFAULT_STRENGTH, STRENGTHS
from pbem.engine import (
    ALL_PRESETS,
    BonusCard,
    Cancels,
    FirstDealer,
    FirstTrickFallback,
    KittyTo,
    MoonRule,
    OnlyHeartsAndQueenLead,
    OpeningLead,
    Rules,
    Settlement,
    Ties,
)
from pbem.present import i18n
from pbem.present.i18n import _, lazy
from pbem.present.presenters import presenter
from pbem.present.refusals import mistake_words
from pbem.present.rules_words import (
    MenuPreset,
    preset_menu,
    preset_summary,
    preset_title,
    rules_sentences,
)
from pbem.present.service_words import INVISIBLE, address_problem, name_problem
from pbem.roster import load_roster
from pbem.service import games as service_games
from pbem.service import lobby, policy
from pbem.service.names import MAX_NAME, has_invisible, one_line
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.models import Game, Seat
from pbem.web.i18n import chosen_tag, store_language

bp = Blueprint("create", __name__)
DEFAULT_PRESET = "standard"
MAX_GAME_NAME = 200
MAX_EMAIL = 320
ON_TIMEOUT = {"bot": lazy("a computer plays for them"), "pause": lazy("the game pauses"),
              "open_seat": lazy("a computer plays for them and the others may give the seat to "
              "someone else")}
assert set(ON_TIMEOUT) == set(policy.ON_TIMEOUT)
# The robots' strengths in words (pbem.bots.STRENGTHS), the default first.
ROBOT_STRENGTHS = {
    "strong": lazy("Strong: it tries its choices against many guesses of the cards it can't see"),
    "easy": lazy("Easy: it plays by simple rules of thumb")}
assert set(ROBOT_STRENGTHS) == set(STRENGTHS)
# How long the seats nobody takes (open, or declined) wait for people
# (pbem.service.lobby.NEW_GAME_WAITS), by form value.
NEVER = "never"
OPEN_WAITS = {"60": lazy("1 hour"), "240": lazy("4 hours"), "1440": lazy("1 day"),
              "4320": lazy("3 days"),
              NEVER: lazy("as long as it takes: no robots unless you start the game yourself")}
assert list(OPEN_WAITS) == [NEVER if m is None else str(m) for m in lobby.NEW_GAME_WAITS]
# How many reminders -> when (fractions of the time per move), as pbem.service.policy reads it.
REMINDERS = {0: [], 1: [0.75], 2: [0.5, 0.8], 3: [0.25, 0.5, 0.8]}


@dataclass(frozen=True)
class Option:
    """One rule option as the form shows it."""

    name: str
    label: str
    kind: str  # "bool", "int" or "choice"
    choices: tuple[tuple[str, str], ...] = ()
    low: int = 0
    high: int = 0
    hint: str = ""


def _choices(labels: Mapping[Any, str]) -> tuple[tuple[str, str], ...]:
    return tuple((member.value, text) for member, text in labels.items())


OPTIONS: tuple[Option, ...] = (
    Option("target", lazy("Target score"), "int", low=1, high=10_000,
           hint=lazy("the game ends when someone reaches it; the lowest score wins")),
    Option("pass_count", lazy("Cards to pass"), "int", low=0, high=6,
           hint=lazy("before each hand; 0: no passing")),
    Option("moon", lazy("Shooting the moon"), "choice", _choices({
        MoonRule.OTHERS_PLUS: lazy("everyone else goes up"),
        MoonRule.SHOOTER_MINUS: lazy("the shooter goes down"),
        MoonRule.SHOOTER_CHOICE: lazy("the shooter chooses"),
        MoonRule.CHOICE_AT_74: lazy("everyone else up; the shooter may go down near the end "
                                    "(the 74 rule)"),
        MoonRule.PROTECTION: lazy("everyone else up, unless that makes the shooter lose"),
        MoonRule.NONE: lazy("no moon: points count as taken")})),
    Option("bonus_card", lazy("Bonus card"), "choice", _choices({
        BonusCard.NONE: lazy("none"), BonusCard.JACK_OF_DIAMONDS: lazy("jack of diamonds -10"),
        BonusCard.TEN_OF_DIAMONDS: lazy("ten of diamonds -10 (with the slam)")})),
    Option("points_on_first_trick", lazy("Points may be played on the first trick"), "bool"),
    Option("hearts_must_be_broken", lazy("Hearts can't be led until broken"), "bool"),
    Option("queen_breaks_hearts", lazy("The queen of spades breaks hearts"), "bool"),
    Option("forced_queen", lazy("Forced queen: the Q♠ must be played as soon as it safely can"),
           "bool"),
    Option("queen_scores", lazy("The queen of spades counts 13"), "bool"),
    Option("sinkhole_99", lazy("99 sinkhole: a score of exactly 99 drops to 0"), "bool"),
    Option("ties", lazy("A tie for the lowest score at the end"), "choice", _choices({
        Ties.PLAY_ON: lazy("play on"), Ties.SHARED: lazy("share the win")})),
    Option("opening_lead", lazy("First lead"), "choice", _choices({
        OpeningLead.LOWEST_CLUB: lazy("the lowest club (2♣) leads it"),
        OpeningLead.ANY_CLUB: lazy("the holder of the lowest club leads any club"),
        OpeningLead.LEFT_OF_DEALER: lazy("left of the dealer leads any card")})),
    Option("first_trick_fallback", lazy("Holding only point cards on a no-points first trick"),
           "choice", _choices({FirstTrickFallback.ANY_POINT_CARD: lazy("play any of them"),
                               FirstTrickFallback.HEART_NOT_QUEEN:
                                   lazy("play a heart, not the Q♠")})),
    Option("only_hearts_and_queen_lead",
           lazy("On lead with only hearts and the Q♠, hearts unbroken"), "choice", _choices({
               OnlyHeartsAndQueenLead.MUST_LEAD_QUEEN: lazy("must lead the Q♠"),
               OnlyHeartsAndQueenLead.MAY_LEAD_HEART: lazy("may lead a heart")})),
    Option("first_dealer", lazy("First dealer"), "choice", _choices({
        FirstDealer.RANDOM: lazy("chosen at random"),
        FirstDealer.DRAW: lazy("by drawing cards")})),
    Option("settlement", lazy("Settlement"), "choice", _choices({
        Settlement.SCORE_SHEET: lazy("score sheet: the lowest score wins"),
        Settlement.PAIRWISE: lazy("pairwise, below zero paid double"),
        Settlement.CHIPS: lazy("chips"),
        Settlement.SWEEPSTAKES: lazy("sweepstakes"), Settlement.HOWELL: lazy("Howell")})),
    Option("kitty_to", lazy("The kitty goes to the winner of the"), "choice", _choices({
        KittyTo.FIRST_TRICK: lazy("first trick"), KittyTo.LAST_TRICK: lazy("last trick")})),
    Option("cancels", lazy("Cards that cancel each other in a trick"), "choice", _choices({
        Cancels.IDENTICAL: lazy("two identical cards (the same rank and suit)"),
        Cancels.SAME_RANK: lazy("any two cards of the same rank")})),
)
DEADLINE_DEFAULTS: dict[str, Any] = {"move_hours": 48, "reminders": 2, "skip_weekends": False,
                                     "grace_minutes": 0, "on_timeout": "bot"}


@dataclass
class PlayerRow:
    number: int
    name: str = ""
    email: str = ""
    computer: bool = False
    open: bool = False  # anyone signed in may take it from the lobby
    language: str = ""  # the organiser's choice for an invited player ("": not chosen)


@dataclass
class Form:
    """What the form shows: typed (or default) values as text, and the problems found."""

    preset: str
    name: str = ""
    values: dict[str, Any] = field(default_factory=dict)  # rule options
    players: list[PlayerRow] = field(default_factory=list)
    deadline: dict[str, Any] = field(default_factory=dict)
    robot_strength: str = DEFAULT_STRENGTH
    open_wait: str = str(lobby.NEW_GAME_WAIT)  # a key of OPEN_WAITS
    errors: dict[str, str] = field(default_factory=dict)  # field name -> sentence
    general: list[str] = field(default_factory=list)

    @property
    def rules(self) -> Rules:
        return ALL_PRESETS[self.preset].rules

    @property
    def options(self) -> list[Option]:
        """The rule options this preset's game may change, worded for its variant."""
        shown_for = presenter(self.rules)
        hidden, labels = shown_for.hidden_options, shown_for.option_labels
        shown = [o for o in OPTIONS if o.name not in hidden
                 and (o.name != "kitty_to" or self.rules.kitty)]
        return [replace(o, label=labels[o.name]) if o.name in labels else o for o in shown]


def blank_form(preset: str) -> Form:
    rules = ALL_PRESETS[preset].rules
    values = {o.name: _shown(getattr(rules, o.name)) for o in OPTIONS}
    players = [PlayerRow(n + 1) for n in range(rules.players)]  # empty seats: computers
    return Form(preset, "Hearts", values, players, dict(DEADLINE_DEFAULTS))


def _shown(value: Any) -> Any:
    return value.value if hasattr(value, "value") else value


# --- reading the POST -----------------------------------------------------------------------

def read_form(data: Mapping[str, Any]) -> tuple[Form, dict[str, Any]]:
    """The typed form and, when there are no errors, the create_game arguments."""
    preset = str(data.get("preset", ""))
    if preset not in ALL_PRESETS:
        abort(400)
    form = blank_form(preset)
    form.name = _clean(data.get("name", ""))
    if not form.name:
        form.errors["name"] = _("Give the game a name.")
    elif len(form.name) > MAX_GAME_NAME:
        form.errors["name"] = _("The game's name is too long (at most %(count)s characters).",
                                count=MAX_GAME_NAME)
    elif has_invisible(form.name):
        form.errors["name"] = _("The game's name %(problem)s.", problem=INVISIBLE)
    options = _read_options(form, data)
    open_seats: list[int] = []
    invitees, bots = _read_players(form, data, open_seats)
    deadline = _read_deadline(form, data)
    _read_strength(form, data)
    wait = _read_open_wait(form, data)
    if form.errors:
        return form, {}
    try:
        service.make_rules(preset, options)
    except service.BadRequest as exc:  # the rules' problems, worded by the presentation
        form.general.append(mistake_words(exc))
        return form, {}
    return form, {"name": form.name, "preset": preset, "options": options,
                  "players": invitees, "bot_seats": bots, "deadline_policy": deadline,
                  "robot_strength": form.robot_strength,
                  "table": service_games.Table(open_seats=tuple(open_seats),
                                               fill_wait_minutes=wait)}


def _read_open_wait(form: Form, data: Mapping[str, Any]) -> int | None:
    """Minutes the open and declined seats wait for people, from the organiser's
    confirmation; None: no robots by time."""
    form.open_wait = str(data.get("open_wait", form.open_wait))
    if form.open_wait not in OPEN_WAITS:
        form.errors["open_wait"] = _("Choose how long the seats nobody takes wait for people.")
        form.open_wait = str(lobby.NEW_GAME_WAIT)
    return None if form.open_wait == NEVER else int(form.open_wait)


def _read_strength(form: Form, data: Mapping[str, Any]) -> None:
    form.robot_strength = str(data.get("robot_strength", DEFAULT_STRENGTH))
    if form.robot_strength not in ROBOT_STRENGTHS:
        form.errors["robot_strength"] = _("Choose how well the computer players play.")
        form.robot_strength = DEFAULT_STRENGTH


def _read_options(form: Form, data: Mapping[str, Any]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for option in form.options:
        raw = data.get(option.name)
        if option.kind == "bool":
            value: Any = raw == "on"
        elif option.kind == "int":
            value = _read_int(form, option.name, raw, option.label, option.low, option.high)
        else:
            value = str(raw or "")
            if value not in {v for v, _text in option.choices}:
                form.errors[option.name] = _("Choose one of the listed answers for “%(label)s”.",
                                             label=option.label)
        form.values[option.name] = raw if option.kind == "int" else value
        if option.name not in form.errors:
            options[option.name] = value
    return options


def _read_int(form: Form, key: str, raw: Any, label: str, low: int, high: int) -> int | None:
    text = str(raw or "").strip()
    if not re.fullmatch(r"-?[0-9]{1,9}", text):
        form.errors[key] = _("“%(label)s” must be a whole number from %(low)s to %(high)s.",
                             label=label, low=low, high=high)
        return None
    number = int(text)
    if not low <= number <= high:
        form.errors[key] = _("“%(label)s” must be from %(low)s to %(high)s.", label=label,
                             low=low, high=high)
        return None
    return number


def _read_players(form: Form, data: Mapping[str, Any],
                  open_seats: list[int] | None = None,
                  ) -> tuple[list[service.Invitee], list[int]]:
    invitees: list[service.Invitee] = []
    bots: list[int] = []
    seen: dict[str, int] = {}
    for row in form.players:
        n = row.number
        row.name = _clean(data.get(f"p{n}_name", ""))
        row.email = _clean(data.get(f"p{n}_email", ""))
        row.computer = n > 1 and data.get(f"p{n}_computer") == "on"
        row.open = n > 1 and data.get(f"p{n}_open") == "on"
        row.language = (chosen_tag(data.get(f"p{n}_language")) or "") if n > 1 else ""
        if row.computer and row.email:
            form.errors[f"p{n}"] = _("Seat %(n)s: tick “computer” or give an email address, "
                                     "not both.", n=n)
            continue
        if row.open and (row.email or row.computer):
            form.errors[f"p{n}"] = _("Seat %(n)s: an open seat waits for someone from the "
                                     "lobby, so it has no email address and no computer "
                                     "player.", n=n)
            continue
        unused_name = _unused_name(row)
        if unused_name:
            form.errors[f"p{n}"] = unused_name
            continue
        if row.open and open_seats is not None:
            open_seats.append(n - 1)
            continue
        if row.computer or (n > 1 and not row.email):
            bots.append(n - 1)
            continue
        problem = _email_problem(row.email, n)
        if problem is None:
            problem = name_problem(row.name, _("Seat %(n)s: the name", n=n)) or None
        key = row.email.lower()
        if problem is None and key in seen:
            problem = _("Seat %(n)s has the same email address as seat %(other)s.", n=n,
                        other=seen[key])
        if problem:
            form.errors[f"p{n}"] = problem
            continue
        seen[key] = n
        invitees.append(service.Invitee(email=row.email, name=row.name, accepted=n == 1))
    return invitees, bots


def _unused_name(row: PlayerRow) -> str:
    """A name typed for a seat that has no one to carry it (no email): said, not dropped."""
    n = row.number
    if n == 1 or not row.name or row.email:
        return ""
    if row.open:
        return _("Seat %(n)s is an open seat with a name: whoever takes it from the lobby "
                 "plays under their own name, so clear the name.", n=n)
    if row.computer:
        return _("Seat %(n)s is a computer player with a name: computer players are called "
                 "“Robot %(n)s”, so clear the name, or untick “Computer player” and add their "
                 "email.", n=n)
    return _("Seat %(n)s has a name but no email: add their email, or clear the name for a "
             "computer player.", n=n)


def _email_problem(email: str, n: int) -> str | None:
    if not email:
        return _("Your email address is needed.") if n == 1 else None
    if len(email) > MAX_EMAIL or "@" not in email:
        return _("Your email address doesn't look right: it should look like "
                 "name@example.com.") if n == 1 else _(
            "Seat %(n)s: the email address doesn't look right: it should look like "
            "name@example.com.", n=n)
    problem = address_problem(email)  # email-validator's reason, or the SMTPUTF8 refusal
    if not problem:
        return None
    return _("Your email address doesn't look right. %(problem)s", problem=problem) \
        if n == 1 else _("Seat %(n)s: the email address doesn't look right. %(problem)s",
                         n=n, problem=problem)


def _read_deadline(form: Form, data: Mapping[str, Any]) -> dict[str, Any]:
    d = form.deadline
    d["move_hours"] = data.get("move_hours", "")
    d["reminders"] = data.get("reminders", "")
    d["grace_minutes"] = data.get("grace_minutes", "")
    d["skip_weekends"] = data.get("skip_weekends") == "on"
    d["on_timeout"] = str(data.get("on_timeout", ""))
    reminders = _read_int(form, "reminders", d["reminders"], _("Reminders"), 0,
                          len(REMINDERS) - 1)
    policy = {
        "move_hours": _read_int(form, "move_hours", d["move_hours"], _("Time per move (hours)"),
                                1, 24 * 30),
        "reminders": REMINDERS.get(reminders or 0, []),
        "grace_minutes": _read_int(form, "grace_minutes", d["grace_minutes"],
                                   _("Grace (minutes)"), 0, 24 * 60),
        "skip_weekends": d["skip_weekends"], "on_timeout": d["on_timeout"],
    }
    if d["on_timeout"] not in ON_TIMEOUT:
        form.errors["on_timeout"] = _("Choose what happens when a player runs out of time.")
    return policy


def _clean(value: Any) -> str:
    """One line of text: control characters (and so header tricks) out, spaces collapsed."""
    return one_line(value)


# --- pages ----------------------------------------------------------------------------------

def preset_groups() -> list[tuple[str, list[MenuPreset]]]:
    """The preset menu grouped by what players know (pbem.present.rules_words.preset_menu)."""
    return preset_menu(ALL_PRESETS.values())


def render_form(form: Form, code: int = 200) -> ResponseReturnValue:
    return render_template("web/new.html", form=form, preset_groups=preset_groups(),
                           languages=i18n.language_names(),
                           csrf=generate_csrf(), preset=ALL_PRESETS[form.preset],
                           preset_title=preset_title(ALL_PRESETS[form.preset]),
                           preset_summary=preset_summary(ALL_PRESETS[form.preset]),
                           on_timeout=ON_TIMEOUT, strengths=ROBOT_STRENGTHS,
                           open_waits=OPEN_WAITS, max_name=MAX_NAME,
                           max_game_name=MAX_GAME_NAME,
                           describe=rules_sentences(form.rules),
                           fixed=presenter(form.rules).fixes_options), code


@bp.get("/new")
def new_game() -> ResponseReturnValue:
    """The form, with the chosen preset's values (GET and HEAD change nothing)."""
    preset = request.args.get("preset", DEFAULT_PRESET)
    if preset not in ALL_PRESETS:
        form = blank_form(DEFAULT_PRESET)
        form.general.append(_("There is no rule set called “%(preset)s”; here is the standard "
                              "one.", preset=preset))
        return render_form(form, 404)
    return render_form(blank_form(preset))


@bp.post("/new")
def create_game() -> ResponseReturnValue:
    try:
        validate_csrf(request.form.get("csrf_token"))
    except ValidationError:
        form, _made = read_form(request.form) if request.form.get("preset") in ALL_PRESETS else (
            blank_form(DEFAULT_PRESET), {})
        form.errors.clear()
        form.general = [_("This form has expired or did not come from this site (its "
                          "security check failed), so no game was made. Check the form and "
                          "press the button again.")]
        return render_form(form, 400)
    if _rules_changed(request.form):
        return render_form(_with_rules_chosen(request.form))
    form, arguments = read_form(request.form)
    if not arguments:
        return render_form(form, 422)
    try:
        out = service.create_game(service.Context(engine=db_engine()), **arguments,
                                  confirm_first=True)
    except service.BadRequest as exc:
        form.general.append(mistake_words(exc))
        return render_form(form, 422)
    _invited_languages(out.game_id, form)
    return redirect(url_for("create.created", game_id=out.game_id), code=303)


def _invited_languages(game_id: int, form: Form) -> None:
    """The language the organiser chose for each invited seat: the invited player's, until
    they choose one themselves (their invitation goes out once the game is confirmed)."""
    chosen = {row.number - 1: row.language for row in form.players
              if row.number > 1 and row.language and row.email}
    if not chosen:
        return
    with transaction(db_engine(), read_only=True) as session:
        seats = session.exec(select(Seat).where(Seat.game_id == game_id,
                                                col(Seat.seat_no).in_(list(chosen)))).all()
        players = {s.seat_no: s.player_id for s in seats if not s.is_bot}
    for seat_no, player_id in players.items():
        if player_id is not None:
            store_language(player_id, chosen[seat_no], chosen=False)


def _rules_changed(data: Mapping[str, Any]) -> bool:
    """"Use these rules" was pressed, or another rule set is chosen than the one whose options
    the form shows (issue 37.1: "Create the game" must never make other rules than chosen)."""
    return "use_rules" in data or data.get("shown", data.get("preset")) != data.get("preset")


def _with_rules_chosen(data: Mapping[str, Any]) -> Form:
    """The form for the rule set chosen, its options as the rules set them, the name and
    players typed kept (nothing is made: the options are there to check first)."""
    preset = str(data.get("preset", ""))
    if preset not in ALL_PRESETS:
        abort(400)
    form = blank_form(preset)
    form.name = _clean(data.get("name", "")) or form.name
    _read_players(form, data, [])
    form.errors.clear()
    if "use_rules" not in data:
        form.general.append(_("You chose %(title)s: its options are below. Check them, then "
                              "press “Create the game”.", title=preset_title(ALL_PRESETS[preset])))
    return form


@bp.get("/games/<int:game_id>/created")
def created(game_id: int) -> ResponseReturnValue:
    """Game made, awaiting its organiser's confirmation: who is asked to confirm it, who is
    invited once they do, its open seats (names only: this page is as public as the game
    page). Once there is nothing more to say about its making (confirmed, cancelled, or a
    game that needed no confirmation), the game's own page."""
    with transaction(db_engine(), read_only=True) as session:
        game = session.get(Game, game_id)
        if game is None:
            abort(404)
        seats = list(session.exec(select(Seat).where(Seat.game_id == game_id)
                                  .order_by(col(Seat.seat_no))))
        names = load_roster(session, seats).names
    if not service_games.awaits_confirmation(game, seats):
        return redirect(url_for("play.game_page", game_id=game_id), code=303)
    organiser_seat = service_games.organiser_seat(game, seats)
    rows = [{"number": s.seat_no + 1, "name": names[s.seat_no], "is_bot": s.is_bot,
             "invite": s.invite_status, "organiser": s is organiser_seat} for s in seats]
    organiser = names[organiser_seat.seat_no] if organiser_seat else _("the organiser")
    guests = [r["name"] for r in rows if not r["is_bot"] and not r["organiser"]
              and r["invite"] == "invited"]
    open_seats = sum(r["invite"] == "open" for r in rows)
    return render_template("web/created.html", game=game, rows=rows, organiser=organiser,
                           guests=guests, open_seats=open_seats)
