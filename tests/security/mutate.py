"""Seeded mutations of real replies (tests/mailin/corpus), for the mail-in fuzz test: the kinds
of damage found by attacking mail in (issue 13.7) plus random edits of lines and bytes."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

CORPUS = Path(__file__).parents[1] / "mailin" / "corpus"
HOSTILE_CHARSETS = [b"idna", b"utf-8\x00", b"\x00", b"x-unknown", b"utf-7", b"utf-16",
                    b"utf-32-be", b"rot13", b"base64", b"punycode", b"zlib", b"'", b""]
AUTO_LINES = [b"Auto-Submitted: auto-replied", b"Precedence: bulk", b"Precedence: junk",
              b"X-Autoreply: yes", b"List-Id: <a.list.example>", b"Auto-Submitted: auto-generated"]
BROKEN_LINES = [b"this line is not a header", b"X-Broken", b":no name", b"X-Nul: a\x00b",
                b"\xff\xfe: \xff", b" folded without a header", b"X-Long: " + b"a" * 5000,
                b"Content-Type: text/plain; charset=\"idna\"", b"From:", b"=?utf-8?b?====?=: x"]


def corpus() -> list[bytes]:
    return [p.read_bytes() for p in sorted(CORPUS.glob("*.eml"))]


def split(raw: bytes) -> tuple[list[bytes], bytes]:
    head, _, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    return head.split(b"\n"), body


def join(head: list[bytes], body: bytes) -> bytes:
    return b"\r\n".join(head) + b"\r\n\r\n" + body.replace(b"\n", b"\r\n")


def deep_multipart(depth: int) -> bytes:
    """A multipart nested `depth` deep (the stdlib parser recursed once per level)."""
    head = [b"From: ann@example.org", b"Subject: deep", b"MIME-Version: 1.0",
            b'Content-Type: multipart/mixed; boundary="b0"']
    parts = []
    for level in range(1, depth):
        parts.append(b'--b%d\r\nContent-Type: multipart/mixed; boundary="b%d"\r\n' % (
            level - 1, level))
    body = b"\r\n".join(parts) + b"\r\n--b%d\r\nContent-Type: text/plain\r\n\r\nQS\r\n" % (
        depth - 1)
    return join(head, body)


def _charset(rng: random.Random, raw: bytes) -> bytes:
    label = rng.choice(HOSTILE_CHARSETS)
    head, body = split(raw)
    head = [h for h in head if not h.lower().startswith((b"content-type", b"content-transfer"))]
    encoding = rng.choice([b"8bit", b"base64", b"quoted-printable", b"x-uuencode", b"7bit"])
    head += [b"MIME-Version: 1.0", b'Content-Type: text/plain; charset="' + label + b'"',
             b"Content-Transfer-Encoding: " + encoding]
    return join(head, bytes(rng.getrandbits(8) for _ in range(40)) + b"\nQS\n" + body[:400])


def _broken_then_auto(rng: random.Random, raw: bytes) -> bytes:
    head, body = split(raw)
    at = rng.randrange(len(head) + 1)
    return join(head[:at] + [rng.choice(BROKEN_LINES), rng.choice(AUTO_LINES)] + head[at:],
                body)


def _lines(rng: random.Random, raw: bytes) -> bytes:
    lines = raw.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        op = rng.randrange(4)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 2:
            lines.insert(i, rng.choice(BROKEN_LINES))
        else:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        if not lines:
            lines = [b""]
    return b"\n".join(lines)


def _bytes(rng: random.Random, raw: bytes) -> bytes:
    data = bytearray(raw)
    for _ in range(rng.randint(1, 20)):
        data[rng.randrange(len(data))] = rng.getrandbits(8)
    return bytes(data)


def _params(rng: random.Random, raw: bytes) -> bytes:
    """Hostile MIME parameters: boundaries, RFC 2231 continuations, encoded words."""
    junk = rng.choice([b"; boundary=", b"; charset*=''%ff%00", b"; charset*0*=utf-8''%e2",
                       b"; name*=x'y'%zz", b"; boundary=\"\"", b"; =?x?q?=00?="])
    return re.sub(rb"(?im)^(content-type:[^\r\n]*)", lambda m: m.group(1) + junk, raw, count=1)


MUTATIONS: list[Callable[[random.Random, bytes], bytes]] = [
    _charset, _broken_then_auto, _lines, _bytes, _params]


def mutated(seed: int, count: int) -> Iterator[tuple[str, bytes]]:
    """`count` mutated messages (each named by what was done), the same for a given seed; the
    cases found by attacking come first."""
    rng = random.Random(seed)
    yield "deep multipart", deep_multipart(1000)
    base = corpus()
    for n in range(count - 1):
        mutation = MUTATIONS[n % len(MUTATIONS)]
        raw = rng.choice(base)
        for _ in range(rng.randint(1, 2)):
            raw = mutation(rng, raw)
        yield mutation.__name__.strip("_"), raw
