"""Benchmark of the backgammon engine beside gnubg-nn (the speed goals; never a timed test).

Legal-play generation: positions sampled from seeded random games (a random legal play every
turn from the starting position), split into contact and race (the sides have passed each
other); each timed with every non-double roll (contact), every double (contact), and every
roll (race). The same boards go through ``gnubg_nn.moves`` in the same run. Goals in
CPython: ≥ 30,000 calls/s on contact non-doubles, ≥ 8,000 on contact doubles.

``.mat`` replay: parsing (``read_mat``) against parsing + verifying (``replay_record``) the
real records in ``tests/data/backgammon/``. Goal: replay ≤ 3× parse. The same for gnubg's
``.sgf`` files there (``read_sgf``: they carry gnubg's analysis, which the reader skips).

Usage: ``python bench/backgammon_bench.py [--games N] [--repeat R]``. Prints figures; the
last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backgammon.mat import read_mat
from backgammon.movegen import legal_results
from backgammon.position import START, Position
from backgammon.replay import replay_record
from backgammon.sgf import read_sgf

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "backgammon"
NON_DOUBLES = [(a, b) for a in range(1, 7) for b in range(1, a)]
DOUBLES = [(a, a) for a in range(1, 7)]


def is_contact(pos: Position) -> bool:
    mine = [p for p in range(1, 26) if pos.me[p]]
    theirs = [25 - q for q in range(1, 25) if pos.opp[q]] + ([25] if pos.opp[25] else [])
    if not mine or not theirs:
        return False
    return max(mine) > min(theirs) or bool(pos.opp[25])


def sample(games: int, seed: int) -> tuple[list[Position], list[Position]]:
    rng = random.Random(seed)
    contact: list[Position] = []
    race: list[Position] = []
    for _ in range(games):
        pos = START
        for _turn in range(400):
            (contact if is_contact(pos) else race).append(pos)
            results = legal_results(pos, rng.randint(1, 6), rng.randint(1, 6))
            nxt = rng.choice(results)
            if nxt.me[0] == 15:
                break
            pos = nxt.swapped()
    return contact, race


def rate(fn: Callable[[], int], repeat: int) -> float:
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        calls = fn()
        best = max(best, calls / (time.perf_counter() - start))
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    try:
        import gnubg_nn
    except ImportError:  # pragma: no cover - dev dependency
        gnubg_nn = None
    contact, race = sample(args.games, args.seed)
    print(f"positions: {len(contact)} contact, {len(race)} race ({args.games} random games)")
    figures: dict[str, object] = {}
    for label, positions, rolls in (
        ("contact_non_doubles", contact, NON_DOUBLES),
        ("contact_doubles", contact, DOUBLES),
        ("race", race, NON_DOUBLES + DOUBLES),
    ):

        def ours(
            positions: list[Position] = positions, rolls: list[tuple[int, int]] = rolls
        ) -> int:
            for pos in positions:
                for d1, d2 in rolls:
                    legal_results(pos, d1, d2)
            return len(positions) * len(rolls)

        ours_rate = rate(ours, args.repeat)
        row: dict[str, float | None] = {"ours": round(ours_rate), "gnubg": None, "ratio": None}
        if gnubg_nn is not None:
            boards = [[list(p.opp[1:]), list(p.me[1:])] for p in positions]

            def theirs(
                boards: list[list[list[int]]] = boards, rolls: list[tuple[int, int]] = rolls
            ) -> int:
                for board in boards:
                    for d1, d2 in rolls:
                        gnubg_nn.moves(board, d1, d2)
                return len(boards) * len(rolls)

            gnubg_rate = rate(theirs, args.repeat)
            row["gnubg"] = round(gnubg_rate)
            row["ratio"] = round(gnubg_rate / ours_rate, 1)
        figures[label] = row
        print(
            f"{label:>20}: ours {row['ours']:>9,} calls/s   gnubg-nn "
            f"{row['gnubg'] or 0:>10,} calls/s   gnubg/ours {row['ratio']}"
        )
    texts = [p.read_text() for p in sorted(DATA.glob("*.mat"))]
    n = 20

    def parse() -> int:
        for _ in range(n):
            for text in texts:
                read_mat(text)
        return n * len(texts)

    records = [read_mat(t) for t in texts]

    def replay() -> int:
        for _ in range(n):
            for text in texts:
                report = replay_record(read_mat(text))
                assert report.valid
        return n * len(texts)

    parse_rate = rate(parse, args.repeat)
    replay_rate = rate(replay, args.repeat)
    turns = sum(len(g.actions) for r in records for g in r.games)
    ratio = parse_rate / replay_rate
    print(
        f"  .mat: parse {1000 / parse_rate:.2f} ms/file, parse+replay "
        f"{1000 / replay_rate:.2f} ms/file ({turns} actions in {len(texts)} files): "
        f"parse+replay = {ratio:.1f}× parse"
    )
    figures["mat"] = {
        "parse_ms": round(1000 / parse_rate, 3),
        "replay_ms": round(1000 / replay_rate, 3),
        "replay_over_parse": round(ratio, 2),
    }
    sgf_texts = [p.read_text() for p in sorted(DATA.glob("*.sgf"))]
    if sgf_texts:

        def parse_sgf() -> int:
            for _ in range(n):
                for text in sgf_texts:
                    read_sgf(text)
            return n * len(sgf_texts)

        def replay_sgf() -> int:
            for _ in range(n):
                for text in sgf_texts:
                    assert replay_record(read_sgf(text)).valid
            return n * len(sgf_texts)

        sgf_parse, sgf_replay = rate(parse_sgf, args.repeat), rate(replay_sgf, args.repeat)
        print(
            f"  .sgf: parse {1000 / sgf_parse:.2f} ms/file, parse+replay "
            f"{1000 / sgf_replay:.2f} ms/file ({len(sgf_texts)} files with gnubg's analysis)"
        )
        figures["sgf"] = {
            "parse_ms": round(1000 / sgf_parse, 3),
            "replay_ms": round(1000 / sgf_replay, 3),
        }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
