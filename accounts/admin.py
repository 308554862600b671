"""Failed sign-ins in the admin: who is locked out, and lifting a lockout by deleting
the name's (or the address's) rows."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import OrganiserRightChange, SignInFailure


@admin.register(SignInFailure)
class SignInFailureAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("username", "address", "at")
    list_filter = ("at",)
    search_fields = ("username", "address")
    readonly_fields = ("username", "address", "at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(OrganiserRightChange)
class OrganiserRightChangeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The organiser right's changes, made on ``/organisers/``: read only here."""

    list_display = ("user", "granted", "by", "at")
    list_filter = ("granted", "at")
    search_fields = ("user__username", "by__username")
    readonly_fields = ("user", "granted", "by", "at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
