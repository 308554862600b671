"""A league's divisions season after season: next season's divisions made from this
season's final tables by promotion and relegation (``stages.league.next_divisions``).

``league_season_next`` (organisers of every division of the league's season): every team
match of the season's divisions must be decided. Each division of the new season is a new
tournament of the same game, rules, format and options, time control, match points,
boards and chain, named after its league and level, played in the new season's dates,
with the same organisers and referees. It is made by the tournaments app's own service
(``tournaments.tournament_setup.tournament_create``), so its checks hold here too: the
one who asks may create tournaments, and the format's options are checked and normalised
as at any creation. **Decision:** a team carries over as the new season's team of the
same club and name (made if the club has not made it yet), with its captains, and its
roster copied where the player is on no other team of the new season yet; its captains
change the roster as they like before the draw.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Season
from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.permissions import User, is_organiser
from formats.options import option_keys
from stages.league import next_divisions
from teams.models import League, Team, TeamCompetition, TeamEntry, TeamMatch, TeamMember
from teams.tables import team_table
from tournaments.tournament_setup import tournament_create

__all__ = ["league_divisions", "league_season_next"]


def league_divisions(*, league: League, season: Season) -> list[TeamCompetition]:
    """The league's divisions in ``season``, the top one first."""
    return list(
        TeamCompetition.objects.filter(league=league, season=season)
        .select_related("tournament")
        .order_by("level", "division_name", "id")
    )


def _carried(team: Team, season: Season) -> Team:
    found = Team.objects.filter(season=season, club_id=team.club_id, name_key=team.name_key).first()
    if found is not None:
        return found
    new = Team.objects.create(
        season=season,
        club_id=team.club_id,
        name=team.name,
        name_key=team.name_key,
        game=team.game,
        boards_by_rating=team.boards_by_rating,
    )
    new.captains.set(team.captains.all())
    taken = set(TeamMember.objects.filter(season=season).values_list("player_id", flat=True))
    TeamMember.objects.bulk_create(
        [
            TeamMember(
                team=new, season=season, player_id=m.player_id, board=m.board, reserve=m.reserve
            )
            for m in TeamMember.objects.filter(team=team).order_by("board")
            if m.player_id not in taken
        ]
    )
    # close the gaps the players already taken left (boards are 1..n)
    for number, member in enumerate(TeamMember.objects.filter(team=new).order_by("board"), 1):
        if member.board != number:
            member.board = number
            member.save(update_fields=["board"])
    return new


def league_season_next(
    *, league: League, season: Season, next_season: Season, by: User
) -> list[TeamCompetition]:
    """Make ``next_season``'s divisions of ``league`` from ``season``'s (module
    docstring); the new divisions are drafts with their teams entered."""
    divisions = league_divisions(league=league, season=season)
    if not divisions:
        raise ValidationError(
            _("%(league)s has no divisions in this season.") % {"league": league.name},
            code="no_divisions",
        )
    if not all(is_organiser(by, d.tournament) for d in divisions):
        raise PermissionDeniedError(
            _("Only the organisers of every division may make the next season's."),
            code="organisers_only",
        )
    if TeamCompetition.objects.filter(league=league, season=next_season).exists():
        raise ConflictError(
            _("The next season's divisions are made already."), code="divisions_made"
        )
    if TeamMatch.objects.filter(
        tournament__in=[d.tournament for d in divisions], result=""
    ).exists():
        raise ConflictError(
            _("Every team match of the season must be decided first."), code="season_open"
        )
    tables = [[row.team for row in team_table(tournament=d.tournament).rows] for d in divisions]
    try:
        new_tables = next_divisions(
            tables, up=[d.up for d in divisions], down=[d.down for d in divisions]
        )
    except ValueError as exc:
        raise ValidationError(str(exc), code="divisions") from exc
    teams = Team.objects.in_bulk([t for table in tables for t in table])
    made: list[TeamCompetition] = []
    with transaction.atomic():
        for division, team_ids in zip(divisions, new_tables, strict=True):
            old = division.tournament
            label = division.division_name or _("Division %(level)d") % {"level": division.level}
            tournament = tournament_create(
                by=by,
                name=f"{league.name} — {label} ({next_season.name})"[:200],
                start_date=next_season.start_date,
                end_date=next_season.end_date,
                venue=old.venue,
                game=old.game,
                rules=old.rules,
                addons=old.addons,
                scale=old.scale,
                resignation_policy=old.resignation_policy,
                is_public=old.is_public,
                results_by=old.results_by,
                format=old.format,
                clock_per_point=old.clock_per_point,
                clock_delay=old.clock_delay,
                **{key: getattr(old, key) for key in option_keys()},
            )
            tournament.organisers.set(old.organisers.all())
            tournament.referees.set(old.referees.all())
            competition = TeamCompetition.objects.create(
                tournament=tournament,
                season=next_season,
                boards=division.boards,
                win_points=division.win_points,
                draw_points=division.draw_points,
                loss_points=division.loss_points,
                chain=division.chain,
                league=league,
                level=division.level,
                division_name=division.division_name,
                up=division.up,
                down=division.down,
            )
            TeamEntry.objects.bulk_create(
                [
                    TeamEntry(
                        tournament=tournament,
                        team=_carried(teams[team_id], next_season),
                        number=number,
                    )
                    for number, team_id in enumerate(team_ids, start=1)
                ]
            )
            made.append(competition)
    return made
