"""The parts that are the same for every anonymous reader, sent in the event itself: the
part is asked for ONCE per version and language, as an anonymous reader would
(``part_render``: the full middleware and view, in a thread) — by one serving process
for all of them (``push.renders``) — and every anonymous follower of it gets the answer
in the event with its ETag, instead of each asking for it.

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
changes from the answer the follower holds (``text_diff``: a few hundred bytes for an
entry), named by the ETag they apply to (``base``). The node knows what each follower
holds (``push.hub.Follower.held``: the last answer it sent them), and each version's
answer is made once with its changes from the answers of the ``HISTORY`` versions
before (``rendered_make``, in the rendering thread): a follower holding one of those
gets its changes, one holding none (a page opened at the current version has the part
on screen but not its text; one that fell further behind) gets the whole body. No
follower costs a render or a diff of its own. Sending the whole bracket to 7,000
followers every 2 s would be ~500 MB/s; a small part (the live part, the board:
~1–3 KB) is sent whole.

What is sent is made ready as the event's JSON data once per version, in the rendering
thread (``Rendered.whole``, ``Rendered.changes``): the event loop only joins strings.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from io import BytesIO
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.urls import reverse

__all__ = [
    "HISTORY",
    "PARTS",
    "Diff",
    "Part",
    "Rendered",
    "handler_forget",
    "part_render",
    "rendered_dumps",
    "rendered_loads",
    "rendered_make",
    "text_diff",
    "text_patch",
]

log = logging.getLogger(__name__)

WHOLE_LIMIT = 16 * 1024  # a body up to this size is sent whole; above it, as changes
HISTORY = 3  # a big part's changes are made from the answers of this many versions before

# Changes that make one text into another: (start, end, text) replacing ``old[start:end]``.
Diff = tuple[tuple[int, int, str], ...]


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
    """A part's shared answer at a version, and what its event's data is (JSON, made once:
    module doc) for each follower: ``whole`` with the body, or ``changes[etag]`` for one
    holding the answer ``etag`` (a big part only)."""

    version: int
    etag: str
    text: str
    whole: str
    changes: Mapping[str, str]

    def data(self, held: str | None) -> str:
        """The event's data for a follower holding the answer ``held`` (its ETag; None: no
        text of this part): its changes into this answer when made, else the body whole."""
        found = self.changes.get(held) if held is not None else None
        return self.whole if found is None else found


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


def rendered_make(version: int, etag: str, text: str, before: Sequence[Rendered]) -> Rendered:
    """The answer ``etag``/``text`` at ``version``, with its event's data made: the body
    whole, and for a big part (over ``WHOLE_LIMIT``) the changes into it from itself (an
    empty change: a follower holding it learns its new version) and from each answer in
    ``before`` (module doc)."""
    whole = _json({"v": version, "etag": etag, "body": text})
    changes: dict[str, str] = {}
    if len(text) > WHOLE_LIMIT:
        for base, old in [(etag, text), *((b.etag, b.text) for b in before)]:
            if base not in changes:
                diff = text_diff(old, text)
                changes[base] = _json({"v": version, "etag": etag, "base": base, "diff": diff})
    return Rendered(version, etag, text, whole, changes)


def rendered_dumps(made: Rendered) -> bytes:
    """``made`` as the processes share it (``push.renders``): its event's data is made
    again from it by ``rendered_loads``, the changes as they are."""
    data = {"v": made.version, "etag": made.etag, "text": made.text, "changes": made.changes}
    return json.dumps(data, separators=(",", ":")).encode()


def rendered_loads(data: bytes) -> Rendered:
    """What ``rendered_dumps`` made (``ValueError`` when it is not that)."""
    try:
        found = json.loads(data)
        version, etag, text = int(found["v"]), str(found["etag"]), str(found["text"])
        changes = {str(k): str(v) for k, v in found["changes"].items()}
    except (KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"not a rendered part: {err!r}") from err
    whole = _json({"v": version, "etag": etag, "body": text})
    return Rendered(version, etag, text, whole, changes)


_handler: WSGIHandler | None = None
# A part answered with a server error is asked again this many times in all, this many
# seconds apart times the attempt (``part_render``).
RENDER_TRIES = 3
RENDER_PAUSE = 0.05


def handler_forget() -> None:
    """Make ``part_render``'s handler anew at its next call (a test's end: the settings
    its middleware read when made may be another test's)."""
    global _handler
    _handler = None


