"""The bracket's matches and how players move through them: creating a drawn bracket's
matches (byes settled at once), putting a match's winner (and a semifinal's loser) into
the matches it feeds, taking them out again when a result changes, the walkover given when
a player is placed against an opponent who withdrew, and the tournament's end.

A knockout's match feeds the next round by its slot; a consolation's or double
elimination's match (one with a code) feeds along the links stored at the draw
(``matches.elimination_progression``: the links, their rules and what a correction there
refuses). Moving a player along either is one recursion (a player placed against an
opponent who withdrew wins by walkover and moves on at once, a bye made on the links
sends its player on), so both ways of moving live here.

Decisions where the docs are silent:
- A correction or reset is refused while the match fed by this one (next round, or the
  third-place match) has a game, a walkover or a result: an organiser resets that match
  first (``refuse_if_downstream_started``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from core.errors import ConflictError, ValidationError
from core.permissions import User, signed_in
from core.reasons import Reason, ReasonCode, reason_data
from matches.common import event_add, match_mark, reports_settle
from matches.elimination_progression import (
    elimination_refuse,
    first_match,
    linked_downstream,
    side_empty,
)
from matches.fed_matches import downstream_started, match_started
from matches.models import EventKind, Match, MatchEvent, MatchState
from matches.tables import tables_number
from matches.tournament_status import finish_when_played, status_set
from tournaments.lengths import match_length_problem
from tournaments.models import Entry, Player, Round, RoundKind, Tournament, TournamentStatus

__all__ = [
    "advance",
    "bracket_matches_create",
    "player_place",
    "refuse_if_downstream_started",
    "round_robin_matches_create",
    "tournament_finish_check",
    "unadvance",
    "walkover_apply",
]


def bracket_matches_create(
    *,
    tournament: Tournament,
    rounds: Sequence[Round],
    first_round: Sequence[tuple[Player | None, Player | None]],
    third_place: bool,
    by: User,
) -> list[Match]:
    """Create every match of a drawn bracket and settle the first-round byes.

    Called by ``tournament_draw`` inside its transaction. Byes are
    decided at once and their players put into round 2 before the rows are
    written, so the whole bracket is a few queries whatever its size. Every round's
    length is checked again (S1, at most ``MAX_MATCH_LENGTH``: ``tournaments.lengths``),
    so no caller can create a match whose pages cost more than the bound allows.
    """
    for rnd in rounds:
        problem = match_length_problem(rnd.match_length, rnd.length_unit)
        if problem is not None:
            raise ValidationError(problem, code="match_length")
    by_round: dict[int, list[Match]] = {}
    for rnd in rounds:
        count = len(first_round) >> (rnd.number - 1)
        by_round[rnd.number] = [
            Match(
                tournament=tournament,
                round=rnd,
                slot=slot,
                length=rnd.match_length,
                length_unit=rnd.length_unit,
            )
            for slot in range(count)
        ]
    byes: list[Match] = []
    for slot, (upper, lower) in enumerate(first_round):
        match = by_round[1][slot]
        match.player1, match.player2 = upper, lower
        if upper is None or lower is None:
            # Byes are only ever the lower line (knockout.first_round), given to top seeds.
            match.player1 = upper or lower
            match.player2 = None
            match.state = MatchState.BYE
            match.winner = match.player1
            byes.append(match)
            if len(rounds) > 1:
                target = by_round[2][slot // 2]
                if slot % 2 == 0:
                    target.player1 = match.player1
                else:
                    target.player2 = match.player1
        else:
            match.state = MatchState.READY
    if len(rounds) > 1:
        for target in by_round[2]:
            if target.player1 is not None and target.player2 is not None:
                target.state = MatchState.READY
    matches = [m for number in sorted(by_round) for m in by_round[number]]
    if third_place:
        final = rounds[-1]
        matches.append(
            Match(
                tournament=tournament,
                round=final,
                slot=0,
                is_third_place=True,
                length=final.match_length,
                length_unit=final.length_unit,
            )
        )
    tables_number(matches)
    Match.objects.bulk_create(matches)
    user = signed_in(by)
    MatchEvent.objects.bulk_create(
        [
            MatchEvent(match=m, kind=EventKind.BYE, by=user, data={"player": m.player1_id})
            for m in byes
        ]
    )
    return matches


def round_robin_matches_create(
    *,
    tournament: Tournament,
    rounds: Sequence[Round],
    pairs: Sequence[Sequence[tuple[Player, Player | None]]],
    by: User,
) -> list[Match]:
    """Create every match of a drawn round robin: ``pairs[i]`` are round i + 1's, the
    first-named player as player 1 (``stages.roundrobin``); a pair without a second player
    is that round's bye, decided at once. ``slot`` is the table (0 the first), the bye
    last; nothing is fed by position. A few queries whatever the group's size."""
    for rnd in rounds:
        problem = match_length_problem(rnd.match_length, rnd.length_unit)
        if problem is not None:
            raise ValidationError(problem, code="match_length")
    matches: list[Match] = []
    for rnd, round_pairs in zip(rounds, pairs, strict=True):
        for slot, (first, second) in enumerate(round_pairs):
            bye = second is None
            matches.append(
                Match(
                    tournament=tournament,
                    round=rnd,
                    slot=slot,
                    player1=first,
                    player2=second,
                    length=rnd.match_length,
                    length_unit=rnd.length_unit,
                    state=MatchState.BYE if bye else MatchState.READY,
                    winner=first if bye else None,
                )
            )
    tables_number(matches)
    Match.objects.bulk_create(matches)
    user = signed_in(by)
    MatchEvent.objects.bulk_create(
        [
            MatchEvent(match=m, kind=EventKind.BYE, by=user, data={"player": m.player1_id})
            for m in matches
            if m.state == MatchState.BYE
        ]
    )
    return matches


