"""Which program wrote a backgammon record, and which files are formats the site does not
read (docs/game-record.md, "Backgammon records from other programs").

One reader (:func:`backgammon.mat.read_mat`, :func:`backgammon.sgf.read_sgf`) knows every
convention of the table in docs/game-record.md; this module only *names* the dialect for
the report (``"program": "eXtreme Gammon"``), from the header the program writes or, where
it writes none, from its layout:

- a header value naming the program (``; [Site "eXtreme Gammon"]``, ``; [Site
  "BackgammonGalaxy"]``, ``; [Transcriber "BGBlitz …"]``, ``; [Site "FIBS"]`` …);
- gnubg's ``.sgf`` names itself in ``AP[GNU Backgammon:…]``;
- layout: ``Losses N point(s)`` is Galaxy's alone; ``Cannot Move`` is written by BGBlitz,
  Backgammon Studio and Galaxy (named ``BGBlitz/Backgammon Studio/Galaxy``); a file with
  none of these is ``gnubg/FIBS/JellyFish`` (they write the same layout, no program
  header). Decision: the name is for the reader of the report; every dialect is read by
  the same rules, so a name that cannot be told apart costs nothing but precision.

:class:`ReadOptions` is what a user may say that no file says: the program (``--program``),
and that a file is a money session (Galaxy writes money games as ``16 point match``),
with or without the Jacoby rule.

:func:`unsupported_format` recognises files the site does not read — eXtreme Gammon's
binary ``.xg``, BGBlitz's ``.bgf``, a compressed archive, gnubg's or eXtreme Gammon's text
export with analysis — so that the report says "this is format X" instead of calling the
file a broken backgammon record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "GENERIC_FORMATS",
    "GNUBG",
    "PROGRAMS",
    "ReadOptions",
    "canonical_program",
    "known_program",
    "program_of",
    "unsupported_format",
]

GNUBG = "GNU Backgammon"
XG = "eXtreme Gammon"
BGBLITZ = "BGBlitz"
STUDIO = "Backgammon Studio"
GALAXY = "BackgammonGalaxy"
FIBS = "FIBS"
JAVAFIBS = "JavaFIBS"
DAILYGAMMON = "DailyGammon"
SNOWIE = "Snowie"
CANNOT_MOVE_WRITERS = "BGBlitz/Backgammon Studio/Galaxy"
UNNAMED = "gnubg/FIBS/JellyFish"

# (pattern in a header value or the file's first lines, program): first match wins
_NAMED: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"extreme\s*gammon|\bXG\s*(?:mobile|\d|$)", re.I), XG),
    (re.compile(r"galaxy", re.I), GALAXY),
    (re.compile(r"bgblitz", re.I), BGBLITZ),
    (re.compile(r"backgammon\s*studio|bgstudio", re.I), STUDIO),
    (re.compile(r"javafibs", re.I), JAVAFIBS),
    (re.compile(r"\bfibs\b", re.I), FIBS),
    (re.compile(r"dailygammon", re.I), DAILYGAMMON),
    (re.compile(r"gnu\s*backgammon|\bgnubg\b", re.I), GNUBG),
    (re.compile(r"snowie", re.I), SNOWIE),
)

PROGRAMS: tuple[str, ...] = (
    XG,
    GALAXY,
    BGBLITZ,
    STUDIO,
    JAVAFIBS,
    FIBS,
    DAILYGAMMON,
    GNUBG,
    SNOWIE,
)

# Header keys a program's name is written in (XG: Site/Transcriber; Galaxy: Site; BGBlitz
# and Studio: Transcriber or Site)
_PROGRAM_KEYS = ("site", "transcriber", "program", "application", "event")
_LOSSES_RE = re.compile(r"^[^;\n]*\bLosses\s+\d+\s+points?\b", re.I | re.M)
_CANNOT_RE = re.compile(r"\b[1-6][1-6]:\s*Cannot\s+Move\b", re.I)


def canonical_program(name: str) -> str:
    """A program's name as the report writes it (``--program xg`` → ``eXtreme Gammon``);
    an unknown name is kept as given."""
    for pattern, program in _NAMED:
        if pattern.search(name) or name.strip().lower() == program.lower():
            return program
    short = {"xg": XG, "gnu": GNUBG, "studio": STUDIO, "bgs": STUDIO}
    return short.get(name.strip().lower(), name.strip())


def known_program(name: str) -> str | None:
    """The program ``name`` names (as :func:`canonical_program`), or ``None`` when it
    names none of :data:`PROGRAMS`. Decision: ``--program`` must name a known program; an
    unknown name is refused (listing them), not echoed back as the program's name in the
    report."""
    program = canonical_program(name)
    return program if program in PROGRAMS else None


def program_of(headers: tuple[tuple[str, str], ...], text: str) -> str:
    """The program that wrote a ``.mat`` file: from its header, else from its layout."""
    for key, value in headers:
        if key.lower() in _PROGRAM_KEYS:
            for pattern, program in _NAMED:
                if pattern.search(value):
                    return program
    # a free comment before the match (``; exported by BGBlitz 6.2``)
    for line in text[:2000].splitlines():
        if line.lstrip().startswith(";") and "[" not in line:
            for pattern, program in _NAMED:
                if pattern.search(line):
                    return program
    # a substring test first: the regular expressions only on the few files that need them
    if ("Losses" in text or "losses" in text) and _LOSSES_RE.search(text):
        return GALAXY
    if ("annot" in text or "ANNOT" in text) and _CANNOT_RE.search(text):
        return CANNOT_MOVE_WRITERS
    return UNNAMED


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """What the user says of a file that the file does not: ``program`` (the dialect named
    in the report), ``money`` (a money session whatever the ``N point match`` line says:
    Galaxy writes money games as ``16 point match``), ``jacoby`` (the Jacoby rule in a
    money session; ``None``: as the file's header says)."""

    program: str | None = None
    money: bool = False
    jacoby: bool | None = None


# --- formats the site does not read ------------------------------------------------------

BINARY = "a binary file"
COMPRESSED = "a compressed archive (.zip or .gz)"
# what says nothing of backgammon: another family's file may be binary or compressed too
GENERIC_FORMATS = (BINARY, COMPRESSED)

_GNUBG_TEXT_RE = re.compile(r"^\s*Move number \d+:", re.M)
_POSITION_ID_RE = re.compile(r"^\s*(?:GNU Backgammon\s+)?Position ID:\s", re.M)
_XG_TEXT_RE = re.compile(r"XGID=|eXtreme Gammon Version", re.I)
_BGF_RE = re.compile(rb"\A\x1f\x8b|\APK\x03\x04")


def unsupported_format(data: bytes, name: str = "") -> str | None:
    """The name of a recognisable format the site does not read, or ``None``.

    Decision: a file is called one of these only on positive evidence — the file name's
    extension (``.xg``, ``.xgp``, ``.bgf``, ``.gam``) or the content (XG's binary header
    ``RGMH``, a compressed archive, gnubg's ``Move number N:`` lines, ``XGID=`` positions) —
    never because a text failed to parse: a broken ``.mat`` file stays a broken record."""
    suffix = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    head = data[:4096]
    if data[:4] == b"RGMH" or suffix in ("xg", "xgp"):
        return "eXtreme Gammon's own match file (.xg)"
    if suffix == "bgf":
        return "BGBlitz's own match file (.bgf)"
    if _BGF_RE.match(head):
        return COMPRESSED
    if b"\x00" in head:
        return BINARY
    text = head.decode("utf-8", "replace")
    if _GNUBG_TEXT_RE.search(text) and _POSITION_ID_RE.search(text):
        return "GNU Backgammon's text export with analysis (export match text)"
    if _XG_TEXT_RE.search(text) and not re.search(r"^\s*\d+\s+point\s+match", text, re.I | re.M):
        return "eXtreme Gammon's text export with analysis"
    return None
