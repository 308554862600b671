"""Players without accounts: private links, as Tabbycat's private URLs.

An organiser issues each player of a tournament a link (``/p/<token>/``, with its QR
code on the organiser's links page, to print and hand out); whoever holds it reports,
confirms, disputes and withdraws that player's results — only in that tournament's
matches of that player — without signing in. The report services do the work
(``matches.reports``, given the link instead of a user), so the second person, the
match rules and the audit trail are the same as for a signed-in player; the audit row
names the link.

Decisions where the docs are silent:
- **Only a hash is stored** (SHA-256 of the token, unique). The token itself is derived
  from the site's secret key and the link's random ``nonce`` (HMAC), so the organiser
  can print the same link again later (on a sheet, a slip) without the database
  holding anything that opens it: a leaked database opens no link. Rotating the secret
  key breaks the printing of old links (they still open); re-issue them.
- **One live link per player and tournament**; re-issuing revokes the old one at once.
  Revoked links open nothing (the page says so, without naming the player).
- **Rate**: at most ``USES_PER_WINDOW`` actions (report, confirm, dispute, withdraw) per
  link in ``WINDOW``; more are refused (``RateLimitedError``) until the window passes.
  Each action is kept (``PrivateLinkUse``: what, when, the client's address).
- **Recording a game** through the link (the digital scoresheet, ``scoresheets``) is
  counted apart (``RECORDING_ACTIONS``: a game started, a turn posted), so a game
  recorded at the table never eats the reports' allowance: at most
  ``TURNS_PER_WINDOW`` = 240 in ``WINDOW``. A bräde game is some 30–60 turns in 20–40
  minutes (at most ~30 in ten minutes; a phone back from a cut sends its kept turns at
  once, and a turn sent again counts again), so a real game stays far below it, while a
  runaway client that posts without pause is stopped within seconds.
- **Other pages** accept a link opened earlier in the same browser through
  ``private_link_player(request, tournament)``: opening the link keeps its token in the
  session (per tournament), and every read checks it again (a revoked link stops at once).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from core.errors import DomainError, PermissionDeniedError
from core.permissions import User, is_organiser, signed_in
from tournaments.models import Player, PrivateLink, PrivateLinkUse, Tournament

__all__ = [
    "RECORDING_ACTIONS",
    "SESSION_KEY",
    "TURNS_PER_WINDOW",
    "USES_PER_WINDOW",
    "WINDOW",
    "RateLimitedError",
    "private_link_find",
    "private_link_issue",
    "private_link_of",
    "private_link_player",
    "private_link_remember",
    "private_link_replaced",
    "private_link_revoke",
    "private_link_token",
    "private_link_use",
    "private_links_issue_missing",
    "token_hash",
]

SESSION_KEY = "private_links"
USES_PER_WINDOW = 30
WINDOW = timedelta(minutes=10)
TURNS_PER_WINDOW = 240
RECORDING_ACTIONS = ("record", "turn")


class RateLimitedError(DomainError):
    """Too many actions through one link in a short time."""

    status = 429


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def private_link_token(link: PrivateLink) -> str:
    """The link's token, derived again from the secret key and its nonce (module text)."""
    digest = salted_hmac("tournaments.private_links", f"{link.pk}:{link.nonce}").digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")[:32]


def _require_organiser(by: User, tournament: Tournament) -> None:
    if not is_organiser(by, tournament):
        raise PermissionDeniedError(
            _("Only an organiser of “%(tournament)s” may do this; ask one of them.")
            % {"tournament": tournament.name}
        )


def private_link_issue(*, tournament: Tournament, player: Player, by: User) -> PrivateLink:
    """Issue ``player`` a new link to ``tournament`` (revoking the live one): an
    organiser only, for a player entered in it."""
    _require_organiser(by, tournament)
    if not tournament.entries.filter(player=player).exists():
        raise PermissionDeniedError(
            _("%(player)s is not entered in this tournament.") % {"player": player.name}
        )
    with transaction.atomic():
        now = timezone.now()
        PrivateLink.objects.select_for_update().filter(
            tournament=tournament, player=player, revoked_at__isnull=True
        ).update(revoked_at=now, revoked_by=signed_in(by))
        link = PrivateLink.objects.create(
            tournament=tournament,
            player=player,
            nonce=secrets.token_hex(16),
            token_hash=secrets.token_hex(32),  # replaced below, once the id is known
            issued_by=signed_in(by),
            issued_at=now,
        )
        link.token_hash = token_hash(private_link_token(link))
        link.save(update_fields=["token_hash"])
    return link


