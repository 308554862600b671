"""The seam between the tournament formats and the rest of the site: one protocol, one
registry, one module per format.

Knockout, consolation, double elimination, round robin (in groups), Swiss and Monrad
share tournaments, rounds, matches and pages; they differ in how they draw, how players
move on, how they rank and what their pages show. Each format
(:class:`formats.format.Format`) says which *stage* it is played as (a knockout bracket,
linked elimination brackets, groups, or rounds paired one at a time), which settings it
reads, whether its standings may feed a knockout (groups → knockout, Swiss → knockout:
compositions of two stages, not formats), and gives its elimination bracket or its
pairing from the pure algorithms of ``stages/``. Callers ask the registry
(:func:`formats.registry.format_for`) and branch on what the format gives, never on its
key.

Modules:

- ``formats.format``: the protocol, the stages.
- ``formats.option`` and ``formats.options``: the tournament options, each declared once
  (its kind, default, words and bounds), their registry, and a tournament's values of them
  (``Options``); a format names the ones it reads.
- ``formats.registry``: register and find formats by key; the keys of a stage.
- ``formats.knockout``, ``formats.round_robin``, ``formats.swiss``,
  ``formats.consolation``, ``formats.double_elimination``, ``formats.monrad``: the
  formats; each registers itself when imported (the registry imports them on first use).

Pure: imports nothing from Django (``tests/test_layers.py``). The Django side of each
stage (its draw, its progression, its standings and its pages) lives in the apps and asks
the format; the words for people are English and translated at the edge (``web.formats``).
"""

from formats.format import Format, FormatSpec, Stage
from formats.options import Options
from formats.registry import format_for, formats, keys

__all__ = ["Format", "FormatSpec", "Options", "Stage", "format_for", "formats", "keys"]
