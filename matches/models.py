"""Matches, games, result versions, game-record submissions and the audit trail.

Sides: for scoring a match's ``player1`` (the upper slot of the bracket line)
plays as White (``W``) and ``player2`` as Black (``B``). A game's winner and
starter are stored as sides; ``Match.player_for(side)`` gives the player.

Words: *hemspel*, *vackert spel*, *jan*, *sprängjan*, *uppgivet* are the ways a
game is won and *munk* the extra of R11 (see ``engine/types.py``); *tek* is the
roll that decides who starts game 1 (R2).

Every result is a ``GameResult`` version; exactly one version per game is
confirmed, enforced by the ``one_confirmed_result_per_game`` constraint.

In a tournament whose results come from the players (``Tournament.results_by``), a
player's report of a game is a ``GameReport``: it counts for nothing until the opponent
confirms it, and only then becomes the game's first ``GameResult`` (source ``players``).
The database holds the "second person" rule itself: a confirmed or disputed report was
answered by the other side's player (``report_answered_by_the_opponent``), and a result
from the players names its report and was confirmed by someone other than its reporter
(``players_result_has_report``, ``players_result_confirmed_by_another``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Mod
from django.db.models.lookups import Exact

from engine.types import Outcome, OutcomeKind, Pattern, Side
from games import registry
from games.results import ResultValue
from games.seats import letter_of, seat_of, side_of
from matches.stored_report import StoredReport
from tournaments.lengths import MAX_MATCH_LENGTH, validate_length_bounds
from tournaments.models import Entry, LengthUnit, Player, Round, Tournament, Venue


class SideChoice(models.TextChoices):
    WHITE = "W", "White (player 1)"
    BLACK = "B", "Black (player 2)"


def outcome_choices() -> list[tuple[str, str]]:
    """Every outcome code of every registered game (``games``), once: which of them a game
    may take is its family's to say (its scoring refuses the others)."""
    seen: dict[str, str] = {}
    for family in registry.families():
        for term in family.vocabulary.outcomes:
            seen.setdefault(term.code, term.name)
    return list(seen.items())


def game_type_choices() -> list[tuple[str, str]]:
    """Every game type of every registered game (Kungabräde's), once."""
    seen: dict[str, str] = {}
    for family in registry.families():
        for term in family.vocabulary.game_types:
            seen.setdefault(term.code, term.name)
    return list(seen.items())


# The same, as lists (the API's input choices and its schema's enums).
OUTCOMES = outcome_choices()
GAME_TYPES = game_type_choices()


class ConcededChoice(models.TextChoices):
    """What a backgammon resignation conceded (1, 2 or 3 times the cube)."""

    SINGLE = "single", "a single game"
    GAMMON = "gammon", "a gammon"
    BACKGAMMON = "backgammon", "a backgammon"


# Bräde's vackert spel patterns (R12), in the engine's words.
PATTERNS = [(pattern.value, pattern.word) for pattern in Pattern]


def result_columns(value: ResultValue) -> dict[str, Any]:
    """A result as the columns of ``ResultColumns`` hold it (the seat stored as its letter:
    ``games.seats``): the one place a result is written into a row."""
    return {
        "winner": letter_of(value.winner),
        "outcome": value.outcome,
        "pattern": value.pattern,
        "munk": value.munk,
        "cube": value.cube,
        "conceded": value.conceded,
        "game_type": value.game_type,
    }


