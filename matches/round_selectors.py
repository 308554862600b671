"""Reads of a tournament's rounds, whatever its format: the rounds with their matches (a
knockout's bracket, a group's or a Swiss round's pairings), the placings so far, and a
player's matches.

Each selector runs a fixed number of queries whatever the field size
(``select_related``/``prefetch_related``); ``bench/web_bench.py`` shows it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Q, QuerySet

from core.permissions import User
from matches.models import Match
from matches.placing import Placing
from matches.stage_handlers import handler_for
from matches.visibility import sees_unpublished, visible_matches
from tournaments.models import Player, Round, Tournament
from tournaments.round_kinds import round_kind

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
    unpublished paired round is listed without its pairings except to the staff.
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
    handler = handler_for(tournament)
    if handler.sections is not None:  # the main bracket, then the others
        return Bracket(
            tournament=tournament,
            rounds=[br for br in ordered if round_kind(br.round.kind).main],
            third_place=None,
            sections=handler.sections(
                tournament,
                [br.round for br in ordered],
                {br.round.pk: br.matches for br in ordered},
            ),
            main_title=handler.main_title(tournament) if handler.main_title else "",
        )
    return Bracket(tournament=tournament, rounds=ordered, third_place=third)


def tournament_placings(*, tournament: Tournament) -> list[Placing]:
    """Final placings so far, best first, as the tournament's stage places
    (``matches.stage_handlers``): a knockout 1, 2, 3 and 4 (or 3–4 shared), 5–8, …, each
    player once out; a round robin or paired rounds by their standings once finished.

    The same for every reader (``matches.visibility``): placings come from decided
    matches and the standings of published rounds, and a match of an unpublished round
    waits (it is never decided before its round is published).
    """
    return handler_for(tournament).placings(tournament)


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
