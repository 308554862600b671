"""A team Swiss (as the chess Olympiad plays): a fixed number of rounds, teams paired by
their match points with the site's Swiss pairing (``stages.swiss.pair_round``: no
rematch, one bye at most, the rounds after kept pairable), inside a score group by board
points (``stages.league.swiss_teams``); each team match of several boards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from formats.format import FormatSpec, Stage, Words
from formats.registry import register
from stages.swiss import SwissPlayer, SwissRound, pair_round

__all__ = ["TEAM_SWISS", "TeamSwissFormat"]


@dataclass(frozen=True, slots=True)
class TeamSwissFormat(FormatSpec):
    def pair(
        self,
        players: Sequence[SwissPlayer],
        *,
        seed: int,
        names: Mapping[int, str] | None = None,
        standing: Mapping[int, int] | None = None,
        rounds_after: int = 0,
    ) -> SwissRound:
        # The teams come ranked by match points, then board points (their ``rank``).
        return pair_round(players, seed=seed, names=names, rounds_after=rounds_after)


TEAM_SWISS = register(
    TeamSwissFormat(
        key="team_swiss",
        name="team Swiss",
        description="Team Swiss (teams paired round by round by their match points)",
        stage=Stage.TEAMS,
        options=frozenset({"swiss_rounds"}),
        words=Words(
            start="Start the team Swiss",
            started="The team Swiss is started (draw seed %(seed)d): pair round 1.",
            rounds="Team Swiss rounds",
        ),
    )
)
