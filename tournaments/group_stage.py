"""The knockout that a round robin in groups feeds: the top ``k`` of each
group (``Tournament.group_advance``) placed crosswise (``stages.crossover``: A1–B2,
B1–A2 …) into a single-elimination bracket played after the groups. A Swiss feeds one the
same way, as one group: the top ``k`` of its standings seeded in their order (1 meets k).

The knockout's matches are made from ``stages.elimination.single_elimination`` with their
links (``matches.elimination_progression``), in rounds numbered on after the group rounds
and named as a knockout's (Kvartsfinal, Semifinal, Final).

Decisions where the issue is silent:
- The organiser draws the knockout, once every group match (every Swiss round) is
  finished; it is not drawn
  by itself, so that a person looks at the tables first (a lot may have decided a place,
  a result may still be corrected).
- A player who withdrew does not go on: the next in the group's table takes the place.
- Once the knockout is drawn the group results are fixed: correcting or resetting a group
  match is refused (``matches.progression.refuse_if_downstream_started``).
- The knockout's default lengths are a knockout's (``knockout.default_lengths``: 3 games,
  the semifinal 5, the final 7; points for backgammon). No third-place match is played:
  the semifinal losers share third place.
- The tournament is finished when the knockout's final is decided; until the knockout is
  drawn it is running, even with every group match played.
- Fewer players than the bracket's lines: the byes go to the best group winners by their
  results (match points, then the tiebreak chain, per match played), not by group letter
  (``stages.crossover.rank_across_groups``). The results order the winners only where
  that costs neither crossing rule: without byes the classic crossing by group letter
  stands (``stages.crossover``).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ConflictError, ValidationError
from core.permissions import User
from formats import format_for
from stages import elimination, knockout
from stages.crossover import crosswise_seeds, rank_across_groups
from tournaments import guards
from tournaments.match_plans import elimination_plan
from tournaments.match_play_port import match_play
from tournaments.models import (
    Entry,
    Player,
    Round,
    RoundKind,
    Tournament,
    TournamentStatus,
)
from tournaments.page_versions import tournament_touch
from tournaments.round_kinds import BRACKET_KINDS
from tournaments.round_lengths import round_lengths

__all__ = ["feeds_knockout", "group_knockout_draw", "knockout_drawn"]


def feeds_knockout(tournament: Tournament) -> bool:
    """Whether the tournament's groups (or its Swiss standings) feed a knockout."""
    return format_for(tournament.format).feeds_knockout and tournament.group_advance > 0


def knockout_drawn(tournament_id: int) -> bool:
    return Round.objects.filter(tournament_id=tournament_id, kind__in=BRACKET_KINDS).exists()


def group_knockout_draw(
    *, tournament: Tournament, by: User, lengths: Sequence[int] | None = None
) -> Tournament:
    """Draw the knockout from the finished groups (see the module's decisions).

    ``lengths``: one match length per knockout round, first round first (default: a
    knockout's). Refused before every group match is finished, twice, or for a tournament
    whose groups feed no knockout."""
    guards.organiser_require(by, tournament)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if not feeds_knockout(tournament):
            raise ValidationError(
                _("This tournament's groups do not go on to a knockout."),
                code="no_group_knockout",
            )
        if tournament.status != TournamentStatus.RUNNING:
            raise ConflictError(
                _("The groups must be drawn and played before the knockout is drawn."),
                code="groups_not_running",
            )
        if knockout_drawn(tournament.pk):
            raise ConflictError(_("The knockout has already been drawn."), code="knockout_drawn")
        orders, open_matches, open_rounds = match_play().group_orders(tournament=tournament)
        if open_rounds:
            raise ConflictError(
                _(
                    "%(count)s rounds are still to be paired or published; the knockout "
                    "is drawn when every round is played."
                )
                % {"count": open_rounds},
                code="groups_unfinished",
            )
        if open_matches:
            raise ConflictError(
                _(
                    "%(count)s group matches are still to be played; the knockout is drawn "
                    "when every group match is finished."
                )
                % {"count": open_matches},
                code="groups_unfinished",
            )
        withdrawn = set(
            Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=False).values_list(
                "player_id", flat=True
            )
        )
        k = tournament.group_advance
        going_on = [[p for p in order if p.pk not in withdrawn] for order in orders]
        for label, players in zip("ABCDEFGHIJKLMNOP", going_on, strict=False):
            if len(players) < k:
                raise ValidationError(
                    _(
                        "Group %(group)s has %(count)s players left who have not withdrawn; "
                        "%(k)s are to go on."
                    )
                    % {"group": label, "count": len(players), "k": k},
                    code="group_too_small",
                )
        seeds = crosswise_seeds(going_on, k, _ranking(tournament, going_on, k))
        shape = elimination.single_elimination(len(seeds))
        rounds = knockout.round_count(len(seeds))
        lengths, unit = round_lengths(
            tournament=tournament,
            lengths=lengths,
            defaults=knockout.default_lengths(rounds),
            players=len(seeds),
        )
        first = Round.objects.filter(tournament=tournament).count()
        rows = {
            ("main", number): Round.objects.create(
                tournament=tournament,
                number=first + number,
                rounds_after=knockout.rounds_after(number, rounds),
                match_length=lengths[number - 1],
                length_unit=unit,
                kind=RoundKind.KNOCKOUT,
            )
            for number in range(1, rounds + 1)
        }
        tournament_touch(tournament_id=tournament.pk)
        match_play().matches_create(
            tournament=tournament,
            plan=elimination_plan(shape=shape, rounds=rows, players=seeds),
            by=by,
        )
    return tournament


def _ranking(
    tournament: Tournament, going_on: Sequence[Sequence[Player]], k: int
) -> list[list[int]] | None:
    """For each tier, the groups in the order of their tier's player's results (module
    decisions); ``None`` for one group (a Swiss's standings are its order already)."""
    if len(going_on) < 2:
        return None
    chain, results = match_play().group_results(tournament=tournament)
    missing: tuple[int, list[Decimal | None]] = (0, [None] * len(chain))
    return [
        rank_across_groups(chain, [results.get(group[tier].pk, missing) for group in going_on])
        for tier in range(k)
    ]
