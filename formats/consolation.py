"""Single elimination with a consolation bracket for the first losers
(``stages.elimination.consolation``); ``progressive_consolation``: later main-bracket
losers enter the consolation deeper; ``consolation_third_place`` (only with a progressive
one): the consolation final decides third place (``tournaments.consolation_places``)."""

from __future__ import annotations

from dataclasses import dataclass

from formats.format import FormatSpec, Stage
from formats.options import Options
from formats.registry import register
from stages import elimination

__all__ = ["CONSOLATION"]


@dataclass(frozen=True, slots=True)
class ConsolationFormat(FormatSpec):
    def bracket(self, players: int, options: Options) -> elimination.Bracket:
        return elimination.consolation(players, progressive=options.flag("progressive_consolation"))


CONSOLATION = register(
    ConsolationFormat(
        key="consolation",
        name="single elimination with a consolation bracket",
        description="Single elimination with a consolation bracket (for the first losers)",
        stage=Stage.ELIMINATION,
        options=frozenset({"progressive_consolation", "consolation_third_place"}),
    )
)
