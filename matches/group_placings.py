"""The placings of a round robin in groups (or a Swiss) whose top ``k`` went on to a
knockout (``tournaments.group_stage``), once the knockout's final is decided.

Decisions where the issue is silent:
- The knockout places its players as a knockout does: the champion 1, the final's loser 2,
  the semifinal losers share 3–4 (no third-place match is played after groups), the
  quarterfinal losers 5–8, …
- The players who did not go on come after all of the knockout's, by their place in their
  group: the (k+1)-th of every group share the next G places (G the number of groups),
  then the (k+2)-th, …, each group's in its table's order (a withdrawn player who was
  passed over among them).
"""

from __future__ import annotations

from formats import Stage, format_for
from matches.brackets import Placing
from matches.group_standings import group_tables
from matches.models import Match, MatchState
from tournaments.models import Player, RoundKind, Tournament

__all__ = ["knockout_after_groups_placings"]


def _orders(tournament: Tournament) -> list[list[Player]]:
    """Each group's players in table order; paired rounds (a Swiss, a Monrad) are one
    group, their standings."""
    if format_for(tournament.format).stage == Stage.PAIRED:
        from matches.swiss_standings import swiss_standings

        return [[line.player for line in swiss_standings(tournament=tournament).lines]]
    return [[line.player for line in table.lines] for table in group_tables(tournament=tournament)]


def knockout_after_groups_placings(*, tournament: Tournament) -> list[Placing]:
    placings: list[Placing] = []
    knockout = list(
        Match.objects.filter(
            tournament=tournament,
            round__kind=RoundKind.KNOCKOUT,
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
    orders = _orders(tournament)
    size = len(orders)
    offset = size * tournament.group_advance
    for order in orders:
        rest = [player for player in order if player.pk not in placed]
        for tier, player in enumerate(rest):
            placings.append(Placing(player, offset + tier * size + 1, offset + (tier + 1) * size))
    return sorted(placings, key=lambda p: (p.first, p.player.name))
