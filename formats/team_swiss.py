"""A team Swiss (as the chess Olympiad plays): a fixed number of rounds, teams paired by
their match points with the site's Swiss pairing (``formats.swiss.SwissFormat``: no
rematch, one bye at most, the rounds after kept pairable), inside a score group by board
points (the teams come ranked so: ``stages.league.swiss_teams``); each team match of
several boards."""

from __future__ import annotations

from formats.format import Stage, Words
from formats.registry import register
from formats.swiss import SwissFormat

__all__ = ["TEAM_SWISS"]

TEAM_SWISS = register(
    SwissFormat(
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
