"""The digital scoresheet's rows: a game being recorded (``LiveGame``) and its turns
(``LiveTurn``), each with its sequence number.

A match's recording numbers its turns with one sequence across its games (``seq`` 1, 2,
…; the next game goes on from the last game's number), so a phone that sends the last
turn of a game again after the next game started is still answered from that turn.
``unique(live_game, seq)`` and ``unique(match, seq)`` keep a turn stored once whatever
two devices do at the same moment; the turn's service locks the live game's row
(``select_for_update``) before it checks the sequence.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from matches.models import Game, GameRecordSubmission, GameReport, Match


class DiceMode(models.TextChoices):
    ENTERED = "entered", "entered by the players"
    ROLLED = "rolled", "rolled by the site"


class LiveStatus(models.TextChoices):
    RECORDING = "recording", "being recorded"
    FINISHED = "finished", "finished"


class LiveGame(models.Model):
    """One game of a match being (or having been) recorded move by move.

    ``setup`` is what the game was started with (``games.live.LiveSetup`` as JSON: rule
    set, scale, match score, starter, Crawford game), so its turns replay the same way
    whatever changes later. ``seq`` is the sequence number of the match's last turn;
    ``version`` moves with every change of the match's recording (the live state's ETag).
    At the end: the record stored for it (``submission``), and the game entered from it
    (``game``) or the player's report waiting for the opponent (``report``)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="live_games")
    number = models.PositiveIntegerField(help_text="the game's number in the match")
    status = models.CharField(
        max_length=16, choices=LiveStatus.choices, default=LiveStatus.RECORDING
    )
    dice_mode = models.CharField(max_length=8, choices=DiceMode.choices, default=DiceMode.ENTERED)
    setup = models.JSONField(default=dict)
    seq = models.PositiveIntegerField(default=0)
    version = models.PositiveBigIntegerField(default=1)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    submission = models.ForeignKey(
        GameRecordSubmission, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    report = models.ForeignKey(
        GameReport, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    outcome = models.JSONField(null=True, blank=True, help_text="how the game ended")
    clock = models.JSONField(
        null=True, blank=True, help_text="the match's clock in this game (scoresheets.clock)"
    )

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["match", "number"], name="live_game_once_per_number"),
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status="recording"),
                name="live_game_one_recording_per_match",
            ),
        )
        indexes = (models.Index(fields=["match", "-number"], name="live_game_latest"),)

    def __str__(self) -> str:
        return f"match {self.match_id} game {self.number} ({self.status})"


class LiveTurn(models.Model):
    """One accepted action of a recorded game, with its sequence number.

    ``posted`` is the content as it was sent (action, dice, steps, starter, resignation),
    so the same content sent again is recognised (idempotent) and different content with
    the same number is a conflict; ``dice`` and ``steps`` are what the engine applied (the
    site's roll, the steps as played); ``text`` the record's words for it; ``illegal``: an
    illegal play the opponent accepted as played (backgammon), its steps as played."""

    live_game = models.ForeignKey(LiveGame, on_delete=models.CASCADE, related_name="turns")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    side = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.CharField(max_length=8)
    dice = models.JSONField(null=True, blank=True)
    steps = models.JSONField(default=list, blank=True)
    starter = models.PositiveSmallIntegerField(null=True, blank=True)
    resign_value = models.PositiveSmallIntegerField(null=True, blank=True)
    illegal = models.BooleanField(
        default=False, help_text="an illegal play the opponent accepted as played"
    )
    text = models.CharField(max_length=200)
    clock = models.JSONField(
        null=True, blank=True, help_text="both players' remaining ms after the turn"
    )
    used_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="how long the mover's clock ran for the turn (ms)"
    )
    reported_ms = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="the device's own figure where the server did not believe it "
        "(scoresheets.clock: clamped to the time the server saw)",
    )
    queued = models.BooleanField(
        default=False,
        help_text="the device says the turn waited on it before it was sent (offline)",
    )
    posted = models.JSONField(default=dict)
    device = models.UUIDField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["live_game", "seq"], name="live_turn_once_per_seq"),
            models.UniqueConstraint(fields=["match", "seq"], name="live_turn_once_per_match_seq"),
        )
        ordering = ("seq",)

    def __str__(self) -> str:
        return f"#{self.seq} {self.text}"
