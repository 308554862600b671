"""Check real backgammon match exports against gnubg's move generator (dev tool).

``python scripts/bg_corpus_check.py MANIFEST --root DIR [--show N]``

``MANIFEST`` is a TSV file (``tests/data/backgammon/corpus-sources.tsv``) with the columns
``repo``, ``path``, ``commit``, ``program``, ``file`` and optionally ``read``: where each file
came from and the program that wrote it; ``read`` is what the file does not say and a user
tells the upload page (``money+jacoby``: Backgammon Galaxy writes its money sessions as
``16 point match``); ``file`` is its name under ``--root`` (the files themselves are
not in this repository: they are other people's, fetched from public repositories and
kept outside it).

For every file, two readings are compared:

- **ours**: ``backgammon.replay.replay_text`` (the site's reader and replay);
- **the oracle**: an independent replay written here, which uses only the structure the
  reader parsed (rolls, moves as written, cube actions, ``Wins``/``Losses`` lines, score
  lines) and decides every play with **gnubg-nn's move generator** (``gnubg_nn.moves``, as
  ``scripts/bg_oracle.py`` uses it), carries out moves, hits, cube and scores with its own
  code, and applies the documented conventions (docs/game-record.md): a capped ``Wins``
  only where it decides the match, the Jacoby rule in money play, a resumed match's
  start, an illegal play that stands.

With ``--gnubg-json FILE`` (written by ``scripts/gnubg_import_check.py``, which reads
every file with GNU Backgammon's own importer) each valid file is also compared with what
gnubg itself read from it: every game's winner, points and Crawford mark — an oracle that
shares no code with the site at all, parsing included.

A file the oracle finds valid *should be* read valid; it *agrees* when our report has the
oracle's score, winner and Crawford game. Then three deliberately broken copies of each
valid file are made — a move that cannot be carried out (a checker from an empty point),
a wrong score line (game 2's), a ``Wins`` line 100 points too high — and each must be
refused at the line that was broken. A file in a format the site does not read (XG's
``.xg``) must be named as such. Prints per program: valid files read valid and
agreeing / files that should be, the broken copies refused at the right line / made.
The last line is one JSON object. Needs ``gnubg-nn`` (requirements-dev.txt).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gnubg_nn

from backgammon.dialects import ReadOptions
from backgammon.errors import BackgammonError
from backgammon.mat import DOUBLE, DROP, LOSS, ROLL, TAKE, WIN, MatRecord
from backgammon.replay import MatchReport, read_record, replay_text

_STEP_RE = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<n>\d)\))?$")


class Broken(Exception):
    """The oracle's verdict that a file is not a valid record, with the line."""

    def __init__(self, why: str, line: int) -> None:
        super().__init__(f"line {line}: {why}")
        self.line = line


@dataclass
class Verdict:
    valid: bool
    score: tuple[int, int] = (0, 0)
    winner: int | None = None
    crawford_game: int | None = None
    why: str = ""
    line: int = 0
    # (line, player, board of the mover before the roll: 26 counts, 0 off, 25 bar)
    rolls: list[tuple[int, int, list[int], tuple[int, int]]] = field(default_factory=list)


def _point(text: str) -> int:
    text = text.rstrip("*")
    named = {"bar": 25, "off": 0}
    return named[text] if text in named else int(text)


def _play(me: list[int], opp: list[int], moves: tuple[str, ...], line: int) -> None:
    """Carry out a written play on ``me``/``opp`` (each 26 counts in its own numbering,
    0 off, 25 the bar), hits included; :class:`Broken` if it cannot be done at all."""
    for token in moves:
        m = _STEP_RE.match(token)
        if m is None:
            raise Broken(f"not a move {token}", line)
        parts = m.group("path").split("/")
        for _ in range(int(m.group("n") or 1)):
            for a, b in itertools.pairwise(parts):
                src, dst = _point(a), _point(b)
                if src == 0 or dst == 25 or not 0 <= dst <= 25 or not 0 < src <= 25:
                    raise Broken(f"impossible step {token}", line)
                if me[src] == 0:
                    raise Broken(f"no checker on {src} ({token})", line)
                if dst:
                    held = opp[25 - dst]
                    if held >= 2:
                        raise Broken(f"point {dst} held ({token})", line)
                    if held == 1:
                        opp[25 - dst] = 0
                        opp[25] += 1
                me[src] -= 1
                me[dst] += 1


