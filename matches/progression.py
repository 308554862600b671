"""How players move through a stage's matches: putting a match's winner (and loser) into
the matches it feeds, taking them out again when a result changes, the walkover given when
a player is placed against an opponent who withdrew, and the tournament's end.

Every stage stores its links at the draw (``tournaments.match_plans``: a knockout's next
round and third-place match as much as a consolation's or double elimination's brackets),
and players move along the stored links only — never by slot arithmetic — so a new kind of
stage moves its players by the links its plan gives (``matches.elimination_progression``
reads them, with the rules of the first-match-only consolation and the grand final's
reset). Moving a player is one recursion (a player placed against an opponent who withdrew
wins by walkover and moves on at once, a bye made on the links sends its player on).

Decisions where the docs are silent:
- A correction or reset is refused while a match fed by this one (next round, or the
  third-place match) has a game, a walkover or a result: an organiser resets that match
  first (``refuse_if_downstream_started``).
- A table's results (a round robin's, a paired round's) are final once the knockout after
  them is drawn.
- The tournament is finished when every round has its matches and every match is decided,
  walked over, a bye or a reset not needed — unless a later stage is still to be drawn
  (a knockout from the groups' tables).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import ConflictError
from core.permissions import User
from core.reasons import Reason, ReasonCode, reason_data
from matches.common import event_add, match_mark, reports_settle
from matches.elimination_progression import (
    elimination_refuse,
    first_match,
    linked_downstream,
    side_empty,
)
from matches.models import EventKind, Match, MatchState
from matches.tournament_status import finish_when_played, status_set
from tournaments.models import Entry, Player, Round, Tournament, TournamentStatus
from tournaments.round_kinds import BRACKET_KINDS, round_kind

__all__ = [
    "advance",
    "player_place",
    "refuse_if_downstream_started",
    "tournament_finish_check",
    "unadvance",
    "walkover_apply",
]


def refuse_if_downstream_started(match: Match, what: str) -> list[tuple[Match, bool, str]]:
    """The matches ``match`` feeds (``linked_downstream``), or a refusal (``what``: the
    refused action, translated by the caller) when one of them has started or when the
    knockout has been drawn from the table this match counts in."""
    if round_kind(match.round.kind).table and (
        Round.objects.filter(tournament_id=match.tournament_id, kind__in=BRACKET_KINDS).exists()
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
    return elimination_refuse(match, what)


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
    """Put the decided match's winner and loser where its links say (the rules are
    ``matches.elimination_progression``'s), then see whether the tournament is over."""
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
    tournament_finish_check(match.tournament_id)


def unadvance(*, match: Match, by: User) -> None:
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


def tournament_finish_check(tournament_id: int) -> None:
    """Finished when every round has its matches and every match is played (module
    docstring); not while a knockout is still to be drawn from the tables."""
    rounds = Round.objects.filter(tournament_id=tournament_id)
    if rounds.filter(matches__isnull=True).exists():
        return  # a paired round not paired yet
    from matches.stage_handlers import handler_for

    tournament = Tournament.objects.get(pk=tournament_id)
    if handler_for(tournament).rounds_to_play(tournament):
        return  # the stage has matches still to make (a team match's boards)
    if (
        Tournament.objects.filter(pk=tournament_id, group_advance__gt=0).exists()
        and not rounds.filter(kind__in=BRACKET_KINDS).exists()
    ):
        return  # the table feeds a knockout, not drawn yet (tournaments.group_stage)
    finish_when_played(tournament_id, Match.objects.filter(tournament_id=tournament_id))


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
    advance(match=target, by=by)


def _bye_undo(target: Match, by: User) -> None:
    """Take back a bye made by ``_bye_check``: what it sent on first, then the bye; its
    player goes back to the side it came from."""
    unadvance(match=target, by=by)
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
