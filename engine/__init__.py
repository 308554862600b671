"""The bräde rules engine: pure Python, imports nothing from Django.

Implements ``docs/rules.md`` (R1–R15) for the rule sets ``talisman`` (default),
``helmfrid``, ``board`` (with add-ons) and ``vasa``, and the game-record format
of ``docs/game-record.md``.

Vocabulary (Swedish game words are kept where English has none):

- *band*: two or more checkers of one side on one point.
- *blot*: a single checker on a point.
- *huk*: point 12, the "head" of a side's path.
- *tek*: the one-die roll that decides who starts game 1 (lower die starts).
- *jan*: a player with more checkers on the bar than free points in their Q1;
  making the opponent jan wins the game (R10).
- *sprängjan* (``sprangjan``): jan made by a blasting step (R9, R10).
- *hemspel*: winning by bearing off all checkers (R11).
- *vackert spel* (``vackert_spel``): winning with a pattern on the board (R12).
- *munk*: the loser has checkers on the bar when hemspel or vackert spel is won.
- *uppgivet*: the opponent resigned (R14).
- *skiljepoäng* (``skiljepoang``): tiebreak points of the W&W scale (scoring).
"""
