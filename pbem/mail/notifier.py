"""The mail layer as the service's notifier: wired in by the app factory (pbem.app), so the
dependency points mail -> service and the service imports no mail."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.mail import accounts, jobs, notify, seats, timemails


class MailNotifier:
    """`fan_out` (a command's mail job, at once) or `notify` after every command, and the
    mails other commands queue by name."""

    def __getattr__(self, name: str) -> Callable[..., Any]:
        for module in (notify, jobs, timemails, accounts, seats):
            found: Callable[..., Any] | None = getattr(module, name, None)
            if callable(found):
                return found
        raise AttributeError(f"the mail layer has no {name!r}")
