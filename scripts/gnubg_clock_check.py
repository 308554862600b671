"""Check that a clocked ``.mat`` record imports into GNU Backgammon with the site's moves
(dev tool; ``backgammon.mat``, "Clock lines").

``python scripts/gnubg_clock_check.py [--matches N] [--gnubg /usr/games/gnubg] [--keep DIR]``

Records N matches (default 12) with the scoresheet's own game (``games.live_backgammon``):
random legal play with doubles, takes, drops and resignations, each turn noted with both
players' remaining times as the scoresheet notes them (some minutes and seconds of dice-like
digits, 11–66, among them). Each record is written as the scoresheet writes it — a clock line
below every row — and, for contrast, without its clock lines and with the same times in
PGN's spelling (``0:12:34``).
gnubg (Debian's package ``gnubg``) imports each file (``import mat``) and exports it again
(``export match mat``); the export is read with the site's reader and compared with the
record, game by game and action by action: player, kind, dice, cube value, the moves as a
multiset of single steps (gnubg orders and spells them its own way). Prints one line per
match and a summary; exits 1 when a clocked record does not import as written.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backgammon.cube import MatchScore
from backgammon.mat import WIN, Action, MatGame, read_mat
from games.live import LiveAction, LiveSetup
from games.live_backgammon import BACKGAMMON_RECORDER, BackgammonLive

TAGS = {"Event": "Clock check", "Transcriber": "Bräde Arena scoresheet"}


def record(seed: int) -> str:
    """One clocked match, as the scoresheet writes its record."""
    rng = random.Random(seed)
    length = rng.choice([3, 5, 7])
    score = MatchScore(length, (0, 0), 0)
    remaining = [length * 120_000, length * 120_000]
    games: list[MatGame] = []
    setup = LiveSetup()
    while score.winner is None and len(games) < 30:
        number = len(games) + 1
        setup = LiveSetup(
            number=number,
            length=length,
            score=(int(score.score[0]), int(score.score[1])),
            crawford=score.crawford_game == number,
            names=("Anna", "Bo"),
        )
        game = BackgammonLive(setup)
        first = rng.randint(1, 6)
        game.apply(
            LiveAction("start", dice=(first, rng.choice([d for d in range(1, 7) if d != first])))
        )
        for _ in range(600):
            if game.outcome is not None:
                break
            mover = game.to_move
            assert mover is not None
            game.apply(_action(game, rng))
            remaining[mover] -= rng.randint(0, 30_000)
            game.clock_note(remaining)
        if game.outcome is None:  # locked for good: the player on roll resigns
            game.apply(LiveAction("resign", resign_value=1))
            game.clock_note(remaining)
        games.append(game.record_game())
        result = game.result_value
        assert result is not None
        score = score.add_game(result.winner, game.points)
    return BACKGAMMON_RECORDER.record_text(setup, games, TAGS)


def _action(game: BackgammonLive, rng: random.Random) -> LiveAction:
    if game.phase == "cube":
        return LiveAction("take" if rng.random() < 0.6 else "drop")
    cube = game.view().cube or {}
    if game.phase == "roll" and cube.get("may_double") and rng.random() < 0.1:
        return LiveAction("double")
    if game.phase == "roll" and rng.random() < 0.01:
        return LiveAction("resign", resign_value=1)
    legal = game.legal()
    assert legal is not None
    key = rng.choice(sorted(legal))
    high, low = (int(d) for d in key.split("-"))
    steps = tuple((a, b) for a, b in rng.choice(legal[key]))
    return LiveAction("play", dice=(high, low), steps=steps)


def _steps(moves: tuple[str, ...]) -> tuple[str, ...]:
    """Moves as single steps, sorted: ``13/8(2)``, ``24/18*/13``, ``bar/22`` alike."""
    out: list[str] = []
    for move in moves:
        move = move.replace("*", "").replace("bar", "25").replace("off", "0")
        count = re.search(r"\((\d)\)$", move)
        if count is not None:
            move = move[: count.start()]
        points = move.split("/")
        out += [f"{a}/{b}" for a, b in itertools.pairwise(points)] * (
            int(count.group(1)) if count else 1
        )
    return tuple(sorted(out))


def _key(action: Action) -> tuple[object, ...]:
    return (action.player, action.kind, action.dice, action.value, _steps(action.moves))


def gnubg_reading(gnubg: str, path: Path) -> tuple[str, str]:
    """gnubg's own export of ``path`` after importing it, and what gnubg said."""
    out = path.with_suffix(".gnubg.mat")
    commands = path.with_suffix(".cmd")
    commands.write_text(f"import mat {path}\nexport match mat {out}\n", encoding="utf-8")
    said = subprocess.run(
        [gnubg, "-t", "-q", "-c", str(commands)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    ).stdout
    notes = [line for line in said.splitlines() if "Unrecognised" in line or "WARNING" in line]
    return (out.read_text(encoding="utf-8") if out.exists() else ""), "; ".join(notes[:2])


def same_match(written: str, exported: str) -> str:
    """'' when gnubg's export holds the written record's match, else what differs."""
    ours = read_mat(written)
    try:
        theirs = read_mat(exported)
    except ValueError as exc:
        return f"gnubg's export does not read: {exc}"
    if len(ours.games) != len(theirs.games):
        return f"{len(theirs.games)} games, not {len(ours.games)}"
    for mine, its in zip(ours.games, theirs.games, strict=True):
        plays = [_key(a) for a in mine.actions if a.kind != WIN]
        read = [_key(a) for a in its.actions if a.kind != WIN]
        if plays != read or mine.score != its.score:
            return f"game {mine.number} differs"
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--gnubg", default="/usr/games/gnubg")
    parser.add_argument("--keep", type=Path, help="keep the files in this folder")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="gnubg-clock-"))
    folder.mkdir(parents=True, exist_ok=True)
    failed = 0
    for seed in range(args.matches):
        text = record(seed)
        pgn = re.sub(r"(\d+)h(\d\d)m(\d\d)s", r"\1:\2:\3", text)
        bare = "".join(line for line in text.splitlines(True) if not line.startswith("; [%clk"))
        results = []
        for kind, body in (("clock lines", text), ("no clock lines", bare), ("PGN spelling", pgn)):
            path = folder / f"match{seed}.{kind.replace(' ', '-').lower()}.mat"
            path.write_text(body, encoding="utf-8")
            exported, said = gnubg_reading(args.gnubg, path)
            differs = same_match(text, exported)
            results.append(f"{kind}: {differs or 'the same match'}")
            if kind == "clock lines":
                failed += bool(differs)
                results[-1] += f" (gnubg: {said or 'nothing'})"
        games = len(read_mat(text).games)
        lines = text.count("[%clk")
        print(f"match {seed}: {games} games, {lines} clock lines; " + "; ".join(results))
    print(f"{args.matches - failed} of {args.matches} clocked records import into gnubg as written")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
