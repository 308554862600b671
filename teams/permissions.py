"""Who keeps teams and who keeps a team's roster.

- *Season keepers* (``clubs.season_services.can_keep_seasons``: a superuser, or a user an
  administrator gave ``clubs.change_season`` — a club's secretary) create, rename and
  delete teams and name their captains: the people who keep a club's seasons today keep
  its teams, so no new right has to be handed out.
- A team's *captains* (``Team.captains``), and the season keepers, keep its roster: add
  and remove players, order the boards, mark reserves, sort by rating.
- Everyone (also anonymous) reads teams and rosters: a team sheet is public, as a
  season's standings are.
"""

from __future__ import annotations

from clubs.season_services import can_keep_seasons
from core.permissions import User, authenticated
from teams.models import Team

__all__ = ["can_edit_roster", "can_keep_teams", "is_captain"]


def can_keep_teams(user: User) -> bool:
    """A season keeper: creates, renames and deletes teams and names their captains."""
    return can_keep_seasons(user)


def is_captain(user: User, team: Team) -> bool:
    return authenticated(user) and team.captains.filter(pk=user.pk).exists()


def can_edit_roster(user: User, team: Team) -> bool:
    """The team's captains and the season keepers."""
    return can_keep_teams(user) or is_captain(user, team)
