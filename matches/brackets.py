"""Reads of a tournament's bracket: its rounds with their matches, the placings so far,
and a player's matches.

Each selector runs a fixed number of queries whatever the field size
(``select_related``/``prefetch_related``); ``bench/web_bench.py`` shows it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Q, QuerySet

from core.permissions import User
from formats import Stage, format_for
from matches import elimination_brackets, group_standings
from matches.models import Match, MatchState
from matches.visibility import sees_unpublished, visible_matches
from tournaments import bracket
from tournaments.models import (
    Player,
    Round,
    RoundKind,
    Tournament,
    TournamentStatus,
)

__all__ = [
    "Bracket",
    "BracketRound",
    "Placing",
    "RoundPart",
    "bracket_columns",
    "bracket_parts",
    "player_matches",
    "round_matches",
    "tournament_bracket",
    "tournament_placings",
]


@dataclass
class BracketRound:
    round: Round
    matches: list[Match] = field(default_factory=list)


@dataclass
class Bracket:
    tournament: Tournament
    rounds: list[BracketRound]
    third_place: Match | None
    # Consolation and double elimination: ``rounds`` is the main (winners')
    # bracket, titled ``main_title``; the other brackets are ``sections``
    # (``matches.elimination_brackets``).
    sections: list[Any] = field(default_factory=list)
    main_title: str = ""


def _matches(tournament: Tournament, by: User) -> QuerySet[Match]:
    """The tournament's matches ``by`` may see (``matches.visibility``)."""
    return (
        visible_matches(by=by, tournament=tournament)
        .select_related("player1__club", "player2__club", "winner", "round")
        .order_by("round__number", "is_third_place", "slot")
    )


def tournament_bracket(*, tournament: Tournament, by: User = None) -> Bracket:
    """Rounds → matches (players, cached scores, winners), and the third-place match.

    Only the matches ``by`` may see (``matches.visibility``; ``None``: the public): an
    unpublished Swiss round is listed without its pairings except to the staff.
    Two queries: the rounds and the matches with their players.
    """
    rounds = {r.pk: BracketRound(r) for r in Round.objects.filter(tournament=tournament)}
    third: Match | None = None
    for match in _matches(tournament, by):
        if match.is_third_place:
            third = match
        else:
            rounds[match.round_id].matches.append(match)
    ordered = sorted(rounds.values(), key=lambda br: br.round.number)
    if format_for(tournament.format).stage == Stage.ELIMINATION:
        return Bracket(
            tournament=tournament,
            rounds=[br for br in ordered if br.round.kind == RoundKind.KNOCKOUT],
            third_place=None,
            sections=elimination_brackets.elimination_sections(
                tournament=tournament,
                rounds=[br.round for br in ordered],
                matches={br.round.pk: br.matches for br in ordered},
            ),
            main_title=elimination_brackets.main_title(tournament),
        )
    return Bracket(tournament=tournament, rounds=ordered, third_place=third)


