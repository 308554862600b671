"""A stage's standings in the standings API's shape (``api_rounds.StandingsOut``): a
round robin's groups (``group_standings``) or paired rounds' one table
(``swiss_standings``, after the published rounds). Plain data, no serializer: the API
serializes it, ``matches.stage_handlers`` says which one a stage has."""

from __future__ import annotations

from typing import Any

from matches import group_standings, stage_text, swiss_text
from matches.standing_rows import standing_row
from matches.swiss_standings import swiss_standings
from tournaments.models import Tournament

__all__ = ["group_standings_data", "paired_standings_data"]


def group_standings_data(tournament: Tournament) -> dict[str, Any]:
    """A round robin's standings, group A's rows first, then B's, …"""
    tables = group_standings.group_tables(tournament=tournament)
    table = max(tables, key=lambda t: t.rounds)
    rows = [
        standing_row(line, table.chain, stage_text.render, t.label)
        for t in tables
        for line in t.lines
    ]
    return {
        "chain": list(table.chain),
        "rounds": table.rounds,
        "finished_rounds": table.finished_rounds,
        "rows": rows,
    }


def paired_standings_data(tournament: Tournament) -> dict[str, Any]:
    """Paired rounds' standings (``group`` empty; ``rounds`` the number of rounds,
    ``finished_rounds`` those published and finished)."""
    table = swiss_standings(tournament=tournament)
    rows = [standing_row(line, table.chain, swiss_text.render) for line in table.lines]
    return {
        "chain": list(table.chain),
        "rounds": table.rounds,
        "finished_rounds": table.finished_rounds,
        "rows": rows,
    }
