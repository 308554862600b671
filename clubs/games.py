"""Which game a tournament is played in, as the ratings see it.

The games seam (``games/``, architecture.md) keys everything by the tournament's game
(``brade``, ``backgammon``, ``kungabrade``). ``Tournament.game`` is planned there and not a
field yet: until it is, every tournament is bräde. These two functions are the only place
that knows, so ratings per game work unchanged once the field arrives.
"""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist
from django.db.models import Q

from tournaments.models import Tournament

DEFAULT_GAME = "brade"


def _has_game_field() -> bool:
    try:
        Tournament._meta.get_field("game")  # type: ignore[misc]  # not a field yet
    except FieldDoesNotExist:
        return False
    return True


def tournament_game(tournament: Tournament) -> str:
    """The tournament's game key (``brade`` while tournaments have no ``game`` field)."""
    if _has_game_field():
        return str(getattr(tournament, "game", "") or DEFAULT_GAME)
    return DEFAULT_GAME


def game_q(game: str, *, prefix: str = "tournament__") -> Q:
    """A filter for the rows (matches, by default) of ``game``'s tournaments."""
    if _has_game_field():
        return Q(**{f"{prefix}game": game})
    return Q() if game == DEFAULT_GAME else Q(pk__in=[])
