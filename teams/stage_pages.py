"""The team stage's part of the tournament page (``web.stage_pages``' ``team_table`` row:
``web.views.public`` asks here and includes ``teams/_team_stage.html``): the team table
with why each team is above the next, the rounds' team matches, and for the organisers,
while a draft, the team rules, the teams entered and the draw; in a team Swiss, the next
round to pair.

It depends on who reads (the organisers' forms), so the page is not cached, as a Swiss's
is not.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from core.permissions import User, is_organiser
from formats import format_for
from teams.competitions import competition_of
from teams.forms import TeamEntryForm, TeamRulesForm
from teams.models import Team, TeamEntry
from teams.stage_selectors import TeamRound, team_rounds
from teams.tables import team_table
from teams.team_words import chain_choices, chain_name, table_lines
from tournaments import stage_draws
from tournaments.models import Tournament, TournamentStatus

__all__ = ["enterable_teams", "next_round_to_pair", "team_stage_context"]


def enterable_teams(tournament: Tournament) -> QuerySet[Team]:
    """The teams an organiser may enter: of the tournament's game, of the competition's
    season once a team is in, not entered yet."""
    competition = competition_of(tournament)
    teams = Team.objects.filter(game=tournament.game).exclude(entries__tournament=tournament)
    if competition.season_id is not None:
        teams = teams.filter(season_id=competition.season_id)
    return teams.select_related("club", "season").order_by("season__start_date", "name", "pk")


def next_round_to_pair(tournament: Tournament, rounds: list[TeamRound]) -> TeamRound | None:
    """A team Swiss's first round with no team match, when the rounds before it are all
    paired and decided; None otherwise (and in a league, which draws every round)."""
    if "swiss_rounds" not in format_for(tournament.format).options:
        return None
    for index, rnd in enumerate(rounds):
        if rnd.matches:
            continue
        before = [m for r in rounds[:index] for m in r.matches]
        return rnd if all(m.result for m in before) else None
    return None


def team_stage_context(
    *,
    tournament: Tournament,
    by: User,
    rules_form: TeamRulesForm | None = None,
    entry_form: TeamEntryForm | None = None,
) -> dict[str, Any]:
    """What the team part of the tournament page shows (module docstring)."""
    competition = competition_of(tournament)
    table = team_table(tournament=tournament)
    rounds = team_rounds(tournament=tournament)
    organiser = is_organiser(by, tournament)
    draft = tournament.status == TournamentStatus.DRAFT
    context: dict[str, Any] = {
        "competition": competition,
        "lines": table_lines(table.rows, table.teams),
        "chain_names": [chain_name(key) for key in ("match_points", *table.chain)],
        "rounds": rounds,
        "organiser": organiser,
        "draft": draft,
    }
    if organiser and draft:
        entries = list(
            TeamEntry.objects.filter(tournament=tournament)
            .select_related("team__club")
            .order_by("number", "id")
        )
        lengths = stage_draws.draw_lengths(tournament, len(entries))
        context.update(
            entries=entries,
            rules_form=rules_form
            or TeamRulesForm(
                initial=TeamRulesForm.initial_of(competition), choices=chain_choices()
            ),
            entry_form=entry_form or TeamEntryForm(teams=enterable_teams(tournament)),
            draw_lengths=",".join(str(n) for n in lengths),
        )
    if organiser and not draft:
        context["pair_round"] = next_round_to_pair(tournament, rounds)
    return context
