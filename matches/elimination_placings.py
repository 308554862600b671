"""Placings of a consolation or double-elimination tournament.

Decisions where the issue is silent:
- Double elimination: 1 the winner of the last final played (the reset if it was played,
  else the grand final), 2 its loser; then the players knocked out in the losers' bracket,
  its last round first: the losers of a round share the places its matches cover (the
  losers' final 3, the round before 4, …, e.g. 5–6, 7–8, 9–12 with 16 players). Every
  place is then taken exactly once: 2 + the losers' bracket's n − 2 matches.
- Consolation: the main bracket places as a knockout does (1, 2, 3–4, 5–8, …); the
  consolation places nobody (a player who lost in round 1 and won it did not beat the
  players who went further), but its winner is named on the bracket pages and in the API
  (``matches.elimination_brackets``, the consolation section's ``winner``).
- A progressive consolation that decides third place (``tournaments.consolation_places``):
  the main final places 1 and 2; the consolation's winner 3, and its rounds place their
  losers as the losers' bracket does, the last round first (its final's loser 4, …). With
  three players there is no consolation match: the semifinal's loser is third alone.
- A player is placed once out (or the winner once the last final is decided); a loser by
  walkover is marked, as in a knockout.
"""

from __future__ import annotations

from formats import format_for
from matches.models import Match, MatchState
from matches.placing import Placing
from stages import knockout
from tournaments.models import RoundKind, Tournament

__all__ = ["elimination_placings"]

_PLAYED = (MatchState.DECIDED, MatchState.WALKOVER)


def _matches(tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(tournament=tournament)
        .select_related("player1", "player2", "winner", "round")
        .order_by("round__number", "slot")
    )


def elimination_placings(*, tournament: Tournament) -> list[Placing]:
    """The placings so far (the module's rules), best first."""
    matches = _matches(tournament)
    if format_for(tournament.format).losers_bracket:
        placings = _double(matches)
    elif tournament.consolation_third_place:
        placings = _consolation_places(matches)
    else:
        placings = _consolation(matches)
    return sorted(placings, key=lambda p: (p.first, p.player.name, p.player.pk))


def _double(matches: list[Match]) -> list[Placing]:
    placings: list[Placing] = []
    finals = [m for m in matches if m.round.kind == RoundKind.GRAND_FINAL]
    last = None
    for m in finals:  # GF, then GF2 if played
        if m.state in _PLAYED:
            last = m
        elif m.state != MatchState.NOT_NEEDED:
            last = None  # a reset still to play: nobody is first yet
    if last is not None and last.winner is not None:
        placings.append(Placing(last.winner, 1, 1))
        if last.loser is not None:
            placings.append(Placing(last.loser, 2, 2, last.walkover))
    return placings + _lower_bracket(matches, RoundKind.LOSERS, 3)


def _lower_bracket(matches: list[Match], kind: str, first: int) -> list[Placing]:
    """The losers of a losers' (or a placing consolation) bracket's rounds, the last round
    first: the losers of a round share the places its matches cover, from ``first`` on."""
    placings: list[Placing] = []
    by_round: dict[int, list[Match]] = {}
    for m in matches:
        if m.round.kind == kind:
            by_round.setdefault(m.round.number, []).append(m)
    for number in sorted(by_round, reverse=True):
        round_matches = by_round[number]
        last_place = first + len(round_matches) - 1
        for m in round_matches:
            if m.state in _PLAYED and m.loser is not None:
                placings.append(Placing(m.loser, first, last_place, m.walkover))
        first = last_place + 1
    return placings


def _consolation_places(matches: list[Match]) -> list[Placing]:
    """The main final places 1 and 2, the consolation 3 to n (the module's rules)."""
    main = [m for m in matches if m.round.kind == RoundKind.KNOCKOUT]
    rounds = max((m.round.number for m in main), default=0)
    consolation = [m for m in matches if m.round.kind == RoundKind.CONSOLATION]
    placings: list[Placing] = []
    for m in main:
        if m.state not in _PLAYED or m.loser is None:
            continue
        if m.round.number == rounds:
            assert m.winner is not None
            placings += [Placing(m.winner, 1, 1), Placing(m.loser, 2, 2, m.walkover)]
        elif not consolation:  # three players: the semifinal's loser is third alone
            placings.append(Placing(m.loser, 3, 3, m.walkover))
    if consolation:
        final = max(consolation, key=lambda m: m.round.number)
        if final.state in _PLAYED and final.winner is not None:
            placings.append(Placing(final.winner, 3, 3))
        placings += _lower_bracket(matches, RoundKind.CONSOLATION, 4)
    return placings


def _consolation(matches: list[Match]) -> list[Placing]:
    main = [m for m in matches if m.round.kind == RoundKind.KNOCKOUT]
    rounds = max((m.round.number for m in main), default=0)
    first_round = min((m.round.number for m in main), default=0)
    entrants = sum(
        (m.player1_id is not None) + (m.player2_id is not None)
        for m in main
        if m.round.number == first_round
    )
    placings: list[Placing] = []
    for m in main:
        if m.state not in _PLAYED:
            continue
        if m.round.number == rounds and m.winner is not None:
            placings.append(Placing(m.winner, 1, 1))
        loser = m.loser
        if loser is not None:
            first, last = knockout.placing_label(m.round.number, rounds, entrants)
            placings.append(Placing(loser, first, last, m.walkover))
    return placings
