"""Services for teams: create a team, rename it, delete it, name its captains.

Who: the season keepers (``teams.permissions.can_keep_teams``: a club's secretaries, who
keep its seasons). The roster is ``teams.rosters``'s.

Rules, and where each is held:

- **A team belongs to a club and a season.** The club is the season's unless another is
  named: a season's league may have teams of other clubs (a district's league run by one
  club). Neither changes after creation (a team that moves is a new team): the roster's
  one-team-per-season constraint reads the season copied onto each member row.
- **A name, unique per club and season**, compared as players' names are (any case,
  Unicode form and spacing: ``tournaments.player_names``), at most 120 characters: the
  database's ``team_name_once_per_club_and_season`` decides, races included
  (``team_name_taken``, 409).
- **A game** of the games' registry (bräde unless named): the game whose ratings order
  the boards (``teams.rosters``). Seasons have no game of their own; a club may field a
  bräde team and a backgammon team in one season, each ordered by its own ratings (a
  player still plays for one team per season).
- **Captains**: any signed-in users (a captain need not play); the list given replaces
  the team's.
- **Deleting** a team removes its roster with it.

Errors carry codes (``core.errors``): ``teams_keepers_only`` (403), ``team_name_missing``,
``team_name_too_long``, ``unknown_game`` (400), ``team_name_taken`` (409).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.models import Season
from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.permissions import AuthUser, User, signed_in
from games import registry as games
from teams.models import TEAM_NAME_LENGTH, Team
from teams.permissions import can_keep_teams
from tournaments.models import DEFAULT_GAME, Club
from tournaments.player_names import player_name_key


def require_keeper(by: User) -> None:
    """``PermissionDeniedError`` unless ``by`` keeps teams (the season keepers)."""
    if not can_keep_teams(by):
        raise PermissionDeniedError(
            _("Only the clubs' season keepers may create and change teams; ask an administrator."),
            code="teams_keepers_only",
        )


def _name_checked(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ValidationError(_("A team needs a name."), code="team_name_missing")
    if len(name) > TEAM_NAME_LENGTH:
        raise ValidationError(
            _("A team's name is at most %(n)s characters.") % {"n": TEAM_NAME_LENGTH},
            code="team_name_too_long",
        )
    return name


def _name_taken(club: Club, season: Season, name: str) -> ConflictError:
    return ConflictError(
        _("%(club)s already has a team called “%(name)s” in %(season)s.")
        % {"club": club.name, "name": name, "season": season.name},
        code="team_name_taken",
    )


def team_create(
    *,
    season: Season,
    name: str,
    by: User,
    club: Club | None = None,
    game: str = DEFAULT_GAME,
) -> Team:
    """A new team of ``club`` (the season's club if not given) in ``season``, with an
    empty roster whose boards follow the ratings."""
    require_keeper(by)
    name = _name_checked(name)
    known = [key for key, _name in games.choices()]
    if game not in known:
        raise ValidationError(
            _("There is no game “%(game)s”; the games: %(games)s.")
            % {"game": game, "games": ", ".join(known)},
            code="unknown_game",
        )
    club = season.club if club is None else club
    try:
        with transaction.atomic():
            return Team.objects.create(
                season=season,
                club=club,
                name=name,
                name_key=player_name_key(name),
                game=game,
                created_by=signed_in(by),
            )
    except IntegrityError:
        raise _name_taken(club, season, name) from None


def team_rename(*, team: Team, name: str, by: User) -> Team:
    """Rename the team, checked as at creation."""
    require_keeper(by)
    name = _name_checked(name)
    if name == team.name:
        return team
    key = player_name_key(name)
    try:
        with transaction.atomic():  # the constraint decides, races included
            Team.objects.filter(pk=team.pk).update(name=name, name_key=key)
    except IntegrityError:
        raise _name_taken(team.club, team.season, name) from None
    team.name, team.name_key = name, key
    return team


def team_delete(*, team: Team, by: User) -> None:
    """Delete the team and its roster."""
    require_keeper(by)
    team.delete()


def team_captains_set(*, team: Team, captains: Iterable[AuthUser], by: User) -> list[AuthUser]:
    """Make ``captains`` the team's captains (the list replaces the old one; a user given
    twice is one captain). Returns them as stored."""
    require_keeper(by)
    users = list({user.pk: user for user in captains}.values())
    with transaction.atomic():
        team.captains.set(users)
    return users