class ResultColumns(models.Model):
    """The columns of one game's result (``games.results.ResultValue``), shared by a game,
    each version of its result and a player's report. ``result_value`` reads the result
    out of them and ``result_store`` writes one in; nothing else copies them field by field.
    """

    winner = models.CharField(max_length=1, choices=SideChoice.choices)
    outcome = models.CharField(max_length=16, choices=outcome_choices)
    pattern = models.CharField(max_length=24, choices=PATTERNS, blank=True)
    munk = models.BooleanField(default=False)
    # Backgammon: the cube's value (a drop: before the refused double) and what a
    # resignation conceded; Kungabräde: the game type. A family refuses fields not its own.
    cube = models.PositiveIntegerField(default=1)
    conceded = models.CharField(max_length=16, choices=ConcededChoice.choices, blank=True)
    game_type = models.CharField(max_length=16, choices=game_type_choices, blank=True)

    class Meta:
        abstract = True

    def result_value(self) -> ResultValue:
        """The result as every game's family reads it (the stored letter as its seat)."""
        return ResultValue(
            winner=seat_of(self.winner),
            outcome=self.outcome,
            pattern=self.pattern,
            munk=self.munk,
            cube=self.cube,
            conceded=self.conceded,
            game_type=self.game_type,
        )

    def outcome_value(self) -> Outcome:
        """Bräde's engine outcome (a bräde game only)."""
        return Outcome(
            Side(self.winner),
            OutcomeKind(self.outcome),
            Pattern(self.pattern) if self.pattern else None,
            self.munk,
        )

    def result_store(self, value: ResultValue) -> None:
        """Set the columns to ``value`` (not saved)."""
        for name, column in result_columns(value).items():
            setattr(self, name, column)


class MatchState(models.TextChoices):
    WAITING = "waiting", "waiting for players"
    READY = "ready", "ready to play"
    PLAYING = "playing", "being played"
    DECIDED = "decided", "decided"
    WALKOVER = "walkover", "walkover"
    BYE = "bye", "bye"
    # Double elimination's reset: the grand final's winner came from the
    # winners' bracket, so the second final is not played.
    NOT_NEEDED = "not_needed", "not needed"


FINISHED_STATES = (MatchState.DECIDED, MatchState.WALKOVER, MatchState.BYE, MatchState.NOT_NEEDED)


