"""From groups to a knockout: the top ``k`` of each group placed
crosswise, so that group winners meet another group's runner-up first (A1–B2, B1–A2,
C1–D2, D1–C2 …) and two players of one group meet as late as the bracket allows.

The knockout is the usual seeded bracket (:func:`stages.elimination.seed_order`: seed 1
meets the last seed, byes to the top seeds). The players go in by *tier*: every group's
winner first (seeds 1…G), then every runner-up (seeds G+1…2G), and so on. Two rules
place them, costed so:

1. *Group-mates apart*: for each two players of one group, ``4 ** (rounds − r)`` where
   ``r`` is the earliest round the two could meet (1 = the first round): meeting in the
   first round costs most, in the final least. So group-mates are spread over the halves,
   then the quarters …
2. *Partners crossed*: for each first-round match between two tiers, 1 when the two
   groups are not *partners* (A↔B, C↔D, …; the last group of an odd number has none):
   the classic crossing A1–B2, B1–A2 when it costs nothing in 1.

Each later tier is given its seed numbers by the assignment of least cost, rule 1 first
(exact: a search over the subsets of the tier's seeds, which is why at most
:data:`MAX_FEEDING_GROUPS` groups feed a knockout); ties: the group whose winner has the
better seed takes the lowest free seed it can, so the result is deterministic. The later
tiers are placed tier by tier, and also the last first, then the second, the last but
one … (without byes the last tier holds the winners' first opponents); the order that
costs the rules less is kept (ties: tier by tier).

The winners' order (decision)
---------------------------------------
Without byes the classic crossing by group letter stands: A1 is seed 1, B1 seed 2, C1
seed 3 …, which puts every two partners' winners in opposite halves, so both rules hold
by construction (2 each: every first-round match is X1 against its partner's runner-up
and group-mates meet in the final only). Results decide who gets the byes (below), and
may order the winners only where that costs neither rule: the winners take their seeds
in the order of their results as far as the rules, summed over the bracket, cost no more
than with the best order of the winners that gives the same byes (seed 1 to the
best-ranked winner whose place there still allows that, then seed 2 …). Seeding every
winner by results, as before, let a ranking put two partners' winners in one half, and
then group-mates apart and partners crossed could not both hold (16 players in 4 groups:
B1–D2, A1–C2 …). Orders of the winners are compared by what the rules see of them, the
seeds of every two partners' winners (and of the odd group's): two orders that agree
there differ by a renaming of the groups that keeps partners partners, and cost the
same. So at most 105 orders are placed (8 groups), once for each number of groups and
tiers.

Fewer players than lines: the byes
----------------------------------
A bracket of ``G·k`` players on ``N`` lines gives ``N − G·k`` byes to the top seeds. Those
should go to the players who did best, not to the group whose letter comes first. So the
caller may give a *ranking*: for each tier, the groups in the order of their player's
results (:func:`rank_across_groups`: match points, then the tiebreak chain, each per
match played, so that a group of three and a group of four compare fairly; a direct
encounter says nothing across groups and is passed over; still level, group order).
Left out, the ranking is group order. The winners' byes go to the best-ranked winners
(their order as above); in a later tier that has byes, a term between 1 and 2 gives
them to its best-ranked players: keeping group-mates apart still comes first. The
winners' orders are compared without that term, so when a later tier has byes its
results may cost a crossing that another order of the winners would have kept.

Pure: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import cache
from itertools import permutations, product
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
    bracket = _Bracket(count, k)
    winners = _winners(bracket, list(ranking[0]) if ranking is not None else list(range(count)))
    group_of, _ = _place(bracket, winners, ranking)
    return [groups[g][(seed - 1) // count] for seed, g in sorted(group_of.items())]


class _Bracket:
    """The lines of the bracket for the top ``k`` of ``count`` groups."""

    def __init__(self, count: int, k: int) -> None:
        self.count = count
        self.k = k
        self.players = count * k
        size = bracket_size(self.players)
        self.rounds = size.bit_length() - 1
        self.order = seed_order(size)
        self.line_of = {seed: line for line, seed in enumerate(self.order)}
        # the winners with a bye: the top seeds' byes, as far as the winners reach
        self.held = min(size - self.players, count)

    def opponent(self, seed: int) -> int | None:
        """The first-round opponent's seed, ``None`` for a bye."""
        other = self.order[self.line_of[seed] ^ 1]
        return other if other <= self.players else None

    def partner(self, g: int) -> int | None:
        return g ^ 1 if g ^ 1 < self.count else None


def _winners(bracket: _Bracket, order: list[int]) -> list[int]:
    """The groups in the order of their winners' seeds (module: the byes to the first
    ``held`` of ``order``, then the first order in ``order``'s terms that costs neither
    rule)."""
    held = bracket.held
    costs = _orbit_costs(bracket.count, bracket.k)
    floor = min(costs.values())
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for top, rest in product(permutations(order[:held]), permutations(order[held:])):
        winners = top + rest
        cost = costs[_orbit(winners, bracket.count)]
        if best is None or cost < best[0]:
            best = (cost, winners)
            if cost == floor:
                break
    assert best is not None
    return list(best[1])


