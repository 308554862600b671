"""Match scoring (docs/scoring.md S1–S6); the pure part imports nothing from Django.

Modules:

- ``scoring.scales``: the scales ``ww``, ``ny1``, ``ny2`` as data, and the points and
  tiebreak of one game (S2).
- ``scoring.match``: the state of a match from its outcomes so far: points, tiebreaks,
  completed and remaining games, next starter, winner, early decision (S1, S3–S5).
- ``scoring.explain``: sentences (coded messages of ``scoring.explain_messages``, worded
  at the edge) that say why a match is decided and what each player needs to win from
  here.
- ``scoring.report``: the ``match`` section of the replay report (game-record.md).

Vocabulary (Swedish game words kept where English has none):

- *parti*: one game of a match; a *completed* game is one not won by *uppgivet*.
- *uppgivet*: the opponent resigned (R14); such a game lengthens the match by one (S1).
- *hemspel*, *vackert spel*, *munk*, *jan*, *sprängjan*: the ways to win a game
  (rules.md R10–R12).
- *skiljepoäng* (``skiljepoang``): the W&W 1956 tiebreak points (S2), one per game to the
  winner of a jan or an uppgivet game, or to the loser of a munk or a sprängjan.
- *plus / minus*: the Ny 1 way to write the same tiebreak, a ``+`` or ``−`` attached to the
  winner's points.
- *tek*: the one-die roll that decides who starts game 1 (lower die starts, S5).
- *walkover*: a match that ends without games (S6); not handled here, it has no outcomes.
"""
