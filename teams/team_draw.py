"""The draw of a team stage (``formats.Stage.TEAMS``), its row in the stage draws
(``tournaments.stage_draws``, registered by ``teams.apps``):

- a **league** draws every round at once: its teams get their Berger numbers by lot from
  the draw seed and meet by the Berger tables (``stages.league.league_fixtures``), the
  first-named at home; a double round robin (``double_round``) swaps home and away in
  its second cycle. A team sitting out a round (an odd number of teams) has no team match.
- a **team Swiss** creates its rounds (``swiss_rounds``, default ⌈log₂ teams⌉) and pairs
  the first (``teams.team_swiss_rounds``); the others are paired when the one before is
  decided.

Both store the lots for ties that survive the table's whole chain (the teams in an order
drawn from the draw seed) so the table is the same at every reading. A round's matches'
length is the round's (the draw's ``lengths``, one per round, as every draw takes them).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ValidationError
from core.permissions import User
from formats import format_for
from stages import roundrobin
from stages.league import league_fixtures
from teams.competitions import competition_of
from teams.models import TeamEntry, TeamMatch
from teams.team_swiss_rounds import team_round_pair_locked
from tournaments.draw_steps import draw_end
from tournaments.guards import draft_require, organiser_require
from tournaments.models import Round, Tournament
from tournaments.round_kinds import RoundKind
from tournaments.round_lengths import round_lengths
from tournaments.swiss_rounds import default_rounds

__all__ = ["team_round_count", "team_stage_draw", "team_stage_lengths"]


def _pairs_rounds(tournament: Tournament) -> bool:
    """A team Swiss: its format pairs round by round (it gives ``pair``)."""
    return "swiss_rounds" in format_for(tournament.format).options


def team_round_count(tournament: Tournament, teams: int) -> int:
    """How many rounds the stage has for ``teams`` teams."""
    if _pairs_rounds(tournament):
        rounds = tournament.swiss_rounds or default_rounds(teams)
        return max(1, min(rounds, teams - 1))
    return roundrobin.round_count(teams, double=tournament.double_round)


def team_stage_lengths(tournament: Tournament, teams: int) -> list[int]:
    """The default length of every round (3 games, or 3 points in backgammon)."""
    return roundrobin.default_lengths(team_round_count(tournament, teams))


def team_stage_draw(
    *,
    tournament: Tournament,
    by: User,
    lengths: Sequence[int] | None,
    draw_seed: int | None,
) -> Tournament:
    """Draw a team stage (module docstring); organisers only, while a draft, two teams or
    more entered."""
    organiser_require(by, tournament)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        draft_require(tournament, _("Drawing the team matches"))
        entries = list(
            TeamEntry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
            .select_related("team")
            .order_by("number", "id")
        )
        if len(entries) < 2:
            raise ValidationError(
                _("Enter at least two teams before the draw."), code="too_few_teams"
            )
        competition = competition_of(tournament)
        chosen, unit = round_lengths(
            tournament=tournament,
            lengths=lengths,
            defaults=team_stage_lengths(tournament, len(entries)),
            players=len(entries),
        )
        seed = draw_seed if draw_seed is not None else secrets.randbits(62)
        order = roundrobin.draw_order([], entries, seed)
        for number, entry in enumerate(order, start=1):
            entry.number = number
        TeamEntry.objects.bulk_update(order, ["number"])
        lots = [e.team_id for e in entries]
        random.Random(seed).shuffle(lots)
        competition.lots = lots
        competition.save(update_fields=["lots"])
        rounds = Round.objects.bulk_create(
            [
                Round(
                    tournament=tournament,
                    number=index,
                    rounds_after=len(chosen) - index,
                    match_length=length,
                    length_unit=unit,
                    kind=RoundKind.TEAM,
                )
                for index, length in enumerate(chosen, start=1)
            ]
        )
        draw_end(tournament=tournament, draw_seed=seed)
        if _pairs_rounds(tournament):
            team_round_pair_locked(tournament=tournament, round=rounds[0], competition=competition)
        else:
            fixtures = league_fixtures([e.team for e in order], double=tournament.double_round)
            TeamMatch.objects.bulk_create(
                [
                    TeamMatch(
                        tournament=tournament,
                        round=rnd,
                        number=number,
                        home=fixture.first,
                        away=fixture.second,
                    )
                    for rnd, fixtures_of_round in zip(rounds, fixtures, strict=True)
                    for number, fixture in enumerate(
                        f for f in fixtures_of_round if f.second is not None
                    )
                ]
            )
    return tournament
