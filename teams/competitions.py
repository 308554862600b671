"""A team competition's rules and its teams: services for the organisers of a tournament
whose stage is team matches (``formats.Stage.TEAMS``: a league's division, a team Swiss).

- ``competition_of``: the tournament's team rules (``TeamCompetition``), made with the
  defaults the first time they are asked for: 4 boards, 2/1/0 match points, the default
  chain (``stages.league.DEFAULT_CHAIN``).
- ``competition_rules_set``: the organisers change them while the tournament is a draft
  (boards 1..``MAX_BOARDS``; a chain of ``stages.league.CHAIN_KEYS``, each at most once;
  match points with a win worth more than a draw worth at least a loss).
- ``team_entry_add`` / ``team_entry_remove``: teams entered while it is a draft. All its
  teams play one game, the tournament's (a bräde team does not enter a backgammon
  league), and come from one season (the competition's, set by the first team).

Errors carry codes (``core.errors``): ``organisers_only`` (403 through
``tournaments.guards``), ``team_rules`` and ``team_entry`` (400), ``team_entered`` (409).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core.errors import ConflictError, ValidationError
from core.permissions import User
from stages.league import CHAIN_KEYS, DEFAULT_CHAIN
from teams.models import MAX_BOARDS, Team, TeamCompetition, TeamEntry
from teams.team_handler import is_team_stage
from tournaments.guards import draft_require, organiser_require
from tournaments.models import Tournament
from tournaments.page_versions import tournament_touch

__all__ = [
    "competition_of",
    "competition_rules_set",
    "team_entry_add",
    "team_entry_remove",
]


def competition_of(tournament: Tournament) -> TeamCompetition:
    """The tournament's team rules, made with the defaults when first asked for."""
    if not is_team_stage(tournament):
        raise ValidationError(_("This tournament is not played by teams."), code="team_rules")
    competition, _made = TeamCompetition.objects.get_or_create(
        tournament=tournament, defaults={"chain": list(DEFAULT_CHAIN)}
    )
    return competition


def competition_rules_set(
    *,
    tournament: Tournament,
    by: User,
    boards: int | None = None,
    win_points: int | None = None,
    draw_points: int | None = None,
    loss_points: int | None = None,
    chain: Sequence[str] | None = None,
) -> TeamCompetition:
    """Change the team rules (module docstring); what is not given stays."""
    organiser_require(by, tournament)
    draft_require(tournament, _("Changing the team rules"))
    competition = competition_of(tournament)
    if boards is not None:
        if not 1 <= boards <= MAX_BOARDS:
            raise ValidationError(
                _("A team match has 1 to %(max)d boards.") % {"max": MAX_BOARDS},
                code="team_rules",
            )
        competition.boards = boards
    win = competition.win_points if win_points is None else win_points
    draw = competition.draw_points if draw_points is None else draw_points
    loss = competition.loss_points if loss_points is None else loss_points
    if not (win > draw >= loss >= 0):
        raise ValidationError(
            _("A team match won must be worth more than a draw, and a draw at least a loss."),
            code="team_rules",
        )
    competition.win_points, competition.draw_points, competition.loss_points = win, draw, loss
    if chain is not None:
        unknown = [key for key in chain if key not in CHAIN_KEYS]
        if unknown or len(set(chain)) != len(chain):
            raise ValidationError(
                _("Tiebreaks of a team table: %(keys)s, each at most once.")
                % {"keys": ", ".join(CHAIN_KEYS)},
                code="team_rules",
            )
        competition.chain = list(chain)
    competition.save()
    tournament_touch(tournament_id=tournament.pk)
    return competition


def team_entry_add(*, tournament: Tournament, team: Team, by: User) -> TeamEntry:
    """Enter ``team`` (module docstring)."""
    organiser_require(by, tournament)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        draft_require(locked, _("Entering teams"))
        competition = competition_of(locked)
        if team.game != locked.game:
            raise ValidationError(
                _("%(team)s plays another game than this competition.") % {"team": team.name},
                code="team_entry",
            )
        if competition.season_id is None:
            competition.season_id = team.season_id
            competition.save(update_fields=["season"])
        elif competition.season_id != team.season_id:
            raise ValidationError(
                _("%(team)s is a team of another season than this competition's.")
                % {"team": team.name},
                code="team_entry",
            )
        number = TeamEntry.objects.filter(tournament=locked).count() + 1
        try:
            with transaction.atomic():
                entry = TeamEntry.objects.create(tournament=locked, team=team, number=number)
        except IntegrityError as exc:
            raise ConflictError(
                _("%(team)s is entered already.") % {"team": team.name}, code="team_entered"
            ) from exc
        tournament_touch(tournament_id=locked.pk)
    return entry


def team_entry_remove(*, entry: TeamEntry, by: User) -> None:
    """Take a team out before the draw; the others keep their order."""
    organiser_require(by, entry.tournament)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
        draft_require(locked, _("Withdrawing teams"))
        entry.delete()
        for number, other in enumerate(TeamEntry.objects.filter(tournament=locked), start=1):
            if other.number != number:
                other.number = number
                other.save(update_fields=["number"])
        tournament_touch(tournament_id=locked.pk)
