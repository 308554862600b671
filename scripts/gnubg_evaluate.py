"""Print GNU Backgammon's own 0-ply evaluation of positions, the reference of the position
tests of ``tests/backgammon/test_analysis.py`` (dev tool; runs inside gnubg's own Python,
Debian's package ``gnubg`` 1.07.001, not in the project):

    EVALUATE_IDS="4HPwATDgc/ABMA 2J2DESBot8EAKg" /usr/games/gnubg -t -q -p scripts/gnubg_evaluate.py

For each position ID (gnubg's, the side on roll's view) one line: the ID, gnubg's position
class and the five cubeless probabilities of the side on roll (win, win gammon, win
backgammon, lose gammon, lose backgammon; the gammons include the backgammons), at 0-ply
with gnubg's default nets and bear-off databases.
"""

import os

import gnubg

gnubg.command("new session")
cube = gnubg.cubeinfo()
zero_ply = gnubg.evalcontext(0, 0, 0, 0, 0.0)
for position_id in os.environ["EVALUATE_IDS"].split():
    board = gnubg.positionfromid(position_id)
    probs = gnubg.evaluate(board, cube, zero_ply)[:5]
    print(position_id, gnubg.classifypos(board), " ".join(f"{p:.7f}" for p in probs))
