"""Club formats beyond the single knockout: pure Python, imports nothing from Django.

A tournament is one or more *stages*; this package computes what a stage needs, for every
game (bräde, backgammon, Kungabräde), from plain data (player ids, scores, results):

- ``stages.roundrobin``: round robins by FIDE's Berger tables, single or double, and
  groups drawn by snake seeding; a round robin's rounds, lengths and draw order.
- ``stages.swiss``: the pairing of one Swiss round, exact for a stated objective, with the
  reason for each pair, and the warnings for an organiser's swap.
- ``stages.swiss_completion``: whether the rounds left can still be paired without a
  rematch or a second bye, which the Swiss's and the Monrad's pairings keep true when
  they can.
- ``stages.matching``: maximum-weight matching (Edmonds' blossom algorithm) behind it.
- ``stages.tiebreaks``: standings with a tiebreak chain chosen per stage, every row with
  every tiebreak's value, and why A is above B; the chains an organiser may choose.
- ``stages.elimination``: knockout brackets as slots fed by sources: single elimination,
  with a simple or progressive consolation, and double elimination.
- ``stages.knockout``: a single knockout's round 1 (seeds and the drawn players on the
  lines, byes to the top seeds), its rounds' default lengths and its losers' placings.
- ``stages.crossover``: from groups (or a Swiss) to a knockout: who goes on, placed
  crosswise.
- ``stages.messages``: the codes and English texts of the explanations (the pages render
  them in Swedish).

Terms:

- *stage*: one part of a tournament played in one format; a group or Swiss stage can feed
  a knockout stage.
- *round*: the matches of a stage played side by side; every present player has one match
  or the bye.
- *bye*: a round without an opponent; it scores as a won match (``MatchPoints.bye``) and
  is never a game record. *Walkover*: a match won because the opponent did not come
  (scoring.md S6); it scores as a win but not as game points.
- *round robin*: everyone meets everyone in the group, once (single) or twice (double).
  *Berger table*: FIDE's table of who meets whom in which round.
- *first-named*: the player named first in a pair (White in chess, home in a league); in
  bräde the tek, in backgammon the opening roll decides who starts.
- *Swiss*: a fixed number of rounds, each paired by the scores so far. *Score group*: the
  players with one score. *Float*: a pair from two score groups (the higher player floats
  down, the lower floats up). *Rematch*: a pair who met before in the stage.
- *rank* (pairing number): a player's order before the stage (seed or rating), lower is
  better; equal ranks are ordered by the stored draw seed.
- *match points*: 1 a won match, 0 a lost one (``MatchPoints``). *Game points*: the points
  of the games inside the matches, on the tournament's scale (bräde) or as won
  (backgammon). *Skiljepoäng* (``skiljepoang``): the W&W 1956 tiebreak points of bräde
  (scoring.md S2).
- *tiebreak chain*: the ordered tiebreaks a stage ranks level players by; *Buchholz*: the
  sum of the opponents' scores, *cut 1* without the least significant one;
  *Sonneborn–Berger*: the opponents' scores weighted by the result against each; *direct
  encounter*: the results among exactly the tied players; *lots*: the last resort, drawn
  from a seed and stored.
- *consolation bracket*: a second knockout for players who lost early: *simple* for the
  first-match losers, *progressive* with later main-bracket losers entering deeper.
- *double elimination*: a *winners' bracket* and a *losers' bracket*; a player is out after
  two lost matches; the *grand final* meets both brackets' winners, and the *reset* is a
  second grand final played when the losers' bracket's player wins the first.
- *slot* and *source*: a side of a bracket match and what fills it: seed k, the winner of
  a match, the loser of a match (a bye is resolved away when the bracket is built).
"""
