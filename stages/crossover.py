"""From groups to a knockout: the top ``k`` of each group placed
crosswise, so that group winners meet another group's runner-up first (A1–B2, B1–A2,
C1–D2, D1–C2 …) and two players of one group meet as late as the bracket allows.

The knockout is the usual seeded bracket (:func:`stages.elimination.seed_order`: seed 1
meets the last seed, byes to the top seeds). The players go in by *tier*: every group's
winner first (seeds 1…G in group order A, B, …), then every runner-up (seeds G+1…2G),
and so on. Within a tier the players are given the tier's seed numbers by the assignment
of least cost (exact: every permutation is tried, which is why at most
:data:`MAX_GROUPS` groups feed a knockout):

1. For each player and each group-mate already placed, ``4 ** (rounds − r)`` where ``r``
   is the earliest round the two could meet (1 = the first round): meeting in the first
   round costs most, in the final least. So group-mates are spread over the halves, then
   the quarters …
2. Then, for each player whose first-round opponent is a real player, 1 when that
   opponent's group is not the player's *partner* group (A↔B, C↔D, …; the last group of
   an odd number has none): the classic crossing A1–B2, B1–A2 when it costs nothing in 1.
3. Then the first permutation in order (group A takes the lowest free seed it can): the
   result is deterministic.

Pure: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import TypeVar

from stages.elimination import bracket_size, seed_order

T = TypeVar("T")

__all__ = ["MAX_GROUPS", "crosswise_seeds", "meeting_round"]

# Every permutation of a tier is tried: 8! = 40,320 at most.
MAX_GROUPS = 8


def meeting_round(line_a: int, line_b: int) -> int:
    """The earliest round in which the players on bracket lines ``line_a`` and ``line_b``
    (0-based, top to bottom) can meet: 1 when they share a first-round match, 2 when
    they share a second-round match's two feeders, …"""
    if line_a == line_b:
        raise ValueError("one line")
    return (line_a ^ line_b).bit_length()


def crosswise_seeds(groups: Sequence[Sequence[T]], k: int) -> list[T]:
    """The knockout's seed list, best first, for the top ``k`` of each of ``groups``
    (each group's players in its final order, best first). See the module's rule.

    Raises ``ValueError`` for fewer than 2 players in all, a group with fewer than ``k``
    players, or more than :data:`MAX_GROUPS` groups."""
    count = len(groups)
    if not 1 <= count <= MAX_GROUPS:
        raise ValueError(f"1 to {MAX_GROUPS} groups can feed a knockout, not {count}")
    if k < 1:
        raise ValueError(f"at least one player of each group goes on, not {k}")
    for index, group in enumerate(groups):
        if len(group) < k:
            raise ValueError(f"group {index + 1} has {len(group)} players, fewer than {k}")
    players = count * k
    size = bracket_size(players)
    rounds = size.bit_length() - 1
    line_of = {seed: line for line, seed in enumerate(seed_order(size))}

    group_of: dict[int, int] = {}  # seed → group index
    for g in range(count):
        group_of[g + 1] = g
    order = seed_order(size)
    for tier in range(1, k):
        seeds = list(range(tier * count + 1, (tier + 1) * count + 1))
        # Both terms depend only on (group, seed): a linear assignment over a cost table.
        cost = [
            [_cost(g, seed, group_of, line_of, order, players, rounds) for seed in seeds]
            for g in range(count)
        ]
        best: tuple[tuple[int, int], tuple[int, ...]] | None = None
        for perm in permutations(range(count)):
            spread = sum(cost[g][i][0] for g, i in enumerate(perm))
            crossing = sum(cost[g][i][1] for g, i in enumerate(perm))
            key = ((spread, crossing), perm)
            if best is None or key < best:
                best = key
        assert best is not None
        for g, i in enumerate(best[1]):
            group_of[seeds[i]] = g
    by_seed: dict[int, T] = {}
    for seed, g in group_of.items():
        tier = (seed - 1) // count
        by_seed[seed] = groups[g][tier]
    return [by_seed[seed] for seed in range(1, players + 1)]


def _cost(
    g: int,
    seed: int,
    group_of: dict[int, int],
    line_of: dict[int, int],
    order: list[int],
    players: int,
    rounds: int,
) -> tuple[int, int]:
    """Terms 1 and 2 of the module's rule for group ``g``'s player on ``seed``."""
    spread = sum(
        4 ** (rounds - meeting_round(line_of[seed], line_of[placed]))
        for placed, h in group_of.items()
        if h == g
    )
    other = order[line_of[seed] ^ 1]
    crossing = 0
    if other <= players and other in group_of:
        partner = g ^ 1 if (g ^ 1) < len({*group_of.values()}) else None
        crossing = int(group_of[other] != partner)
    return spread, crossing
