"""Taking a Swiss round's pairing back before it is published: un-pair (the round is empty
again, so the organiser may check players in or out, or a player ask for or cancel a
half-point bye, and pair it anew) and re-pair (the same in one step: the pairing made
again from who is present now).

Decisions where the rules leave it to the organiser:
- Only an unpublished round: once published, players have seen it and may have started
  (a swap is what remains, ``matches.swiss_progression.swiss_pairing_swap``).
- The pairing taken back is kept in the audit trail (``RoundEvent``: every pair, the
  bye's second ``null``, with who took it back and when); its matches and their events
  go, as nothing was played in them.
- Re-pairing with nothing changed gives the same pairing (the pairing is determined by
  the history, the pairing numbers and the stored draw seed).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ConflictError
from core.permissions import User, authenticated
from matches.models import Match, RoundEvent, RoundEventKind, SwissFloat
from matches.swiss_progression import pair_locked, swiss_round_checked
from tournaments.models import Round, Tournament
from tournaments.page_versions import tournament_touch

__all__ = ["swiss_round_repair", "swiss_round_unpair"]


def _unpair_locked(rnd: Round, by: User, kind: RoundEventKind) -> None:
    if rnd.published:
        raise ConflictError(
            _(
                "Round %(n)s is published; its pairing can no longer be taken back. Swap "
                "players instead."
            )
            % {"n": rnd.number},
            code="published",
        )
    matches = list(Match.objects.select_for_update().filter(round=rnd).order_by("slot"))
    if not matches:
        raise ConflictError(
            _("Round %(n)s is not paired yet.") % {"n": rnd.number}, code="not_paired"
        )
    RoundEvent.objects.create(
        round=rnd,
        kind=kind,
        by=by if authenticated(by) else None,
        data={"pairs": [[m.player1_id, m.player2_id] for m in matches]},
    )
    SwissFloat.objects.filter(round=rnd).delete()
    Match.objects.filter(pk__in=[m.pk for m in matches]).delete()


def swiss_round_unpair(*, round: Round, by: User) -> Round:
    """Take back the pairing of an unpublished round: the round is empty again."""
    rnd = swiss_round_checked(round, by)
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=rnd.tournament_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        _unpair_locked(rnd, by, RoundEventKind.UNPAIRED)
        tournament_touch(tournament_id=rnd.tournament_id)
    return rnd


def swiss_round_repair(*, round: Round, by: User) -> list[Match]:
    """Take back the pairing of an unpublished round and pair it again now; the new
    matches."""
    rnd = swiss_round_checked(round, by)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=rnd.tournament_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        _unpair_locked(rnd, by, RoundEventKind.REPAIRED)
        matches = pair_locked(tournament, rnd, by)
        tournament_touch(tournament_id=tournament.pk)
    return matches
