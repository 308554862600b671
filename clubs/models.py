"""What a club keeps beyond one tournament: ratings per game and formula and their
history, imported starting ratings, the formula of a club's rating list, club seasons and
the results of seasons before the site.

Ratings are kept per game, keyed by the game's registry key (``brade``, ``backgammon``;
``ratings.ledger.RATED_GAMES``): a bräde match moves only bräde ratings. Each game's
ratings are kept by one or more formulas (``formula``, a key of ``ratings.formulas``:
``fibs``, the default, and ``danish``), side by side: a rating list is a game's ratings by
one formula. The figures come from ``ratings`` (pure: the formulas and the ledger); these
models only store them, and every change goes through ``clubs.rating_services`` and
``clubs.season_services``.

- ``RatingBook``: one row per rated game, the last match rated (the order key of
  ``ratings.ledger``, the same for every formula), the formulas whose rows are kept, and
  the row every rating update locks first, so two updates of one game never interleave.
- ``PlayerRating``: a player's current rating and experience in one game by one formula.
- ``RatingEntry``: one player's side of one rated match by one formula (before, after,
  change): the history the charts and the match pages show.
- ``ClubRatingList``: the formula a club's rating list uses (FIBS when the club has no
  row); every formula a club chooses is kept for every game.
- ``RatingStart``: a rating a player brings from elsewhere (imported), the start instead of
  1500 (``Player.rating``, the organisers' free field, is not used: see
  ``clubs.rating_services``).
- ``Season`` groups tournaments and club nights (``SeasonEvent``) with its points rules;
  ``ImportedEvent``/``ImportedMatch``/``ImportedPlacing`` hold a previous season's
  results read from CSV (``clubs.results_import``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from ratings import formulas as formula_registry
from ratings.formulas import DEFAULT_FORMULA
from ratings.ledger import RATED_GAMES
from tournaments.models import Club, Player, Tournament

RATING_DIGITS = 8  # up to 999999.99
FORMULA_LENGTH = 16  # a formula's key (``ratings.formulas``)


def formula_choices() -> tuple[tuple[str, str], ...]:
    """The rating formulas a list may use: every registered one (``ratings.formulas``);
    the labels are English, the pages translate them (``clubs.rating_formulas``)."""
    return formula_registry.choices()


def default_book_formulas() -> list[str]:
    """A new book's formulas: the default one (see ``RatingBook.formulas``)."""
    return [DEFAULT_FORMULA]


class RatedGame(models.TextChoices):
    """The games with ratings (``ratings.ledger.RATED_GAMES``); the labels are the games'
    own names, which the pages translate."""

    BRADE = "brade", "Bräde"
    BACKGAMMON = "backgammon", "Backgammon"


assert tuple(RatedGame.values) == RATED_GAMES, "clubs.RatedGame must follow ratings.ledger"


class RatingBook(models.Model):
    """One rated game's bookkeeping: the last match rated, in the ledger's order
    (``ended_at``, match id), the formulas whose ratings the game's rows hold (in the
    order they are kept; a formula wanted and not among them makes the next update
    rebuild the game: ``clubs.rating_services``), and the row each update locks first."""

    game = models.CharField(max_length=16, choices=RatedGame.choices, primary_key=True)
    last_ended_at = models.DateTimeField(null=True, blank=True)
    last_match_id = models.BigIntegerField(null=True, blank=True)
    version = models.PositiveBigIntegerField(default=0)
    rebuilt_at = models.DateTimeField(null=True, blank=True)
    formulas = models.JSONField(
        default=default_book_formulas, help_text="the formulas whose ratings the rows hold"
    )

    def __str__(self) -> str:
        return f"{self.game} ratings"


class PlayerRating(models.Model):
    """A player's current rating in one game by one formula: ``experience`` is the sum of
    the lengths of their rated matches (plus any imported experience), ``matches`` how
    many were rated."""

    game = models.CharField(max_length=16, choices=RatedGame.choices)
    formula = models.CharField(
        max_length=FORMULA_LENGTH, choices=formula_choices, default=DEFAULT_FORMULA
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    rating = models.DecimalField(max_digits=RATING_DIGITS, decimal_places=2)
    experience = models.PositiveIntegerField(default=0)
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ("game", "formula", "-rating", "player_id")
        constraints = (
            models.UniqueConstraint(
                fields=["game", "formula", "player"], name="player_rating_once_per_list"
            ),
        )
        indexes = (models.Index(fields=["game", "formula", "-rating"], name="player_rating_list"),)

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} {self.formula} {self.rating}"


class RatingEntry(models.Model):
    """One player's side of one rated match by one formula
    (``ratings.ledger.HistoryEntry``)."""

    game = models.CharField(max_length=16, choices=RatedGame.choices)
    formula = models.CharField(
        max_length=FORMULA_LENGTH, choices=formula_choices, default=DEFAULT_FORMULA
    )
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_entries")
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    won = models.BooleanField()
    before = models.DecimalField(max_digits=RATING_DIGITS, decimal_places=2)
    after = models.DecimalField(max_digits=RATING_DIGITS, decimal_places=2)
    change = models.DecimalField(max_digits=RATING_DIGITS, decimal_places=2)
    experience = models.PositiveIntegerField(help_text="before the match (FIBS's K came from it)")
    length = models.PositiveIntegerField(help_text="the n the match was rated with")
    ended_at = models.DateTimeField()

    class Meta:
        ordering = ("game", "formula", "player", "ended_at", "match_id")
        verbose_name_plural = "rating entries"
        constraints = (
            models.UniqueConstraint(
                fields=["match", "player", "formula"], name="rating_entry_once_per_formula"
            ),
            models.CheckConstraint(
                condition=~Q(player=F("opponent")), name="rating_entry_two_players"
            ),
        )
        indexes = (
            models.Index(
                fields=["game", "formula", "player", "ended_at", "match"],
                name="rating_entry_history",
            ),
        )

    def __str__(self) -> str:
        return f"{self.player_id} in match {self.match_id}: {self.change:+}"


