"""Consolation and double-elimination brackets in play: the links players move along, and
the rules they move by.

At the draw every match of ``stages.elimination``'s shape becomes a ``Match`` with its code
(``M2.1``, ``C1.3``, ``W1.2``, ``L4.1``, ``GF``, ``GF2``), and each *source* of a side (the
winner or the loser of an earlier match) becomes a link on that earlier match
(``tournaments.match_plans.elimination_plan``, made by ``matches.match_creation``). Every
stage's matches move along stored links (a knockout's too): ``matches.progression`` moves
the players along them (``advance``, ``unadvance``, the byes and the reset below); this
module reads them (``linked_downstream``) and refuses a correction upstream of a match
that has started (``elimination_refuse``, for ``refuse_if_downstream_started``).

Rules, and decisions where the issue is silent:
- *First match only* (simple consolation): the loser of a main round-2 match enters the
  consolation only if it had a bye in round 1, i.e. played no match before; otherwise its
  side stays empty and the consolation match becomes a bye for the other player, who goes
  on at once (``stages.elimination``).
- *The reset* (``if_needed``): the grand final's winner from the winners' bracket (player 1)
  wins the tournament and the reset is marked ``not_needed``; if the losers' bracket's
  player wins, both play the reset, in the same places.
- Corrections and resets: as in a knockout, refused while a match this one fed has a game,
  a result or a walkover (``refuse_if_downstream_started``). A bye that this match caused
  has not started by itself: it is taken back (with what it sent on, recursively) when the
  result that caused it changes, unless what it fed has started. A reset that is not
  needed has not started either. A ``not_needed`` reset cannot be reset itself.
- The tournament is finished when every match is (decided, walkover, bye or not needed).
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import ConflictError
from matches.fed_matches import downstream_started, match_started
from matches.models import Match, MatchState
from tournaments.models import Player

__all__ = [
    "elimination_refuse",
    "first_match",
    "linked_downstream",
    "side_empty",
]

_PLAYED = (MatchState.DECIDED, MatchState.WALKOVER)


def linked_downstream(match: Match) -> list[tuple[Match, bool, str]]:
    """The matches this one feeds, locked: (match, upper side?, "winner", "loser" or
    "reset"); the grand final feeds its reset."""
    wanted: list[tuple[int, bool, str]] = []
    if match.winner_to_id is not None:
        wanted.append((match.winner_to_id, match.winner_to_upper, "winner"))
    if match.loser_to_id is not None:
        wanted.append((match.loser_to_id, match.loser_to_upper, "loser"))
    locked = {
        m.pk: m
        for m in Match.objects.select_for_update().filter(pk__in=[pk for pk, _u, _r in wanted])
    }
    found = [(locked[pk], upper, role) for pk, upper, role in wanted]
    if match.code == "GF":
        reset = (
            Match.objects.select_for_update()
            .filter(tournament_id=match.tournament_id, if_needed=True)
            .first()
        )
        if reset is not None:
            found.append((reset, True, "reset"))
    return found


def first_match(feeder: Match, player: Player) -> bool:
    """Whether ``feeder`` was ``player``'s first match (no match played in an earlier round:
    a bye is not a match)."""
    return not (
        Match.objects.filter(
            tournament_id=feeder.tournament_id,
            round__number__lt=feeder.round.number,
            state__in=_PLAYED,
        )
        .filter(Q(player1=player) | Q(player2=player))
        .exists()
    )


def side_empty(target: Match, upper: bool) -> bool:
    """A side that stays empty for good: fed by a *first match only* loser who had played
    before (simple consolation)."""
    feeder = (
        Match.objects.filter(
            loser_to=target, loser_to_upper=upper, loser_first_match_only=True, state__in=_PLAYED
        )
        .select_related("round", "player1", "player2")
        .first()
    )
    if feeder is None:
        return False
    loser = feeder.loser
    return loser is not None and not first_match(feeder, loser)


def _blocking(target: Match) -> Match | None:
    """The match that has started among ``target`` and, through the byes it caused, the
    matches after it (None: nothing has)."""
    if target.state == MatchState.NOT_NEEDED:
        return None
    if target.state == MatchState.BYE:
        for after, _upper, _role in linked_downstream(target):
            found = _blocking(after)
            if found is not None:
                return found
        return None
    return target if match_started(target) else None


def elimination_refuse(match: Match, what: str) -> list[tuple[Match, bool, str]]:
    """``refuse_if_downstream_started`` for a linked match (``what``: the refused action)."""
    if match.state == MatchState.NOT_NEEDED:
        raise ConflictError(
            _(
                "%(what)s is refused: this replay of the grand final is not needed, because "
                "the winners' bracket's player won the grand final. Reset the grand final "
                "instead."
            )
            % {"what": what},
            code="not_needed",
        )
    downstream = linked_downstream(match)
    for target, _upper, _role in downstream:
        blocking = _blocking(target)
        if blocking is not None:
            raise downstream_started(what, blocking)
    return downstream
