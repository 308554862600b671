"""Clubs, players, tournaments, entries and rounds.

Words: a *seed* is a player's place in the seeding list (1 = strongest); a *bye*
is a first-round line with no opponent, given to the top seeds; a *walkover* is a
match won without play because the opponent did not appear or withdrew
(scoring.md S6). Bräde's own words (munk, jan, hemspel, …) are defined in
``engine/types.py``.

The models only hold data: every change goes through the services of ``tournaments``
(``tournament_setup``, ``entries``, ``players``, ``stage_draws`` …) and ``matches``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Mod
from django.db.models.lookups import Exact, GreaterThanOrEqual
from django.utils import timezone
from django.utils.translation import gettext, pgettext

from formats import format_for
from games import registry
from tournaments.lengths import GAMES, MAX_MATCH_LENGTH, POINTS, validate_length_bounds
from tournaments.player_names import player_name_key
from tournaments.round_kinds import RoundKind, round_kind


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    city = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays; optionally linked to a user account (to submit records).

    Within a club, one name is one player: the database refuses a second player of a
    club whose name has the same key (``name_key``: ``tournaments.player_names``; any
    case, Unicode form and spacing), so a name in a club says who it is. Players of no
    club are not held to it: a name alone, with no club, is not enough to tell two
    people apart (two Erik Johanssons of no club are two players), and no import
    creates a player of no club. ``name_key`` follows ``name`` on every ``save()``
    (a ``bulk_create`` must give it).
    """

    name = models.CharField(max_length=120)
    # The name's key (tournaments.player_names), kept by save(); text, as the key of a
    # 120-character name may be longer.
    name_key = models.TextField(editable=False, default="")
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    rating = models.PositiveIntegerField(null=True, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )

    class Meta:
        ordering = ("name", "id")
        constraints = (
            # One player per name per club (the key first: it also finds a name in
            # every club, as the results import asks). NULL clubs are distinct.
            models.UniqueConstraint(fields=["name_key", "club"], name="player_name_once_per_club"),
        )

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Keep ``name_key`` the key of ``name`` (saved with it when only some fields
        are saved)."""
        self.name_key = player_name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class InvitationState(models.TextChoices):
    PENDING = "pending", "pending"
    ACCEPTED = "accepted", "accepted"
    DECLINED = "declined", "declined"
    # Closed without an answer: the player or the account was linked otherwise.
    CLOSED = "closed", "closed"


class InvitationAnswer(models.Model):
    """What every invitation keeps of its answer (a player's link, a staff role): its
    state, when it was made and when it was answered; newest first. Abstract: each kind
    is its own table."""

    state = models.CharField(
        max_length=12, choices=InvitationState.choices, default=InvitationState.PENDING
    )
    created_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ("-created_at", "-id")


class PlayerInvitation(InvitationAnswer):
    """An organiser's request to link ``player`` to ``user``'s account: the link is made
    only when that user accepts (``tournaments.invitations``). Registry staff link
    without asking."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player_invitations_sent",
    )

    class Meta(InvitationAnswer.Meta):
        constraints = (
            # One open invitation per player and account: asking again is no new one.
            models.UniqueConstraint(
                fields=["player", "user"],
                condition=Q(state="pending"),
                name="player_invitation_pending_once",
            ),
        )

    def __str__(self) -> str:
        return f"{self.player} → {self.user} ({self.state})"


class StaffRole(models.TextChoices):
    """What a staff invitation makes its user in the tournament."""

    REFEREE = "referee", "referee"
    ORGANISER = "organiser", "organiser"


class StaffInvitation(InvitationAnswer):
    """An organiser's invitation to referee or co-organise ``tournament``
    (``tournaments.staff_invitations``): to an account by user name (``user`` set at
    once), or to an e-mail address (``email``; ``user`` set by whoever signs in and opens
    the mailed link, which carries ``token``). Its user becomes staff on accepting."""

    tournament = models.ForeignKey(
        "Tournament", on_delete=models.CASCADE, related_name="staff_invitations"
    )
    role = models.CharField(max_length=12, choices=StaffRole.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="staff_invitations",
    )
    email = models.EmailField(blank=True)
    token = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="staff_invitations_sent",
    )

    def __str__(self) -> str:
        return f"{self.user or self.email} → {self.role} of {self.tournament_id} ({self.state})"