def _legal_ids(me: list[int], opp: list[int], d1: int, d2: int) -> set[str]:
    board = [opp[1:], me[1:]]
    keys = gnubg_nn.moves(board, d1, d2)
    if not keys:
        return {gnubg_nn.position_id(board)}
    return {
        gnubg_nn.position_id([list(s) for s in gnubg_nn.board_from_position_key(k)]) for k in keys
    }


# the starting position of either side in its own numbering: 0 off, 25 the bar
START = [0] * 26
START[6], START[8], START[13], START[24] = 5, 3, 5, 2


def oracle(record: MatRecord, *, money: bool = False, jacoby: bool = False) -> Verdict:
    """The independent replay (see the module's docstring)."""
    length = 0 if money else record.length
    jacoby = length == 0 and (record.jacoby or jacoby)
    crawford_rule = record.crawford if record.crawford is not None else True
    verdict = Verdict(True)
    score = list(record.games[0].score) if record.games else [0, 0]
    if length and max(score) >= length:
        return Verdict(False, why="start past the length", line=record.games[0].score_line)
    crawford_game: int | None = None
    if crawford_rule and length > 1 and length - 1 in score and score != [length - 1] * 2:
        crawford_game = record.games[0].number
        if any(a.kind == DOUBLE for a in record.games[0].actions):
            crawford_game = None
            crawford_rule = False  # resumed post-Crawford: no Crawford game is left
    crawford_next = crawford_game
    over = False
    try:
        for game in record.games:
            if over:
                raise Broken("game after the end", game.line)
            if list(game.score) != score:
                raise Broken("score line", game.score_line)
            crawford = crawford_next == game.number
            if crawford:
                crawford_game = game.number
            boards = [START[:], START[:]]
            cube, owner, offered = 1, None, None
            on_roll: int | None = None
            finished: int | None = None
            dropped: tuple[int, int] | None = None
            unplayed = False
            loss = None
            result: tuple[int, int] | None = None
            for action in game.actions:
                p, line = action.player, action.line
                if result is not None:
                    if action.kind == LOSS:
                        raise Broken("losses after wins", line)
                    break
                if (dropped or unplayed) and action.kind not in (WIN, LOSS):
                    raise Broken("play after a drop or ???", line)
                if action.kind == LOSS:
                    loss = action
                elif action.kind == ROLL:
                    if action.unplayed:
                        out_of_turn = offered is not None or (on_roll is not None and p != on_roll)
                        if finished is None and out_of_turn:
                            raise Broken("??? out of turn", line)
                        unplayed = True
                        continue
                    if finished is not None or offered is not None:
                        raise Broken("roll after the end or during a double", line)
                    if on_roll is not None and p != on_roll:
                        raise Broken("roll out of turn", line)
                    assert action.dice is not None
                    me, opp = boards[p][:], boards[1 - p][:]
                    verdict.rolls.append((line, p, me[:], action.dice))
                    legal = _legal_ids(me, opp, *action.dice)
                    _play(me, opp, action.moves, line)
                    if gnubg_nn.position_id([opp[1:], me[1:]]) not in legal:
                        pass  # an illegal play stands (seed 002): a warning, not an error
                    boards[p], boards[1 - p] = me, opp
                    on_roll = 1 - p
                    if me[0] == 15:
                        finished = p
                elif action.kind == DOUBLE:
                    if finished is not None or on_roll is None or p != on_roll:
                        raise Broken("double out of turn", line)
                    if crawford or offered is not None or owner not in (None, p):
                        raise Broken("double not allowed", line)
                    if action.value is not None and action.value != cube * 2:
                        raise Broken("cube value", line)
                    offered = p
                elif action.kind == TAKE:
                    if offered is None or offered == p:
                        raise Broken("take", line)
                    cube, owner, offered = cube * 2, p, None
                elif action.kind == DROP:
                    if offered is None or offered == p:
                        raise Broken("drop", line)
                    dropped = (offered, cube)
                else:
                    result = _result(
                        action.value or 0,
                        p,
                        line,
                        cube,
                        owner,
                        dropped,
                        finished,
                        boards,
                        score,
                        length,
                        jacoby,
                        lost=loss is not None,
                    )
                    if loss is not None and (loss.player == p or loss.value != action.value):
                        raise Broken("losses line", loss.line)
            if result is None:
                raise Broken("no Wins line", game.actions[-1].line if game.actions else game.line)
            winner, points = result
            score[winner] += points
            if length and max(score) >= length:
                over = True
            if (
                crawford_rule
                and crawford_next is None
                and crawford_game is None
                and length > 1
                and max(score) < length
                and length - 1 in score
            ):
                crawford_next = game.number + 1
    except Broken as exc:
        verdict.valid, verdict.why, verdict.line = False, str(exc), exc.line
        return verdict
    verdict.score = (score[0], score[1])
    verdict.winner = (0 if score[0] >= length else 1) if over else None
    verdict.crawford_game = crawford_game if crawford_game is not None else crawford_next
    return verdict


