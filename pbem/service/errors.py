"""Service errors, and what else the service says to people: codes and data, never words.

Each error carries a `code` (what is wrong, e.g. "no_such_game") and its `data` (which seat,
which card...); the words for them, in the reader's language, are the presentation's
(pbem.present.service_words `explain`), as the engine's errors' are (pbem.present.refusals).
`str(error)` is the code and its data, for logs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.engine import EngineError


@dataclass(frozen=True)
class Said:
    """Something the service says (a refusal, why nothing changed): a code and its data."""

    code: str
    data: Mapping[str, Any] = field(default_factory=dict)


class ServiceError(Exception):
    """Root of the errors a command can end with: `code` and `data` (see the module)."""

    def __init__(self, code: str, **data: Any) -> None:
        super().__init__(code, *(f"{key}={value!r}" for key, value in sorted(data.items())))
        self.code = code
        self.data: dict[str, Any] = data

    @property
    def said(self) -> Said:
        return Said(self.code, self.data)

    def __str__(self) -> str:
        return " ".join(str(arg) for arg in self.args)


class PlayerMistake(ServiceError):
    """The player asked for something not allowed now: answer by mail, change nothing."""


class CommandRejected(PlayerMistake):
    """The engine refused the move (unreadable, illegal, not your turn, wrong phase): its
    error (a code and data) and the seats' names, for pbem.present.refusals to word."""

    def __init__(self, error: EngineError, names: Sequence[str] = ()) -> None:
        super().__init__("rejected")
        self.engine_error = error
        self.names = tuple(names)

    def __str__(self) -> str:
        return f"rejected: {self.engine_error}"


class BadRequest(PlayerMistake):
    """The request itself doesn't make sense (unknown preset, wrong number of players...).
    `engine_error`: the engine's refusal behind it (rules that can't be played), for
    pbem.present.refusals to word."""

    def __init__(self, code: str, engine_error: EngineError | None = None,
                 **data: Any) -> None:
        super().__init__(code, **data)
        self.engine_error = engine_error


class NotFound(PlayerMistake):
    pass


class NotAllowed(PlayerMistake):
    """E.g. the game is not active, the seat is not this player's, the invite is gone."""


class NotOrganiser(NotAllowed):
    """Only the person who set the game up may do that."""


class SomeoneMovedFirst(PlayerMistake):
    """The game changed while the move was being made (a lost race, twice)."""

    def __init__(self) -> None:
        super().__init__("someone_moved_first")