class Match(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    slot = models.PositiveIntegerField(help_text="position in the round, 0 = top of the bracket")
    is_third_place = models.BooleanField(default=False)
    player1 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player2 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    length = models.PositiveIntegerField(validators=[validate_length_bounds])
    length_unit = models.CharField(
        max_length=8, choices=LengthUnit.choices, default=LengthUnit.GAMES
    )
    state = models.CharField(max_length=16, choices=MatchState.choices, default=MatchState.WAITING)
    winner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_after_game = models.PositiveIntegerField(null=True, blank=True)
    decided_early = models.BooleanField(default=False)
    # Backgammon: the number of the Crawford game once it is known (cached by scoring).
    crawford_game = models.PositiveIntegerField(null=True, blank=True)
    walkover = models.BooleanField(default=False)
    # Cached score (recomputed by scoring after every game), so that brackets
    # and standings are read without replaying the games.
    points1 = models.IntegerField(default=0)
    points2 = models.IntegerField(default=0)
    tiebreak1 = models.IntegerField(default=0)
    tiebreak2 = models.IntegerField(default=0)
    # A game record that disagrees with the entered results flags the match.
    flag = models.TextField(blank=True)
    # Consolation and double elimination (``matches.elimination_progression``):
    # the match's code in ``stages.elimination`` (M2.1, C1.3, W1.2, L4.1, GF, GF2; empty in
    # a knockout and a round robin, which feed by slot) and the links made from its sources
    # at the draw: the match the winner and the loser go to, and to which side (upper =
    # player 1). ``loser_first_match_only``: the loser goes only if this was its first
    # match (simple consolation); ``if_needed``: the reset, played only if the losers'
    # bracket's player wins the grand final.
    code = models.CharField(max_length=8, blank=True)
    winner_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    winner_to_upper = models.BooleanField(default=True)
    loser_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    loser_to_upper = models.BooleanField(default=True)
    loser_first_match_only = models.BooleanField(default=False)
    if_needed = models.BooleanField(default=False)
    # The table (board) the match is played at, 1 the first: numbered in pairing order
    # when the round's matches are created, changed by an organiser (``matches.tables``).
    # A bye, a walkover and a reset not needed are not played at a table (``board``).
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    # Where it is played, in a tournament played at several venues (``tournaments.Venue``);
    # its table is numbered within the venue. None: the tournament's one place.
    venue = models.ForeignKey(
        Venue, null=True, blank=True, on_delete=models.PROTECT, related_name="matches"
    )
    updated_at = models.DateTimeField(auto_now=True)
    # The tournament's version at this match's last change (``matches.common.match_mark``):
    # with the tournament's ``whole_version``, what the match's live parts and its round's
    # ETag and cached fragments are keyed by (``web.live``).
    live_version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ("round__number", "is_third_place", "slot")
        verbose_name_plural = "matches"
        constraints = (
            models.UniqueConstraint(
                fields=["round", "slot", "is_third_place"], name="match_slot_once"
            ),
            models.CheckConstraint(
                condition=~Q(player1=models.F("player2")) | Q(player1__isnull=True),
                name="match_two_different_players",
            ),
            # S1, and this site's longest match (tournaments.lengths): 1 to 25, odd when
            # the length counts games (any number of points for backgammon).
            models.CheckConstraint(
                condition=Q(length__gte=1, length__lte=MAX_MATCH_LENGTH)
                & (Q(length_unit=LengthUnit.POINTS) | Q(Exact(Mod(F("length"), 2), 1))),
                name="match_length_odd_in_games_at_most_max",
            ),
        )

    def __str__(self) -> str:
        one = self.player1.name if self.player1 else "?"
        two = self.player2.name if self.player2 else ("bye" if self.state == "bye" else "?")
        return f"{one} – {two}"

    def player_for(self, side: Side | str | int) -> Player | None:
        """The player of a seat, an engine side or a stored letter (``games.seats``): the
        one place a seat becomes ``player1`` (seat 0, White) or ``player2``."""
        seat = side if isinstance(side, int) else seat_of(side)
        side_of(seat)  # ValueError for a number that is no seat
        return self.player1 if seat == 0 else self.player2

    def seat_of(self, player: Player) -> int | None:
        """``player``'s seat in this match (0: ``player1``), or None."""
        if self.player1_id is not None and player.pk == self.player1_id:
            return 0
        if self.player2_id is not None and player.pk == self.player2_id:
            return 1
        return None

    def side_of(self, player: Player) -> Side | None:
        seat = self.seat_of(player)
        return None if seat is None else side_of(seat)

    @property
    def board(self) -> int | None:
        """The table to show: none for a bye, a walkover or a reset not needed, which
        are not played at a table (the stored number comes back if a reset makes the
        match playable again)."""
        if self.state in (MatchState.BYE, MatchState.WALKOVER, MatchState.NOT_NEEDED):
            return None
        return self.table

    @property
    def loser(self) -> Player | None:
        if self.winner_id is None or self.state == MatchState.BYE:
            return None
        return self.player2 if self.winner_id == self.player1_id else self.player1


class ResultSource(models.TextChoices):
    REFEREE = "referee", "entered by a referee"
    RECORD = "record", "entered from a verified game record"
    PLAYERS = "players", "reported by a player, confirmed by the opponent"


class SiteNote(models.TextChoices):
    """What the site itself notes on a result or a report: a code, worded when it is read
    in the reader's language (``matches.site_words``), never words in the language of
    whoever was signed in when it was stored. A person's own note stays in ``note``."""

    RECORDED_LIVE = "recorded_live", "recorded move by move on the digital scoresheet"
    FROM_RECORD = "from_record", "entered from a game record a referee submitted"


class Game(ResultColumns):
    """One game of a match; its fields mirror the confirmed ``GameResult``."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    starter = models.CharField(max_length=1, choices=SideChoice.choices, blank=True)
    source = models.CharField(
        max_length=16, choices=ResultSource.choices, default=ResultSource.REFEREE
    )
    verified = models.BooleanField(default=False, help_text="a game record agrees")
    verified_by = models.ForeignKey(
        "GameRecordSubmission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True, help_text="set by a match reset")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("match", "number", "id")
        constraints = (
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=Q(voided_at__isnull=True),
                name="game_number_once_per_match",
            ),
        )

    def __str__(self) -> str:
        return f"game {self.number}: {self.winner} {self.outcome}"


class ReportState(models.TextChoices):
    PENDING = "pending", "waiting for the opponent"
    CONFIRMED = "confirmed", "confirmed by the opponent"
    DISPUTED = "disputed", "disputed, for the referees to decide"
    WITHDRAWN = "withdrawn", "withdrawn by its reporter"
    OVERRIDDEN = "overridden", "settled by a referee or organiser"


OPEN_REPORT_STATES = (ReportState.PENDING, ReportState.DISPUTED)


class GameReport(ResultColumns):
    """A player's report of a game's result, for the opponent to confirm or dispute.

    Open (pending or disputed) until confirmed (it becomes the game's result), withdrawn
    by its reporter, or settled by a referee or organiser (who entered the game, reset
    the match or gave a walkover, or closed the report). ``starter`` is game 1's tek
    only; later games are started by the previous game's loser (R2, S5).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    number = models.PositiveIntegerField()
    starter = models.CharField(max_length=1, choices=SideChoice.choices, blank=True)
    note = models.CharField(max_length=500, blank=True)
    site_note = models.CharField(max_length=16, choices=SiteNote.choices, blank=True)
    state = models.CharField(
        max_length=16, choices=ReportState.choices, default=ReportState.PENDING
    )
    # Who reported: the user, and the player (and side) they are in this match. Players
    # are kept (PROTECT) while they have matches, so the constraints hold for good.
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reporter = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    reporter_side = models.CharField(max_length=1, choices=SideChoice.choices)
    reported_at = models.DateTimeField(auto_now_add=True)
    # The opponent's answer: confirmed or disputed.
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answerer = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    answerer_side = models.CharField(max_length=1, choices=SideChoice.choices, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    dispute_note = models.CharField(max_length=500, blank=True)
    # Closed without the opponent: withdrawn by the reporter, or settled by staff.
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    close_note = models.CharField(max_length=500, blank=True)
    # The record the game was recorded with (the digital scoresheet): confirmed, the game
    # is entered with it as its evidence, verified like a game entered from a record.
    submission = models.ForeignKey(
        "GameRecordSubmission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ("match", "number", "id")
        constraints = (
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=Q(state__in=OPEN_REPORT_STATES),
                name="one_open_report_per_game",
            ),
            # The second person: only the other side's player answers a report.
            models.CheckConstraint(
                condition=~Q(state__in=(ReportState.CONFIRMED, ReportState.DISPUTED))
                | (
                    Q(
                        answerer__isnull=False,
                        answerer_side__in=(SideChoice.WHITE, SideChoice.BLACK),
                    )
                    & ~Q(answerer=F("reporter"))
                    & ~Q(answerer_side=F("reporter_side"))
                ),
                name="report_answered_by_the_opponent",
            ),
            models.CheckConstraint(
                condition=~Q(answered_by=F("reported_by")),
                name="report_answered_by_another_user",
            ),
            models.CheckConstraint(
                condition=Q(reporter_side__in=(SideChoice.WHITE, SideChoice.BLACK)),
                name="report_reporter_side_known",
            ),
        )

    def __str__(self) -> str:
        return f"report #{self.pk}: game {self.number} of match #{self.match_id} ({self.state})"

    @property
    def is_open(self) -> bool:
        return self.state in OPEN_REPORT_STATES


class GameResult(ResultColumns):
    """A version of a game's result: who entered it and when (and, for a result the
    players reported, which report it was and who confirmed it)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    version = models.PositiveIntegerField()
    source = models.CharField(
        max_length=16, choices=ResultSource.choices, default=ResultSource.REFEREE
    )
    submission = models.ForeignKey(
        "GameRecordSubmission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed = models.BooleanField(default=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    note = models.CharField(max_length=500, blank=True)
    site_note = models.CharField(max_length=16, choices=SiteNote.choices, blank=True)
    report = models.OneToOneField(
        GameReport, null=True, blank=True, on_delete=models.PROTECT, related_name="result"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the opponent who confirmed a player's report",
    )

    class Meta:
        ordering = ("game", "version")
        constraints = (
            models.UniqueConstraint(fields=["game", "version"], name="game_result_version_once"),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(confirmed=True),
                name="one_confirmed_result_per_game",
            ),
            # A result from the players came through a report (answered by the opponent:
            # ``report_answered_by_the_opponent``) and its confirmer is not its reporter.
            models.CheckConstraint(
                condition=~Q(source=ResultSource.PLAYERS) | Q(report__isnull=False),
                name="players_result_has_report",
            ),
            models.CheckConstraint(
                condition=~Q(source=ResultSource.PLAYERS) | ~Q(confirmed_by=F("entered_by")),
                name="players_result_confirmed_by_another",
            ),
        )

    def __str__(self) -> str:
        return f"{self.game} v{self.version}"


class RecordState(models.TextChoices):
    PENDING = "pending", "waiting for verification"
    VERIFYING = "verifying", "being verified"
    VERIFIED = "verified", "verified, agrees with the results"
    ENTERED = "entered", "verified, results entered from it"
    MISMATCH = "mismatch", "verified, disagrees with the results"
    INVALID = "invalid", "not valid (see the engine's message)"
    FAILED = "failed", "verification failed repeatedly"


RECORD_DONE_STATES = (
    RecordState.VERIFIED,
    RecordState.ENTERED,
    RecordState.MISMATCH,
    RecordState.INVALID,
    RecordState.FAILED,
)


class GameRecordSubmission(models.Model):
    """A game record as submitted (game-record.md), and the engine's verdict.

    Verification bookkeeping (``matches.records.game_record_verify``,
    ``matches.record_queue``): ``attempts`` counts the attempts that claimed the record;
    ``lease_until`` is renewed by the running attempt's worker every few seconds, so an
    attempt whose lease ran out is dead and the record may be taken over at once;
    ``message_until`` says until when a broker message for the record may still be live
    (queued, or held by a worker that may die and hand it back),
    so that a record never has more than one.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="submissions")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    text = models.TextField(help_text="the raw record, text or JSON, exactly as submitted")
    state = models.CharField(
        max_length=16, choices=RecordState.choices, default=RecordState.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="while verifying: the attempt is alive until then (its worker renews it)",
    )
    message_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="a verification message for this record may be live in the broker until then",
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    # Written as a ``StoredReport`` (checked); read through ``stored_report(sub)``, which
    # gives the empty report for a record that has none yet.
    report: models.JSONField[StoredReport | None, Any] = models.JSONField(null=True, blank=True)
    message = models.TextField(blank=True, help_text="the engine's verdict in plain words")

    class Meta:
        ordering = ("-submitted_at", "-id")

    def __str__(self) -> str:
        return f"record #{self.pk} for match #{self.match_id} ({self.state})"


class EventKind(models.TextChoices):
    RESULT_ENTERED = "result_entered", "result entered"
    RESULT_CORRECTED = "result_corrected", "result corrected"
    MATCH_DECIDED = "match_decided", "match decided"
    WALKOVER = "walkover", "walkover"
    BYE = "bye", "bye"
    ADVANCED = "advanced", "player advanced"
    RESET = "reset", "match reset"
    RECORD_SUBMITTED = "record_submitted", "game record submitted"
    RECORD_VERIFIED = "record_verified", "game record verified"
    RECORD_MISMATCH = "record_mismatch", "game record disagrees"
    FLAG_CLEARED = "flag_cleared", "flag cleared by a referee"
    WITHDRAWAL = "withdrawal", "withdrawal"
    REPORT_SUBMITTED = "report_submitted", "game reported by a player"
    REPORT_CONFIRMED = "report_confirmed", "report confirmed by the opponent"
    REPORT_DISPUTED = "report_disputed", "report disputed by the opponent"
    REPORT_WITHDRAWN = "report_withdrawn", "report withdrawn by its reporter"
    REPORT_OVERRIDDEN = "report_overridden", "report settled by a referee or organiser"
    NOT_NEEDED = "not_needed", "not needed (the reset of a grand final)"
    BYE_UNDONE = "bye_undone", "bye taken back (the result before it changed)"
    # Swiss rounds (``matches.swiss_progression``): the pairing with its reason,
    # an organiser's swap, the round published.
    SWISS_PAIRED = "swiss_paired", "paired (Swiss)"
    SWISS_SWAPPED = "swiss_swapped", "pairing swapped by an organiser"
    SWISS_PUBLISHED = "swiss_published", "round published"
    TABLE_SET = "table_set", "table changed by an organiser"
    VENUE_SET = "venue_set", "venue changed by an organiser"


class AuditEntry(models.Model):
    """What every audit row holds: who made the change (None once their account is gone),
    when, and its details; kept in the order they happened."""

    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    data: models.JSONField[Any, Any] = models.JSONField(default=dict, blank=True)

    class Meta:
        abstract = True
        ordering = ("at", "id")


class MatchEvent(AuditEntry):
    """The audit trail: every change to a match, who made it and when."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=24, choices=EventKind.choices)

    def __str__(self) -> str:
        return f"{self.kind} on match #{self.match_id}"


class EntryEventKind(models.TextChoices):
    CHECKED_OUT = "checked_out", "checked out (not paired in the next round)"
    CHECKED_IN = "checked_in", "checked in again"
    HALF_BYE_ASKED = "half_bye_asked", "half-point bye asked for"
    HALF_BYE_CANCELLED = "half_bye_cancelled", "half-point bye cancelled"


class EntryEvent(models.Model):
    """The audit trail of a player's presence between Swiss rounds:
    who checked them in or out, and when (``matches.swiss_progression``)."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=24, choices=EntryEventKind.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    data: models.JSONField[Any, Any] = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ("at", "id")

    def __str__(self) -> str:
        return f"{self.kind} of entry #{self.entry_id}"


class HalfPointBye(models.Model):
    """A Swiss player's wish to sit out round ``round_number`` for half a point, asked
    before the round is paired (``matches.swiss_byes``; a number, not a round, so it may
    be asked before the Swiss starts): the player is left out of that round's pairing and
    scores ½ once the round is finished."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="half_point_byes")
    round_number = models.PositiveSmallIntegerField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("round_number", "entry")
        constraints = (
            models.UniqueConstraint(fields=["entry", "round_number"], name="half_point_bye_once"),
            models.CheckConstraint(
                condition=Q(round_number__gte=1), name="half_point_bye_round_positive"
            ),
        )

    def __str__(self) -> str:
        return f"half-point bye of entry #{self.entry_id} in round {self.round_number}"


class FloatDirection(models.TextChoices):
    DOWN = "down", "floated down"
    UP = "up", "floated up"


class SwissFloat(models.Model):
    """The float history: who was paired against a lower score (``down``; the bye counts
    as a float down) or a higher one (``up``) in a Swiss round, stored when the round is
    paired (and again after a swap), read when the next round is paired."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="floats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    direction = models.CharField(max_length=4, choices=FloatDirection.choices)

    class Meta:
        ordering = ("round", "player")
        constraints = (
            models.UniqueConstraint(fields=["round", "player"], name="swiss_float_once"),
        )

    def __str__(self) -> str:
        return f"{self.player_id} {self.direction} in round #{self.round_id}"


class RoundEventKind(models.TextChoices):
    UNPAIRED = "unpaired", "pairing taken back by an organiser"
    REPAIRED = "repaired", "paired again by an organiser"


class RoundEvent(AuditEntry):
    """The audit trail of a Swiss round's pairing taken back (``data["pairs"]``: the pairs
    removed, as ``[player1, player2]``, the bye's second ``null``)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=16, choices=RoundEventKind.choices)

    def __str__(self) -> str:
        return f"{self.kind} of round #{self.round_id}"


class AnalysisState(models.TextChoices):
    QUEUED = "queued", "waiting for a worker"
    RUNNING = "running", "being analysed"
    DONE = "done", "analysed"
    FAILED = "failed", "the analysis failed"
    UNAVAILABLE = "unavailable", "analysis is not installed on this site"


class MatchAnalysis(models.Model):
    """A backgammon match's analysis (``backgammon.analysis``), one per match, made again
    when asked. ``source`` is the record it analysed; ``progress`` counts the games done
    of ``total``; ``result`` is ``MatchAnalysis.to_dict()`` once done, with the players
    in the record's order (its first player first)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis")
    source = models.ForeignKey(
        GameRecordSubmission, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    state = models.CharField(
        max_length=16, choices=AnalysisState.choices, default=AnalysisState.QUEUED
    )
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    requested_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    result: models.JSONField[dict[str, Any] | None, Any] = models.JSONField(null=True, blank=True)
    # the first and second player's PR, for lists (a player's history) without the JSON
    pr_first = models.FloatField(null=True, blank=True)
    pr_second = models.FloatField(null=True, blank=True)
    message = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"analysis of match #{self.match_id} ({self.state})"