def _result(
    claimed: int,
    p: int,
    line: int,
    cube: int,
    owner: int | None,
    dropped: tuple[int, int] | None,
    finished: int | None,
    boards: list[list[int]],
    score: list[int],
    length: int,
    jacoby: bool,
    *,
    lost: bool = False,
) -> tuple[int, int]:
    def cap(winner: int, points: int) -> bool:
        needed = length - score[winner]
        return (
            bool(length)
            and claimed < points
            and score[winner] + points >= length
            and (claimed in (needed, length))
        )

    if dropped is not None:
        winner, points = dropped
    elif finished is not None:
        winner = finished
        loser = boards[1 - winner]
        kind = 1 if loser[0] else (3 if any(loser[19:26]) else 2)
        points = kind * cube
    else:
        winner = p
        if claimed % cube == 0 and 1 <= claimed // cube <= 3:
            points = claimed
        elif lost and length and claimed > 3 * cube and claimed == length - score[winner]:
            points = claimed  # a match awarded by forfeit (Galaxy: Losses + Wins, exactly needed)
        else:
            above = [k * cube for k in (1, 2, 3) if k * cube > claimed]
            if not above or not cap(winner, above[0]):
                raise Broken("resignation value", line)
            points = above[0]
    if p != winner:
        raise Broken("Wins in the loser's column", line)
    if jacoby and owner is None and cube == 1 and dropped is None:
        points = 1
        if claimed != 1:
            raise Broken("Jacoby", line)
    if claimed != points and not cap(winner, points):
        raise Broken(f"Wins {claimed}, the game gives {points}", line)
    return winner, points


# --- deliberately broken copies ------------------------------------------------------------


def _replaced(lines: list[str], index: int, new: str) -> str:
    """The text with line ``index`` (0-based) replaced."""
    return "".join([*lines[:index], new, *lines[index + 1 :]])


