"""Service errors: each carries a sentence that can be sent to the player as it is."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.engine import EngineError


class ServiceError(Exception):
    """Root of the errors a command can end with; `str(error)` is fit to email."""


class PlayerMistake(ServiceError):
    """The player asked for something not allowed now: answer by mail, change nothing."""


class CommandRejected(PlayerMistake):
    """The engine refused the move (unreadable, illegal, not your turn, wrong phase): its
    error (a code and data) and the seats' names, for pbem.present.refusals to word."""

    def __init__(self, error: EngineError, names: Sequence[str] = ()) -> None:
        super().__init__(str(error))
        self.engine_error = error
        self.names = tuple(names)


class BadRequest(PlayerMistake):
    """The request itself doesn't make sense (unknown preset, wrong number of players...).
    `engine_error`: the engine's refusal behind it (rules that can't be played), for
    pbem.present.refusals to word."""

    def __init__(self, message: str = "", engine_error: EngineError | None = None) -> None:
        super().__init__(message)
        self.engine_error = engine_error


class NotFound(PlayerMistake):
    pass


class NotAllowed(PlayerMistake):
    """E.g. the game is not active, the seat is not this player's, the invite is gone."""


class NotOrganiser(NotAllowed):
    """Only the person who set the game up may do that."""


class SomeoneMovedFirst(PlayerMistake):
    def __init__(self) -> None:
        super().__init__(
            "Someone moved first and the game changed while your move was being made. "
            "Please look at the new position and send your move again."
        )
