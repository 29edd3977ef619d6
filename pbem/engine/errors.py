"""Engine errors split by cause under one root; each carries a code and data, never a sentence.

`error.code` names the reason (``"not_held"``, ``"not_a_card"``...), `error.data` the facts the
presentation words it from (cards, seats, counts; seats are numbers, the words give them
names): pbem.present.refusals.explain(error) is the sentence a player reads. `str(error)` shows
the code and data, for logs."""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Root of every error the engine raises about a player's input or a stored event."""

    code: str
    data: dict[str, Any]

    def __init__(self, code: str, **data: Any) -> None:
        super().__init__(code, data)
        self.code = code
        self.data = data

    def __str__(self) -> str:
        if not self.data:
            return self.code
        facts = ", ".join(f"{key}={value!r}" for key, value in self.data.items())
        return f"{self.code} ({facts})"

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (type(self), self.code, self.data)


def _rebuilt(cls: type[EngineError], code: str, data: dict[str, Any]) -> EngineError:
    return cls(code, **data)


class UnreadableInput(EngineError):
    """We could not read what the player wrote (not a card, ambiguous, junk)."""


class IllegalMove(EngineError):
    """We read it, but the rules do not allow it now."""


class NotYourTurn(EngineError):
    """The player is not one of the seats whose move is awaited."""


class WrongPhase(EngineError):
    """The command does not fit the game's phase (e.g. a card during the pass)."""


class EventDecodeError(EngineError):
    """A stored event payload is unknown or malformed (a system error, not a player's)."""
