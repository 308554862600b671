"""A league: teams meet in team matches of several boards (``stages.team_match``), once or
twice (``double_round``: home and away) by the Berger tables, every round drawn at once,
ranked in a league table by match points, board points and the competition's chain
(``stages.league``). Divisions of one season and promotion and relegation between them
are the ``teams`` app's (``teams.divisions``)."""

from __future__ import annotations

from formats.format import FormatSpec, Stage, Words
from formats.registry import register

__all__ = ["LEAGUE"]

LEAGUE = register(
    FormatSpec(
        key="league",
        name="league of teams",
        description="League of teams (team matches of several boards; home and away)",
        stage=Stage.TEAMS,
        options=frozenset({"double_round"}),
        words=Words(
            start="Draw the league",
            started="The league's team matches are drawn (draw seed %(seed)d).",
            rounds="League rounds",
        ),
    )
)