def part_render(
    *, name: str, pk: int, language: str, origin: dict[str, str]
) -> tuple[str, str] | None:
    """Part ``name`` of ``pk`` as an anonymous reader of ``language`` is answered it:
    (ETag, body), or None when that answer is not a 200 with an ETag (not everyone's to
    see). ``origin``: the stream request's host and scheme headers, so the request passes
    the same host and HTTPS checks."""
    global _handler
    handler = _handler  # read once: a test's end may forget it meanwhile (``handler_forget``)
    if handler is None:
        handler = _handler = WSGIHandler()
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
        answer = handler(dict(environ, **{"wsgi.input": BytesIO(b"")}), start_response)
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
_ENDS = ">}\n"  # a token ends after one of these (``_TOKEN``)


def _tokens(text: str) -> list[str]:
    """``text`` cut after each ``>``, ``}`` and line end: an HTML tag, a JSON object."""
    return [t for t in _TOKEN.findall(text) if t]


def _same_start(a: str, b: str, limit: int) -> int:
    """How many first characters ``a`` and ``b`` share (at most ``limit``): halved
    slices compared, so the comparing is done in C, not a character at a time."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _same_end(a: str, b: str, limit: int) -> int:
    """How many last characters ``a`` and ``b`` share (at most ``limit``)."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid : len(a) - lo] == b[len(b) - mid : len(b) - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def text_diff(old: str, new: str) -> Diff:
    """The changes that make ``old`` into ``new``: (start, end, text) replacing
    ``old[start:end]`` with ``text``, in order (``text_patch`` applies them).

    The start and end both share are set aside first (an entry changes a few places of
    the bracket), cut where a token ends so that what is left is cut into the same
    tokens as the whole would be; what is left is compared token by token."""
    limit = min(len(old), len(new))
    same = _same_start(old, new, limit)
    head = max(old.rfind(end, 0, same) for end in _ENDS) + 1  # 0 when none ends there
    same = _same_end(old, new, limit - head)
    ends = [i for i in (old.find(end, len(old) - same) for end in _ENDS) if i != -1]
    tail = len(old) - min(ends) - 1 if ends else 0  # the shared end after a token's end
    old_mid, new_mid = old[head : len(old) - tail], new[head : len(new) - tail]
    found = _line_diff(old_mid, new_mid)
    if found is None:
        found = _token_diff(old_mid, new_mid)
    return tuple((head + start, head + end, text) for start, end, text in found)


# A line-paired diff is kept when what it replaces is at most this share of what is
# compared (``_line_diff``); else the tokens are compared.
LINES_SHARE = 0.05


def _line_diff(old: str, new: str) -> Diff | None:
    """``text_diff`` line by line, when both have as many lines and few differ: the
    bracket's answer keeps its lines from one version to the next (an entry changes a
    cell's lines, never their number), and pairing them costs a comparison per line,
    where the token comparison's cost grows with the distance between the first change
    and the last (two columns of the bracket apart: ~15 ms, three times a version).
    None when the lines do not pair up, or the lines that differ are long (one line of
    JSON) or most of a short text: the tokens are compared then."""
    a, b = old.split("\n"), new.split("\n")
    if len(a) != len(b):
        return None
    out: list[tuple[int, int, str]] = []
    at = 0  # where line i starts in ``old``
    run: tuple[int, int] | None = None  # the lines differing now: first, its start
    replaced = 0
    limit = int(LINES_SHARE * len(old))
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y:
            if run is None:
                run = (i, at)
        elif run is not None:
            first, start = run
            text = "\n".join(b[first:i])
            out.append((start, at - 1, text))
            replaced += max(at - 1 - start, len(text))
            run = None
            if replaced > limit:
                return None
        at += len(x) + 1
    if run is not None:
        first, start = run
        text = "\n".join(b[first:])
        out.append((start, len(old), text))
        replaced += max(len(old) - start, len(text))
    return None if replaced > limit else tuple(out)


def _token_diff(old: str, new: str) -> Diff:
    """``text_diff`` token by token."""
    a, b = _tokens(old), _tokens(new)
    at = [0]
    for token in a:
        at.append(at[-1] + len(token))
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


def text_patch(old: str, diff: Diff | list[Any]) -> str:
    """``old`` with ``diff`` applied (as push.js does)."""
    out, last = [], 0
    for start, end, text in diff:
        out.append(old[last:start])
        out.append(text)
        last = end
    out.append(old[last:])
    return "".join(out)
