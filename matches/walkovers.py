"""Walkovers (scoring.md S6): a referee gives one, and a player who withdraws after the draw
gives their opponent one at once (or as soon as the opponent is known:
``progression.walkover_apply``)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import ConflictError, ValidationError
from core.permissions import User
from core.reasons import Reason, ReasonCode, reason_data
from matches.common import event_add, lock_match, match_snapshot, referee_require
from matches.models import FINISHED_STATES, EventKind, Match, MatchState
from matches.progression import walkover_apply
from matches.stage_handlers import handler_for
from tournaments.models import Entry, Player
from tournaments.round_kinds import round_kind

__all__ = ["match_walkover", "match_withdrawal_apply"]


def match_walkover(*, match: Match, winner: Player, by: User, reason: Reason = "") -> Match:
    """S6: the match ends without (further) play; ``winner`` advances."""
    referee_require(by, match)
    with transaction.atomic():
        match = lock_match(match)
        if match.state in FINISHED_STATES:
            raise ConflictError(
                _("The match is already decided; an organiser may reset it first."),
                code="match_decided",
                match=match_snapshot(match),
            )
        if match.player1_id is None or match.player2_id is None:
            raise ValidationError(_("Both players must be known before a walkover is given."))
        if match.state == MatchState.WAITING:  # an unpublished Swiss round
            raise ValidationError(
                _("This match is not playable yet: its round is not published."),
                code="not_published",
            )
        if winner.pk not in (match.player1_id, match.player2_id):
            raise ValidationError(_("%(player)s does not play in this match.") % {"player": winner})
        walkover_apply(match=match, winner=winner, by=by, reason=reason)
    return match


def match_withdrawal_apply(*, entry: Entry, by: User, reason: Reason = "") -> Match | None:
    """After the draw: the withdrawn player's next match becomes a walkover (S6). In a round
    robin every match they have left becomes one (decision: the results they played stay
    and count in the standings; the rest are walkovers to their opponents). In a Swiss
    between rounds there is no match to give: ``None``, the player is simply not paired
    again."""
    player = entry.player
    left = list(
        # of=self: PostgreSQL cannot lock the nullable side of the players' outer joins.
        Match.objects.select_for_update(of=("self",))
        .filter(tournament_id=entry.tournament_id)
        .exclude(state__in=FINISHED_STATES)
        .filter(Q(player1=player) | Q(player2=player))
        .select_related("round", "player1", "player2")
        .order_by("round__number", "slot")
    )
    pending = left[0] if left else None
    kind = round_kind(pending.round.kind) if pending is not None else None
    if kind is not None and kind.table and not kind.paired:  # all drawn at once
        for later in left[1:]:
            _withdrawal_walkover(later, player, by, reason)
    if pending is None and handler_for(entry.tournament).pairs_rounds:
        return None  # between paired rounds: simply not paired again
    if pending is None:
        raise ValidationError(
            _("%(name)s has no match left to play in this tournament; nothing to withdraw from.")
            % {"name": player.name}
        )
    _withdrawal_walkover(pending, player, by, reason)
    return pending


def _withdrawal_walkover(pending: Match, player: Player, by: User, reason: Reason) -> None:
    event_add(pending, EventKind.WITHDRAWAL, by, player=player.pk, **reason_data(reason))
    if pending.player1_id is not None and pending.player2_id is not None:
        winner = pending.player2 if pending.player1_id == player.pk else pending.player1
        assert winner is not None
        walkover_apply(
            match=pending, winner=winner, by=by, reason=reason or ReasonCode.OPPONENT_WITHDREW
        )
