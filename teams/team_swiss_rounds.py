"""A team Swiss's rounds, paired one at a time (``formats.team_swiss``): round 1 at the draw
(``teams.team_draw``), each later one when every team match of the round before is
decided, by an organiser. The teams come to the Swiss engine as its players
(``stages.league.swiss_teams``: match points, then board points, then their number); a
bye is a team match with no away team, won at once (``stages.league``'s decision).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ConflictError
from core.permissions import User
from formats import format_for
from stages.league import swiss_teams
from teams.models import TeamCompetition, TeamEntry, TeamMatch, TeamResult
from teams.tables import team_table
from tournaments.guards import organiser_require
from tournaments.models import Round, Tournament
from tournaments.page_versions import tournament_touch

__all__ = ["team_round_pair", "team_round_pair_locked"]


def team_round_pair(*, round: Round, by: User) -> list[TeamMatch]:
    """Pair ``round`` of a team Swiss (module docstring); organisers only."""
    organiser_require(by, round.tournament)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=round.tournament_id)
        if TeamMatch.objects.filter(round=round).exists():
            raise ConflictError(_("This round is paired already."), code="round_paired")
        earlier = TeamMatch.objects.filter(tournament=tournament, round__number__lt=round.number)
        if (
            Round.objects.filter(tournament=tournament, number__lt=round.number)
            .exclude(team_matches__isnull=False)
            .exists()
            or earlier.filter(result="").exists()
        ):
            raise ConflictError(
                _("Every team match of the rounds before must be decided first."),
                code="round_not_ready",
            )
        competition = TeamCompetition.objects.get(tournament=tournament)
        made = team_round_pair_locked(tournament=tournament, round=round, competition=competition)
        tournament_touch(tournament_id=tournament.pk)
    return made


def team_round_pair_locked(
    *, tournament: Tournament, round: Round, competition: TeamCompetition
) -> list[TeamMatch]:
    """Pair ``round`` inside the caller's transaction (the tournament locked)."""
    entries = list(TeamEntry.objects.filter(tournament=tournament, withdrawn_at__isnull=True))
    numbers = {e.team_id: e.number or 0 for e in entries}
    table = team_table(tournament=tournament)
    present = {e.team_id for e in entries}
    opponents: dict[int, set[int]] = {t: set() for t in present}
    had_bye: dict[int, bool] = {}
    for home, away in TeamMatch.objects.filter(tournament=tournament).values_list(
        "home_id", "away_id"
    ):
        if away is None:
            had_bye[home] = True
            continue
        opponents.setdefault(home, set()).add(away)
        opponents.setdefault(away, set()).add(home)
    rows = [r for r in table.rows if r.team in present]
    players = swiss_teams(
        rows,
        opponents={t: frozenset(o) for t, o in opponents.items()},
        had_bye=had_bye,
        pairing_numbers=numbers,
    )
    rounds_after = Round.objects.filter(tournament=tournament, number__gt=round.number).count()
    pairing = format_for(tournament.format).pair(
        players,
        seed=(tournament.draw_seed or 0) + round.number,
        names={t: table.teams[t].name for t in present},
        rounds_after=rounds_after,
    )
    now = timezone.now()
    made = [
        TeamMatch(
            tournament=tournament,
            round=round,
            number=number,
            home_id=pair.first,
            away_id=pair.second,
            boards_made=pair.second is None,
            result=TeamResult.HOME if pair.second is None else "",
            decided_at=now if pair.second is None else None,
        )
        for number, pair in enumerate(pairing.pairs)
    ]
    return TeamMatch.objects.bulk_create(made)