class RatingStart(models.Model):
    """A rating a player brings from elsewhere: where their ``game`` rating starts instead
    of 1500 with experience 0. Set through ``rating_services.rating_start_set`` (it rebuilds
    the game's ratings)."""

    game = models.CharField(max_length=16, choices=RatedGame.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_starts")
    rating = models.DecimalField(max_digits=RATING_DIGITS, decimal_places=2)
    experience = models.PositiveIntegerField(default=0)
    note = models.CharField(max_length=200, blank=True, help_text="where the rating comes from")
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    set_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("game", "player")
        constraints = (
            models.UniqueConstraint(fields=["game", "player"], name="rating_start_once_per_game"),
            models.CheckConstraint(condition=Q(rating__gte=0), name="rating_start_not_negative"),
        )

    def __str__(self) -> str:
        return f"{self.player} starts {self.game} at {self.rating}"


class ClubRatingList(models.Model):
    """The formula a club's rating list uses (``ratings.formulas``): its list page and the
    API show the club's players by it unless asked for another. No row: FIBS. Set
    through ``rating_services.club_rating_formula_set`` (it keeps the formula's ratings
    for every game, rebuilding them when the formula is new to the site)."""

    club = models.OneToOneField(
        Club, on_delete=models.CASCADE, primary_key=True, related_name="rating_list"
    )
    formula = models.CharField(
        max_length=FORMULA_LENGTH, choices=formula_choices, default=DEFAULT_FORMULA
    )
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    set_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.club} rates by {self.formula}"


# --- seasons ------------------------------------------------------------------------


class EventKind(models.TextChoices):
    """``ratings.season.EventKind``: each kind has its own points."""

    TOURNAMENT = "tournament", "tournament"
    CLUB_NIGHT = "club_night", "club night"


def placings_problem(value: Any) -> str | None:
    """What is wrong with a placings table (place → points), or None. Stored as JSON with
    the places as text keys: ``{"1": 10, "2": 6}``."""
    if not isinstance(value, dict):
        return "placings are a table of place → points"
    for place, points in value.items():
        if not str(place).isdigit() or int(place) < 1:
            return f"place {place!r} is not a place (1, 2, 3, …)"
        if not isinstance(points, int) or isinstance(points, bool) or points < 0:
            return f"place {place}: points are a whole number, 0 or more"
    return None


class Season(models.Model):
    """A club's season: its events and its points rules, one set per kind of event."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(max_length=200)
    start_date = models.DateField()
    end_date = models.DateField()
    tournament_taking_part = models.PositiveIntegerField(default=0)
    tournament_match_won = models.PositiveIntegerField(default=0)
    tournament_placings = models.JSONField(default=dict, blank=True)
    club_night_taking_part = models.PositiveIntegerField(default=0)
    club_night_match_won = models.PositiveIntegerField(default=0)
    club_night_placings = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-start_date", "name", "id")
        constraints = (
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")), name="season_ends_after_start"
            ),
            models.UniqueConstraint(fields=["club", "name"], name="season_name_once_per_club"),
        )

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class SeasonEvent(models.Model):
    """A tournament of the site counted in a season, as a tournament or a club night."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="events")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="season_events"
    )
    kind = models.CharField(max_length=16, choices=EventKind.choices, default=EventKind.TOURNAMENT)

    class Meta:
        ordering = ("season", "tournament__start_date", "id")
        constraints = (
            models.UniqueConstraint(
                fields=["season", "tournament"], name="season_event_tournament_once"
            ),
        )

    def __str__(self) -> str:
        return f"{self.tournament} in {self.season}"


class ImportedEvent(models.Model):
    """An event of a season played before the site, read from CSV (all its rows at once)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="imported_events")
    name = models.CharField(max_length=200)
    date = models.DateField()
    kind = models.CharField(max_length=16, choices=EventKind.choices, default=EventKind.TOURNAMENT)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("season", "date", "name", "id")
        constraints = (
            models.UniqueConstraint(
                fields=["season", "name", "date"], name="imported_event_once_per_season"
            ),
        )

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"


class ImportedMatch(models.Model):
    event = models.ForeignKey(ImportedEvent, on_delete=models.CASCADE, related_name="matches")
    line = models.PositiveIntegerField(help_text="the CSV line it came from")
    player1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    length = models.PositiveIntegerField(null=True, blank=True)
    walkover = models.BooleanField(default=False)

    class Meta:
        ordering = ("event", "line")
        verbose_name_plural = "imported matches"
        constraints = (
            models.CheckConstraint(
                condition=~Q(player1=F("player2")), name="imported_match_two_players"
            ),
            models.CheckConstraint(
                condition=Q(winner=F("player1")) | Q(winner=F("player2")),
                name="imported_match_winner_plays",
            ),
        )

    def __str__(self) -> str:
        return f"row {self.line} of {self.event_id}"


class ImportedPlacing(models.Model):
    event = models.ForeignKey(ImportedEvent, on_delete=models.CASCADE, related_name="placings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    place = models.PositiveIntegerField()

    class Meta:
        ordering = ("event", "place", "player")
        constraints = (
            models.UniqueConstraint(fields=["event", "player"], name="imported_placing_once"),
            models.CheckConstraint(condition=Q(place__gte=1), name="imported_place_positive"),
        )

    def __str__(self) -> str:
        return f"{self.player_id} placed {self.place} in {self.event_id}"
