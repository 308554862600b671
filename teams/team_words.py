"""The team stage's words for a person: the names of a team table's tiebreaks
(``stages.league.CHAIN_KEYS``), why a team is above the next (``stages.league.Row.why``),
and a team match's state. The pages and the CSV export ask here; the JSON API gives the
keys, not the words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from stages.league import CHAIN_KEYS, Row
from teams.models import Team, TeamMatch, TeamResult

__all__ = ["TableLine", "chain_choices", "chain_name", "table_lines", "team_match_state"]

CHAIN_NAMES: dict[str, Promise] = {
    "match_points": gettext_lazy("match points"),
    "board_points": gettext_lazy("board points"),
    "points_difference": gettext_lazy("points difference"),
    "points_for": gettext_lazy("points won"),
    "tiebreak_difference": gettext_lazy("skiljepoäng difference"),
    "direct_encounter": gettext_lazy("direct encounter"),
    "lots": gettext_lazy("drawing of lots"),
}
assert set(CHAIN_KEYS) <= set(CHAIN_NAMES)


def chain_name(key: str) -> str:
    """A tiebreak's name (or ``match_points``, ``lots``) in the active language."""
    return str(CHAIN_NAMES[key])


def chain_choices() -> list[tuple[str, str]]:
    """The tiebreaks an organiser may put in the chain, with their names."""
    return [(key, chain_name(key)) for key in CHAIN_KEYS]


def _value(row: Row[int], key: str) -> int | None:
    if key in ("direct_encounter", "lots"):
        return None
    return int(getattr(row, key))


def why_text(row: Row[int], below: Row[int], teams: dict[int, Team]) -> str:
    """Why ``row`` is above ``below`` (the next row), in words; "" for the last row."""
    if row.why is None:
        return ""
    other = teams[below.team].name
    if row.why == "lots":
        return _("Above %(below)s by drawing of lots.") % {"below": other}
    if row.why == "direct_encounter":
        return _("Above %(below)s on the direct encounter among the teams level.") % {
            "below": other
        }
    a, b = _value(row, row.why), _value(below, row.why)
    return _("Above %(below)s on %(tiebreak)s (%(a)s to %(b)s).") % {
        "below": other,
        "tiebreak": chain_name(row.why),
        "a": a,
        "b": b,
    }


@dataclass(frozen=True)
class TableLine:
    """A row of the team table with its team and why it is above the next, in words."""

    row: Row[int]
    team: Team
    why: str


def table_lines(rows: Sequence[Row[int]], teams: dict[int, Team]) -> list[TableLine]:
    """The table's rows as a page shows them."""
    return [
        TableLine(
            row, teams[row.team], why_text(row, rows[i + 1], teams) if i + 1 < len(rows) else ""
        )
        for i, row in enumerate(rows)
    ]


def team_match_state(team_match: TeamMatch) -> str:
    """A team match's state in words: waiting for line-ups, being played, decided (early),
    drawn, or a bye."""
    if team_match.away_id is None:
        return _("bye")
    if team_match.result == TeamResult.DRAW:
        return _("drawn")
    if team_match.result:
        return _("decided early") if team_match.decided_early else _("decided")
    if team_match.boards_made:
        return _("being played")
    return _("waiting for the line-ups")
