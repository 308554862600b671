"""The seam between the games and the rest of the site: one protocol, one registry.

Bräde, backgammon and Kungabräde share tournaments, brackets, matches and pages; they
differ in their records, replay, outcome words, match scoring and board picture. Each game
is a *family* (:class:`games.family.GameFamily`) that provides those five things from its
own pure package (``engine/`` and ``scoring/`` for bräde, ``backgammon/``, and
:mod:`games.kungabrade`, which has no engine: results only). Callers ask the registry
(:func:`games.registry.family_for`, :func:`games.registry.families`,
:func:`games.registry.detect`) and never branch on the game's key.

Modules:

- ``games.family``: the protocol and its small value types (outcome words, record
  formats, the replay's outcome).
- ``games.results``: the family-neutral game result, match settings, standing and error.
- ``games.board``: the board picture a template draws (stacks, bar, trays, dice, cube).
- ``games.registry``: register and find families by key; detect a record's game.
- ``games.brade``, ``games.backgammon``, ``games.kungabrade``: the three families; each
  registers itself when imported (the registry imports them on first use).

Pure: imports nothing from Django. Words for people are English (or the game's own
Swedish word); the pages translate them with gettext at the edge.
"""

from games.registry import detect, families, family_for

__all__ = ["detect", "families", "family_for"]
