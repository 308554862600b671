"""Seeding a draw by rating: the players in seed order, best first.

Players are ordered by rating, highest first; a player with no rating in the game counts
as a newcomer (1500, ``ratings.fibs.START_RATING``). Players on the same rating are put in
an order drawn from ``seed`` (the draw's seed, so the same draw gives the same order):
each tied player's place comes from ``sha256(seed, player id)``, so the order of two tied
players depends only on the seed and the two of them, not on who else entered or on the
order the entries arrived in. Ids that tie on that hash too (practically never) fall back
to the id.

Pure: imports nothing from Django.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from decimal import Decimal

from ratings.errors import RatingValueError
from ratings.fibs import START_RATING

__all__ = ["seeding_order", "tie_break_key"]


def tie_break_key(seed: int | str, player: int) -> bytes:
    """The order among players on the same rating: a hash of the seed and the player."""
    return hashlib.sha256(f"{seed}\x1f{player}".encode()).digest()


def seeding_order(
    players: Iterable[int],
    ratings: Mapping[int, Decimal],
    *,
    seed: int | str,
) -> list[int]:
    """``players`` in seed order: highest rating first, ties in an order drawn from
    ``seed``. A player missing from ``ratings`` is rated 1500. ``RatingValueError`` if a
    player is given twice."""
    entrants = list(players)
    if len(set(entrants)) != len(entrants):
        raise RatingValueError("a player is entered twice")
    return sorted(
        entrants,
        key=lambda p: (-ratings.get(p, START_RATING), tie_break_key(seed, p), p),
    )
