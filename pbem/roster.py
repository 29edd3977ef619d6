"""Who sits where in a game: names, human players, and whose email is not getting through."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from sqlmodel import Session, col, select

from pbem.store.models import Player, Seat


class SeatLabel(str):
    """The name a seat gets when no person's name is there: `kind` "robot" ("Robot 2") or
    "open" ("Open seat 2"), seat `number` from 1. Its text is English; the presentation
    writes it in the reader's language (pbem.present.i18n `label`) wherever it shows it."""

    kind: str
    number: int

    def __new__(cls, kind: str, number: int) -> SeatLabel:
        english = f"Robot {number}" if kind == "robot" else f"Open seat {number}"
        made = super().__new__(cls, english)
        made.kind, made.number = kind, number
        return made


@dataclass(frozen=True)
class Roster:
    names: list[str]
    players: dict[int, Player] = field(default_factory=dict)  # seat_no -> human player
    failing: frozenset[int] = frozenset()  # seats whose address bounces (shown to everyone)


def load_roster(session: Session, seats: Sequence[Seat]) -> Roster:
    """Names as emails and pages use them: the player's name, or `Robot N` for a computer seat;
    a seat not accepted yet shows the name its organiser gave it (Seat.name), if any."""
    ids = [s.player_id for s in seats if s.player_id is not None]
    by_id = {p.id: p for p in session.exec(select(Player).where(col(Player.id).in_(ids)))}
    return roster_of(seats, by_id)


def roster_of(seats: Sequence[Seat], by_id: Mapping[int | None, Player]) -> Roster:
    """`load_roster` from players already loaded (`by_id`: player id -> Player)."""
    names: list[str] = []
    players: dict[int, Player] = {}
    for seat in seats:
        player = by_id.get(seat.player_id) if seat.player_id is not None else None
        if seat.invite_status == "open" and not seat.is_bot:
            names.append(SeatLabel("open", seat.seat_no + 1))  # a lobby table's, until one joins
            continue
        if player is None or seat.is_bot:
            names.append(SeatLabel("robot", seat.seat_no + 1))
            continue
        typed = seat.name if seat.invite_status != "accepted" else None
        names.append(typed if typed is not None else player.name)  # see Seat.name
        players[seat.seat_no] = player
    failing = frozenset(s for s, p in players.items() if p.email_status == "failing")
    return Roster(names, players, failing)
