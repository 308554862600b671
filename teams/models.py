"""A club's teams in a season and their rosters.

- ``Team``: a club's team in a season (``clubs.Season``), named once per club and season
  (its name's key, ``name_key``, as players' names are matched:
  ``tournaments.player_names``), playing one game (the games' registry key: the game
  whose ratings order its boards), with its captains: users who keep its roster.
- ``TeamMember``: one player on a team's roster: their board (1, 2, …) and whether they
  are a reserve. A player plays for one team per season: the member row carries its
  team's season so that the database holds that rule (``team_player_once_per_season``).

The rules are ``teams.rosters``'s and ``teams.team_services``'s (their docstrings); what
the database can hold of them it holds here: one team of a name per club and season, one
team per player and season, one player per board, boards from 1. What it cannot hold
across rows — boards 1..n without gaps, reserves after the regular boards, the player of
the team's club — every roster service keeps under the team's row lock.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from clubs.models import Season
from tournaments.models import DEFAULT_GAME, Club, Player, game_choices

TEAM_NAME_LENGTH = 120


class Team(models.Model):
    """A club's team in a season. ``boards_by_rating``: the boards follow the players'
    ratings (each change of the roster sorts them again) until a captain orders them by
    hand; sorting by rating again sets it back."""

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="teams")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="teams")
    name = models.CharField(max_length=TEAM_NAME_LENGTH)
    # The name's key (tournaments.player_names): "Lag Ö" and "lag ö " are one name.
    name_key = models.TextField(editable=False)
    game = models.CharField(
        max_length=16,
        choices=game_choices,
        default=DEFAULT_GAME,
        help_text="the game the team plays: its ratings order the boards",
    )
    boards_by_rating = models.BooleanField(
        default=True, help_text="the boards follow the ratings until a captain orders them"
    )
    captains = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="captained_teams"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("season", "club__name", "name", "id")
        constraints = (
            models.UniqueConstraint(
                fields=["season", "club", "name_key"], name="team_name_once_per_club_and_season"
            ),
            models.CheckConstraint(condition=~Q(name_key=""), name="team_has_a_name"),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.season_id})"


class TeamMember(models.Model):
    """A player on a team's roster, at a board. ``season`` is the team's (written with the
    row from its team, never changed: a team does not change season) so that the database
    refuses a player in two teams of one season."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="team_places")
    board = models.PositiveSmallIntegerField()
    reserve = models.BooleanField(default=False)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("team", "board")
        constraints = (
            models.UniqueConstraint(
                fields=["season", "player"], name="team_player_once_per_season"
            ),
            models.UniqueConstraint(fields=["team", "board"], name="team_board_once"),
            models.CheckConstraint(condition=Q(board__gte=1), name="team_board_from_one"),
        )

    def __str__(self) -> str:
        return f"board {self.board} of team {self.team_id}: {self.player_id}"
