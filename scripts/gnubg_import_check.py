"""Read match files with GNU Backgammon's own importer, for ``scripts/bg_corpus_check.py``
(``--gnubg-json``): a second oracle, gnubg reading the file itself (dev tool).

Runs inside gnubg's own Python (Debian's package ``gnubg``, 1.07.001), not in the project:

    IMPORT_LIST=files.txt IMPORT_OUT=gnubg.json \
        /usr/games/gnubg -t -q -p scripts/gnubg_import_check.py

``IMPORT_LIST`` names one file a line (``.sgf`` is loaded with ``load match``, anything else
imported with ``import mat``); ``IMPORT_OUT`` gets one JSON object: per file the match
length, the players' names and per game the winner's name, the points won, whether it
ended by a resignation and whether gnubg counts it the Crawford game — or the error.
"""

import json
import os

import gnubg

out = {}
with open(os.environ["IMPORT_LIST"], encoding="utf-8") as listing:
    paths = listing.read().split("\n")
for path in paths:
    if not path.strip():
        continue
    try:
        if path.endswith(".sgf"):
            gnubg.command(f'load match "{path}"')
        else:
            gnubg.command(f'import mat "{path}"')
        match = gnubg.match(0, 0, 0, 0)
        info = match["match-info"]
        names = {side: info[side]["name"] for side in ("X", "O")}
        games = []
        for game in match["games"]:
            g = game["info"]
            winner = g.get("winner")
            games.append(
                {
                    "winner": names.get(winner) if winner else None,
                    "points": g.get("points-won"),
                    "resigned": bool(g.get("resigned")),
                    "crawford": bool(g.get("crawford")),
                }
            )
        out[path] = {"length": info.get("match-length"), "players": names, "games": games}
    except Exception as exc:  # a file gnubg cannot read: say so
        out[path] = {"error": str(exc)}
with open(os.environ["IMPORT_OUT"], "w", encoding="utf-8") as handle:
    json.dump(out, handle)
