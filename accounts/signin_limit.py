"""One limit on failed sign-ins for every way to sign in.

The site's sign-in page (``/accounts/login/``), the admin's (``/admin/login/``), the API's
token endpoint (``POST /api/token/``) and anything else that checks a password all go
through Django's ``authenticate``, and so through ``accounts.backends.LimitedModelBackend``,
which asks this module first. Failures are counted twice:

- **per account** (the user name as typed, case-folded): ``SIGNIN_FAILURES_PER_ACCOUNT``
  (10) failures within ``SIGNIN_FAILURE_WINDOW`` (15 minutes) lock that name, from every
  address, until the oldest of them is older than the window. Guessing one person's
  password from many addresses gets no further than from one.
- **per client address** (``accounts.client_address``, as ``DJANGO_TRUSTED_PROXIES``
  says): ``SIGNIN_FAILURES_PER_ADDRESS`` (30) failures within the window lock the address
  for every name. Trying one password on many names gets no further; 30 leaves room for
  a club's players signing in over one venue's network and mistyping now and then.

Decisions, as a careful club organiser would want them:

- **Counted in the database, not the cache.** Redis may be down (the live pages keep
  working without it, and so must signing in), and a count kept in each process's memory
  would be multiplied by the number of processes. One small indexed table: a row per
  failure, old rows deleted as new ones come.
- **Every attempt is written before the password is checked**, and counts itself: of any
  number of attempts sent at once, at most the limit get their password checked. A right
  password deletes its own row and the name's earlier failures from that address.
- **A locked-out attempt does not check the password at all**, so guessing on during the
  lockout tells nothing, not even with the right password, and is not counted (the lock
  ends when the window has passed, not later for each refused try).
- **Locking a name locks its owner out too**: that is the price of a per-account limit.
  It lasts at most the window; staff can lift it at once by deleting the name's rows in
  the admin (*Failed sign-ins*).
- **The answer**: the pages and the admin show the lockout message with status 429 and
  ``Retry-After``; the API answers 429 with ``{"error": {"code": "too_many_attempts",
  "message": …}}``. The message says to wait, never which of the two limits was hit, and
  does not tell whether the account exists.

Signing up and asking for a password-reset mail (``accounts.signup``,
``accounts.password_reset``) go through the same limit (``request_begin``), so a flood of
either is refused as failed sign-ins are:

- **Every such request counts, and keeps counting**: a sign-up or a reset request is
  never "right" the way a password is, so its row stays for the window. It counts
  towards the **address**'s ``SIGNIN_FAILURES_PER_ADDRESS`` like a failed sign-in (30
  sign-ups, reset requests and failed sign-ins together within 15 minutes): a club
  evening where a dozen players sign up over the venue's network stays well within it.
- **A reset request counts per e-mail address too** (``SIGNIN_FAILURES_PER_ACCOUNT``, 10
  within the window), so nobody fills one person's inbox with reset mails from many
  addresses. It is counted under ``reset:<address>``, a key no user name can be (Django's
  user names have no ``:``), so reset requests never lock anyone's sign-in.
- **Sign-ups count per address only** (under ``signup:``): there is no account yet to
  count them for.
- The answer when refused is the sign-in's lockout message with status 429: it says to
  wait and nothing about any account.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import ngettext

from accounts.models import SignInFailure

USERNAME_LENGTH = 150


@dataclass(frozen=True)
class Lockout:
    """A refused attempt: how long until the next one may be tried."""

    until: datetime

    @property
    def retry_after(self) -> int:
        """Whole seconds to wait (at least 1)."""
        return max(1, math.ceil((self.until - timezone.now()).total_seconds()))

    @property
    def message(self) -> str:
        minutes = max(1, math.ceil(self.retry_after / 60))
        return ngettext(
            "Too many failed sign-ins for this account or from your address. "
            "Try again in %(minutes)d minute.",
            "Too many failed sign-ins for this account or from your address. "
            "Try again in %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}


def _window() -> timedelta:
    return timedelta(seconds=settings.SIGNIN_FAILURE_WINDOW)


def account_key(username: str) -> str:
    """How a typed user name is counted: case-folded, as long as a user name can be."""
    return username.casefold()[:USERNAME_LENGTH]


def _locked_until(rows: Q, limit: int, *, since: datetime, own: int) -> datetime | None:
    """When the rows beyond ``limit`` no longer count, or ``None`` if within it."""
    times = list(
        SignInFailure.objects.filter(rows, at__gte=since)
        .exclude(pk=own)
        .order_by("-at")
        .values_list("at", flat=True)[:limit]
    )
    if len(times) < limit:
        return None
    return times[limit - 1] + _window()


def attempt_begin(*, username: str, address: str | None) -> tuple[int, Lockout | None]:
    """Count an attempt (before its password is checked): its row's id, and a ``Lockout``
    if the account or the address is over its limit (the row is then removed again)."""
    now = timezone.now()
    since = now - _window()
    SignInFailure.objects.filter(at__lt=since).delete()
    key = account_key(username)
    own = SignInFailure.objects.create(username=key, address=address, at=now).pk
    limits = [(Q(username=key), settings.SIGNIN_FAILURES_PER_ACCOUNT)]
    if address is not None:
        limits.append((Q(address=address), settings.SIGNIN_FAILURES_PER_ADDRESS))
    until = [_locked_until(rows, limit, since=since, own=own) for rows, limit in limits]
    latest = max((u for u in until if u is not None), default=None)
    if latest is None:
        return own, None
    SignInFailure.objects.filter(pk=own).delete()
    return own, Lockout(until=latest)


def request_begin(*, kind: str, address: str | None, account: str | None = None) -> Lockout | None:
    """Count a sign-up or a password-reset request (``kind``: ``signup``, ``reset``) from
    ``address``, and for ``account`` (the e-mail a reset is asked for) when given: a
    ``Lockout`` if the address, or the account's requests, are over their limits; the
    request is then not counted. The row is kept otherwise (it counts for the window)."""
    now = timezone.now()
    since = now - _window()
    SignInFailure.objects.filter(at__lt=since).delete()
    key = f"{kind}:{account_key(account) if account is not None else ''}"[:USERNAME_LENGTH]
    own = SignInFailure.objects.create(username=key, address=address, at=now).pk
    limits: list[tuple[Q, int]] = []
    if account is not None:
        limits.append((Q(username=key), settings.SIGNIN_FAILURES_PER_ACCOUNT))
    if address is not None:
        limits.append((Q(address=address), settings.SIGNIN_FAILURES_PER_ADDRESS))
    until = [_locked_until(rows, limit, since=since, own=own) for rows, limit in limits]
    latest = max((u for u in until if u is not None), default=None)
    if latest is None:
        return None
    SignInFailure.objects.filter(pk=own).delete()
    return Lockout(until=latest)


def attempt_succeeded(*, attempt: int, username: str, address: str | None) -> None:
    """A right password: the attempt and the name's earlier failures from there go."""
    SignInFailure.objects.filter(
        Q(pk=attempt) | Q(username=account_key(username), address=address)
    ).delete()
