"""Walkovers (scoring.md S6): a referee gives one, and a player who withdraws after the draw
gives their opponent one at once (or as soon as the opponent is known:
``progression.walkover_apply``). A flag fall on the scoresheet's clock gives one too
(``match_flag_fall``, reason ``flag_fall``), which a referee may overrule with a note
(``match_flag_overrule``)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.permissions import User, is_match_player, is_referee
from core.reasons import Reason, ReasonCode, reason_data
from matches.common import (
    active_games,
    event_add,
    lock_match,
    match_mark,
    match_snapshot,
    referee_require,
)
from matches.models import FINISHED_STATES, EventKind, Match, MatchEvent, MatchState
from matches.progression import refuse_if_downstream_started, unadvance, walkover_apply
from matches.stage_handlers import handler_for
from matches.standing import match_standing, standing_apply
from tournaments.models import Entry, Player
from tournaments.round_kinds import round_kind

__all__ = ["match_flag_fall", "match_flag_overrule", "match_walkover", "match_withdrawal_apply"]


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


def match_flag_fall(
    *, match: Match, loser: Player, by: User, link_player: Player | None = None
) -> Match:
    """``loser``'s time ran out on the scoresheet's clock (``scoresheets.clock``): the
    match is lost, the opponent wins it as by walkover (S6), with the site's reason
    ``flag_fall`` in the audit; the games played stay. Allowed to the tournament's referees
    and the match's players (the recording phone is the clock both players see), and to a
    player recording through their private link (``link_player``: that link's player).
    A referee may overrule it (``match_flag_overrule``). ``ConflictError`` once the match
    is decided."""
    allowed = is_referee(by, match.tournament) or is_match_player(by, match)
    if link_player is not None:
        allowed = link_player.pk in (match.player1_id, match.player2_id)
    if not allowed:
        raise PermissionDeniedError(
            _("Only the players of this match and its tournament's referees may record it."),
            code="not_a_recorder",
        )
    with transaction.atomic():
        match = lock_match(match)
        if match.state in FINISHED_STATES:
            raise ConflictError(
                _("The match is already decided; an organiser may reset it first."),
                code="match_decided",
                match=match_snapshot(match),
            )
        if loser.pk not in (match.player1_id, match.player2_id):
            raise ValidationError(_("%(player)s does not play in this match.") % {"player": loser})
        winner = match.player2 if loser.pk == match.player1_id else match.player1
        assert winner is not None
        walkover_apply(match=match, winner=winner, by=by, reason=ReasonCode.FLAG_FALL)
    return match


def _flag_walkover(match: Match) -> MatchEvent | None:
    """The walkover event that decided ``match`` by a flag fall, None if it was not one."""
    last = match.events.filter(kind=EventKind.WALKOVER).order_by("-pk").first()
    if last is None or (last.data or {}).get("reason_code") != ReasonCode.FLAG_FALL:
        return None
    return last


def match_flag_overrule(*, match: Match, by: User, note: str) -> Match:
    """A referee overrules a flag fall (``match_flag_fall``): the walkover it gave is taken
    back, the match stands as its games leave it and goes on (the scoresheet's clock then
    gives the flagged player the time the referee decides: ``scoresheets.clock``). The
    note is required and kept in the audit, as a correction's is
    (``result_corrected`` with ``flag_overruled``). Refused while the match the winner
    went on to has started (``refuse_if_downstream_started``)."""
    referee_require(by, match)
    if not note.strip():
        raise ValidationError(
            _("Say why the flag fall is overruled; the note is kept in the audit log."),
            code="note_required",
        )
    with transaction.atomic():
        match = lock_match(match)
        flagged = _flag_walkover(match) if match.state == MatchState.WALKOVER else None
        if flagged is None:
            raise ConflictError(
                _("This match was not decided by a flag fall."), code="not_a_flag_fall"
            )
        refuse_if_downstream_started(match, _("Overruling the flag fall"))
        winner = match.winner_id
        unadvance(match=match, by=by)
        games = active_games(match)
        match.walkover = False
        standing_apply(match, match_standing(match, [g.result_value() for g in games]), len(games))
        match_mark(match)
        match.save()
        event_add(
            match,
            EventKind.RESULT_CORRECTED,
            by,
            flag_overruled=True,
            walkover_winner=winner,
            note=note.strip(),
        )
    return match
