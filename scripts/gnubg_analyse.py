"""Analyse match files with GNU Backgammon itself, the reference of ``bench/analysis_agreement.py``
(dev tool; runs inside gnubg's own Python, Debian's package ``gnubg`` 1.07.001, not in the project):

    ANALYSE_LIST=files.txt ANALYSE_OUT=gnubg.json \
        /usr/games/gnubg -t -q -p scripts/gnubg_analyse.py

``ANALYSE_LIST`` names one file a line (``.sgf`` is loaded, anything else imported with
``import mat``). Every file is analysed at 0-ply for checker play and cube decisions (gnubg's
default thresholds: doubtful 0.04, bad 0.08, very bad 0.16 EMG). ``ANALYSE_OUT`` gets one JSON
object, per file: per player (the file's first player first) the error total in EMG, the
unforced moves, the close or actual cube decisions and gnubg's "Error rate mEMG"; and per
decision its game, the number of rolls before it in the game, its kind (``move``,
``nodouble``, ``double``, ``take``, ``drop``), the player, the error in EMG and gnubg's mark.
"""

import json
import os

import gnubg

gnubg.command("set analysis chequerplay evaluation plies 0")
gnubg.command("set analysis cubedecision evaluation plies 0")
gnubg.command("set analysis threshold doubtful 0.04")
gnubg.command("set analysis threshold bad 0.08")
gnubg.command("set analysis threshold verybad 0.16")


def decisions(match):
    out = []
    for number, game in enumerate(match["games"], start=1):
        rolls = 0
        for action in game["game"]:
            kind = action["action"]
            player = action["player"]
            analysis = action.get("analysis") or {}
            if kind == "move":
                if "cube-skill" in analysis or "nd-cubeful-eq" in analysis:
                    out.append(
                        [number, rolls, "nodouble", player, None, analysis.get("cube-skill")]
                    )
                moves = analysis.get("moves") or []
                if len(moves) > 1 and "imove" in analysis:
                    error = moves[0]["score"] - moves[analysis["imove"]]["score"]
                    out.append([number, rolls, "move", player, error, analysis.get("skill")])
                rolls += 1
            elif kind in ("double", "take", "drop"):
                out.append([number, rolls, kind, player, None, analysis.get("skill")])
    return out


def per_player(match):
    info = match["match-info"]
    stats = match["stats"]
    rows = {}
    for side in ("X", "O"):
        s = stats[side]
        moves, cube = s["moves"], s["cube"]
        keys = [k for k in cube if k.startswith("err-") and k.endswith("-skill")]
        cube_total = sum(cube[k] for k in keys)
        total = moves["error-skill"] + cube_total
        decided = moves["unforced-moves"] + cube["close-cube"]
        rows[side] = {
            "name": info[side]["name"],
            "error_total": total,
            "checker_error": moves["error-skill"],
            "cube_error": cube_total,
            "unforced_moves": moves["unforced-moves"],
            "close_cube": cube["close-cube"],
            "error_rate_memg": 1000 * total / decided if decided else 0.0,
            "luck_total": s["dice"]["luck"],
        }
    return [rows["X"], rows["O"]]


out = {}
with open(os.environ["ANALYSE_LIST"], encoding="utf-8") as listing:
    paths = [p for p in listing.read().split("\n") if p.strip()]
for path in paths:
    try:
        if path.endswith(".sgf"):
            gnubg.command(f'load match "{path}"')
        else:
            gnubg.command(f'import mat "{path}"')
        gnubg.command("analyse match")
        match = gnubg.match(1, 1, 1, 1)
        out[path] = {
            "length": match["match-info"].get("match-length"),
            "players": per_player(match),
            "decisions": decisions(match),
        }
    except Exception as exc:  # a file gnubg cannot read or analyse: say so
        out[path] = {"error": str(exc)}
with open(os.environ["ANALYSE_OUT"], "w", encoding="utf-8") as handle:
    json.dump(out, handle)
