"""Swiss pairing: one round at a time, exact for the objective below, and explained.

Input: the players present for the round (the caller leaves out the absent and the
withdrawn), each with its score so far, its rank (pairing number: seed or rating order,
lower is better), the players it has met, and whether it has had a bye. Output: the pairs
of the round, at most one bye, and for each pair the reason it is what it is.

Order
-----
The players are ranked by score (higher first), then by ``rank`` (lower first), then by a
draw made with ``seed`` (the tournament's stored draw seed): the players sorted by id are
shuffled with ``random.Random(seed)`` and keep that order among themselves. So the same
players, history and seed always give the same order and the same pairing.

A *score group* is the set of players with one score; groups are numbered ``0, 1, …`` from
the highest score. A *boundary* ``t`` (``1 ≤ t < number of groups``) lies between group
``t − 1`` and group ``t``; a pair *crosses* it when one player is above it and one below.
A pair of players from different groups is a *float*: the higher player *floats down*, the
lower one *floats up*.

Objective
---------
Among all pairings of the field (every player in exactly one pair, or the bye when the
field is odd), the pairing chosen is the smallest in this order, compared term by term
(:class:`PairingCost`):

1. ``rematches``: the number of pairs who have met before. A rematch happens only when
   every pairing has one (the only absolute rule of the Swiss system, FIDE C.04.1 b).
2. ``repeat_bye``: 1 when the bye goes to a player who has had one (FIDE C.04.1 d).
3. ``bye_rank``: the number of players ranked below the bye's receiver. So the bye goes to
   the lowest-ranked player without a bye, unless that would force a rematch.
4. ``floats``: for each boundary, top first, the number of pairs that cross it. The top
   groups are paired within themselves first, and as few players float as possible, as
   low in the standings as possible (the Dutch system's brackets, taken top down).
5. ``float_distance``: the sum over pairs of the squared distance, in groups, between the
   two players. Two players floating one group each beat one player floating two.
6. ``order``: the Dutch system's order inside the groups (FIDE C.04.3: the top half of a
   group meets the bottom half). In a group of ``s`` players, 0-based positions
   ``i < j`` in the group, a pair costs ``|(j − i) − s // 2| × (s − i)``: 0 for the
   pairing 1–(h+1), 2–(h+2), …, and a deviation costs more the higher it starts. A float
   costs the number of players of its group below the player who floats down plus the
   number of players of its group above the player who floats up: the lowest of a group
   floats down, to the highest of the next.

Colours do not exist: in bräde the tek decides who starts game 1, and in backgammon the
opening roll; ``first`` in a pair is only the higher-ranked player, named first.

Method
------
Every term is a sum over the pairs (the bye counts as a pair with a *bye vertex*), so the
objective is one integer per pair: the terms are the digits of a mixed-radix number whose
radices exceed the largest total a term can reach, so comparing sums compares the terms
in order. A maximum-weight perfect matching (:mod:`stages.matching`, O(n³)) with weight
``M − cost`` is then exactly a pairing of least cost. ``tests/stages/test_swiss.py``
checks this against every pairing of fields of up to ten players, and checks that the
encoding orders any two pairings of up to 60 players as their terms do.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from stages.matching import max_weight_matching
from stages.messages import Msg, msg, number


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """One player present for the round."""

    id: int
    score: Decimal
    rank: int = 0
    opponents: frozenset[int] = field(default_factory=frozenset)
    had_bye: bool = False


class PairingCost(NamedTuple):
    """The objective of a pairing, compared term by term (module docstring)."""

    rematches: int
    repeat_bye: int
    bye_rank: int
    floats: tuple[int, ...]
    float_distance: int
    order: int


@dataclass(frozen=True, slots=True)
class SwissPair:
    """``first`` is the higher-ranked player; ``second`` is ``None`` for the bye."""

    first: int
    second: int | None
    reason: Msg


@dataclass(frozen=True, slots=True)
class SwissRound:
    pairs: tuple[SwissPair, ...]
    cost: PairingCost
    order: tuple[int, ...]


Pairs = Iterable[tuple[int, int | None]]


def swiss_order(players: Sequence[SwissPlayer], *, seed: int) -> list[SwissPlayer]:
    """The players in ranking order: score, then rank, then the seed's draw."""
    ids = sorted(p.id for p in players)
    if len(set(ids)) != len(ids):
        raise ValueError("a player is given twice")
    drawn = list(ids)
    random.Random(seed).shuffle(drawn)
    lot = {pid: i for i, pid in enumerate(drawn)}
    return sorted(players, key=lambda p: (-Decimal(p.score), p.rank, lot[p.id]))


