"""Template context for every page: the languages for the switch and the user's roles."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from core.permissions import can_create_tournament, can_grant_organiser


def site(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    return {
        "can_create_tournament": bool(user is not None and can_create_tournament(user)),
        "can_grant_organiser": bool(user is not None and can_grant_organiser(user)),
    }
