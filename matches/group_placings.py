"""The placings of a stage played in tables: a round robin in groups, or paired rounds (a
Swiss, a Monrad: one table, their standings), once the tournament is finished.

- Without a knockout after them: a round robin in groups places its players by their
  place in their group, the k-th of every group sharing the places (k − 1)·G + 1 … k·G
  (G the number of groups); one table places by its order.
- Their top ``k`` gone on to a knockout (``tournaments.group_stage``), once the
  knockout's final is decided:

  - the knockout places its players as a knockout does: the champion 1, the final's
    loser 2, the semifinal losers share 3–4 (no third-place match is played after
    groups), the quarterfinal losers 5–8, …
  - the players who did not go on come after all of the knockout's, by their place in
    their group: the (k+1)-th of every group share the next G places, then the (k+2)-th,
    …, each group's in its table's order (a withdrawn player who was passed over among
    them).
"""

from __future__ import annotations

from collections.abc import Callable

from matches.group_standings import group_tables
from matches.models import Match, MatchState
from matches.placing import Placing
from matches.swiss_standings import swiss_standings
from tournaments.models import Player, Tournament, TournamentStatus
from tournaments.round_kinds import BRACKET_KINDS

__all__ = [
    "group_orders",
    "group_placings",
    "knockout_after_tables_placings",
    "paired_orders",
    "paired_placings",
]

Orders = Callable[[Tournament], list[list[Player]]]


def group_orders(tournament: Tournament) -> list[list[Player]]:
    """Each group's players in table order."""
    return [[line.player for line in table.lines] for table in group_tables(tournament=tournament)]


def paired_orders(tournament: Tournament) -> list[list[Player]]:
    """Paired rounds' one table: their standings' order."""
    return [[line.player for line in swiss_standings(tournament=tournament).lines]]


def group_placings(*, tournament: Tournament) -> list[Placing]:
    """A round robin's placings (module docstring): none before it is finished."""
    if tournament.status != TournamentStatus.FINISHED:
        return []
    if tournament.group_advance > 0:
        return knockout_after_tables_placings(tournament=tournament, orders=group_orders)
    tables = group_tables(tournament=tournament)
    size = len(tables)
    return sorted(
        (
            Placing(line.player, (line.place - 1) * size + 1, line.place * size)
            if size > 1
            else Placing(line.player, line.place, line.place)
            for table in tables
            for line in table.lines
        ),
        key=lambda p: (p.first, p.player.name),
    )


def paired_placings(*, tournament: Tournament) -> list[Placing]:
    """Paired rounds' placings: their standings once the tournament is finished."""
    if tournament.status != TournamentStatus.FINISHED:
        return []
    if tournament.group_advance > 0:
        return knockout_after_tables_placings(tournament=tournament, orders=paired_orders)
    lines = swiss_standings(tournament=tournament).lines
    return [Placing(line.player, line.place, line.place) for line in lines]


def knockout_after_tables_placings(*, tournament: Tournament, orders: Orders) -> list[Placing]:
    """The placings once the top ``group_advance`` of the tables (``orders``: each table's
    players in order) went on to a knockout."""
    placings: list[Placing] = []
    knockout = list(
        Match.objects.filter(
            tournament=tournament,
            round__kind__in=BRACKET_KINDS,
            state__in=(MatchState.DECIDED, MatchState.WALKOVER),
        ).select_related("player1__club", "player2__club", "winner__club", "round")
    )
    placed: set[int] = set()
    # A bracket with byes has fewer players than lines: the places stop at its size.
    size_ko = len({p for m in knockout for p in (m.player1_id, m.player2_id) if p is not None})
    for match in knockout:
        after = match.round.rounds_after
        loser = match.loser
        if after == 0 and match.winner is not None:
            placings.append(Placing(match.winner, 1, 1))
            placed.add(match.winner.pk)
        if loser is not None:
            placings.append(
                Placing(
                    loser,
                    2**after + 1,
                    min(2 ** (after + 1), size_ko),
                    match.state == MatchState.WALKOVER,
                )
            )
            placed.add(loser.pk)
    tables = orders(tournament)
    size = len(tables)
    offset = size * tournament.group_advance
    for order in tables:
        rest = [player for player in order if player.pk not in placed]
        for tier, player in enumerate(rest):
            placings.append(Placing(player, offset + tier * size + 1, offset + (tier + 1) * size))
    return sorted(placings, key=lambda p: (p.first, p.player.name))
