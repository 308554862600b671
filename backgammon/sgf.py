"""GNU Backgammon's own match file, ``.sgf`` (SGF FF[4], ``GM[6]``): read into the same
:class:`backgammon.mat.MatRecord` a ``.mat`` file gives, so one replay checks both
(docs/game-record.md, "Backgammon records from other programs").

Layout, as gnubg 1.07 saves a match (``save match``): one game tree per game::

    (;FF[4]GM[6]AP[GNU Backgammon:1.07.001]MI[length:7][game:0][ws:0][bs:0]
      PW[gnubg]PB[root]RU[Crawford]RE[W+2R]
    ;B[53qvsv]A[…]   a roll: dice, then from/to letter pairs
    ;W[double] ;B[take] ;B[drop]
    ;W[11]           a roll that could not be played
    )(;…game 2…)

- ``MI``: ``length`` (0: a money session), ``game`` (0-based), ``ws``/``bs`` the score of
  White and Black before the game; ``PW``/``PB`` the players: White is the first player
  (the ``.mat`` export's left column), Black the second.
- ``RU``: ``Crawford`` (the Crawford rule is played; ``Crawford:CrawfordGame`` also marks
  the game that is the Crawford game — the replay works that out from the score itself),
  ``Jacoby`` (money sessions).
- A move's letters name points in one frame: ``a``–``x`` are White's points 1–24 and
  Black's 24–1; ``y`` is the bar and ``z`` off, for both.
- ``RE[W+2]``: who won and how many points; ``R`` after the number: by resignation (gnubg
  writes no node for a resignation, only this). It becomes the game's ``Wins`` line, which
  the replay checks against the play as it checks a ``.mat`` file's.
- Analysis properties (``A``, ``DA``, ``GS``, ``MR``, comments …) are ignored. A position set
  up by hand (``AB``/``AW``/``AE``) cannot be replayed from the start and is refused.
"""

from __future__ import annotations

import re

from backgammon.dialects import GNUBG
from backgammon.errors import RecordSyntaxError, UnsupportedFormatError
from backgammon.mat import (
    DOUBLE,
    DROP,
    ROLL,
    TAKE,
    WIN,
    Action,
    MatGame,
    MatRecord,
    MatSeen,
    check_record_length,
    whole_number,
)
from backgammon.messages import bg_msg

__all__ = ["is_sgf", "read_sgf"]

_OPENING_RE = re.compile(r"\A\ufeff?\s*\(\s*;")
_TOKEN_RE = re.compile(r"\s*(?:(?P<open>\()|(?P<close>\))|(?P<node>;)|(?P<prop>[A-Za-z]+))")
_VALUE_RE = re.compile(r"\s*\[((?:[^\]\\]|\\.)*)\]", re.S)
_ROLL_RE = re.compile(r"^(?P<d1>[1-6])(?P<d2>[1-6])(?P<moves>(?:[a-z]{2})*)$")
_RESULT_RE = re.compile(r"^(?P<who>[WB])\+(?P<points>\d+)(?P<how>[RF]?)$")
_SETUP = ("AB", "AW", "AE")

Node = list[tuple[str, list[str], int]]


def is_sgf(text: str) -> bool:
    """Whether ``text`` is an SGF file (it opens with ``(;``)."""
    return bool(_OPENING_RE.match(text))


def _trees(text: str) -> list[list[Node]]:
    """The game trees at the top level, each a list of nodes (the main line: gnubg saves
    no variations), each node its properties with the line they start on."""
    trees: list[list[Node]] = []
    depth = 0
    pos = 0
    line = 1
    nodes: list[Node] = []
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            if text[pos:].strip() == "":
                break
            raise RecordSyntaxError(
                bg_msg("bg.sgf.syntax", text=repr(text[pos : pos + 20])), line=line
            )
        line += text.count("\n", pos, m.end())
        pos = m.end()
        if m.group("open"):
            depth += 1
            if depth == 1:
                nodes = []
        elif m.group("close"):
            depth -= 1
            if depth < 0:
                raise RecordSyntaxError(bg_msg("bg.sgf.syntax", text="')'"), line=line)
            if depth == 0:
                trees.append(nodes)
        elif m.group("node"):
            if depth == 0:
                raise RecordSyntaxError(bg_msg("bg.sgf.syntax", text="';'"), line=line)
            nodes.append([])
        else:
            if not nodes:
                raise RecordSyntaxError(
                    bg_msg("bg.sgf.syntax", text=repr(m.group("prop"))), line=line
                )
            values: list[str] = []
            start = line
            while (v := _VALUE_RE.match(text, pos)) is not None:
                line += text.count("\n", pos, v.end())
                pos = v.end()
                if depth == 1:  # variations (depth > 1) are not the game as played
                    values.append(v.group(1).replace("\\]", "]").replace("\\\\", "\\"))
            if not values and depth == 1:
                raise RecordSyntaxError(
                    bg_msg("bg.sgf.syntax", text=repr(m.group("prop"))), line=start
                )
            if depth == 1:
                nodes[-1].append((m.group("prop").upper(), values, start))
    if depth:
        raise RecordSyntaxError(bg_msg("bg.sgf.unclosed"), line=line)
    return trees


