"""Which player: the seam's one encoding, the *seat*, and every conversion to it.

A seat is ``0`` (the first player: White in bräde, player 1 of a match, the first name of
a ``.mat`` record) or ``1`` (the second). Results, standings and board pictures at the seam
speak of seats. The other encodings meet it only here:

- bräde's engine side (:class:`engine.types.Side`): White is seat 0, Black seat 1;
- the letter the site stores for a game's or report's winner and starter, and bräde's
  records write (``W``/``B``, the side's value), for every game alike;
- a match's ``player1``/``player2`` (seat 0 is ``player1``: ``Match.player_for``).

``Side`` is the engine's, given here so that the site's pages that speak of a bräde
record's White and Black (the record viewer) take it from the seam, not the engine.

Pure: imports nothing from Django.
"""

from __future__ import annotations

from engine.types import Side

__all__ = ["SEATS", "Side", "letter_of", "other", "seat_of", "side_of"]

SEATS = (0, 1)
_SIDES = (Side.WHITE, Side.BLACK)


def seat_of(side: Side | str) -> int:
    """The seat of an engine side or a stored letter (``W`` 0, ``B`` 1); ``ValueError``
    for anything else."""
    return _SIDES.index(Side(side))


def side_of(seat: int) -> Side:
    """The engine side of a seat (0 White, 1 Black); ``ValueError`` for another number."""
    if seat not in SEATS:
        raise ValueError(f"a seat is 0 or 1, not {seat!r}")
    return _SIDES[seat]


def letter_of(seat: int) -> str:
    """The stored letter of a seat: ``W`` or ``B``."""
    return side_of(seat).value


def other(seat: int) -> int:
    """The opponent's seat; ``ValueError`` for a number that is no seat."""
    side_of(seat)
    return 1 - seat
