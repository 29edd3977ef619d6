"""Parse: a MIME message → the text the player wrote (marker cut, quotes and signature trimmed)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email import policy
from email.message import Message
from email.parser import BytesParser
from functools import cache
from html.parser import HTMLParser

from mailparser_reply import EmailMessage

from pbem.mail.sending import PURPOSES
from pbem.present import i18n

MARKER = "--- Reply above this line ---"  # pbem.mail.sending.MARKER, kept in step by a test
# Languages whose quote headers ("Am ... schrieb", "De : ...") the trimmer should know.
LANGUAGES = ["en", "de", "fr", "es", "it", "nl"]
# compat32: headers come back as the strings they are, not parsed into header objects on every
# read (five times faster here, and the loop checks and routing need only addresses and flags;
# every header read goes through str() so undecodable bytes come back replaced, not raised).
_PARSER = BytesParser(policy=policy.compat32)
_MARKER_LINE = re.compile(r"^[\s>|]*-*\s*reply above this line\s*-*\s*$", re.IGNORECASE)
# A signature starts at a delimiter line: "-- " (the standard), "--", "—" or "–", alone or
# before a name ("-- Ann", "—Ann"), or a name right after one hyphen ("-Ann"). Not at "- KS"
# or "– KS" (a list of cards to pass: the trimmer's own rule, "- " then a word, cut those).
_SIGNATURE_LINE = re.compile(r"^(?:-{2,}|[\u2013\u2014]+)\s*(?P<name>.{0,40})$"
                             r"|^-(?P<glued>[^\W\d_].{0,40})$")
_NAME = re.compile(r"^(?:[^\W\d_][\w .,'-]*)?$")
_CARD_CODE = re.compile(r"^(?:10|[2-9akqjt])[cdhs]\b", re.IGNORECASE)
_QUOTED = re.compile(r"^\s*(>|\|)")


# The work one message may cost is bounded (issue 38.9): a reply is a few kB, so of each text
# part only the first MAX_TEXT_BYTES are read, and a message with more containers (multipart,
# attached messages) or part boundaries than a mail client ever writes is not parsed at all:
# the stdlib parser recurses once per level and walks every part.
MAX_TEXT_BYTES = 64 * 1024
MAX_CONTAINERS = 50
MAX_BOUNDARIES = 2000
_CONTAINER = re.compile(rb"content-type:[ \t]*(?:\r?\n[ \t]+)?(?:multipart|message)/",
                        re.IGNORECASE)


class TooComplex(ValueError):
    """A message built to cost its reader (nesting, parts): read as malformed, unanswered."""


def parse_message(raw: bytes) -> Message:
    """The parsed message; TooComplex for one past the bounds above (a cheap scan first)."""
    containers = len(_CONTAINER.findall(raw))
    boundaries = raw.count(b"\n--")
    if containers > MAX_CONTAINERS or boundaries > MAX_BOUNDARIES:
        raise TooComplex(f"{containers} MIME containers, {boundaries} part boundaries: "
                         f"more than {MAX_CONTAINERS} or {MAX_BOUNDARIES}, not read")
    return _PARSER.parsebytes(raw)


def reply_text(message: Message) -> str:
    """What the player wrote in this message, without what they quoted or signed."""
    return trim(body_text(message))


def body_text(message: Message) -> str:
    """The message's text: its first text/plain part, else its HTML made into text.

    Attachments (and attached messages) are skipped; every charset and transfer encoding is
    decoded, unknown charsets as UTF-8 with replacement characters."""
    plain = html = None
    for part in _text_parts(message):
        if part.get_content_type() == "text/plain" and plain is None:
            plain = _decoded(part)
        elif part.get_content_type() == "text/html" and html is None:
            html = _decoded(part)
        if plain is not None and html is not None:
            break
    if plain is not None and plain.strip():
        return plain
    return html_to_text(html) if html else (plain or "")


def _text_parts(message: Message) -> Iterator[Message]:
    """The text parts, in order, depth first (lazily: the caller stops at what it needs)."""
    stack = [message]
    while stack:
        part = stack.pop()
        if part.is_multipart():
            if part.get_content_type() == "message/rfc822":
                continue  # a forwarded or bounced message is not what the sender wrote
            stack.extend(reversed(part.get_payload()))  # type: ignore[arg-type]
        elif part.get_content_maintype() == "text" and not _is_attachment(part):
            yield part


def _is_attachment(part: Message) -> bool:
    return str(part.get("Content-Disposition") or "").strip().lower().startswith("attachment")


# What the stdlib raises on hostile labels and parameters besides LookupError: a charset
# with a NUL (ValueError), `idna` (UnicodeError even with errors="replace"), RFC 2231
# continuations out of order (TypeError), 8-bit bytes in a parameter (UnicodeDecodeError).
CHARSET_ERRORS = (LookupError, UnicodeError, ValueError, TypeError)


def _decoded(part: Message) -> str:
    """The part's text: its first MAX_TEXT_BYTES (what a reply says is at its top)."""
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        return str(part.get_payload())[:MAX_TEXT_BYTES]
    data = data[:MAX_TEXT_BYTES]
    try:
        charset = part.get_content_charset() or "utf-8"
        return data.decode(charset, errors="replace")
    except CHARSET_ERRORS:  # unknown or hostile charset: read it as UTF-8
        return data.decode("utf-8", errors="replace")


