"""Template words of the team stage (``teams.team_words``)."""

from __future__ import annotations

from django import template

from teams.models import TeamMatch
from teams.team_words import team_match_state

register = template.Library()


@register.simple_tag
def team_match_words(team_match: TeamMatch) -> str:
    """A team match's state in words."""
    return team_match_state(team_match)