def private_link_replaced(link: PrivateLink) -> bool:
    """Whether issuing ``link`` revoked a live link of the same player (a re-issue), as
    opposed to the player's first link: the revoked link's time is the new one's."""
    return (
        PrivateLink.objects.filter(
            tournament_id=link.tournament_id, player_id=link.player_id, revoked_at=link.issued_at
        )
        .exclude(pk=link.pk)
        .exists()
    )


def private_links_issue_missing(*, tournament: Tournament, by: User) -> list[PrivateLink]:
    """Issue a link to every entered player (not withdrawn) who has no live one; the live
    links stay as they are. An organiser only. Returns the new links."""
    _require_organiser(by, tournament)
    with_link = PrivateLink.objects.filter(tournament=tournament, revoked_at__isnull=True)
    players = (
        Player.objects.filter(entries__tournament=tournament, entries__withdrawn_at__isnull=True)
        .exclude(pk__in=with_link.values("player_id"))
        .order_by("name", "pk")
    )
    return [private_link_issue(tournament=tournament, player=p, by=by) for p in players]


def private_link_revoke(*, link: PrivateLink, by: User) -> PrivateLink:
    """Revoke ``link``: it opens nothing from now on (an organiser only)."""
    _require_organiser(by, link.tournament)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.revoked_by = signed_in(by)
        link.save(update_fields=["revoked_at", "revoked_by"])
    return link


def private_link_find(token: str) -> PrivateLink | None:
    """The live link of ``token``, or None (unknown or revoked)."""
    if not token or len(token) > 64:
        return None
    return (
        PrivateLink.objects.select_related("tournament", "player")
        .filter(token_hash=token_hash(token), revoked_at__isnull=True)
        .first()
    )


def private_link_remember(request: HttpRequest, link: PrivateLink, token: str) -> None:
    """Keep the opened link's token in the session, for ``private_link_player``."""
    kept: dict[str, str] = dict(request.session.get(SESSION_KEY) or {})
    kept[str(link.tournament_id)] = token
    request.session[SESSION_KEY] = kept


def private_link_of(request: HttpRequest, tournament: Tournament) -> PrivateLink | None:
    """The live link to ``tournament`` opened in this browser's session, or None."""
    session = getattr(request, "session", None)
    kept: Any = session.get(SESSION_KEY) if session is not None else None
    token = kept.get(str(tournament.pk)) if isinstance(kept, dict) else None
    link = private_link_find(token) if isinstance(token, str) else None
    return link if link is not None and link.tournament_id == tournament.pk else None


def private_link_player(request: HttpRequest, tournament: Tournament) -> Player | None:
    """The player whose private link to ``tournament`` this browser opened (and which is
    still live), or None: for pages that let a player without an account act."""
    link = private_link_of(request, tournament)
    return None if link is None else link.player


def private_link_use(*, link: PrivateLink, action: str, address: str | None = None) -> None:
    """Count one action through ``link`` (module text: the rate; recording a game is
    counted apart from the other actions), or refuse it."""
    now = timezone.now()
    recording = action in RECORDING_ACTIONS
    with transaction.atomic():
        locked = PrivateLink.objects.select_for_update().get(pk=link.pk)
        uses = PrivateLinkUse.objects.filter(link=locked, at__gte=now - WINDOW)
        if recording:
            recent = uses.filter(action__in=RECORDING_ACTIONS).count()
        else:
            recent = uses.exclude(action__in=RECORDING_ACTIONS).count()
        if recent >= (TURNS_PER_WINDOW if recording else USES_PER_WINDOW):
            raise RateLimitedError(
                _("Too many actions through this link in a short time; wait a few minutes."),
                code="rate_limited",
            )
        PrivateLinkUse.objects.create(link=locked, action=action, at=now, address=address)
        locked.last_used_at = now
        locked.save(update_fields=["last_used_at"])
