"""Failed sign-ins, counted per account and per client address (``accounts.signin_limit``);
the organiser right's changes (``accounts.organiser_rights``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class SignInFailure(models.Model):
    """One failed (or, for a moment, ongoing) sign-in: the user name as typed (case-folded),
    the client's address, and when. Rows older than the counting window are deleted as
    new ones come; deleting a name's rows (the admin) lifts its lockout at once."""

    username = models.CharField(max_length=150, db_index=True)
    address = models.GenericIPAddressField(null=True, blank=True, db_index=True)
    at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = "failed sign-in"
        verbose_name_plural = "failed sign-ins"

    def __str__(self) -> str:
        return f"{self.username} from {self.address or 'unknown'} at {self.at:%Y-%m-%d %H:%M:%S}"


class OrganiserRightChange(models.Model):
    """The organiser right (``tournaments.add_tournament``: creating tournaments) granted
    or revoked on the club administrators' page (``accounts.organiser_rights``): whose,
    by whom, when. Its ``grant_organiser`` permission is what makes a club administrator."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organiser_right_changes"
    )
    granted = models.BooleanField()  # True: granted; False: revoked
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organiser_right_changes_made",
    )
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ("-at", "-id")
        verbose_name = "organiser right change"
        permissions = (("grant_organiser", "Can grant and revoke the organiser right"),)

    def __str__(self) -> str:
        what = "granted" if self.granted else "revoked"
        return f"organiser right of {self.user} {what} by {self.by} at {self.at:%Y-%m-%d %H:%M}"
