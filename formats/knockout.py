"""Single elimination: one bracket, the winner moves on by bracket position, byes to the
top seeds (``stages.knockout``; drawn by ``tournaments.knockout_draw``)."""

from __future__ import annotations

from formats.format import FormatSpec, Stage
from formats.registry import register

KNOCKOUT = register(
    FormatSpec(
        key="knockout",
        name="single elimination",
        description="Single elimination (a knockout bracket)",
        stage=Stage.KNOCKOUT,
        options=frozenset({"third_place_match"}),
    )
)
