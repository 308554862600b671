"""The backgammon engine: pure Python, imports nothing from Django.

Implements the Danish federation's rules (``../shared/seeds/002_*.txt``, "Backgammonregler";
where they are silent, GNU Backgammon's behaviour is the reference): positions and legal
plays, gnubg Position ID and Match ID, the doubling cube and the Crawford rule, match
scoring, and the ``.mat`` match records written by gnubg, eXtreme Gammon and BGBlitz.

Vocabulary:

- *point*: one of the 24 places, numbered from the side's own view (1–6 its home board);
  ``25`` is the bar and ``0`` is off, as in ``.mat`` records (``bar/22``, ``6/off``).
- *play*: the whole turn's checker movement for one roll; *step*: one die's move.
- *blot*: a single checker on a point; landing on an opponent's blot *hits* it.
- *cube*: the doubling cube; *take* / *drop*: accepting / refusing a double.
- *Crawford game*: the game right after a player first reaches match point.
"""
