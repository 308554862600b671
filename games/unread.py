"""A file that is no game record the site reads: one clear message, the same in the replay
command, the API upload and the page upload (docs/game-record.md, "Files the site does not
read").

Every family says how sure it is that a text is its record (``GameFamily.detect``); a file
that no family with a replay claims (empty, binary, JSON that is not a record of ours, an
SGF file of another game such as Go's ``GM[1]``, any other text) is refused with
``record.not_a_record``, which names the formats the site reads, instead of being handed
to one reader whose complaint ("expected a tag or 'Game 1'") would call it a broken record
of that game.

Decision on UTF-16 and UTF-32 (a Windows editor's "Unicode"): a file that opens with one
of their byte-order marks is refused naming its encoding (``record.encoding``), not
decoded. The site's records are UTF-8 (backgammon's ``.mat`` also Windows-1252, as older
programs wrote it); one rule for every game and every entry point, and the fix is one step
in any editor ("save as UTF-8").

Pure: imports nothing from Django; the edge renders the codes in its reader's language
(``matches.engine_text``).
"""

from __future__ import annotations

from backgammon.dialects import PROGRAMS
from engine.messages import Msg, register
from games.registry import detect

__all__ = ["MESSAGES", "encoding_refused", "not_a_record", "unread"]

MESSAGES: dict[str, str] = {
    "record.not_a_record": (
        "not a game record the site reads: it reads bräde records (text or JSON), "
        "backgammon matches as .mat or .txt files ({programs}), gnubg's .sgf files and "
        "backgammon's own text or JSON form"
    ),
    "record.encoding": (
        "the file is {encoding} text: save it as UTF-8 (plain text) and submit it again"
    ),
}

register(MESSAGES)

# byte-order mark → encoding, the longer marks first (UTF-32 LE starts as UTF-16 LE does)
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def encoding_refused(data: bytes) -> Msg | None:
    """``record.encoding`` for a file that opens with a UTF-16 or UTF-32 byte-order mark,
    else ``None``."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return Msg("record.encoding", {"encoding": encoding})
    return None


def not_a_record() -> Msg:
    """``record.not_a_record``, naming the backgammon programs whose files are read."""
    return Msg("record.not_a_record", {"programs": ", ".join(PROGRAMS)})


def unread(data: str | bytes) -> Msg | None:
    """Why no game's reader reads ``data`` (a refused encoding, or no family claims it),
    or ``None`` when one does."""
    if isinstance(data, bytes):
        refused = encoding_refused(data)
        if refused is not None:
            return refused
    return not_a_record() if detect(data) is None else None