@dataclass(frozen=True)
class Placing:
    player: Player
    first: int
    last: int
    walkover: bool = False  # lost (or left) by walkover

    @property
    def label(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def tournament_placings(*, tournament: Tournament) -> list[Placing]:
    """Final placings so far: 1, 2, 3 and 4 (or 3–4 shared), 5–8, 9–16, …

    A player is placed once they are out (or have won); players still in are not
    listed. A loser by walkover is placed by the round lost in, and marked. A round robin
    places everyone by its standings once its last match is decided, and nobody before.

    The same for every reader (``matches.visibility``): placings come from decided
    matches and the Swiss standings of published rounds, and a match of an unpublished
    round waits (it is never decided before its round is published).
    """
    stage = format_for(tournament.format).stage
    if stage == Stage.ELIMINATION:
        from matches.elimination_placings import elimination_placings

        return elimination_placings(tournament=tournament)
    if stage == Stage.PAIRED:  # its standings, once over
        if tournament.status != TournamentStatus.FINISHED:
            return []
        if tournament.group_advance > 0:
            from matches.group_placings import knockout_after_groups_placings

            return knockout_after_groups_placings(tournament=tournament)
        from matches.swiss_standings import swiss_standings

        lines = swiss_standings(tournament=tournament).lines
        return [Placing(line.player, line.place, line.place) for line in lines]
    if stage == Stage.GROUPS:
        if tournament.status != TournamentStatus.FINISHED:
            return []
        if tournament.group_advance > 0:
            from matches.group_placings import knockout_after_groups_placings

            return knockout_after_groups_placings(tournament=tournament)
        tables = group_standings.group_tables(tournament=tournament)
        # In groups (and no knockout after them): the k-th of every group share the
        # places (k − 1)·G + 1 … k·G, G the number of groups.
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
    rounds = Round.objects.filter(tournament=tournament).count()
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
        first, last = bracket.placing_label(number, rounds)
        if number == rounds - 1 and has_third:
            continue  # semifinal losers are placed by the third-place match
        placings.append(Placing(loser, first, last, match.walkover))
    return sorted(placings, key=lambda p: (p.first, p.player.name, p.player.pk))


def player_matches(*, player: Player, by: User = None) -> QuerySet[Match]:
    """The player's matches in tournaments ``by`` may see, newest tournament first.

    A player visible through one public tournament shows only that tournament's
    matches to the public, never those of their private tournaments.
    """
    return (
        visible_matches(by=by)
        .filter(Q(player1=player) | Q(player2=player))
        .select_related("tournament", "round", "player1", "player2", "winner")
        .order_by("-tournament__start_date", "tournament_id", "round__number", "slot")
    )


def round_matches(*, tournament: Tournament, number: int, by: User = None) -> BracketRound | None:
    """Round ``number`` of ``tournament`` with the matches ``by`` may see (two queries),
    or ``None``: no such round, or an unpublished one ``by`` may not see
    (``matches.visibility.sees_unpublished``)."""
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None or (not rnd.published and not sees_unpublished(by, tournament)):
        return None
    return BracketRound(round=rnd, matches=list(_matches(tournament, by).filter(round=rnd)))


@dataclass(frozen=True)
class RoundPart:
    """A round's column of a knockout's bracket as the live pages key it: its matches'
    count and the largest of their versions (``Match.live_version``); ``round`` is None
    for the third-place match, shown on its own."""

    round: Round | None
    matches: int
    version: int
    third_place: int | None = None  # the third-place match's id


def bracket_parts(*, tournament: Tournament) -> list[RoundPart]:
    """The knockout's rounds in order, then its third-place match if any: two queries
    (the rounds; the matches' count and largest version per round), whatever the size."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    stats: dict[tuple[int, bool], tuple[int, int, int]] = {
        (round_id, third): (count, version or 0, first)
        for round_id, third, count, version, first in Match.objects.filter(tournament=tournament)
        .order_by()
        .values_list("round_id", "is_third_place")
        .annotate(Count("id"), Max("live_version"), Max("id"))
    }
    none = (0, 0, 0)
    parts = [RoundPart(r, *stats.get((r.pk, False), none)[:2]) for r in rounds]
    for (_round_id, third), (count, version, pk) in stats.items():
        if third and count:
            parts.append(RoundPart(None, count, version, third_place=pk))
    return parts


def bracket_columns(
    *, tournament: Tournament, rounds: list[Round], third_place: int | None, by: User = None
) -> Bracket:
    """The matches ``by`` may see of some of a knockout's rounds (the third-place match
    apart) and, if ``third_place`` is its id, the third-place match: one query, whatever
    their number."""
    shown = {r.pk: BracketRound(r) for r in rounds}
    wanted = Q(round__in=list(shown), is_third_place=False)
    if third_place is not None:
        wanted |= Q(pk=third_place)
    third: Match | None = None
    for match in _matches(tournament, by).filter(wanted) if shown or third_place else []:
        if match.is_third_place:
            third = match
        else:
            shown[match.round_id].matches.append(match)
    return Bracket(tournament=tournament, rounds=list(shown.values()), third_place=third)
