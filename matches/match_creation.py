"""Making a drawn stage's matches from its plan (``tournaments.match_plans``): one service for
every kind of stage — a knockout, a round robin, a consolation or double elimination, a
knockout drawn from groups.

Every round's length is checked again (S1, at most ``MAX_MATCH_LENGTH``:
``tournaments.lengths``), so no caller can create a match whose pages cost more than the
bound allows. Byes are decided at once and their players put where their links say before
the rows are written, so a stage of any size is a few queries. Called inside the draw's
transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import ValidationError
from core.permissions import User, signed_in
from matches.models import EventKind, Match, MatchEvent, MatchState
from matches.tables import tables_number
from tournaments.lengths import match_length_problem
from tournaments.match_plans import PlannedMatch
from tournaments.models import Tournament

__all__ = ["matches_create"]

_LINKS = ["winner_to", "winner_to_upper", "loser_to", "loser_to_upper", "loser_first_match_only"]


def matches_create(
    *, tournament: Tournament, plan: Sequence[PlannedMatch], by: User
) -> list[Match]:
    """Create the plan's matches with their links and settle their byes (module docstring).
    The matches come back in the plan's order."""
    for rnd in {id(p.round): p.round for p in plan}.values():
        problem = match_length_problem(rnd.match_length, rnd.length_unit)
        if problem is not None:
            raise ValidationError(problem, code="match_length")
    rows = {
        p.key: Match(
            tournament=tournament,
            round=p.round,
            slot=p.slot,
            code=p.code,
            is_third_place=p.is_third_place,
            if_needed=p.if_needed,
            player1=p.player1,
            player2=p.player2,
            length=p.round.match_length,
            length_unit=p.round.length_unit,
            loser_first_match_only=p.loser_first_match_only,
        )
        for p in plan
    }
    if len(rows) != len(plan):
        raise ValueError("a plan's keys must differ")
    for p in plan:
        if p.bye:
            bye = rows[p.key]
            bye.state, bye.winner = MatchState.BYE, bye.player1
            if p.winner_to is not None:
                target = rows[p.winner_to.to]
                if p.winner_to.upper:
                    target.player1 = bye.player1
                else:
                    target.player2 = bye.player1
    for row in rows.values():
        if row.state != MatchState.BYE:
            both = row.player1 is not None and row.player2 is not None
            row.state = MatchState.READY if both else MatchState.WAITING
    matches = list(rows.values())
    tables_number(matches)
    Match.objects.bulk_create(matches)
    linked = []
    for p in plan:
        row = rows[p.key]
        if p.winner_to is not None:
            row.winner_to, row.winner_to_upper = rows[p.winner_to.to], p.winner_to.upper
        if p.loser_to is not None:
            row.loser_to, row.loser_to_upper = rows[p.loser_to.to], p.loser_to.upper
        if p.winner_to is not None or p.loser_to is not None:
            linked.append(row)
    if linked:
        Match.objects.bulk_update(linked, _LINKS)
    user = signed_in(by)
    MatchEvent.objects.bulk_create(
        [
            MatchEvent(match=m, kind=EventKind.BYE, by=user, data={"player": m.player1_id})
            for m in matches
            if m.state == MatchState.BYE
        ]
    )
    return matches