class RuleSetName(models.TextChoices):
    """The four rule sets of rules.md."""

    HELMFRID = "helmfrid", "helmfrid"
    TALISMAN = "talisman", "talisman"
    BOARD = "board", "board"
    VASA = "vasa", "vasa"


class ScaleName(models.TextChoices):
    """The three scales of scoring.md S2."""

    WW = "ww", "W&W 1956"
    NY1 = "ny1", "Ny 1"
    NY2 = "ny2", "Ny 2"


class ResignationPolicyName(models.TextChoices):
    """scoring.md S1."""

    CAPPED = "capped", "capped (at most n resignations per player)"
    FORBIDDEN = "forbidden", "forbidden"


class ResultsBy(models.TextChoices):
    """How a tournament's results come in: its referees enter them (and
    are the authority at the table), or a player reports each game and the opponent
    confirms it (``matches.reports``); referees and organisers decide disputes and may
    always enter or correct a result themselves."""

    REFEREES = "referees", "referees enter them"
    PLAYERS = "players", "players report, the opponent confirms"


def game_choices() -> tuple[tuple[str, str], ...]:
    """The games a tournament may be played in: every registered family (``games``)."""
    return registry.choices()


DEFAULT_GAME = "brade"


class LengthUnit(models.TextChoices):
    """What a round's match length counts: the family's ``length_unit``."""

    GAMES = GAMES, "games (best of an odd number)"
    POINTS = POINTS, "points"


class TournamentFormat(models.TextChoices):
    """How a tournament is played: the stored choices, one per format of the seam
    (``formats.registry``; ``tests/tournaments/test_formats_seam.py`` keeps the two the
    same). What a format does is the format's to say; nothing outside the models and
    ``formats/`` compares a tournament's format with these values."""

    KNOCKOUT = "knockout", "single elimination"
    ROUND_ROBIN = "round_robin", "round robin"
    SWISS = "swiss", "Swiss"
    CONSOLATION = "consolation", "single elimination with a consolation bracket"
    DOUBLE_ELIMINATION = "double_elimination", "double elimination"
    MONRAD = "monrad", "Monrad"
    LEAGUE = "league", "league of teams"
    TEAM_SWISS = "team_swiss", "team Swiss"


DEFAULT_FORMAT = TournamentFormat.KNOCKOUT.value


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", "draft (entries open)"
    RUNNING = "running", "running (bracket drawn)"
    FINISHED = "finished", "finished"


