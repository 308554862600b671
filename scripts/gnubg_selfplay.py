"""Let GNU Backgammon play itself a match and export it as ``.mat``.

Runs inside gnubg's own Python (Debian's package ``gnubg``, 1.07.001), not in the project:

    SELFPLAY_LENGTH=7 SELFPLAY_SEED=11 SELFPLAY_OUT=/tmp/m.mat \
        /usr/games/gnubg -t -q -p scripts/gnubg_selfplay.py

With ``SELFPLAY_SGF=/tmp/m.sgf`` it also saves the match in gnubg's own ``.sgf`` format
(``save match``): the ``gnubg_*.sgf`` files beside the ``.mat`` ones were made so.

With ``SELFPLAY_NOISE=0.05`` both players play and double with that much noise added to
their evaluations (gnubg's ``evaluation noise``, deterministic: the same noise for the same
position), so they make the errors of a human player; the ``gnubg_*_noise*.mat`` files
were made so.

The dice come from gnubg's Mersenne Twister with the given seed, so the same length and
seed give the same file (checked: byte for byte, but the ``EventDate`` header). The files
in ``tests/data/backgammon/gnubg_*.mat`` were made so; gnubg names its players ``gnubg``
and ``root`` (the user running it).
"""

import os

import gnubg

length = int(os.environ["SELFPLAY_LENGTH"])
seed = int(os.environ["SELFPLAY_SEED"])
out = os.environ["SELFPLAY_OUT"]
noise = os.environ.get("SELFPLAY_NOISE")
for command in (
    "set player 0 gnubg",
    "set player 1 gnubg",
    "set automatic game on",
    "set automatic roll on",
    "set display off",
    "set rng mersenne",
    f"set seed {seed}",
):
    gnubg.command(command)
if noise:
    for player in (0, 1):
        gnubg.command(f"set player {player} chequerplay evaluation noise {noise}")
        gnubg.command(f"set player {player} cubedecision evaluation noise {noise}")
        gnubg.command(f"set player {player} chequerplay evaluation deterministic on")
gnubg.command(f"new match {length}")
for _ in range(20000):
    match = gnubg.match(0, 0, 0, 0)
    score = [0, 0]
    for game in match["games"]:
        info = game["info"]
        if info.get("winner") is not None:
            score[0 if info["winner"] == "O" else 1] += info["points-won"]
    if max(score) >= length:
        break
    gnubg.command("play")
else:
    raise SystemExit("the match did not finish")
gnubg.command(f"export match mat {out}")
# gnubg's own save format beside the export, for the ``.sgf`` reader's tests: the same match.
sgf_out = os.environ.get("SELFPLAY_SGF")
if sgf_out:
    gnubg.command(f"save match {sgf_out}")