def _point(letter: str, player: int) -> str:
    if letter == "y":
        return "bar"
    if letter == "z":
        return "off"
    index = ord(letter) - ord("a")
    return str(index + 1 if player == 0 else 24 - index)


def _props(node: Node) -> dict[str, tuple[list[str], int]]:
    return {key: (values, line) for key, values, line in node}


def read_sgf(text: str, *, seen: MatSeen | None = None) -> MatRecord:
    """Parse a gnubg ``.sgf`` match. Raises :class:`RecordSyntaxError` with the line, or
    :class:`UnsupportedFormatError` for an SGF file of another game."""
    seen = seen if seen is not None else MatSeen()
    seen.format = "sgf"
    seen.program = GNUBG
    trees = _trees(text.lstrip("\ufeff"))
    if not trees:
        raise RecordSyntaxError(bg_msg("bg.sgf.no_game"), line=1)
    length: int | None = None
    players: tuple[str, str] | None = None
    crawford = False
    jacoby = False
    program = GNUBG
    games: list[MatGame] = []
    for number, nodes in enumerate(trees, start=1):
        if not nodes:
            raise RecordSyntaxError(bg_msg("bg.sgf.no_game"), line=1)
        root = _props(nodes[0])
        game_line = nodes[0][0][2] if nodes[0] else 1
        kind = root.get("GM", (["6"], 0))[0][0]
        if kind != "6":
            raise UnsupportedFormatError(
                bg_msg("bg.format.unsupported", format=f"an SGF file of another game (GM[{kind}])")
            )
        if "AP" in root and GNUBG.lower() not in root["AP"][0][0].lower():
            program = root["AP"][0][0].split(":")[0]
        info: dict[str, str] = {}
        for value in root.get("MI", ([], 0))[0]:
            key, _, val = value.partition(":")
            info[key.strip().lower()] = val.strip()
        written = info.get("length", "")
        if not (written.isascii() and written.isdigit()):
            raise RecordSyntaxError(bg_msg("bg.sgf.match_info"), line=game_line)
        game_length = check_record_length(written, game_line)
        try:
            score = (int(info.get("ws", "0")), int(info.get("bs", "0")))
        except ValueError:
            raise RecordSyntaxError(bg_msg("bg.sgf.match_info"), line=game_line) from None
        if length is None:
            length = game_length
            seen.length = length
        names = (root.get("PW", (["White"], 0))[0][0], root.get("PB", (["Black"], 0))[0][0])
        if players is None:
            players = names
            seen.players = names
        rules = [r.lower() for r in root.get("RU", ([], 0))[0]]
        crawford = crawford or any(r.startswith("crawford") for r in rules)
        jacoby = jacoby or any("jacoby" in r for r in rules)
        actions: list[Action] = []
        cube = 1  # the cube's value, for the double's ``Doubles => N`` (SGF writes no N)
        for node in nodes:
            for key, values, line in node:
                if key in _SETUP:
                    raise RecordSyntaxError(bg_msg("bg.sgf.setup", prop=key), line=line)
                if key not in ("B", "W"):
                    continue
                player = 0 if key == "W" else 1
                action = _action(values[0].strip().lower(), player, line, cube)
                cube *= 2 if action.kind == TAKE else 1
                actions.append(action)
        result = root.get("RE")
        if result is not None:
            rm = _RESULT_RE.match(result[0][0].strip())
            if rm is None:
                raise RecordSyntaxError(
                    bg_msg("bg.sgf.result", text=repr(result[0][0])), line=result[1]
                )
            winner = 0 if rm.group("who") == "W" else 1
            points = whole_number(rm.group("points"))
            last_line = actions[-1].line if actions else result[1]
            actions.append(Action(winner, WIN, value=points, line=last_line))
        games.append(MatGame(number, score, tuple(actions), game_line, game_line))
    assert length is not None and players is not None
    headers: tuple[tuple[str, str], ...] = (("Crawford", "On" if crawford else "Off"),)
    if length == 0:
        headers += (("Jacoby", "On" if jacoby else "Off"),)
    return MatRecord(
        length,
        players,
        tuple(games),
        headers,
        program=program,
        format="sgf",
        jacoby=jacoby,
        crawford=crawford,
    )


def _action(value: str, player: int, line: int, cube: int) -> Action:
    if value == "double":
        return Action(player, DOUBLE, value=cube * 2, line=line)
    if value == "take":
        return Action(player, TAKE, line=line)
    if value == "drop":
        return Action(player, DROP, line=line)
    m = _ROLL_RE.match(value)
    if m is None:
        raise RecordSyntaxError(bg_msg("bg.sgf.move", text=repr(value)), line=line)
    letters = m.group("moves")
    moves = tuple(
        f"{_point(letters[i], player)}/{_point(letters[i + 1], player)}"
        for i in range(0, len(letters), 2)
    )
    return Action(
        player, ROLL, dice=(int(m.group("d1")), int(m.group("d2"))), moves=moves, line=line
    )