class Tournament(models.Model):
    name = models.CharField(max_length=200)
    start_date = models.DateField()
    end_date = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    game = models.CharField(
        max_length=16,
        choices=game_choices,
        default=DEFAULT_GAME,
        help_text="the game played: its family (games.registry) scores, words and records",
    )
    rules = models.CharField(
        max_length=16, choices=RuleSetName.choices, default=RuleSetName.TALISMAN
    )
    addons = models.JSONField(default=list, blank=True, help_text="rule add-ons (board only)")
    scale = models.CharField(max_length=8, choices=ScaleName.choices, default=ScaleName.WW)
    resignation_policy = models.CharField(
        max_length=16,
        choices=ResignationPolicyName.choices,
        default=ResignationPolicyName.CAPPED,
    )
    # The time control (``scoresheets.clock``): every game and format may have one, so it
    # is the tournament's own, not a format's option. 0 seconds per point: no clock.
    clock_per_point = models.PositiveIntegerField(
        default=0,
        help_text="the clock: each player's bank per match, in seconds per match point (a "
        "best-of-n: per game of n); 0: no clock",
    )
    clock_delay = models.PositiveSmallIntegerField(
        default=0, help_text="the clock: the simple delay per move, in seconds"
    )
    status = models.CharField(
        max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.DRAFT
    )
    is_public = models.BooleanField(default=True)
    results_by = models.CharField(
        max_length=16,
        choices=ResultsBy.choices,
        default=ResultsBy.REFEREES,
        help_text="who enters the results: the referees, or the players (the opponent confirms)",
    )
    third_place_match = models.BooleanField(default=False)
    format = models.CharField(
        max_length=24,
        choices=TournamentFormat.choices,
        default=DEFAULT_FORMAT,
        help_text="single elimination, or a round robin ranked by the tiebreak chain",
    )
    double_round = models.BooleanField(
        default=False, help_text="round robin: everyone meets everyone twice"
    )
    groups = models.PositiveSmallIntegerField(
        default=1,
        help_text="round robin: the number of groups, the players dealt by snake seeding",
    )
    group_advance = models.PositiveSmallIntegerField(
        default=0,
        help_text="round robin in groups: the top k of each group go on to a knockout, placed "
        "crosswise (A1–B2, B1–A2 …); 0: the groups are the whole tournament",
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss: the number of rounds to be played"
    )
    half_point_byes = models.PositiveSmallIntegerField(
        default=0,
        help_text="Swiss: how many half-point byes each player may ask for (0: none)",
    )
    half_point_byes_until = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Swiss: the last round a half-point bye may be asked for (empty: any round)",
    )
    progressive_consolation = models.BooleanField(
        default=False,
        help_text="consolation: later main-bracket losers enter the consolation deeper",
    )
    consolation_third_place = models.BooleanField(
        default=False,
        help_text="progressive consolation: its final decides third place (its winner 3rd, "
        "its final's loser 4th) and every consolation round places its losers",
    )
    grand_final_reset = models.BooleanField(
        default=True,
        help_text="double elimination: the grand final is replayed if the losers' bracket "
        "player wins it",
    )
    tiebreaks = models.JSONField(
        default=list,
        blank=True,
        help_text="round robin: the tiebreak chain after match points (stages.tiebreaks)",
    )
    tiebreak_lots = models.JSONField(
        default=dict,
        blank=True,
        editable=False,
        help_text="round robin: lots drawn for ties that survive the chain, player id → lot",
    )
    draw_seed = models.BigIntegerField(
        null=True, blank=True, help_text="seed of the random draw; reproduces the bracket"
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_tournaments", blank=True
    )
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="refereed_tournaments", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # What the live pages show has changed: bumped by ``page_versions.tournament_touch`` in the
    # same transaction as every change of the tournament, its entries, rounds, matches,
    # games and game records, so the pages' ETag and Last-Modified come from one row.
    version = models.PositiveBigIntegerField(default=1, editable=False)
    changed_at = models.DateTimeField(default=timezone.now, editable=False)
    # The version of the last change that may have changed every part of the pages (the
    # draw, entries, staff, status, …); a change of some matches only stamps those matches
    # (``Match.live_version``) and leaves this alone, so the other matches' live parts stay
    # "not modified" (``web.live``). A part's version is the larger of the two.
    whole_version = models.PositiveBigIntegerField(default=1, editable=False)

    class Meta:
        ordering = ("-start_date", "name", "id")
        constraints = (
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")),
                name="tournament_ends_after_start",
            ),
        )

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player entered in a tournament, with an optional seed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    group = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="round robin in groups: the player's group, 0 = A (set at the draw)",
    )
    absent = models.BooleanField(
        default=False,
        help_text="Swiss: checked out, not paired in the next round (results stay)",
    )
    pairing_number = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Swiss: the pairing number (1 the highest), fixed when the Swiss starts: "
        "by seed, then by the rating then",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("tournament", "seed", "id")
        verbose_name_plural = "entries"
        constraints = (
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_once"),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=Q(seed__isnull=False),
                name="entry_seed_once",
            ),
            models.CheckConstraint(condition=Q(seed__gte=1), name="entry_seed_positive"),
        )

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


