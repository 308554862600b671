"""Round robin: everyone meets everyone of their group (once, or twice with
``double_round``), every round drawn at once (``stages.roundrobin``), ranked by match
points and the tiebreak chain (``stages.tiebreaks``). In ``groups`` (snake-seeded) it may
feed a knockout with the top ``group_advance`` of each group, placed crosswise
(``stages.crossover``)."""

from __future__ import annotations

from formats.format import FormatSpec, Stage
from formats.registry import register

ROUND_ROBIN = register(
    FormatSpec(
        key="round_robin",
        name="round robin",
        description="Round robin (everyone meets everyone; a table with tiebreaks)",
        stage=Stage.GROUPS,
        options=frozenset({"groups", "double_round", "group_advance", "tiebreaks"}),
        feeds_knockout=True,
    )
)
