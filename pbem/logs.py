"""Logging for the web and the worker: plain or JSON lines (PBEM_LOG_FORMAT), a request id on
every line of a request, bearer tokens masked, the scheduler's routine lines kept off INFO;
error reporting to Sentry when PBEM_SENTRY_DSN is set."""

from __future__ import annotations

import hashlib
import logging
import random
import re
import sys
from collections.abc import Mapping
from typing import Any

# Private and one-time links are bearer tokens: /s/TOKEN, /p/..., /t/..., /u/..., /join/...,
# /join/confirm/..., /signin/..., /a/SIGNED (an address confirmation), reply addresses
# play+TOKEN@ and Message-IDs <pbem.KIND.TOKEN@...>. Logs get `***` instead.
_TOKEN_PATTERNS = (
    (re.compile(r"(/(?:s|p|t|u|a|signin|join(?:/confirm)?)/)[^/?#\s\"']+"), r"\1***"),
    (re.compile(r"(\+)[A-Za-z0-9_.~-]{8,}(@)"), r"\1***\2"),
    (re.compile(r"(<pbem\.[a-z_]+\.)[^@>\s]+(@)"), r"\1***\2"),
    (re.compile(r"([?&](?:token|t)=)[^&\s\"']+"), r"\1***"),
)
MASKED = "***"
# An email address in a log line is someone's: it is written as a short hash of itself
# (`addr:1a2b3c4d5e`), which tells lines about one address apart and names nobody.
_ADDRESS = re.compile(r"(?<![\w.%+*-])[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_QUIET_LOGGERS = ("apscheduler.executors.default", "apscheduler.scheduler")
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def mask_tokens(text: str) -> str:
    """The text with every bearer token masked and every address hashed."""
    for pattern, replacement in _TOKEN_PATTERNS:
        text = pattern.sub(replacement, text)
    return _ADDRESS.sub(_hashed_address, text) if "@" in text else text


def address_hash(address: str) -> str:
    """How a log line names an address: `addr:` and the first 10 hex digits of its sha256."""
    return "addr:" + hashlib.sha256(address.strip().lower().encode()).hexdigest()[:10]


def _hashed_address(found: re.Match[str]) -> str:
    return address_hash(found.group(0))


class MaskTokens(logging.Filter):
    """Rewrites each record's message with its tokens masked (on the handler: every logger)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_tokens(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


class RequestId(logging.Filter):
    """Adds `request_id` (the current request's, "-" outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id()
        return True


def current_request_id() -> str:
    from flask import g, has_request_context

    return str(getattr(g, "request_id", "-")) if has_request_context() else "-"


def incoming_request_id(header: str | None) -> str:
    """The proxy's X-Request-ID when it is a plain short word, else a new one: 128 random
    bits in hex, as uuid4().hex gave, from the random module. An id only tells requests
    apart in the logs (it guards nothing), and uuid4's os.urandom is a system call that
    lets go of the GIL on every request, so the other thread's work comes between. (The
    module's generator is seeded afresh in each forked gunicorn worker.)"""
    if header and _REQUEST_ID.fullmatch(header):
        return header
    return f"{random.getrandbits(128):032x}"


PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(process_name)s %(request_id)s] %(message)s"


def make_formatter(fmt: str) -> logging.Formatter:
    if fmt == "json":
        from pythonjsonlogger.json import JsonFormatter

        return JsonFormatter("%(asctime)s %(levelname)s %(name)s %(process_name)s "
                             "%(request_id)s %(message)s", rename_fields={"levelname": "level"})
    return logging.Formatter(PLAIN_FORMAT)


class _ProcessName(logging.Filter):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.process_name = name

    def filter(self, record: logging.LogRecord) -> bool:
        record.process_name = self.process_name
        return True


def setup_logging(config: Mapping[str, Any], process: str, stream: Any = None) -> logging.Handler:
    """One handler on the root logger (replacing one set up here before)."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "pbem", False)]:
        root.removeHandler(old)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.pbem = True  # type: ignore[attr-defined]
    handler.setFormatter(make_formatter(str(config.get("LOG_FORMAT", "plain"))))
    for log_filter in (_ProcessName(process), RequestId(), MaskTokens()):
        handler.addFilter(log_filter)
    root.addHandler(handler)
    root.setLevel(str(config.get("LOG_LEVEL", "INFO")).upper())
    # APScheduler logs "Running job ..." at INFO for every run (every 5 s): keep it to warnings.
    for name in _QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    init_error_reporting(config)
    return handler


def init_error_reporting(config: Mapping[str, Any]) -> bool:
    """Sentry, when a DSN is set (off by default); URLs with tokens are masked first."""
    dsn = str(config.get("SENTRY_DSN") or "")
    if not dsn:
        return False
    import sentry_sdk

    from pbem import __version__

    sentry_sdk.init(dsn=dsn, environment=str(config.get("PBEM_ENV", "development")),
                    release=f"pbem@{__version__}", send_default_pii=False,
                    # Frame locals hold WSGI environs, tokens and player text: never sent.
                    include_local_variables=False,
                    before_send=_mask_event)  # type: ignore[arg-type]
    return True


def _mask_event(event: dict[str, Any], _hint: Any) -> dict[str, Any]:
    """Every string of the event (URL, headers, messages, transaction name) with tokens masked."""
    masked: dict[str, Any] = _mask_value(event)
    return masked


def _mask_value(value: Any) -> Any:
    if isinstance(value, str):
        return mask_tokens(value)
    if isinstance(value, dict):
        return {k: _mask_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_mask_value(v) for v in value]
    return value
