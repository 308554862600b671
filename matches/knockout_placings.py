"""The placings of a knockout: 1, 2, 3 and 4 (or 3–4 shared), 5–8, 9–16, … (the last
range ending at the number of players in the bracket: 9–12 for 12 players)

A player is placed once they are out (or have won); players still in are not listed. A
loser by walkover is placed by the round lost in, and marked; with a third-place match the
semifinal losers are placed by it.
"""

from __future__ import annotations

from django.db.models import Count

from matches.models import Match, MatchState
from matches.placing import Placing
from stages import knockout
from tournaments.models import Round, Tournament

__all__ = ["bracket_players", "knockout_placings"]


def bracket_players(*, tournament: Tournament) -> int:
    """The players drawn into the knockout: those of its first round (a bye's one player
    counted); one query."""
    counts = Match.objects.filter(
        tournament=tournament, round__number=1, is_third_place=False
    ).aggregate(one=Count("player1"), two=Count("player2"))
    return int(counts["one"] or 0) + int(counts["two"] or 0)


def knockout_placings(*, tournament: Tournament) -> list[Placing]:
    """The placings so far (the module's rules), best first: four queries."""
    rounds = Round.objects.filter(tournament=tournament).count()
    entrants = bracket_players(tournament=tournament)
    placings: list[Placing] = []
    matches = list(
        Match.objects.filter(
            tournament=tournament, state__in=(MatchState.DECIDED, MatchState.WALKOVER)
        )
        .select_related("player1", "player2", "winner", "round")
        .order_by("round__number", "is_third_place", "slot")
    )
    has_third = (
        tournament.third_place_match
        and Match.objects.filter(tournament=tournament, is_third_place=True).exists()
    )
    for match in matches:
        loser = match.loser
        number = match.round.number
        if match.is_third_place:
            assert match.winner is not None
            placings.append(Placing(match.winner, 3, 3))
            if loser is not None:
                placings.append(Placing(loser, 4, 4, match.walkover))
            continue
        if number == rounds:
            assert match.winner is not None
            placings.append(Placing(match.winner, 1, 1))
        if loser is None:
            continue
        first, last = knockout.placing_label(number, rounds, entrants)
        if number == rounds - 1 and has_third:
            continue  # semifinal losers are placed by the third-place match
        placings.append(Placing(loser, first, last, match.walkover))
    return sorted(placings, key=lambda p: (p.first, p.player.name, p.player.pk))