def _rounds_in(tournament_id: int) -> int:
    return Round.objects.filter(tournament_id=tournament_id).count()


def _downstream(match: Match) -> list[tuple[Match, bool, str]]:
    """The matches this one feeds, locked: (match, upper slot?, "winner"/"loser"). A round
    robin's match feeds none (its slot is a table number, not a bracket position)."""
    if match.is_third_place or match.round.kind != RoundKind.KNOCKOUT:
        return []
    rounds = _rounds_in(match.tournament_id)
    number = match.round.number
    found: list[tuple[Match, bool, str]] = []
    if number < rounds:
        nxt = (
            Match.objects.select_for_update()
            .filter(
                tournament_id=match.tournament_id,
                round__number=number + 1,
                slot=match.slot // 2,
                is_third_place=False,
            )
            .first()
        )
        if nxt is not None:
            found.append((nxt, match.slot % 2 == 0, "winner"))
    if number == rounds - 1:
        third = (
            Match.objects.select_for_update()
            .filter(tournament_id=match.tournament_id, is_third_place=True)
            .first()
        )
        if third is not None:
            found.append((third, match.slot % 2 == 0, "loser"))
    return found


def refuse_if_downstream_started(match: Match, what: str) -> list[tuple[Match, bool, str]]:
    """``what``: the refused action, translated by the caller."""
    if match.code:  # a consolation or double elimination: its links
        return elimination_refuse(match, what)
    if match.round.kind in (RoundKind.ROUND_ROBIN, RoundKind.PAIRED) and (
        Round.objects.filter(tournament_id=match.tournament_id, kind=RoundKind.KNOCKOUT).exists()
    ):
        raise ConflictError(
            _(
                # Translators: %(what)s is "Correcting game 3" or "Resetting this match".
                "%(what)s is refused: the knockout has been drawn from the groups' tables, "
                "so the group results are final."
            )
            % {"what": what},
            code="knockout_drawn",
        )
    downstream = _downstream(match)
    for target, _upper, _role in downstream:
        if match_started(target):
            raise downstream_started(what, target)
    return downstream


def player_place(target: Match, player: Player | None, upper: bool, by: User) -> None:
    """Put ``player`` (None: empty the place) in ``target``'s upper (player 1) or lower
    place; the match becomes ready once both are there."""
    if upper:
        target.player1 = player
    else:
        target.player2 = player
    if target.player1_id is not None and target.player2_id is not None:
        if target.state == MatchState.WAITING:
            target.state = MatchState.READY
    elif target.state == MatchState.READY:
        target.state = MatchState.WAITING
    match_mark(target)  # the next round's match shows its new player (``web.live``)
    target.save()
    if player is None:
        return
    event_add(target, EventKind.ADVANCED, by, player=player.pk)
    if target.state == MatchState.READY:
        # A player who withdrew while waiting for this opponent gives a walkover now.
        withdrawn = set(
            Entry.objects.filter(
                tournament_id=target.tournament_id,
                player_id__in=[target.player1_id, target.player2_id],
                withdrawn_at__isnull=False,
            ).values_list("player_id", flat=True)
        )
        if len(withdrawn) == 1:
            (absent,) = withdrawn
            winner = target.player2 if absent == target.player1_id else target.player1
            assert winner is not None
            walkover_apply(match=target, winner=winner, by=by, reason=ReasonCode.OPPONENT_WITHDREW)


def advance(*, match: Match, by: User) -> None:
    """Put the winner (and a semifinal's loser) into the matches this one feeds."""
    if match.code:  # a consolation or double elimination: its links
        _linked_advance(match, by)
        return
    for target, upper, role in _downstream(match):
        player = match.winner if role == "winner" else match.loser
        if player is not None:
            player_place(target, player, upper, by)
    tournament_finish_check(match.tournament_id)


