"""The Swiss system: a fixed number of rounds, each paired from the scores so far by
``stages.swiss.pair_round`` (the Dutch system's score groups: fewest rematches, the bye to
the lowest-ranked player without one, fewest and shortest floats; the rounds still to pair
kept pairable without a rematch or a second bye when they can be). Its standings may feed
a knockout with the top ``group_advance``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from formats.format import FormatSpec, Stage, Words
from formats.registry import register
from stages.swiss import SwissPlayer, SwissRound, pair_round

__all__ = ["PAIRED_OPTIONS", "SWISS", "SwissFormat"]

# What a format paired round by round reads: its number of rounds, the knockout after its
# standings, its tiebreak chain.
PAIRED_OPTIONS = frozenset({"swiss_rounds", "group_advance", "tiebreaks"})


@dataclass(frozen=True, slots=True)
class SwissFormat(FormatSpec):
    def pair(
        self,
        players: Sequence[SwissPlayer],
        *,
        seed: int,
        names: Mapping[int, str] | None = None,
        standing: Mapping[int, int] | None = None,
        rounds_after: int = 0,
    ) -> SwissRound:
        # The Swiss ranks by score and pairing number only (``stages.swiss``): the
        # tiebreaks order the standings, not the pairing. The rounds after this one stay
        # pairable without a rematch or a second bye when they can (Completion).
        return pair_round(players, seed=seed, names=names, rounds_after=rounds_after)


SWISS = register(
    SwissFormat(
        key="swiss",
        name="Swiss",
        description="Swiss (a fixed number of rounds, each paired by the scores so far)",
        stage=Stage.PAIRED,
        options=PAIRED_OPTIONS,
        feeds_knockout=True,
        words=Words(
            start="Start the Swiss",
            started="The Swiss is started (draw seed %(seed)d): check the players in, then "
            "pair round 1.",
            rounds="Swiss rounds",
            knockout_after="Knockout after the Swiss",
        ),
    )
)
