"""From groups to a knockout: the top ``k`` of each group placed
crosswise, so that group winners meet another group's runner-up first (A1–B2, B1–A2,
C1–D2, D1–C2 …) and two players of one group meet as late as the bracket allows.

The knockout is the usual seeded bracket (:func:`stages.elimination.seed_order`: seed 1
meets the last seed, byes to the top seeds). The players go in by *tier*: every group's
winner first (seeds 1…G in group order A, B, …), then every runner-up (seeds G+1…2G),
and so on. Within a tier the players are given the tier's seed numbers by the assignment
of least cost (exact: every permutation is tried, which is why at most
:data:`MAX_FEEDING_GROUPS` groups feed a knockout):

1. For each player and each group-mate already placed, ``4 ** (rounds − r)`` where ``r``
   is the earliest round the two could meet (1 = the first round): meeting in the first
   round costs most, in the final least. So group-mates are spread over the halves, then
   the quarters …
2. Then, for each player whose first-round opponent is a real player, 1 when that
   opponent's group is not the player's *partner* group (A↔B, C↔D, …; the last group of
   an odd number has none): the classic crossing A1–B2, B1–A2 when it costs nothing in 1.
3. Then the first permutation in order (group A takes the lowest free seed it can): the
   result is deterministic.

Fewer players than lines: the byes
----------------------------------
A bracket of ``G·k`` players on ``N`` lines gives ``N − G·k`` byes to the top seeds. Those
should go to the players who did best, not to the group whose letter comes first. So the
caller may give a *ranking*: for each tier, the groups in the order of their player's
results (:func:`rank_across_groups`: match points, then the tiebreak chain, each per
match played, so that a group of three and a group of four compare fairly; a direct
encounter says nothing across groups and is passed over; still level, group order). The
winners' tier then takes its seeds in that order (the best group winner is seed 1 and
has the first bye); in a later tier that has byes, a term between 1 and 2 gives them to
its best-ranked players: keeping group-mates apart still comes first.

Pure: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from itertools import permutations
from typing import Literal, TypeVar

from stages.elimination import bracket_size, seed_order

T = TypeVar("T")

__all__ = [
    "MAX_ADVANCE",
    "MAX_FEEDING_GROUPS",
    "MAX_SWISS_ADVANCE",
    "AdvanceProblem",
    "advance_problem",
    "crosswise_seeds",
    "meeting_round",
    "rank_across_groups",
]

# Every permutation of a tier is tried: 8! = 40,320 at most.
MAX_FEEDING_GROUPS = 8
# How many of each group may go on to the knockout.
MAX_ADVANCE = 4
# The top of a Swiss that can go on to a knockout (a bracket of 32).
MAX_SWISS_ADVANCE = 32

# Why groups cannot feed a knockout, as a code the caller words (``format_options``); the
# caller handles every code (``match`` with ``assert_never``), so a new code cannot pass
# unworded.
AdvanceProblem = Literal["too_many", "groups", "alone"]


def advance_problem(groups: int, advance: int) -> AdvanceProblem | None:
    """Why the top ``advance`` of each of ``groups`` groups cannot go on to a knockout, as a
    code (``too_many``, ``groups``: more than ``MAX_FEEDING_GROUPS``, ``alone``: one
    player in all), or ``None``. ``advance`` 0: the groups are the whole tournament."""
    if advance == 0:
        return None
    if not 1 <= advance <= MAX_ADVANCE:
        return "too_many"
    if groups > MAX_FEEDING_GROUPS:
        return "groups"
    if groups * advance < 2:
        return "alone"
    return None


def meeting_round(line_a: int, line_b: int) -> int:
    """The earliest round in which the players on bracket lines ``line_a`` and ``line_b``
    (0-based, top to bottom) can meet: 1 when they share a first-round match, 2 when
    they share a second-round match's two feeders, …"""
    if line_a == line_b:
        raise ValueError("one line")
    return (line_a ^ line_b).bit_length()


def rank_across_groups(
    chain: Sequence[str], results: Sequence[tuple[int, Sequence[Decimal | None]]]
) -> list[int]:
    """The groups (indices) best first by their players' ``results``: for each group, its
    player's matches played and the values of ``chain`` (match points first), as its
    group's standings give them. Compared per match played, the direct encounter passed
    over, ties in group order (module doc)."""

    def key(index: int) -> tuple[Decimal, ...]:
        played, values = results[index]
        per_match: list[Decimal] = []
        for name, value in zip(chain, values, strict=True):
            if name == "direct_encounter":
                continue
            per_match.append(-(value or Decimal(0)) / played if played else Decimal(0))
        return tuple(per_match)

    return sorted(range(len(results)), key=lambda index: (key(index), index))


def crosswise_seeds(
    groups: Sequence[Sequence[T]], k: int, ranking: Sequence[Sequence[int]] | None = None
) -> list[T]:
    """The knockout's seed list, best first, for the top ``k`` of each of ``groups``
    (each group's players in its final order, best first). See the module's rule.
    ``ranking``: for each tier, the group indices in the order of that tier's results
    (:func:`rank_across_groups`); left out, group order, and byes count for nothing.

    Raises ``ValueError`` for fewer than 2 players in all, a group with fewer than ``k``
    players, more than :data:`MAX_FEEDING_GROUPS` groups, or a ranking that is not an order
    of the groups for every tier."""
    count = len(groups)
    if not 1 <= count <= MAX_FEEDING_GROUPS:
        raise ValueError(f"1 to {MAX_FEEDING_GROUPS} groups can feed a knockout, not {count}")
    if k < 1:
        raise ValueError(f"at least one player of each group goes on, not {k}")
    for index, group in enumerate(groups):
        if len(group) < k:
            raise ValueError(f"group {index + 1} has {len(group)} players, fewer than {k}")
    if ranking is not None and (
        len(ranking) < k or any(sorted(tier) != list(range(count)) for tier in ranking[:k])
    ):
        raise ValueError(f"a ranking orders all {count} groups for each of the {k} tiers")
    players = count * k
    size = bracket_size(players)
    rounds = size.bit_length() - 1
    line_of = {seed: line for line, seed in enumerate(seed_order(size))}

    group_of: dict[int, int] = {}  # seed → group index
    for place, g in enumerate(ranking[0] if ranking is not None else range(count)):
        group_of[place + 1] = g
    order = seed_order(size)
    for tier in range(1, k):
        seeds = list(range(tier * count + 1, (tier + 1) * count + 1))
        rank = {g: place for place, g in enumerate(ranking[tier])} if ranking else {}
        # The terms depend only on (group, seed): a linear assignment over a cost table.
        cost = [
            [
                (
                    *_cost(g, seed, group_of, line_of, order, players, rounds),
                    rank.get(g, 0) if order[line_of[seed] ^ 1] > players else 0,
                )
                for seed in seeds
            ]
            for g in range(count)
        ]
        best: tuple[tuple[int, int, int], tuple[int, ...]] | None = None
        for perm in permutations(range(count)):
            spread = sum(cost[g][i][0] for g, i in enumerate(perm))
            crossing = sum(cost[g][i][1] for g, i in enumerate(perm))
            byes = sum(cost[g][i][2] for g, i in enumerate(perm))
            key = ((spread, byes, crossing), perm)
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
