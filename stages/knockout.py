"""A single knockout's layout: round 1 of the draw, the rounds' default lengths and the
placings of its losers (pure Python, no Django).

*Lines* are the places at the bottom of a bracket of size ``N`` (a power of two),
numbered 0…N−1 from the top. Every player gets a *seed line number* 1…P: the
seeded players keep their seed order, and the unseeded players get the numbers
after them in the order of a random draw. Line numbers P+1…N are byes.

The standard seeding order (``stages.elimination.seed_order``) places line number s so
that seeds 1 and 2 can meet at the earliest in the final, 1–4 in the semifinals, 1–8 in
the quarterfinals, and so on; the byes (numbers P+1…N) therefore fall against the
top seeds 1…N−P, only in round 1.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from stages.elimination import bracket_size, seed_order

T = TypeVar("T")


def round_count(players: int) -> int:
    return bracket_size(players).bit_length() - 1


@dataclass(frozen=True)
class FirstRoundPair(Generic[T]):
    """One first-round match: the upper and the lower line (``None`` = bye)."""

    slot: int
    upper: T | None
    lower: T | None
    upper_number: int
    lower_number: int


def draw_order(unseeded: Sequence[T], seed: int) -> list[T]:
    """The unseeded players in the order of the draw; same ``seed``, same order."""
    drawn = list(unseeded)
    random.Random(seed).shuffle(drawn)
    return drawn


def first_round(seeded: Sequence[T], unseeded: Sequence[T], seed: int) -> list[FirstRoundPair[T]]:
    """Lay out round 1.

    ``seeded`` in seed order (best first); ``unseeded`` in a stable order (the
    draw shuffles them with ``seed``). Byes fall against the lowest line numbers,
    i.e. the top seeds; a pair is never two byes, because byes (N−P) are fewer
    than players in the upper half of every pair (P > N/2).
    """
    players = [*seeded, *draw_order(unseeded, seed)]
    size = bracket_size(len(players))
    order = seed_order(size)
    pairs: list[FirstRoundPair[T]] = []
    for slot in range(size // 2):
        a, b = order[2 * slot], order[2 * slot + 1]
        pairs.append(
            FirstRoundPair(
                slot=slot,
                upper=players[a - 1] if a <= len(players) else None,
                lower=players[b - 1] if b <= len(players) else None,
                upper_number=a,
                lower_number=b,
            )
        )
    return pairs


def rounds_after(number: int, rounds: int) -> int:
    """How many rounds follow round ``number`` of ``rounds``: 0 for the final, 1 for the
    semifinals, 2 for the quarterfinals, 3 for the round of 16. A round's name comes from
    this at the edge, in the reader's language (``tournaments.models.round_label``); no
    language's name is stored."""
    if not 1 <= number <= rounds:
        raise ValueError(f"round {number} of {rounds} does not exist")
    return rounds - number


def default_lengths(rounds: int) -> list[int]:
    """3 games in early rounds, 5 in the semifinals, 7 in the final."""
    lengths = [3] * rounds
    if rounds >= 2:
        lengths[-2] = 5
    lengths[-1] = 7
    return lengths


def placing_label(lost_in_round: int, rounds: int, entrants: int | None = None) -> tuple[int, int]:
    """The shared placing range of a player who lost in ``lost_in_round``.

    Losing the final gives (2, 2); the semifinal (3, 4); the quarterfinal
    (5, 8); a loss in round r gives (2^(R−r)+1, 2^(R−r+1)), the last place no further
    than the bracket's ``entrants``: byes leave round 1 short of players, so the 4
    first-round losers of 12 players share 9–12, not 9–16 (every later round is full).
    """
    from_end = rounds - lost_in_round
    first, last = 2**from_end + 1, 2 ** (from_end + 1)
    if entrants is not None:
        last = max(first, min(last, entrants))
    return first, last