def broken_copies(text: str, record: MatRecord, verdict: Verdict) -> list[tuple[str, str, int]]:
    """(what, text, line that must be refused) for a valid ``.mat``/``.sgf`` text."""
    lines = text.splitlines(keepends=True)
    out: list[tuple[str, str, int]] = []
    sgf = record.format == "sgf"
    # a move that cannot be carried out: from a point where the mover has no checker
    for line, player, me, (d1, d2) in verdict.rolls[4:]:
        body = lines[line - 1]
        empty = [p for p in range(24, d1, -1) if me[p] == 0]
        if not empty:
            continue
        if sgf:  # ;W[52ab…]: the first pair's first letter is the point it leaves
            node = re.search(r";[WB]\[\d\d(?=[a-z]{2})", body)
            if node is None:
                continue
            letter = chr(ord("a") + (empty[0] - 1 if player == 0 else 24 - empty[0]))
            new = body[: node.end()] + letter + body[node.end() + 1 :]
        else:  # the mover's column: the text after its dice
            dice = [m for m in re.finditer(r"(?<!\d)([1-6])([1-6]):", body)]
            mine = [m for m in dice if (int(m.group(1)), int(m.group(2))) == (d1, d2)]
            if not mine:
                continue
            at = mine[-1] if player == 1 else mine[0]
            first = re.compile(r"\s(?:\d+|bar)/(?:\d+|off)\*?(?:\(\d\))?", re.I).search(
                body, at.end()
            )
            if first is None or (
                player == 0 and len(dice) == 2 and first.start() > dice[1].start()
            ):
                continue
            new = body[: first.start()] + f" {empty[0]}/{empty[0] - d1}" + body[first.end() :]
        out.append(("move", _replaced(lines, line - 1, new), line))
        break
    # a wrong score line: game 2's
    if len(record.games) > 1:
        game = record.games[1]
        body = lines[game.score_line - 1]
        if sgf:
            new = re.sub(r"\[ws:(\d+)\]", lambda m: f"[ws:{int(m.group(1)) + 1}]", body, count=1)
        else:
            new = re.sub(
                r":\s*(\d+)",
                lambda m: m.group(0)[: -len(m.group(1))] + str(int(m.group(1)) + 1),
                body,
                count=1,
            )
        if new != body:
            out.append(
                (
                    "score",
                    _replaced(lines, game.score_line - 1, new),
                    game.score_line,
                )
            )
    # a Wins line 100 points too high: the last game's
    last = record.games[-1]
    wins = [a for a in last.actions if a.kind == WIN]
    if wins:
        if sgf:  # the last game's RE[…]; the replay names the game's last node's line
            idx = [i for i, ln in enumerate(lines) if re.search(r"RE\[[WB]\+\d+", ln)]
            if idx:
                i = idx[-1]
                new = re.sub(
                    r"RE\[([WB])\+(\d+)",
                    lambda m: f"RE[{m.group(1)}+{int(m.group(2)) + 100}",
                    lines[i],
                )
                out.append(("wins", _replaced(lines, i, new), wins[0].line))
        else:
            i = wins[0].line - 1
            new = re.sub(
                r"Wins\s+(\d+)",
                lambda m: f"Wins {int(m.group(1)) + 100}",
                lines[i],
                count=1,
                flags=re.I,
            )
            out.append(("wins", _replaced(lines, i, new), i + 1))
    return out


def agrees(ours: MatchReport, verdict: Verdict) -> bool:
    return (
        ours.valid
        and ours.score == verdict.score
        and ours.winner == verdict.winner
        and ours.crawford_game == verdict.crawford_game
    )


