"""How far the site's match analysis (``backgammon.analysis``, gnubg-nn at 0-ply) agrees with
GNU Backgammon's own ``analyse match`` at 0-ply, and how long it takes.

    .venv/bin/python bench/analysis_agreement.py --root /path/to/corpus \\
        --gnubg-json /path/to/gnubg-analysis.json [--list files.txt] [--limit 60]

``--gnubg-json`` is the reference written by ``scripts/gnubg_analyse.py`` inside Debian's
``gnubg`` (its docstring gives the command); when the file does not exist and
``/usr/games/gnubg`` does, it is made first (and kept: a cache). ``--list`` names the match
files (one a line, paths as the reference names them); by default every file the reference
analysed. The corpus is the real exports of ``tests/data/backgammon/corpus-sources.tsv``
(fetched into a folder of your own, as its README says).

Prints, over the matches both read (a file the site's replay refuses is left out and
counted):

- per player, the site's PR beside gnubg's (its "Error rate mEMG" / 2, the same mean error
  per unforced decision × 500), how many players are within 0.5 PR and the largest
  difference;
- of the decisions the site marks as errors (doubtful or worse, ≥ 0.04 EMG), the share
  gnubg marks too, and the other way round;
- seconds per analysed match (with luck, as the site runs it) beside the load average.
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backgammon.analysis import analyse_record
from backgammon.replay import read_record, replay_record

GNUBG = "/usr/games/gnubg"
SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "gnubg_analyse.py"
PR_TOLERANCE = 0.5


def make_reference(paths: list[str], out: Path) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        listing.write("\n".join(paths) + "\n")
    env = {**os.environ, "ANALYSE_LIST": listing.name, "ANALYSE_OUT": str(out)}
    subprocess.run([GNUBG, "-t", "-q", "-p", str(SCRIPT)], env=env, check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gnubg-json", required=True, type=Path)
    parser.add_argument("--list", type=Path)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--show", type=int, default=0, help="print N disagreeing players")
    args = parser.parse_args()
    paths: list[str] = []
    if args.list is not None:
        paths = [p for p in args.list.read_text(encoding="utf-8").split("\n") if p.strip()]
    if not args.gnubg_json.exists():
        make_reference(paths, args.gnubg_json)
    reference = json.loads(args.gnubg_json.read_text(encoding="utf-8"))
    if not paths:
        paths = sorted(reference)
    matches = within = players = 0
    refused = 0
    ours_flagged = both_flagged = theirs_flagged = 0
    seconds = 0.0
    far: list[str] = []
    largest = (0.0, "")
    for path in paths:
        ref = reference.get(path)
        if ref is None or "error" in ref:
            refused += 1
            continue
        record = read_record(Path(path).read_bytes(), name=path)
        report = replay_record(record)
        if not report.valid or record.length <= 0:
            refused += 1
            continue
        if args.limit and matches >= args.limit:
            break
        start = time.perf_counter()
        analysis = analyse_record(record)
        seconds += time.perf_counter() - start
        matches += 1
        by_name = {row["name"]: row for row in ref["players"]}
        sides = {row["name"]: side for row, side in zip(ref["players"], "XO", strict=True)}
        for index, mine in enumerate(analysis.players):
            theirs = by_name.get(mine.name)
            if theirs is None:
                continue
            players += 1
            gnubg_pr = theirs["error_rate_memg"] / 2
            if abs(mine.pr - gnubg_pr) > largest[0]:
                largest = (abs(mine.pr - gnubg_pr), f"{Path(path).name} {mine.name}")
            if abs(mine.pr - gnubg_pr) <= PR_TOLERANCE:
                within += 1
            else:
                far.append(
                    f"{Path(path).name} {mine.name}: ours {mine.pr:.2f}, gnubg {gnubg_pr:.2f}"
                )
            side = sides[mine.name]
            gnubg_marked = {
                (g, t, kind)
                for g, t, kind, who, _error, mark in ref["decisions"]
                if who == side and mark
            }
            our_marked = {
                (d.game, d.turn, d.kind)
                for d in analysis.decisions
                if d.player == index and d.mark is not None
            }
            ours_flagged += len(our_marked)
            theirs_flagged += len(gnubg_marked)
            both_flagged += len(our_marked & gnubg_marked)
    load = os.getloadavg()[0]
    share = both_flagged / ours_flagged if ours_flagged else 0.0
    recall = both_flagged / theirs_flagged if theirs_flagged else 0.0
    per_match = seconds / matches if matches else 0.0
    for line in far[: args.show]:
        print("  far:", line)
    print(f"matches analysed: {matches} (left out: {refused})")
    print(f"players within {PR_TOLERANCE} PR of gnubg: {within}/{players}")
    print(f"largest difference: {largest[0]:.2f} PR ({largest[1]})")
    print(f"errors marked by the site that gnubg marks too: {both_flagged}/{ours_flagged}", end="")
    print(f" = {share:.1%}")
    print(
        f"errors marked by gnubg that the site marks too: {both_flagged}/{theirs_flagged}", end=""
    )
    print(f" = {recall:.1%}")
    print(f"seconds per analysed match: {per_match:.2f} (load average {load:.2f}, 2 cores)")
    print(
        json.dumps(
            {
                "matches": matches,
                "players": players,
                "within_pr": within,
                "largest_pr_difference": round(largest[0], 3),
                "flag_precision": round(share, 4),
                "flag_recall": round(recall, 4),
                "seconds_per_match": round(per_match, 3),
                "load": round(load, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