def _orbit(winners: Sequence[int], count: int) -> tuple[frozenset[frozenset[int]], int]:
    """What the rules see of an order of the winners: the seeds of each two partner groups
    (and of the last group of an odd number). Orders that agree here differ by a renaming
    of the groups that keeps partners partners, and cost the rules the same."""
    seed = {g: place for place, g in enumerate(winners)}
    pairs = frozenset(frozenset((seed[g], seed[g + 1])) for g in range(0, count - 1, 2))
    return pairs, seed[count - 1] if count % 2 else -1


@cache
def _orbit_costs(
    count: int, k: int
) -> dict[tuple[frozenset[frozenset[int]], int], tuple[int, int]]:
    """Terms 1 and 2 of the module's rule, summed over the bracket, for each way of placing
    the winners that the rules tell apart (:func:`_orbit`)."""
    bracket = _Bracket(count, k)
    costs: dict[tuple[frozenset[frozenset[int]], int], tuple[int, int]] = {}
    for winners in permutations(range(count)):
        key = _orbit(winners, count)
        if key not in costs:
            costs[key] = _place(bracket, list(winners), None)[1]
    return costs


def _place(
    bracket: _Bracket, winners: list[int], ranking: Sequence[Sequence[int]] | None
) -> tuple[dict[int, int], tuple[int, int]]:
    """Every player's seed (seed → group index) with the winners in the order given, and
    the terms 1 and 2 of the module's rule, summed: the later tiers placed in either of
    the module's two orders, the one that costs less (ties: tier by tier)."""
    tried = [_place_tiers(bracket, winners, ranking, order) for order in _tier_orders(bracket.k)]
    return min(tried, key=lambda placed: placed[1])


def _tier_orders(k: int) -> list[list[int]]:
    """The later tiers (0-based), in the orders they may be placed: tier by tier, and
    the last (the winners' first opponents when there are no byes) first, then the
    second, the last but one …"""
    later = list(range(1, k))
    crossed: list[int] = []
    while later:
        crossed.append(later.pop())
        if later:
            crossed.append(later.pop(0))
    plain = list(range(1, k))
    return [plain] if crossed == plain else [plain, crossed]


def _place_tiers(
    bracket: _Bracket,
    winners: list[int],
    ranking: Sequence[Sequence[int]] | None,
    tiers: list[int],
) -> tuple[dict[int, int], tuple[int, int]]:
    """:func:`_place` with the later tiers placed in the order ``tiers``."""
    count = bracket.count
    group_of = {place + 1: g for place, g in enumerate(winners)}
    spread_total = crossing_total = 0
    for tier in tiers:
        seeds = range(tier * count + 1, (tier + 1) * count + 1)
        rank = {g: place for place, g in enumerate(ranking[tier])} if ranking else {}
        table = [[_terms(bracket, g, seed, group_of) for seed in seeds] for g in winners]
        # lexicographic (spread, byes, crossing) as one integer: the lower terms' totals
        # stay below the factor of the term above
        low = count + 1
        mid = count * count + 1
        weights = [
            [
                (spread * mid + (rank.get(g, 0) if bracket.opponent(seed) is None else 0)) * low
                + crossing
                for seed, (spread, crossing) in zip(seeds, row, strict=True)
            ]
            for g, row in zip(winners, table, strict=True)
        ]
        for g, row, place in zip(winners, table, _assign(weights), strict=True):
            group_of[seeds[place]] = g
            spread_total += row[place][0]
            crossing_total += row[place][1]
    return group_of, (spread_total, crossing_total)


def _terms(bracket: _Bracket, g: int, seed: int, group_of: dict[int, int]) -> tuple[int, int]:
    """Terms 1 and 2 of the module's rule for group ``g``'s player on ``seed``."""
    line = bracket.line_of[seed]
    spread = sum(
        4 ** (bracket.rounds - meeting_round(line, bracket.line_of[placed]))
        for placed, h in group_of.items()
        if h == g
    )
    other = bracket.opponent(seed)
    crossing = 0
    if other is not None and other in group_of:
        crossing = int(group_of[other] != bracket.partner(g))
    return spread, crossing


def _assign(weights: list[list[int]]) -> list[int]:
    """For each row, its column: the least total weight, ties to the first row taking the
    lowest column it can, then the second … (an exact search over subsets of columns)."""
    n = len(weights)
    full = (1 << n) - 1
    # rest[mask]: the least weight of the rows from popcount(mask) on, in the free columns
    rest = [0] * (full + 1)
    for mask in range(full - 1, -1, -1):
        row = weights[mask.bit_count()]
        rest[mask] = min(row[c] + rest[mask | 1 << c] for c in range(n) if not mask >> c & 1)
    chosen: list[int] = []
    mask = 0
    for row in weights:
        column = next(
            c for c in range(n) if not mask >> c & 1 and row[c] + rest[mask | 1 << c] == rest[mask]
        )
        chosen.append(column)
        mask |= 1 << column
    return chosen
