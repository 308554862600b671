"""Double elimination: out after two losses, a winners' and a losers' bracket and a grand
final (``stages.elimination.double_elimination``), replayed when the losers' bracket
player wins it unless ``grand_final_reset`` is off."""

from __future__ import annotations

from dataclasses import dataclass

from formats.format import FormatSpec, Stage
from formats.options import Options
from formats.registry import register
from stages import elimination

__all__ = ["DOUBLE_ELIMINATION"]


@dataclass(frozen=True, slots=True)
class DoubleEliminationFormat(FormatSpec):
    def bracket(self, players: int, options: Options) -> elimination.Bracket:
        return elimination.double_elimination(players, reset=options.flag("grand_final_reset"))


DOUBLE_ELIMINATION = register(
    DoubleEliminationFormat(
        key="double_elimination",
        name="double elimination",
        description="Double elimination (out after two losses: winners' and losers' brackets)",
        stage=Stage.ELIMINATION,
        options=frozenset({"grand_final_reset"}),
        losers_bracket=True,
    )
)
