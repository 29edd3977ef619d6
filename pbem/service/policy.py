"""A game's deadline policy (the keys of Game.deadline_policy) with its defaults.

    {"move_hours": 48, "reminders": [0.5, 0.8], "skip_weekends": false, "grace_minutes": 0,
     "on_timeout": "bot", "bot_after_timeouts": 3, "vacation": "stretch"}

Missing keys take the defaults; values that make no sense fall back to them too, so a bad
policy never stops the worker.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

ON_TIMEOUT = ("bot", "pause", "open_seat")
VACATION = ("stretch", "bot")


@dataclass(frozen=True)
class DeadlinePolicy:
    move_hours: float = 48.0  # time per move
    reminders: tuple[float, ...] = field(default=(0.5, 0.8))  # fractions of the time
    skip_weekends: bool = False  # Saturdays and Sundays (the player's zone) don't count
    grace_minutes: int = 0  # after the deadline, before the timeout acts
    on_timeout: str = "bot"  # "bot" moves for the player; "pause" the game; "open_seat"
    bot_after_timeouts: int = 3  # then the bot holds the seat until the player is back
    vacation: str = "stretch"  # away days stretch deadlines, or "bot": the bot covers

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any] | None) -> DeadlinePolicy:
        raw = raw or {}
        default = cls()
        return cls(
            move_hours=_number(raw.get("move_hours"), default.move_hours, low=0.01),
            reminders=_fractions(raw.get("reminders"), default.reminders),
            skip_weekends=bool(raw.get("skip_weekends", default.skip_weekends)),
            grace_minutes=int(_number(raw.get("grace_minutes"), default.grace_minutes, low=0)),
            on_timeout=_choice(raw.get("on_timeout"), ON_TIMEOUT),
            bot_after_timeouts=int(_number(raw.get("bot_after_timeouts"),
                                           default.bot_after_timeouts, low=1)),
            vacation=_choice(raw.get("vacation"), VACATION),
        )

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["reminders"] = list(self.reminders)
        return out


def _number(value: Any, default: float, *, low: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < low:
        return default
    return float(value)


def _fractions(value: Any, default: tuple[float, ...]) -> tuple[float, ...]:
    if value is None or not isinstance(value, list | tuple):
        return default
    ok = [float(v) for v in value if isinstance(v, int | float) and not isinstance(v, bool)]
    return tuple(sorted({v for v in ok if 0 < v < 1}))


def _choice(value: Any, choices: tuple[str, ...]) -> str:
    return value if value in choices else choices[0]
