"""Failed sign-ins in the admin: who is locked out, and lifting a lockout by deleting
the name's (or the address's) rows."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import SignInFailure


@admin.register(SignInFailure)
class SignInFailureAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("username", "address", "at")
    list_filter = ("at",)
    search_fields = ("username", "address")
    readonly_fields = ("username", "address", "at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
