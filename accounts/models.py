"""Failed sign-ins, counted per account and per client address (``accounts.signin_limit``)."""

from __future__ import annotations

from django.db import models


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