def agrees_with_gnubg(ours: MatchReport, theirs: dict[str, object]) -> bool:
    """Every game as gnubg's own import has it: winner, points and the Crawford mark."""
    games = theirs.get("games")
    if not isinstance(games, list) or len(games) != len(ours.games):
        return False
    for mine, their in zip(ours.games, games, strict=True):
        winner = None if mine.winner is None else ours.players[mine.winner]
        if (winner, mine.points, mine.crawford) != (
            their.get("winner"),
            their.get("points"),
            their.get("crawford"),
        ):
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("manifest", type=Path)
    parser.add_argument("--root", type=Path, required=True, help="the folder the files are in")
    parser.add_argument("--show", type=int, default=10, help="how many disagreements to print")
    parser.add_argument(
        "--gnubg-json", type=Path, help="gnubg's own reading (scripts/gnubg_import_check.py)"
    )
    args = parser.parse_args()
    gnubg_read: dict[str, dict[str, object]] = {}
    if args.gnubg_json is not None:
        gnubg_read = json.loads(args.gnubg_json.read_text(encoding="utf-8"))
    rows = list(csv.DictReader(args.manifest.open(encoding="utf-8"), delimiter="\t"))
    per: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    shown: list[str] = []
    for row in rows:
        program, name = row["program"], row["file"]
        tally = per[program]
        if not (args.root / name).is_file():  # listed, but not fetched (or not made) here
            tally["missing"] += 1
            continue
        data = (args.root / name).read_bytes()
        tally["files"] += 1
        # what the file does not say, as a user would tell the upload page or `replay`
        read = set(filter(None, (row.get("read") or "").split("+")))
        money = "money" in read
        options = ReadOptions(money=True, jacoby="jacoby" in read) if money else None
        ours = replay_text(data, name=name, options=options)
        if ours.errors and ours.errors[0].kind == "format":  # .xg, .bgf …: named, not read
            tally["format_named"] += 1
            continue
        try:
            record = read_record(data, name=name)
        except BackgammonError as exc:
            tally["unreadable"] += 1
            shown.append(f"{program} {name}: not read: {exc}")
            continue
        verdict = oracle(record, money=money, jacoby="jacoby" in read)
        if not verdict.valid:
            tally["oracle_invalid"] += 1
            if ours.valid:
                tally["ours_valid_oracle_not"] += 1
                shown.append(f"{program} {name}: ours valid, oracle: {verdict.why}")
            continue
        tally["should_be_valid"] += 1
        theirs = gnubg_read.get(str(args.root / name))
        if theirs is not None:
            if "error" in theirs:
                tally["gnubg_cannot_import"] += 1
            else:
                tally["gnubg_imported"] += 1
                if agrees_with_gnubg(ours, theirs):
                    tally["agrees_with_gnubg"] += 1
                else:
                    shown.append(f"{program} {name}: differs from gnubg's own import")
        if agrees(ours, verdict):
            tally["read_valid_agreeing"] += 1
        else:
            first = ours.errors[0] if ours.errors else None
            shown.append(
                f"{program} {name}: ours {'valid' if ours.valid else first} "
                f"score {ours.score} winner {ours.winner} crawford {ours.crawford_game}; "
                f"oracle score {verdict.score} winner {verdict.winner} "
                f"crawford {verdict.crawford_game}"
            )
            continue
        text = data.decode("utf-8", "replace") if record.format == "sgf" else _text(data)
        for what, copy, line in broken_copies(text, record, verdict):
            tally[f"broken_{what}"] += 1
            report = replay_text(copy.encode("utf-8"), name=name)
            if not report.valid and report.errors[0].line == line:
                tally[f"refused_{what}"] += 1
            else:
                got = report.errors[0] if report.errors else "valid"
                shown.append(f"{program} {name}: broken {what} at line {line}: {got}")
    figures: dict[str, dict[str, int]] = {}
    for program in sorted(per):
        t = per[program]
        figures[program] = dict(t)
        made = sum(v for k, v in t.items() if k.startswith("broken_"))
        refused = sum(v for k, v in t.items() if k.startswith("refused_"))
        if gnubg_read and not t["format_named"]:
            print(
                f"{program:>24}: valid files as gnubg's own import reads them (every game's "
                f"winner, points, Crawford mark): {t['agrees_with_gnubg']}/{t['gnubg_imported']}"
                f" (gnubg could not import {t['gnubg_cannot_import']})"
            )
        if t["format_named"]:
            print(
                f"{program:>24}: {t['files']:4d} files; named as a format the site does not "
                f"read: {t['format_named']}/{t['files']}"
            )
            continue
        print(
            f"{program:>24}: {t['files']:4d} files; valid read valid and agreeing with the "
            f"oracle {t['read_valid_agreeing']}/{t['should_be_valid']}; oracle-invalid "
            f"{t['oracle_invalid']} (ours valid among them: {t['ours_valid_oracle_not']}); "
            f"unreadable {t['unreadable']}; broken copies refused at their line "
            f"{refused}/{made} (move {t['refused_move']}/{t['broken_move']}, score "
            f"{t['refused_score']}/{t['broken_score']}, "
            f"wins {t['refused_wins']}/{t['broken_wins']})"
        )
    for shown_line in shown[: args.show]:
        print("  ", shown_line)
    print(json.dumps(figures))
    return 0


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


if __name__ == "__main__":
    raise SystemExit(main())
