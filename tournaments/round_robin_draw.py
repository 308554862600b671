"""The draw of a round robin, in one group or several: every round at once from the
Berger tables (``stages.roundrobin``), and the words for a field that does not fit the
groups."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import (
    ValidationError,
)
from core.permissions import (
    User,
)
from stages import roundrobin
from tournaments.draw_steps import draw_end, draw_open, rounds_make, seeded_and_drawn
from tournaments.match_plans import table_plan
from tournaments.match_play_port import match_play
from tournaments.models import (
    Entry,
    RoundKind,
    Tournament,
)


def _groups_fit(tournament: Tournament, players: int) -> None:
    """The entered players fill the round robin's groups (``roundrobin.groups_problem``)."""
    problem = roundrobin.groups_problem(players, tournament.groups, tournament.group_advance)
    if problem is not None:
        raise groups_problem_error(
            problem=problem,
            players=players,
            groups=tournament.groups,
            advance=tournament.group_advance,
        )


def groups_problem_error(
    *, problem: roundrobin.GroupsProblem, players: int, groups: int, advance: int
) -> ValidationError:
    """Why ``players`` cannot be dealt into the groups (``roundrobin.groups_problem``)."""
    match problem:
        case "large" if groups == 1:
            text = _(
                "A round robin takes at most %(max)s players; %(count)s entered. Play "
                "in groups, Swiss or a knockout, or withdraw players first."
            ) % {"max": roundrobin.MAX_PLAYERS, "count": players}
        case "large":
            text = _(
                "%(count)s players in %(groups)s groups make groups larger than %(max)s; "
                "play in more groups."
            ) % {"max": roundrobin.MAX_PLAYERS, "count": players, "groups": groups}
        case "small":
            text = _(
                "%(count)s players cannot fill %(groups)s groups of at least two, each with "
                "more players than the %(advance)s who go on; enter more players or play in "
                "fewer groups."
            ) % {"count": players, "groups": groups, "advance": advance}
        case _:
            assert_never(problem)
    return ValidationError(text)


def _round_count(tournament: Tournament, players: int) -> int:
    return roundrobin.group_round_count(players, tournament.groups, double=tournament.double_round)


def round_robin_draw(
    *,
    tournament: Tournament,
    by: User,
    lengths: Sequence[int] | None,
    draw_seed: int | None,
) -> Tournament:
    """Draw a round robin: every round at once from the Berger tables
    (``stages.roundrobin``); with an odd number of players each round has one bye.
    ``lengths`` and ``draw_seed`` as for a knockout (``round_robin`` for the order)."""
    with transaction.atomic():
        opening = draw_open(
            tournament=tournament,
            doing=_("Drawing the round robin"),
            too_few=_(
                "A round robin needs at least 2 players; %(count)s entered. Enter more first."
            ),
            lengths=lengths,
            defaults=lambda t, players: roundrobin.default_lengths(_round_count(t, players)),
            draw_seed=draw_seed,
            check=_groups_fit,
        )
        tournament, entries, draw_seed = opening.tournament, opening.entries, opening.seed
        rounds = _round_count(tournament, len(entries))
        order = roundrobin.draw_order(*seeded_and_drawn(entries), draw_seed)
        dealt = roundrobin.snake_groups(order, tournament.groups)
        if tournament.groups > 1:
            group_of = {p.pk: g for g, members in enumerate(dealt) for p in members}
            for entry in entries:
                entry.group = group_of[entry.player_id]
            Entry.objects.bulk_update(entries, ["group"])
        # Round i holds every group's round i, group A's tables first (a smaller group
        # may have fewer rounds: its later rounds are empty).
        per_group = [roundrobin.round_robin(m, double=tournament.double_round) for m in dealt]
        fixtures = [
            [f for table in per_group if i < len(table) for f in table[i]] for i in range(rounds)
        ]
        round_rows = rounds_make(opening, kind=RoundKind.ROUND_ROBIN)
        draw_end(tournament=tournament, draw_seed=draw_seed)
        plan = table_plan(
            rounds=round_rows,
            pairs=[[(f.first, f.second) for f in fixture] for fixture in fixtures],
        )
        match_play().matches_create(tournament=tournament, plan=plan, by=by)
    return tournament
