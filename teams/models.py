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
from tournaments.models import DEFAULT_GAME, Club, Player, Round, Tournament, game_choices

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


# --- team competitions: a tournament whose stage is team matches -----------------------

MAX_BOARDS = 12


class TeamCompetition(models.Model):
    """The team rules of a tournament whose stage is team matches (a league's division or
    a team Swiss): its boards per team match, the match points of a team match won, drawn
    and lost, the tiebreak chain after match points (``stages.league.CHAIN_KEYS``), the
    lots drawn for ties that survive it (team ids, earlier higher), and, for a league's
    division, its league, its level (1 the top) and how many go up out of it and down out
    of it at the season's end (``stages.league.next_divisions``)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="team_competition"
    )
    # its teams' season, set when the first team is entered (``teams.competitions``)
    season = models.ForeignKey(
        Season,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="team_competitions",
    )
    boards = models.PositiveSmallIntegerField(default=4)
    win_points = models.PositiveSmallIntegerField(default=2)
    draw_points = models.PositiveSmallIntegerField(default=1)
    loss_points = models.PositiveSmallIntegerField(default=0)
    chain = models.JSONField(default=list, blank=True)
    lots = models.JSONField(default=list, blank=True, editable=False)
    league = models.ForeignKey(
        "League", null=True, blank=True, on_delete=models.PROTECT, related_name="divisions"
    )
    level = models.PositiveSmallIntegerField(default=1)
    division_name = models.CharField(max_length=120, blank=True)
    up = models.PositiveSmallIntegerField(default=0, help_text="promoted out of it")
    down = models.PositiveSmallIntegerField(default=0, help_text="relegated out of it")

    class Meta:
        constraints = (
            models.CheckConstraint(
                condition=Q(boards__gte=1, boards__lte=MAX_BOARDS), name="team_boards_bounded"
            ),
            models.CheckConstraint(condition=Q(level__gte=1), name="team_level_from_one"),
            models.UniqueConstraint(
                fields=["league", "season", "level", "division_name"],
                condition=Q(league__isnull=False),
                name="team_division_once",
            ),
        )

    def __str__(self) -> str:
        return f"team competition of {self.tournament_id}"


class League(models.Model):
    """A league played season after season in divisions (each division a team
    competition of a season); its name and the game its divisions play."""

    name = models.CharField(max_length=200)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="leagues")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("name", "id")

    def __str__(self) -> str:
        return self.name


class TeamEntry(models.Model):
    """A team entered in a team competition; ``number`` orders the draw (its Berger
    number, its Swiss pairing number)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="team_entries"
    )
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("tournament", "number", "id")
        verbose_name_plural = "team entries"
        constraints = (
            models.UniqueConstraint(fields=["tournament", "team"], name="team_entry_once"),
        )

    def __str__(self) -> str:
        return f"{self.team_id} in {self.tournament_id}"


class TeamResult(models.TextChoices):
    HOME = "home", "home team won"
    AWAY = "away", "away team won"
    DRAW = "draw", "drawn"


class TeamMatch(models.Model):
    """Two teams' match in a round: ``home`` hosts it (``away`` None: the home team's bye
    in a team Swiss). Its boards' matches are made when both line-ups are in or the
    deadline has passed (``teams.line_ups``). The score is kept from its boards
    (``stages.team_match``) each time one changes, so a table reads these rows only."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="team_matches"
    )
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="team_matches")
    number = models.PositiveSmallIntegerField(help_text="its place in the round, 0 the first")
    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_matches")
    away = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="away_matches"
    )
    # the day it is played (its round's, set by the organisers: ``teams.schedule``)
    date = models.DateField(null=True, blank=True)
    line_up_deadline = models.DateTimeField(null=True, blank=True)
    boards_made = models.BooleanField(default=False)
    home_boards = models.PositiveSmallIntegerField(default=0)
    away_boards = models.PositiveSmallIntegerField(default=0)
    home_points = models.IntegerField(default=0)
    away_points = models.IntegerField(default=0)
    home_tiebreak = models.IntegerField(default=0)
    away_tiebreak = models.IntegerField(default=0)
    undecided = models.PositiveSmallIntegerField(default=0)
    result = models.CharField(max_length=4, choices=TeamResult.choices, blank=True)
    decided_early = models.BooleanField(default=False)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("round__number", "number")
        verbose_name_plural = "team matches"
        constraints = (
            models.UniqueConstraint(fields=["round", "number"], name="team_match_place_once"),
            models.CheckConstraint(
                condition=~Q(home=models.F("away")), name="team_match_two_teams"
            ),
        )

    def __str__(self) -> str:
        return f"team match {self.home_id} v {self.away_id} (round {self.round_id})"


class LineUpPlace(models.Model):
    """A captain's choice for one board of a team match: the player, or nobody (the board
    is then a walkover to the other team)."""

    team_match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="places")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    board = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    given_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("team_match", "team", "board")
        constraints = (
            models.UniqueConstraint(
                fields=["team_match", "team", "board"], name="line_up_board_once"
            ),
            models.UniqueConstraint(
                fields=["team_match", "team", "player"],
                condition=Q(player__isnull=False),
                name="line_up_player_once",
            ),
            models.CheckConstraint(condition=Q(board__gte=1), name="line_up_board_from_one"),
        )

    def __str__(self) -> str:
        return f"board {self.board} of team {self.team_id} in team match {self.team_match_id}"


class TeamBoard(models.Model):
    """Board ``board`` of a team match: its ordinary match (``match``; None when neither
    team had a player). ``home_first``: the home team's player is the match's player 1
    (odd boards), the away team's on even boards, so the first-named side alternates by
    board."""

    team_match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="boards")
    board = models.PositiveSmallIntegerField()
    match = models.OneToOneField(
        "matches.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="team_board",
    )
    home_first = models.BooleanField(default=True)

    class Meta:
        ordering = ("team_match", "board")
        constraints = (
            models.UniqueConstraint(fields=["team_match", "board"], name="team_board_once_each"),
        )

    def __str__(self) -> str:
        return f"board {self.board} of team match {self.team_match_id}"
