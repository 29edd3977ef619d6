"""Header safety: clean player text before it reaches a header, and verify what we emit.

Python 3.11.7 has CVE-2024-6923: an encoded newline (`=?UTF-8?Q?=0A?=`) in a header value can
become a real line break when the message is serialized, i.e. an injected header. So player
names and subjects are decoded, stripped of every control/line-separator character, and any
leftover encoded-word opener is broken up; `verify_headers` then checks the serialized message.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from email.header import decode_header
from email.message import EmailMessage
from email.parser import BytesHeaderParser

_ENCODED_WORD = re.compile(r"=\?[^?\s]*\?[A-Za-z]\?[^?\s]*\?=")
_SPACES = re.compile(r"\s+")


class HeaderInjectionError(ValueError):
    """A serialized message has headers we did not put there."""


def _decode_word(word: str) -> str:
    try:
        parts = decode_header(word)
    except Exception:  # malformed encoded word: drop it rather than guess
        return " "
    out = []
    for payload, charset in parts:
        if isinstance(payload, bytes):
            try:
                out.append(payload.decode(charset or "ascii", errors="replace"))
            except LookupError:  # unknown charset name
                out.append(payload.decode("ascii", errors="replace"))
        else:
            out.append(payload)
    return "".join(out)


def _visible(ch: str) -> bool:
    # C* = control, format, surrogate, private, unassigned; Zl/Zp = U+2028/U+2029.
    category = unicodedata.category(ch)
    return not (category.startswith("C") or category in {"Zl", "Zp"})


def clean_header_text(text: str, max_len: int = 200) -> str:
    """Player text made safe for a header: one line, printable, no encoded words."""
    for _ in range(3):  # encoded words may decode to more encoded words
        decoded = _ENCODED_WORD.sub(lambda m: _decode_word(m.group()), text)
        if decoded == text:
            break
        text = decoded
    if not text.isprintable():  # printable: no C* nor Z* but the space, so all visible
        text = "".join(ch if _visible(ch) else " " for ch in text)
    while "=?" in text:
        text = text.replace("=?", "= ?")
    text = _SPACES.sub(" ", text).strip()
    return text[:max_len].rstrip()


def verify_headers(msg: EmailMessage, expected: Iterable[str], data: bytes | None = None) -> None:
    """Raise HeaderInjectionError unless the serialized top-level headers are exactly `expected`.

    `data`: the message already serialized (so it is checked exactly as it will be sent).
    """
    parsed = BytesHeaderParser().parsebytes(msg.as_bytes() if data is None else data)
    found = Counter(name.lower() for name in parsed)
    wanted = Counter(name.lower() for name in expected)
    if found != wanted:
        extra = sorted((found - wanted).elements())
        missing = sorted((wanted - found).elements())
        raise HeaderInjectionError(f"unexpected headers {extra}, missing {missing}")