def trim(text: str) -> str:
    """Drop quoted lines, then everything from an unquoted marker line on (clients that don't
    quote with ">" — Outlook — and pasted replies) or a signature delimiter ("-- "), then let
    the trimmer cut quote headers in any language and signatures ("Sent from my iPhone")."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for line in lines:
        if _QUOTED.match(line):
            continue
        line = line.replace("\u00a0", " ").rstrip()
        if _MARKER_LINE.match(line):
            _drop_preview(kept)
            break
        if _signature_starts(line.strip()):
            break
        kept.append(line)
    unquoted = "\n".join(kept).strip()
    if not unquoted:
        return ""
    # keep_hyphen_lists: "- KS" / "- AH" is a list, not a signature (cut above instead).
    replies = EmailMessage(unquoted, list(LANGUAGES), keep_hyphen_lists=True).read().replies
    return replies[0].body.strip() if replies else unquoted


def _drop_preview(kept: list[str]) -> None:
    """Drop the email's own preview line ("Your turn: play to the 7♥ …", in any language),
    which comes right before the marker in its text part, when a client pasted the email
    below the reply without quoting it (quoted, it is dropped with the quote)."""
    end = len(kept)
    while end and not kept[end - 1].strip():
        end -= 1
    if end and kept[end - 1].strip().startswith(_preview_labels()):
        del kept[end - 1:]


@cache
def _preview_labels() -> tuple[str, ...]:
    """What every email's preview starts with (pbem.mail.sending.PURPOSES), in every language
    the emails are written in."""
    labels: set[str] = set()
    for language in i18n.LANGUAGES:
        with i18n.using(language):
            labels.update(str(purpose) for purpose in PURPOSES.values())
    return tuple(sorted(labels))


def _signature_starts(line: str) -> bool:
    found = _SIGNATURE_LINE.match(line)
    if found is None:
        return False
    name = found.group("name") if found.group("glued") is None else found.group("glued")
    return bool(_NAME.match(name)) and not _CARD_CODE.match(name)


# --- HTML-only mail ---------------------------------------------------------------------------

# Containers mail clients put the quoted original in: Gmail, Yahoo, Thunderbird, Outlook (web).
_QUOTE_CLASSES = {"gmail_quote", "yahoo_quoted", "moz-cite-prefix", "gmail_attr"}
_QUOTE_IDS = {"divrplyfwdmsg", "appendonsend", "mail-editor-reference-message-container",
              "ydpquoted", "x_divrplyfwdmsg"}
_BLOCKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "table", "blockquote", "hr"}
_SKIP = {"style", "script", "head", "title"}
_VOID = {"br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr"}


class _TextMaker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.quoted: list[bool] = [False]
        self.stack: list[tuple[str, bool]] = []  # (tag, opened a quote)
        self.quote_depth = 0
        self.skip_depth = 0

    def _newline(self) -> None:
        self.lines.append("")
        self.quoted.append(self.quote_depth > 0)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        classes = set((values.get("class") or "").lower().split())
        ident = (values.get("id") or "").lower()
        quote = tag == "blockquote" or bool(classes & _QUOTE_CLASSES) or ident in _QUOTE_IDS
        if tag in _BLOCKS:
            self._newline()
        if tag in _VOID:
            return
        if tag in _SKIP:
            self.skip_depth += 1
        if quote:
            self.quote_depth += 1
            self.quoted[-1] = True
        self.stack.append((tag, quote))

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        while self.stack:
            open_tag, quote = self.stack.pop()
            if quote:
                self.quote_depth -= 1
            if open_tag in _SKIP:
                self.skip_depth -= 1
            if open_tag == tag:
                break
        if tag in _BLOCKS:
            self._newline()

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        self.lines[-1] += re.sub(r"\s+", " ", data)
        if self.quote_depth:
            self.quoted[-1] = True


def html_to_text(html: str) -> str:
    """Visible text, one line per block; text inside a quote container gets a "> " prefix."""
    maker = _TextMaker()
    maker.feed(html)
    maker.close()
    out = []
    for line, quoted in zip(maker.lines, maker.quoted, strict=True):
        line = line.strip()
        out.append(f"> {line}" if quoted and line else line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
