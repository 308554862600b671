"""The parts that are the same for every anonymous reader, sent in the event itself: the
serving process asks its own Django for the part ONCE per version and language, as an
anonymous reader would (``part_render``: the full middleware and view, in a thread), and
every anonymous follower of it gets the answer in the event with its ETag, instead of
each asking for it.

The parts (``PARTS``): the tournament's bracket (HTML, ``web:tournament_bracket``), the
JSON bracket (``api:tournament-bracket``), a match's live part (``web:match_live``) and
its live board (``api:match-live``). Each of their views already keeps one answer for
every reader who may see it (``web.live``, ``core.kept_responses``): what is sent is that
answer, byte for byte, with the ETag the reader would have been given.

Who gets a body: an anonymous follower (``Follower.bodies``), the only reader the answer
was rendered as; an answer that is not a 200 with an ETag (a private tournament: 404)
sends none. A signed-in reader, or a part of a tournament that is not public, keeps the
"reload this part" message and asks with their own session as before.

Decided: a big part (the 256-player bracket is ~150 KB, its JSON ~100 KB) is sent as the
changes from the version sent before (``text_diff``: a few hundred bytes for an entry),
named by the ETag it applies to (``base``); a follower holding another version asks for
the part as before. Sending the whole bracket to 7,000 followers every 2 s would be
~500 MB/s; a small part (the live part, the board: ~1–3 KB) is sent whole.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher
from io import BytesIO
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.urls import reverse

__all__ = ["PARTS", "Part", "Rendered", "part_render", "text_diff", "text_patch"]

log = logging.getLogger(__name__)

WHOLE_LIMIT = 16 * 1024  # a body up to this size is sent whole; above it, as changes


@dataclass(frozen=True)
class Part:
    """A part a follower may be sent: which stream and event carry it, how it is asked."""

    stream: str  # "tournament" or "match"
    event: str  # "part" or "board"
    url: str  # its URL's name, taking the tournament's or match's id
    headers: tuple[tuple[str, str], ...]  # as the page asks for it (WSGI environ names)


_HTMX = (("HTTP_HX_REQUEST", "true"),)
_JSON = (("HTTP_ACCEPT", "application/json"),)

PARTS: dict[str, Part] = {
    "bracket": Part("tournament", "part", "web:tournament_bracket", _HTMX),
    "api-bracket": Part("tournament", "part", "api:tournament-bracket", _JSON),
    "live": Part("match", "part", "web:match_live", _HTMX),
    "board": Part("match", "board", "api:match-live", _JSON),
}


@dataclass(frozen=True)
class Rendered:
    """A part's shared answer at a version: what is sent in its event."""

    version: int
    etag: str
    text: str
    base: str = ""  # the ETag of the answer before, which ``diff`` changes into this one
    diff: tuple[tuple[int, int, str], ...] = ()

    def data(self, version: int) -> dict[str, Any]:
        """The event's data: the body whole when small, else the changes from ``base``
        (when there is one), else only the version and ETag (the page asks for it)."""
        out: dict[str, Any] = {"v": version, "etag": self.etag}
        if len(self.text) <= WHOLE_LIMIT:
            out["body"] = self.text
        elif self.base:
            out["base"] = self.base
            out["diff"] = self.diff
        return out


_handler: WSGIHandler | None = None
# A part answered with a server error is asked again this many times in all, this many
# seconds apart times the attempt (``part_render``).
RENDER_TRIES = 3
RENDER_PAUSE = 0.05


def part_render(
    *, name: str, pk: int, language: str, origin: dict[str, str]
) -> tuple[str, str] | None:
    """Part ``name`` of ``pk`` as an anonymous reader of ``language`` is answered it:
    (ETag, body), or None when that answer is not a 200 with an ETag (not everyone's to
    see). ``origin``: the stream request's host and scheme headers, so the request passes
    the same host and HTTPS checks."""
    global _handler
    if _handler is None:
        _handler = WSGIHandler()
    part = PARTS[name]
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": reverse(part.url, args=[pk]),
        "QUERY_STRING": "",
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "REMOTE_ADDR": "127.0.0.1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_ACCEPT_LANGUAGE": language,
        "HTTP_COOKIE": f"{settings.LANGUAGE_COOKIE_NAME}={language}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        **origin,
        **dict(part.headers),
    }
    status: list[str] = []
    headers: list[tuple[str, str]] = []

    def start_response(line: str, sent: list[tuple[str, str]], *_: Any) -> Callable[..., Any]:
        status[:] = [line]
        headers[:] = sent
        return lambda _data: None

    # A server error is asked again (twice, a moment apart): a write holding the
    # database (SQLite's lock, a PostgreSQL restart) passes; the followers are told to
    # ask for the part themselves only if it lasts.
    for attempt in range(RENDER_TRIES):
        if attempt:
            time.sleep(RENDER_PAUSE * attempt)
        answer = _handler(dict(environ, **{"wsgi.input": BytesIO(b"")}), start_response)
        try:
            body = b"".join(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        if status and not status[0].startswith("5"):
            break
    tag = next((v for k, v in headers if k.lower() == "etag"), "")
    if not status or not status[0].startswith("200") or not tag:
        return None
    return tag, body.decode("utf-8")


_TOKEN = re.compile(r"[^>}\n]*(?:[>}\n]|$)")


def _tokens(text: str) -> list[str]:
    """``text`` cut after each ``>``, ``}`` and line end: an HTML tag, a JSON object."""
    return [t for t in _TOKEN.findall(text) if t]


def text_diff(old: str, new: str) -> tuple[tuple[int, int, str], ...]:
    """The changes that make ``old`` into ``new``: (start, end, text) replacing
    ``old[start:end]`` with ``text``, in order (``text_patch`` applies them)."""
    a, b = _tokens(old), _tokens(new)
    at = [0]
    for token in a:
        at.append(at[-1] + len(token))
    # the same start and end are set aside first: an entry changes a few places
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    matcher = SequenceMatcher(None, a[head : len(a) - tail], b[head : len(b) - tail])
    return tuple(
        (at[head + i1], at[head + i2], "".join(b[head + j1 : head + j2]))
        for op, i1, i2, j1, j2 in matcher.get_opcodes()
        if op != "equal"
    )


def text_patch(old: str, diff: tuple[tuple[int, int, str], ...] | list[Any]) -> str:
    """``old`` with ``diff`` applied (as push.js does)."""
    out, last = [], 0
    for start, end, text in diff:
        out.append(old[last:start])
        out.append(text)
        last = end
    out.append(old[last:])
    return "".join(out)