def round_label(number: int, rounds_after: int) -> str:
    """A round's name in the active language, as players say it: in Swedish Omgång N,
    Sextondelsfinal, Åttondelsfinal, Kvartsfinal, Semifinal, Final; in English Round N,
    Round of 32, Round of 16, Quarterfinal, Semifinal, Final; in Danish Runde N,
    1/16-finale, Ottendedelsfinale, Kvartfinale, Semifinale, Finale. (Round N keeps the
    tournament's round number, so a knockout after groups of 64 or more would say it.)
    Only ``number`` and ``rounds_after`` are stored, so a
    page shows the name in its reader's language (a stored name would be one language's)."""
    if rounds_after == 0:
        return pgettext("round", "Final")
    if rounds_after == 1:
        return pgettext("round", "Semifinal")
    if rounds_after == 2:
        return pgettext("round", "Quarterfinal")
    if rounds_after == 3:
        return pgettext("round", "Round of 16")
    if rounds_after == 4:
        return pgettext("round", "Round of 32")
    return gettext("Round %(n)s") % {"n": number}


def third_place_label() -> str:
    """The third-place match's name in the active language (Bronsmatch in Swedish,
    Bronzekamp in Danish)."""
    return gettext("Third-place match")


def round_title(round: Round) -> str:
    """A round's name in its own bracket's column, in the reader's language: the main
    (winners') bracket's as a knockout's; the consolation and losers' brackets' Omgång N
    (their own count, ``Round.bracket_number``) and Final for their last; the grand final
    and its reset."""
    number_in_bracket = round.bracket_number or 1
    if round.kind == RoundKind.GRAND_FINAL:
        if number_in_bracket > 1:
            return gettext("Grand final, replay")
        return gettext("Grand final")
    if round.kind in (RoundKind.CONSOLATION, RoundKind.LOSERS):
        if round.rounds_after == 0:
            return pgettext("round", "Final")
        return gettext("Round %(n)s") % {"n": number_in_bracket}
    return round.name


def bracket_round_name(round: Round) -> str:
    """A consolation, losers' or grand-final round's name anywhere on the site, in the
    reader's language: the bracket and the round in it ("Förlorarträd, omgång 2",
    "Tröstturnering, final"), or the grand final and its replay; ``Round.name`` hands these
    rounds here (and ``elimination_draw.round_name`` is this). No query: the round's place
    in its bracket is stored at the draw. Here, not in ``elimination_draw``, so that the
    models import nothing that imports them."""
    title = round_title(round)
    if round.kind == RoundKind.CONSOLATION:
        return gettext("%(bracket)s, %(round)s") % {
            "bracket": gettext("Consolation bracket"),
            "round": title.lower(),
        }
    if round.kind == RoundKind.LOSERS:
        return gettext("%(bracket)s, %(round)s") % {
            "bracket": gettext("Losers' bracket"),
            "round": title.lower(),
        }
    return title


