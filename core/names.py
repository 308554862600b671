"""What a user is called, and to whom.

A user name is a login identifier: it goes only to a tournament's staff (its organisers
and referees, and superusers). Everyone else — the match's players included — sees the
display name: the user's full name, else the name of the player linked to them (public
wherever they play), else nothing. One rule for the API (``tournaments.serializers``:
``/api/tournaments/N/staff/``, ``PersonField``), the pages (the ``person`` filter) and the
services' messages (``matches.common.user_label``).

Below every app: reads the user object given (the reverse ``player`` relation of
``tournaments.Player.user``), imports no app.
"""

from __future__ import annotations

from typing import Any

__all__ = ["display_name", "person_name"]


def display_name(user: Any) -> str | None:
    """What the public may call a user: their full name, else the name of the player
    linked to them, else nothing (``None``). Never the user name. Use
    ``select_related("player")`` (or ``"…_by__player"``) to read it without a query."""
    full = user.get_full_name().strip() if hasattr(user, "get_full_name") else ""
    if full:
        return str(full)
    player = getattr(user, "player", None)  # reverse one-to-one; absent raises → None
    return player.name if player is not None else None


def person_name(user: Any, *, full: bool) -> str | None:
    """A user named as the reader may see them: their user name to the tournament's
    staff (``full``), the display name to everyone else."""
    if user is None:
        return None
    return str(user.get_username()) if full else display_name(user)