def unadvance(*, match: Match, by: User) -> None:
    if match.code:  # a consolation or double elimination: its links
        _linked_unadvance(match, by)
        return
    for target, upper, _role in _downstream(match):
        player_place(target, None, upper, by)
    status_set(match.tournament_id, TournamentStatus.RUNNING, was=TournamentStatus.FINISHED)


def tournament_finish_check(tournament_id: int) -> None:
    """A knockout is finished when its final (and third-place match) are; a round robin
    when every match of every round is."""
    rounds = _rounds_in(tournament_id)
    last = Match.objects.filter(tournament_id=tournament_id, round__number=rounds)
    tables = last.filter(round__kind__in=(RoundKind.ROUND_ROBIN, RoundKind.PAIRED))
    if (
        tables.exists()
        and Tournament.objects.filter(pk=tournament_id, group_advance__gt=0).exists()
    ):
        return  # the table feeds a knockout, not drawn yet (tournaments.group_stage)
    if last.filter(round__kind=RoundKind.ROUND_ROBIN).exists():
        last = Match.objects.filter(tournament_id=tournament_id)
    finish_when_played(tournament_id, last)


def walkover_apply(*, match: Match, winner: Player, by: User, reason: Reason) -> None:
    match.winner = winner
    match.state = MatchState.WALKOVER
    match.walkover = True
    match.decided_after_game = None
    match.decided_early = False
    match_mark(match)
    match.save()
    event_add(match, EventKind.WALKOVER, by, winner=winner.pk, **reason_data(reason))
    reports_settle(match, by)
    advance(match=match, by=by)


# --- a consolation's or double elimination's links (``matches.elimination_progression``) ---


def _bye_check(target: Match, by: User) -> None:
    """A waiting match with one player whose other side stays empty becomes a bye, and the
    player goes on at once."""
    if target.state != MatchState.WAITING:
        return
    present = [(p, up) for p, up in ((target.player1, True), (target.player2, False)) if p]
    if len(present) != 1:
        return
    player, upper = present[0]
    if not side_empty(target, not upper):
        return
    target.player1, target.player2 = player, None
    target.winner = player
    target.state = MatchState.BYE
    match_mark(target)
    target.save()
    event_add(target, EventKind.BYE, by, player=player.pk)
    _linked_advance(target, by)


def _bye_undo(target: Match, by: User) -> None:
    """Take back a bye made by ``_bye_check``: what it sent on first, then the bye; its
    player goes back to the side it came from."""
    _linked_unadvance(target, by)
    player = target.player1
    empty_upper = (
        Match.objects.filter(loser_to=target, loser_first_match_only=True)
        .values_list("loser_to_upper", flat=True)
        .first()
    )
    target.player1, target.player2 = (None, player) if empty_upper else (player, None)
    target.winner = None
    target.state = MatchState.WAITING
    match_mark(target)
    target.save()
    event_add(target, EventKind.BYE_UNDONE, by, player=player.pk if player else None)


def _reset_apply(final: Match, reset: Match, by: User) -> None:
    """The grand final decided: the reset is played only if the losers' bracket's player
    (player 2) won it."""
    if final.winner_id == final.player1_id:
        reset.state = MatchState.NOT_NEEDED
        match_mark(reset)
        reset.save()
        event_add(reset, EventKind.NOT_NEEDED, by, winner=final.winner_id)
        return
    player_place(reset, final.player1, True, by)
    player_place(reset, final.player2, False, by)


def _linked_advance(match: Match, by: User) -> None:
    """Put the decided match's winner and loser where its links say (the rules are
    ``matches.elimination_progression``'s)."""
    for target, upper, role in linked_downstream(match):
        if role == "reset":
            _reset_apply(match, target, by)
            continue
        player = match.winner if role == "winner" else match.loser
        if player is None:
            continue
        if role == "loser" and match.loser_first_match_only and not first_match(match, player):
            _bye_check(target, by)  # its side stays empty
            continue
        player_place(target, player, upper, by)
        _bye_check(target, by)
    _linked_finish_check(match.tournament_id)


def _linked_unadvance(match: Match, by: User) -> None:
    """Take the match's winner and loser out of the matches it fed (a correction or reset
    changed its result); byes it caused are taken back, a reset is waiting again."""
    for target, upper, role in linked_downstream(match):
        if role == "reset":
            target.player1 = target.player2 = target.winner = None
            target.state = MatchState.WAITING
            match_mark(target)
            target.save()
            continue
        if target.state == MatchState.BYE:
            _bye_undo(target, by)
        player_place(target, None, upper, by)
    status_set(match.tournament_id, TournamentStatus.RUNNING, was=TournamentStatus.FINISHED)


def _linked_finish_check(tournament_id: int) -> None:
    """Finished when every match is: decided, walked over, a bye or a reset not needed."""
    finish_when_played(tournament_id, Match.objects.filter(tournament_id=tournament_id))