class Round(models.Model):
    """A knockout round; ``number`` 1 is the first round, the last is the final.

    ``rounds_after`` counts the rounds that follow (0 for the final); the round's name
    (``name``) is made from it in the reader's language, never stored."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    rounds_after = models.PositiveSmallIntegerField(
        default=0, help_text="rounds after this one: 0 the final, 1 the semifinals, …"
    )
    match_length = models.PositiveIntegerField(default=3, validators=[validate_length_bounds])
    length_unit = models.CharField(
        max_length=8,
        choices=LengthUnit.choices,
        default=LengthUnit.GAMES,
        help_text="what match_length counts: games (best of, odd) or points (backgammon)",
    )
    kind = models.CharField(
        max_length=24,
        choices=RoundKind.choices,
        default=RoundKind.KNOCKOUT,
        help_text="a knockout round feeds the next by bracket position; a round robin's not",
    )
    bracket_number = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="a consolation, losers' or grand-final round: its number within its own "
        "bracket (1 the first), set at the draw so its name needs no query",
    )
    published = models.BooleanField(
        default=True,
        help_text="shown to players and playable; a Swiss round is paired unpublished, so the "
        "organiser can check and swap pairings first",
    )

    class Meta:
        ordering = ("tournament", "number")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once"),
            # S1: a match in games is played over an odd number of completed games; a match
            # in points (backgammon) to any number of points.
            models.CheckConstraint(
                condition=GreaterThanOrEqual(F("match_length"), 1)
                & (Q(length_unit=LengthUnit.POINTS) | Q(Exact(Mod(F("match_length"), 2), 1))),
                name="round_match_length_odd_in_games",
            ),
            # tournaments.lengths: this site's longest match.
            models.CheckConstraint(
                condition=Q(match_length__lte=MAX_MATCH_LENGTH),
                name="round_match_length_at_most_max",
            ),
        )

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"

    @property
    def name(self) -> str:
        """The round's name in the active language (``round_label``); a round robin's,
        a paired round and a round of no bracket (team matches) are numbered (Omgång N);
        a consolation, losers' or grand-final round says its bracket
        (``bracket_round_name``); the last
        round of a double elimination's winners' bracket is the winners' final."""
        row = round_kind(self.kind)
        if row.table or not row.bracket:  # a table's round, a team match round: numbered
            return gettext("Round %(n)s") % {"n": self.number}
        if not row.main:
            return bracket_round_name(self)
        if (
            self.rounds_after == 0
            and self.kind == RoundKind.KNOCKOUT
            and self.tournament_id is not None
            and format_for(self.tournament.format).losers_bracket
        ):
            # Double elimination has two finals: the winners' bracket's, then the grand final.
            return pgettext("round", "Winners' final")
        return round_label(self.number, self.rounds_after)


class Venue(models.Model):
    """A place where a tournament's rounds are played at the same time as at its other
    venues (an SM split between Stockholm and Göteborg): its matches have their own
    tables, numbered from 1 (``matches.tables``), its own wall sheet and big screen, and
    referees who may be scoped to it (``referees``; ``tournaments.venues``). A tournament
    with no venues is played at one place, its free-text ``Tournament.venue``."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="venues")
    name = models.CharField(max_length=100)
    ordering = models.PositiveSmallIntegerField(
        default=0, help_text="the venues' order: the first takes the top tables' matches"
    )
    tables = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="how many tables it has: its share of a round's matches, in pairing order; "
        "empty: an even share of what the venues with a number leave",
    )
    # Referees scoped to this venue: they enter and correct the results of its matches
    # only (``core.permissions.is_match_referee``); a referee in no venue's list keeps
    # every match of the tournament.
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="refereed_venues", blank=True
    )

    class Meta:
        ordering = ("tournament", "ordering", "id")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "name"], name="venue_name_once"),
        )

    def __str__(self) -> str:
        return self.name


class PrivateLink(models.Model):
    """A player's private link to a tournament (``tournaments.private_links``): whoever
    holds it reports and confirms that player's results in that tournament without an
    account. Only a hash of the token is stored; the token is derived from the site's
    secret key and ``nonce`` (so the organiser can print it again), and a new one is
    issued by revoking this one."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="private_links"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="private_links")
    token_hash = models.CharField(max_length=64, unique=True)
    nonce = models.CharField(max_length=32)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    issued_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("tournament", "player", "-issued_at")
        constraints = (
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=models.Q(revoked_at__isnull=True),
                name="one_live_private_link_per_player",
            ),
        )

    def __str__(self) -> str:
        return f"private link #{self.pk} of player #{self.player_id} in #{self.tournament_id}"


class PrivateLinkUse(models.Model):
    """Each action taken through a private link (what, when, from which address): the
    rate limit counts them, and the organiser reads them. The match's own audit trail
    (``MatchEvent``) names the link too."""

    link = models.ForeignKey(PrivateLink, on_delete=models.CASCADE, related_name="uses")
    action = models.CharField(max_length=24)
    at = models.DateTimeField(default=timezone.now, db_index=True)
    address = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        ordering = ("at", "id")

    def __str__(self) -> str:
        return f"{self.action} through link #{self.link_id}"