class _Field:
    """The ranked field: positions, score groups and positions inside the groups."""

    def __init__(self, players: Sequence[SwissPlayer], seed: int) -> None:
        self.players = swiss_order(players, seed=seed)
        self.index = {p.id: i for i, p in enumerate(self.players)}
        scores = sorted({Decimal(p.score) for p in self.players}, reverse=True)
        group_of_score = {s: g for g, s in enumerate(scores)}
        self.groups = len(scores)
        self.group = [group_of_score[Decimal(p.score)] for p in self.players]
        sizes = [0] * self.groups
        self.in_group: list[int] = []
        for g in self.group:
            self.in_group.append(sizes[g])
            sizes[g] += 1
        self.size = [sizes[g] for g in self.group]

    def met(self, i: int, j: int) -> bool:
        a, b = self.players[i], self.players[j]
        return b.id in a.opponents or a.id in b.opponents

    def order_cost(self, i: int, j: int) -> int:
        """Term 6 for the pair of positions ``i < j`` (``i`` ranked higher)."""
        if self.group[i] == self.group[j]:
            s = self.size[i]
            gi, gj = self.in_group[i], self.in_group[j]
            return abs((gj - gi) - s // 2) * (s - gi)
        return (self.size[i] - 1 - self.in_group[i]) + self.in_group[j]


def pairing_cost(players: Sequence[SwissPlayer], pairs: Pairs, *, seed: int) -> PairingCost:
    """The objective of a complete pairing, computed from its definition term by term."""
    f = _Field(players, seed)
    n = len(f.players)
    seen: set[int] = set()
    rematches = repeat_bye = bye_rank = distance = order = 0
    floats = [0] * max(0, f.groups - 1)
    byes = 0
    for a, b in pairs:
        if a not in f.index or (b is not None and b not in f.index):
            raise ValueError(f"unknown player in pair ({a}, {b})")
        for pid in (a, b):
            if pid is not None:
                if pid in seen:
                    raise ValueError(f"player {pid} is paired twice")
                seen.add(pid)
        if b is None:
            byes += 1
            i = f.index[a]
            repeat_bye += int(f.players[i].had_bye)
            bye_rank += n - 1 - i
            continue
        i, j = sorted((f.index[a], f.index[b]))
        rematches += int(f.met(i, j))
        gi, gj = f.group[i], f.group[j]
        for t in range(gi + 1, gj + 1):
            floats[t - 1] += 1
        distance += (gj - gi) ** 2
        order += f.order_cost(i, j)
    if len(seen) != n:
        raise ValueError("every player must be in a pair or have the bye")
    if byes != n % 2:
        raise ValueError("a bye is given only when the field is odd, and only one")
    return PairingCost(rematches, repeat_bye, bye_rank, tuple(floats), distance, order)


def _edge_costs(f: _Field) -> list[tuple[int, int, int]]:
    """Every pair's cost as one mixed-radix integer; the bye vertex is position ``n``."""
    n = len(f.players)
    half = n // 2 + 1
    pair_orders = [f.order_cost(i, j) for i in range(n) for j in range(i + 1, n)]
    base_q = half * max(pair_orders, default=0) + 1
    base_d = half * max(f.groups - 1, 0) ** 2 + 1
    base_f = half
    boundaries = max(f.groups - 1, 0)
    low = base_d * base_q  # the weight of one unit of the last float digit
    # crossing[g]: the encoded floats of a pair from group 0 down to group g (prefix sums).
    crossing = [0] * max(f.groups, 1)
    for t in range(1, f.groups):
        crossing[t] = crossing[t - 1] + base_f ** (boundaries - t) * low
    unit_bye_rank = base_f**boundaries * low
    unit_repeat_bye = n * unit_bye_rank
    unit_rematch = 2 * unit_repeat_bye

    edges: list[tuple[int, int, int]] = []
    for i in range(n):
        for j in range(i + 1, n):
            gi, gj = f.group[i], f.group[j]
            cost = (
                unit_rematch * f.met(i, j)
                + (crossing[gj] - crossing[gi])
                + (gj - gi) ** 2 * base_q
                + f.order_cost(i, j)
            )
            edges.append((i, j, cost))
    if n % 2:
        for i in range(n):
            cost = unit_repeat_bye * f.players[i].had_bye + unit_bye_rank * (n - 1 - i)
            edges.append((i, n, cost))
    return edges


def _reason(f: _Field, i: int, j: int | None, lowest_without_bye: int | None) -> Msg:
    a = f.players[i]
    if j is None:
        score = number(a.score)
        if i == lowest_without_bye:
            return msg("swiss.bye", score=score)
        if a.had_bye:
            return msg("swiss.bye_again", score=score)
        return msg("swiss.bye_moved", score=score)
    b = f.players[j]
    high, low = number(a.score), number(b.score)
    if f.met(i, j):
        return msg("swiss.rematch", high=high, low=low)
    if f.group[i] == f.group[j]:
        return msg("swiss.equal", score=high)
    return msg("swiss.float", high=high, low=low)


def pair_round(players: Sequence[SwissPlayer], *, seed: int) -> SwissRound:
    """The pairing of least :class:`PairingCost`, each pair with its reason."""
    f = _Field(players, seed)
    n = len(f.players)
    if n == 0:
        return SwissRound((), PairingCost(0, 0, 0, (), 0, 0), ())
    if n == 1:
        only = f.players[0]
        pair = SwissPair(only.id, None, _reason(f, 0, None, None if only.had_bye else 0))
        cost = pairing_cost(players, [(only.id, None)], seed=seed)
        return SwissRound((pair,), cost, (only.id,))
    edges = _edge_costs(f)
    top = max(cost for _, _, cost in edges) + 1
    mate = max_weight_matching([(i, j, top - c) for i, j, c in edges], max_cardinality=True)
    without_bye = [i for i in range(n) if not f.players[i].had_bye]
    lowest = without_bye[-1] if without_bye else None
    pairs: list[SwissPair] = []
    bye: SwissPair | None = None
    for i in range(n):
        j = mate[i]
        if j == n:
            bye = SwissPair(f.players[i].id, None, _reason(f, i, None, lowest))
        elif j > i:
            pairs.append(SwissPair(f.players[i].id, f.players[j].id, _reason(f, i, j, lowest)))
        elif j < 0:  # pragma: no cover - a complete graph always has a perfect matching
            raise AssertionError("the matching left a player unpaired")
    if bye is not None:
        pairs.append(bye)
    cost = pairing_cost(players, [(p.first, p.second) for p in pairs], seed=seed)
    return SwissRound(tuple(pairs), cost, tuple(p.id for p in f.players))


def pairing_swap_warnings(
    players: Sequence[SwissPlayer],
    pairs: Pairs,
    *,
    before: Pairs | None = None,
    names: Mapping[int, str] | None = None,
) -> list[Msg]:
    """Warnings for an organiser's changed pairing: the rematches and repeated byes in
    ``pairs`` that ``before`` (the pairing as drawn) did not have; all of them when
    ``before`` is not given. ``pairs`` must still be a complete pairing (ValueError)."""
    after = list(pairs)
    pairing_cost(players, after, seed=0)  # validates: everyone once, one bye when odd
    by_id = {p.id: p for p in players}

    def name(pid: int) -> str:
        return names.get(pid, str(pid)) if names is not None else str(pid)

    def problems(pairing: Iterable[tuple[int, int | None]]) -> set[tuple[int, int | None]]:
        found: set[tuple[int, int | None]] = set()
        for a, b in pairing:
            if b is None:
                if by_id[a].had_bye:
                    found.add((a, None))
            elif b in by_id[a].opponents or a in by_id[b].opponents:
                found.add((min(a, b), max(a, b)))
        return found

    already = problems(before) if before is not None else set()
    warnings: list[Msg] = []
    for a, b in after:
        key: tuple[int, int | None] = (a, None) if b is None else (min(a, b), max(a, b))
        if key in already or key not in problems([(a, b)]):
            continue
        if b is None:
            warnings.append(msg("swap.bye_again", player=name(a)))
        else:
            warnings.append(msg("swap.rematch", first=name(a), second=name(b)))
    return warnings
