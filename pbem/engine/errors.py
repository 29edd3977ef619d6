"""Engine errors split by cause under one root; each message is a sentence fit to email."""

from __future__ import annotations


class EngineError(Exception):
    """Root of every error the engine raises about a player's input or a stored event."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


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
