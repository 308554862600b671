"""Half-point byes on request in a Swiss: a player asks in advance to sit out a round and
scores half a point for it (``HalfPointBye``), as arbiters grant them.

The organiser sets how many a player may ask for over the tournament
(``Tournament.half_point_byes``, 0: none) and the last round they may be asked for
(``Tournament.half_point_byes_until``, empty: any round). The pairing of the round leaves
the player out (``matches.swiss_progression``); the standings count the ½ once the round
is finished, as a voluntarily unplayed round (``matches.swiss_standings``).

Decisions where the rules leave it to the organiser:
- The player asks for themself (their account is linked to the player), or an organiser
  asks for them; either may cancel. Both are audited (``EntryEvent``).
- A bye is asked for and cancelled only before its round is paired (un-pairing the round
  opens it again), and only while the tournament is not finished; it may be asked before
  the Swiss starts.
- A withdrawn player asks for none; a wish of theirs is dropped when its round is paired.
- A player checked out for a round they asked a bye for still gets the half point: they
  said in advance they would not play.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from core.permissions import User, authenticated, is_organiser
from matches.models import EntryEvent, EntryEventKind, HalfPointBye, Match
from matches.stage_handlers import handler_for
from tournaments.models import Entry, RoundKind, Tournament, TournamentStatus
from tournaments.page_versions import tournament_touch

__all__ = [
    "MAX_HALF_BYES",
    "half_point_bye_ask",
    "half_point_bye_cancel",
    "half_point_bye_rules_set",
    "half_point_byes_of",
    "may_ask_for",
]


MAX_HALF_BYES = 9  # each player, over a tournament: more is no longer a Swiss


def half_point_bye_rules_set(
    *, tournament: Tournament, allowed: int, until: int | None, by: User
) -> Tournament:
    """The organiser sets how many half-point byes each player may ask for (0: none) and
    the last round they may be asked for (``None``: any round). Byes asked for already
    stay (the players were told yes)."""
    if not is_organiser(by, tournament):
        raise PermissionDeniedError(
            _("Only an organiser of “%(tournament)s” may do this; ask one of them.")
            % {"tournament": tournament.name}
        )
    if not handler_for(tournament).pairs_rounds:
        raise ValidationError(_("Half-point byes exist in paired rounds only."), code="not_swiss")
    if tournament.status == TournamentStatus.FINISHED:
        raise ConflictError(_("The tournament is finished."), code="finished")
    if not 0 <= allowed <= MAX_HALF_BYES:
        raise ValidationError(
            _("A player may ask for 0 to %(max)s half-point byes, not %(n)s.")
            % {"max": MAX_HALF_BYES, "n": allowed},
            code="half_byes_allowed",
        )
    rounds = tournament.swiss_rounds
    if until is not None and (until < 1 or (rounds is not None and until > rounds)):
        raise ValidationError(
            _("There is no round %(n)s in this tournament.") % {"n": until}, code="no_round"
        )
    with transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(
            half_point_byes=allowed, half_point_byes_until=until
        )
        tournament_touch(tournament_id=tournament.pk)
    tournament.half_point_byes, tournament.half_point_byes_until = allowed, until
    return tournament


def may_ask_for(user: User, entry: Entry) -> bool:
    """Whether ``user`` may ask for (or cancel) ``entry``'s half-point byes: the player's own
    account, or an organiser of the tournament."""
    if not authenticated(user):
        return False
    if entry.player.user_id is not None and entry.player.user_id == user.pk:
        return True
    return is_organiser(user, entry.tournament)


def _require(user: User, entry: Entry) -> None:
    if not may_ask_for(user, entry):
        raise PermissionDeniedError(
            _("Only %(name)s or an organiser may ask for or cancel their half-point byes.")
            % {"name": entry.player.name}
        )
    if not handler_for(entry.tournament).pairs_rounds:
        raise ValidationError(_("Half-point byes exist in paired rounds only."), code="not_swiss")


def _require_open(tournament: Tournament, number: int) -> None:
    """Round ``number`` is not paired yet and the tournament is not finished."""
    if tournament.status == TournamentStatus.FINISHED:
        raise ConflictError(_("The tournament is finished."), code="finished")
    paired = Match.objects.filter(
        tournament=tournament, round__kind=RoundKind.PAIRED, round__number=number
    ).exists()
    if paired:
        raise ConflictError(
            _(
                "Round %(n)s is paired already; a half-point bye is asked for, or cancelled, "
                "before its round is paired."
            )
            % {"n": number},
            code="round_paired",
        )


def half_point_bye_ask(*, entry: Entry, round_number: int, by: User) -> HalfPointBye:
    """Ask for a half-point bye in round ``round_number`` for ``entry``'s player."""
    entry = Entry.objects.select_related("tournament", "player").get(pk=entry.pk)
    _require(by, entry)
    tournament = entry.tournament
    allowed = tournament.half_point_byes
    if allowed == 0:
        raise ValidationError(
            _("This tournament grants no half-point byes; the organiser has not offered any."),
            code="no_half_byes",
        )
    if entry.withdrawn_at is not None:
        raise ConflictError(
            _("%(name)s has withdrawn and is not paired again.") % {"name": entry.player.name},
            code="withdrawn",
        )
    last = tournament.half_point_byes_until
    rounds = tournament.swiss_rounds
    if round_number < 1 or (rounds is not None and round_number > rounds):
        raise ValidationError(
            _("There is no round %(n)s in this tournament.") % {"n": round_number},
            code="no_round",
        )
    if last is not None and round_number > last:
        raise ValidationError(
            _("Half-point byes may be asked for up to round %(last)s, not round %(n)s.")
            % {"last": last, "n": round_number},
            code="too_late_round",
        )
    with transaction.atomic():
        tournament_touch(tournament_id=tournament.pk)  # the tournament's lock first
        _require_open(tournament, round_number)
        taken = HalfPointBye.objects.filter(entry=entry)
        if taken.filter(round_number=round_number).exists():
            raise ConflictError(
                _("%(name)s has asked for a half-point bye in round %(n)s already.")
                % {"name": entry.player.name, "n": round_number},
                code="asked_already",
            )
        if taken.count() >= allowed:
            raise ConflictError(
                ngettext(
                    "%(name)s has asked for the %(count)s half-point bye this Swiss grants; "
                    "cancel it to ask for another round.",
                    "%(name)s has asked for the %(count)s half-point byes this Swiss grants; "
                    "cancel one to ask for another round.",
                    allowed,
                )
                % {"name": entry.player.name, "count": allowed},
                code="half_byes_used",
            )
        try:
            with transaction.atomic():
                bye = HalfPointBye.objects.create(
                    entry=entry, round_number=round_number, by=_user(by)
                )
        except IntegrityError:
            raise ConflictError(
                _("%(name)s has asked for a half-point bye in round %(n)s already.")
                % {"name": entry.player.name, "n": round_number},
                code="asked_already",
            ) from None
        EntryEvent.objects.create(
            entry=entry,
            kind=EntryEventKind.HALF_BYE_ASKED,
            by=_user(by),
            data={"round": round_number},
        )
    return bye


def half_point_bye_cancel(*, bye: HalfPointBye, by: User) -> None:
    """Cancel a half-point bye before its round is paired."""
    bye = HalfPointBye.objects.select_related("entry__tournament", "entry__player").get(pk=bye.pk)
    entry = bye.entry
    _require(by, entry)
    with transaction.atomic():
        tournament_touch(tournament_id=entry.tournament_id)
        _require_open(entry.tournament, bye.round_number)
        deleted, _rows = HalfPointBye.objects.filter(pk=bye.pk).delete()
        if not deleted:
            raise NotFoundError(_("This half-point bye is cancelled already."))
        EntryEvent.objects.create(
            entry=entry,
            kind=EntryEventKind.HALF_BYE_CANCELLED,
            by=_user(by),
            data={"round": bye.round_number},
        )


def half_point_byes_of(*, tournament: Tournament) -> list[HalfPointBye]:
    """Every half-point bye asked for in ``tournament``, by round then player name."""
    return sorted(
        HalfPointBye.objects.filter(entry__tournament=tournament).select_related("entry__player"),
        key=lambda b: (b.round_number, b.entry.player.name.casefold()),
    )


def _user(by: User) -> Any:
    return by if authenticated(by) else None
