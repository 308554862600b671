"""The ratings package's errors. All subclass ``ValueError`` (like the engine's)."""

from __future__ import annotations

__all__ = ["NeedsRebuildError", "RatingValueError", "RatingsError"]


class RatingsError(ValueError):
    """Base of every error the ratings package raises on bad input."""


class RatingValueError(RatingsError):
    """A rating, length, experience or match the formula cannot take."""


class NeedsRebuildError(RatingsError):
    """An incremental update that would not give what a rebuild gives: the match ends
    before (or is) one already rated in its game. Nothing was changed; rebuild the game's
    ratings from all its matches (``ratings.ledger.rebuild``)."""

    def __init__(self, message: str, *, match_id: int, game: str) -> None:
        super().__init__(message)
        self.match_id = match_id
        self.game = game
