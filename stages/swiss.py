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
6. ``repeat_floats``: the number of players who float down and floated down in the round
   before too (``SwissPlayer.floated_down``: the caller's stored float history). So nobody
   floats down two rounds in a row when another player of the same group can float
   instead; it never costs an extra float or a longer one (the Dutch system's criterion
   of the same downfloat as the previous round, below the floats' number and size).
7. ``order``: the Dutch system's order inside the groups (FIDE C.04.3: the top half of a
   group meets the bottom half). In a group of ``s`` players, 0-based positions
   ``i < j`` in the group, a pair costs ``|(j − i) − s // 2| × (s − i)``: 0 for the
   pairing 1–(h+1), 2–(h+2), …, and a deviation costs more the higher it starts. A float
   costs the number of players of its group below the player who floats down plus the
   number of players of its group above the player who floats up: the lowest of a group
   floats down, to the highest of the next.
8. ``lot``: the sum over pairs of a 64-bit number drawn for the pair from ``seed``
   (:func:`pair_lot`). Pairings equal in terms 1–6 are common (two players floating
   between the same two groups can meet either of the two floating up); the lot decides
   between them, so the best pairing is unique (a tie on the lot as well has a chance
   below n²·2⁻⁶⁵, 3·10⁻¹⁴ for 1,000 players: the isolation lemma) and every exact
   method finds the same one.

``had_bye`` is the caller's: a player who had the bye, or won a round by forfeit (an
opponent who did not come), must not get the bye again (FIDE C.04.1 d); and ``opponents``
leaves out a forfeited pairing, which was not a game (FIDE C.04.1 b counts games played).

Colours do not exist: in bräde the tek decides who starts game 1, and in backgammon the
opening roll; ``first`` in a pair is only the higher-ranked player, named first.

Completion
----------
``rounds_after`` (the rounds still to be paired after this one) makes the round keep
them pairable: each of them with no rematch and no second bye. FIDE's Dutch system asks
it of the round being paired (C.04.3, Baku 2016 and Goynuk 2017, as the FIDE Handbook
gave it until 2026), in A.9 "Round-Pairing Outlook": "The pairing of a round (called
round-pairing) is complete if all the players (except at most one, who receives the
pairing-allocated bye) have been paired and the absolute criteria C1-C3 have been
complied with. If it is impossible to complete a round-pairing, the arbiter shall decide
what to do."; and in C.4, the Completion Criterion, placed after the absolute criteria
and before every quality criterion: "if the current bracket is the PPB (see A.9): choose
the set of downfloaters in order to complete the round-pairing." The absolute criteria
here are C.1 "see C.04.1.b (Two players shall not play against each other more than
once)" and C.2 "see C.04.1.d (A player who has already received a pairing-allocated bye,
or has already scored a (forfeit) win due to an opponent not appearing in time, shall
not receive the pairing-allocated bye)" (C.3 is about colours, which bräde has not).
The text speaks of completing the round; this module applies the same rule to the rounds
after it, which the Dutch articles do not mention: a pairing that completes this round
but leaves a later round with no pairing free of rematches and second byes walks into
the dead end A.9 leaves to the arbiter (5 players, 4 rounds: after three byes to three
players, the two others have met those three, and round 4 needs a rematch or a second
bye, while four rounds of a round robin give four different byes and no rematch).

So, between terms 2 and 3 of the objective: among the pairings of this round with no
rematch and no second bye, the one that leaves the most of the ``rounds_after`` rounds
after it pairable (the rounds right after it, as many as can be), and among those the
least by the objective. It is the usual pairing (terms 1–8) whenever that one keeps as
many; otherwise the pairs it changes give the reason ``swiss.equal_ahead``,
``swiss.float_ahead`` or ``swiss.bye_ahead`` (the bye, naming the player the usual
pairing gave it to). Who may still meet whom does not depend on the results, so the
rounds kept pairable are pairable whatever the results; the look-ahead supposes that the
players present now play every round left (an absence, a withdrawal, a return or a
forfeit changes the field, and the next round looks again).

Only when no pairing of the rounds left does without both does a criterion give way,
in the first round that cannot be paired otherwise, by terms 1 and 2: the fewest
rematches first, then the fewest second byes. The second bye gives way and no rematch is
played while a pairing without one exists, since FIDE leaves the choice to the arbiter
(A.9, above): C.1 comes before C.2 in the Dutch system's order, a rematch replays a game
already decided, and a second bye is a point without a game, as a forfeit win already
is. When the usual pairing of this round has a rematch or a second bye (every pairing of
it has), it is not looked ahead.

The test is exact (:mod:`stages.swiss_completion`, a depth-first search with memory)
for fields of up to :data:`LOOKAHEAD_PLAYERS` players, the fields that play nearly as
many rounds as players; the round is then chosen among all its pairings (10,395 at 12
players). Any field passes without a search while the rounds left, this one included,
plus the most opponents a player has met are at most half the field (Dirac's bound,
:func:`stages.swiss_completion.surely_pairable`): every Swiss of at most ``n // 2``
rounds, so every one of ⌈log₂ n⌉ rounds from 6 players up. Past both (more than 12
players playing more rounds than half their number), and past the search's budget
(:data:`stages.swiss_completion.STEPS`), the round is the usual pairing, not looked
ahead.

Method
------
Every term is a sum over the pairs (the bye counts as a pair with a *bye vertex*), so the
objective is one integer per pair: the terms are the digits of a mixed-radix number whose
radices exceed the largest total a term can reach, so comparing sums compares the terms
in order. A maximum-weight perfect matching (:mod:`stages.matching`) with weight
``top − cost`` is then exactly a pairing of least cost.

``method="full"`` (the reference) matches over the complete graph with the classic start
of :func:`~stages.matching.max_weight_matching`: O(n³), 1.8 s at 256 players and 21 s at
512 (the lot leaves it no ties to take many edges at once). ``method="sparse"`` (the
default) gets the same pairing from a small graph, 0.15–0.35 s at 1,000 players
(``bench/pairing_bench.py``):

1. The candidate pairs: a perfect matching (the groups top down, each group's first half
   against its second half, the lowest of an odd group carried down); in each group the
   partners from ``WINDOW_BELOW`` places before the ideal partner to ``WINDOW_ABOVE``
   after it; the ``CROSS`` lowest of a group with the ``CROSS`` highest of the next two;
   everyone with the ``ANCHORS`` highest and lowest of its own group, the ``ANCHORS``
   highest of the two groups below it and the ``ANCHORS`` lowest of the two above it
   (these pin the duals of whole groups down, so that few pairs fail step 3); every bye.
2. The matching of largest weight over the candidates, with its dual solution (vertex and
   blossom duals).
3. The duals prove the matching best among *all* pairings when no pair left out has a
   negative reduced cost (LP duality for Edmonds' perfect matching polytope). The pairs
   left out are screened group by group with lower bounds of their cost and of their
   blossom duals, and the ones the screen cannot clear are computed exactly; those with
   a negative reduced cost (at most ``PRICED`` per player, the most negative) join the
   candidates and step 2 runs again. The candidates only grow, so this ends; in practice
   after one or two more solves.

``tests/stages/test_swiss.py`` checks the objective against every pairing of fields of up
to ten players, the encoding against the terms for up to 60 players, both methods against
each other for up to 200 players, and the screen against computing every pair.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal, NamedTuple

from stages.matching import PerfectMatching, max_weight_matching, max_weight_perfect_matching
from stages.messages import Msg, msg, number
from stages.swiss_completion import graph, keep_pairable


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """One player present for the round."""

    id: int
    score: Decimal
    rank: int = 0
    opponents: frozenset[int] = field(default_factory=frozenset)
    had_bye: bool = False
    floated_down: bool = False  # in the round before this one (term 6)


class PairingCost(NamedTuple):
    """The objective of a pairing, compared term by term (module docstring)."""

    rematches: int
    repeat_bye: int
    bye_rank: int
    floats: tuple[int, ...]
    float_distance: int
    repeat_floats: int
    order: int
    lot: int


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
Method = Literal["sparse", "full"]

# The sparse method's first candidate graph and its growth (module docstring, Method).
WINDOW_BELOW = 8
WINDOW_ABOVE = 4
CROSS = 4
ANCHORS = 2
PRICED = 4

# The largest field whose round is chosen among all its pairings to keep the rounds after
# it pairable (module docstring, Completion): 12 players have 10,395 pairings.
LOOKAHEAD_PLAYERS = 12


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
        self.ids = [p.id for p in self.players]
        self.had_bye = [p.had_bye for p in self.players]
        self.floated = [p.floated_down for p in self.players]
        self.index = {pid: i for i, pid in enumerate(self.ids)}
        scores = sorted({Decimal(p.score) for p in self.players}, reverse=True)
        group_of_score = {s: g for g, s in enumerate(scores)}
        self.groups = len(scores)
        self.group = [group_of_score[Decimal(p.score)] for p in self.players]
        # start[g], sizes[g]: the first position and the size of group g.
        self.sizes = [0] * self.groups
        self.start = [0] * self.groups
        self.in_group: list[int] = []
        for i, g in enumerate(self.group):
            if self.sizes[g] == 0:
                self.start[g] = i
            self.in_group.append(self.sizes[g])
            self.sizes[g] += 1
        self.size = [self.sizes[g] for g in self.group]

    def met(self, i: int, j: int) -> bool:
        a, b = self.players[i], self.players[j]
        return b.id in a.opponents or a.id in b.opponents

    def repeat_float(self, i: int, j: int) -> int:
        """Term 6 for the pair of positions ``i < j``: 1 when ``i`` floats down again."""
        return int(self.group[i] != self.group[j] and self.floated[i])

    def order_cost(self, i: int, j: int) -> int:
        """Term 7 for the pair of positions ``i < j`` (``i`` ranked higher)."""
        if self.group[i] == self.group[j]:
            s = self.size[i]
            gi, gj = self.in_group[i], self.in_group[j]
            return abs((gj - gi) - s // 2) * (s - gi)
        return (self.size[i] - 1 - self.in_group[i]) + self.in_group[j]


def pair_lot(seed: int, a: int, b: int | None) -> int:
    """Term 8 of the pair of players ``a`` and ``b`` (``None``: the bye), drawn from ``seed``:
    the first 8 bytes, big-endian, of the BLAKE2b hash of ``"seed:low id:high id"`` (of
    ``"seed:id:bye"`` for the bye)."""
    key = f"{seed}:{a}:bye" if b is None else f"{seed}:{min(a, b)}:{max(a, b)}"
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")


def pairing_cost(players: Sequence[SwissPlayer], pairs: Pairs, *, seed: int) -> PairingCost:
    """The objective of a complete pairing, computed from its definition term by term."""
    f = _Field(players, seed)
    n = len(f.players)
    seen: set[int] = set()
    rematches = repeat_bye = bye_rank = distance = repeat = order = lot = 0
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
        lot += pair_lot(seed, a, b)
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
        repeat += f.repeat_float(i, j)
        order += f.order_cost(i, j)
    if len(seen) != n:
        raise ValueError("every player must be in a pair or have the bye")
    if byes != n % 2:
        raise ValueError("a bye is given only when the field is odd, and only one")
    return PairingCost(rematches, repeat_bye, bye_rank, tuple(floats), distance, repeat, order, lot)


class _Costs:
    """Every pair's cost as one mixed-radix integer (module docstring, Method); the bye
    vertex is position ``n``. Each radix exceeds what its term can sum to over a pairing."""

    def __init__(self, f: _Field, seed: int) -> None:
        n = len(f.players)
        self.f, self.n, self.seed = f, n, seed
        half = n // 2 + 1
        boundaries = max(f.groups - 1, 0)
        self.base_lot = half << 64  # a lot is below 2**64
        self.unit_repeat = half * n * n + 1  # a pair's term 7 is below n², a pairing's below
        # this; term 6 is at most one a pair, so a pairing's below ``half + 1``.
        self.base_q = (half + 1) * self.unit_repeat
        base_d: int = half * boundaries**2 + 1
        base_f = half
        low = base_d * self.base_q  # the weight of one unit of the last float digit
        # crossing[g]: the encoded floats of a pair from group 0 down to group g.
        self.crossing = [0] * max(f.groups, 1)
        for t in range(1, f.groups):
            self.crossing[t] = self.crossing[t - 1] + int(base_f ** (boundaries - t)) * low
        self.unit_bye_rank: int = base_f**boundaries * low
        self.unit_repeat_bye = n * self.unit_bye_rank
        self.unit_rematch = 2 * self.unit_repeat_bye
        # The matching maximises top − cost; top exceeds every pair's cost.
        self.top = 2 * self.unit_rematch * self.base_lot

    def cost(self, i: int, j: int) -> int:
        """The cost of positions ``i < j`` (``j == n``: ``i`` has the bye)."""
        f = self.f
        if j == self.n:
            main: int = self.unit_repeat_bye * f.had_bye[i] + self.unit_bye_rank * (self.n - 1 - i)
            return main * self.base_lot + pair_lot(self.seed, f.ids[i], None)
        return self.main(i, j) * self.base_lot + pair_lot(self.seed, f.ids[i], f.ids[j])

    def main(self, i: int, j: int) -> int:
        """The cost of the players at positions ``i < j`` without the lot."""
        f = self.f
        gi, gj = f.group[i], f.group[j]
        cost: int = (
            self.unit_rematch * f.met(i, j)
            + (self.crossing[gj] - self.crossing[gi])
            + (gj - gi) ** 2 * self.base_q
            + self.unit_repeat * f.repeat_float(i, j)
            + f.order_cost(i, j)
        )
        return cost

    def all_edges(self) -> list[tuple[int, int, int]]:
        """``(i, j, cost)`` for every pair of the complete graph, the bye vertex included."""
        n = self.n
        last = n + 1 if n % 2 else n
        return [(i, j, self.cost(i, j)) for i in range(n) for j in range(i + 1, last)]


def _edge_costs(f: _Field, seed: int) -> list[tuple[int, int, int]]:
    return _Costs(f, seed).all_edges()


def _full_mate(c: _Costs) -> list[int]:
    """The reference: the matching over the complete graph, as first written."""
    edges = [(i, j, c.top - cost) for i, j, cost in c.all_edges()]
    return max_weight_matching(edges, max_cardinality=True)


def _sparse_mate(c: _Costs) -> list[int]:
    """The same optimum from a sparse candidate graph, proven by the duals (Method)."""
    candidates = _candidates(c)
    while True:
        edges = [(i, j, w) for (i, j), w in candidates.items()]
        solved = max_weight_perfect_matching(edges, c.n + c.n % 2)
        missing = _violated_pairs(c, solved, candidates)
        if not missing:
            return solved.mate
        for i, j in missing:
            candidates[(i, j)] = c.top - c.cost(i, j)


def _candidates(c: _Costs) -> dict[tuple[int, int], int]:
    """The first candidate graph: ``(i, j) → weight`` for positions ``i < j``."""
    f, n = c.f, c.n
    found: dict[tuple[int, int], int] = {}

    def add(i: int, j: int) -> None:
        if i > j:
            i, j = j, i
        if (i, j) not in found:
            found[(i, j)] = c.top - c.cost(i, j)

    def members(g: int) -> range:
        return range(f.start[g], f.start[g] + f.sizes[g])

    # A perfect matching, so that the graph has one: the groups top down, the lowest of an
    # odd group carried down to the next, each group's first half against its second half.
    carry: list[int] = []
    for g in range(f.groups):
        line = carry + list(members(g))
        carry = [line.pop()] if len(line) % 2 else []
        half = len(line) // 2
        for k in range(half):
            add(line[k], line[k + half])
    if carry:
        add(carry[0], n)
    for g in range(f.groups):
        group = members(g)
        s, h = len(group), len(group) // 2
        # Around the ideal partner (top half against bottom half).
        for i in group:
            q = i - group.start
            for d in range(max(1, h - WINDOW_BELOW), min(s - q, h + WINDOW_ABOVE + 1)):
                add(i, i + d)
        # Anchors: everyone with the highest and the lowest of the group, and with those of
        # the two groups below and above; they pin the duals down across whole groups.
        anchors = [*group[:ANCHORS], *group[-ANCHORS:]]
        for i in group:
            for a in anchors:
                if a != i:
                    add(i, a)
        for b in (g + 1, g + 2):
            if b >= f.groups:
                break
            lower = members(b)
            for i in group[-CROSS:]:
                for j in lower[:CROSS]:
                    add(i, j)
            for i in group:
                for j in lower[:ANCHORS]:
                    add(i, j)
            for j in lower:
                for i in group[-ANCHORS:]:
                    add(i, j)
    if n % 2:
        for i in range(n):
            add(i, n)
    return found


def _violated_pairs(
    c: _Costs,
    solved: PerfectMatching,
    candidates: Mapping[tuple[int, int], int],
    *,
    priced: int = PRICED,
) -> list[tuple[int, int]]:
    """The pairs outside ``candidates`` whose reduced cost under ``solved``'s duals is
    negative, at most ``priced`` for each player (the most violated ones).

    The reduced cost of players ``i < j`` is ``4·cost − v_i − v_j + 2·Z`` with ``v = 2·top
    − u`` and ``Z`` the duals of the blossoms holding both. Every bye pair is a candidate.
    The pairs are screened group by group with a lower bound of the cost (no rematch, no
    lot) and of ``Z`` (the *marked* blossoms only: the top-level ones and those whose dual
    reaches a float-distance unit), and only the pairs the screen cannot clear are tested
    exactly."""
    f, n = c.f, c.n
    unit = 4 * c.base_lot  # four units of term 6, as the reduced cost counts them
    lot_room = 4 << 64  # four lots at most
    v = [2 * c.top - u for u in solved.dual[:n]]
    shared = solved.tree.shared
    nall = len(solved.dual)
    parent, zs = solved.parent, solved.blossom_dual
    big = unit * c.base_q

    # sig[i]: the class of the marked blossoms holding player i.
    chains: dict[int, tuple[int, ...]] = {-1: ()}

    def chain(b: int) -> tuple[int, ...]:
        path = []
        while b not in chains:
            path.append(b)
            b = parent[b]
        for x in reversed(path):
            up = chains[parent[x]]
            chains[x] = (x, *up) if parent[x] == -1 or zs[x - nall] >= big else up
        return chains[path[0]] if path else chains[b]

    classes: dict[tuple[int, ...], int] = {}
    sig = [classes.setdefault(chain(parent[i]), len(classes)) for i in range(n)]
    marked = list(classes)
    shared_marked: dict[tuple[int, int], int] = {}

    def zsig(a: int, b: int) -> int:
        key = (a, b) if a <= b else (b, a)
        if key not in shared_marked:
            common = set(marked[a]) & set(marked[b])
            shared_marked[key] = sum(zs[x - nall] for x in common)
        return shared_marked[key]

    worst: dict[int, list[tuple[int, int]]] = {}

    def exact(i: int, j: int) -> None:
        if (i, j) in candidates:
            return
        reduced = unit * c.main(i, j) - v[i] - v[j] + 2 * shared(i, j)
        if reduced >= 0:
            return
        if reduced + lot_room > 0:
            reduced += 4 * pair_lot(c.seed, f.ids[i], f.ids[j])
            if reduced >= 0:
                return
        worst.setdefault(i, []).append((reduced, j))
        worst.setdefault(j, []).append((reduced, i))

    groups = [range(f.start[g], f.start[g] + f.sizes[g]) for g in range(f.groups)]
    # Inside a group of s: positions q < q + d cost |d − s // 2| · (s − q).
    for group in groups:
        s, h = len(group), len(group) // 2
        tops: dict[int, int] = {}  # class → the largest v in the group
        for j in group:
            if sig[j] not in tops or v[j] > tops[sig[j]]:
                tops[sig[j]] = v[j]
        reach_of: dict[int, int] = {}
        for i in group:
            a = sig[i]
            if a not in reach_of:
                reach_of[a] = max(top - 2 * zsig(a, b) for b, top in tops.items())
            reach = v[i] + reach_of[a]
            if reach <= 0:
                continue
            q = i - group.start
            step = unit * (s - q)
            r = (reach - 1) // step
            for d in range(max(1, h - r), min(s - 1 - q, h + r) + 1):
                j = i + d
                if step * abs(d - h) < v[i] + v[j] - 2 * zsig(a, sig[j]):
                    exact(i, j)
    # From group a down to group b: the cost is K_ab + R_i + (s_a − 1 − q_i) + q_j, so a pair
    # needs a test only when alpha_i + unit·K_ab + 2·Z < beta_j.
    # (A player who floated down the round before adds term 6 to every pair down from it.)
    alpha = [
        unit * (f.size[i] - 1 - f.in_group[i] + c.unit_repeat * f.floated[i]) - v[i]
        for i in range(n)
    ]
    beta = [v[j] - unit * f.in_group[j] for j in range(n)]
    by_class: list[dict[int, list[int]]] = []
    for group in groups:
        split: dict[int, list[int]] = {}
        for j in sorted(group, key=lambda j: -beta[j]):
            split.setdefault(sig[j], []).append(j)
        by_class.append(split)
    # highest[g]: the largest beta in groups g and below. K_ab grows with b, so once the
    # bound clears every group below, the rest of the row is clear too.
    highest = [max(beta[j] for j in group) for group in groups]
    for g in range(f.groups - 2, -1, -1):
        highest[g] = max(highest[g], highest[g + 1])
    for ga, upper in enumerate(groups):
        least = min(alpha[i] for i in upper)
        for gb in range(ga + 1, f.groups):
            bound = unit * (c.crossing[gb] - c.crossing[ga] + (gb - ga) ** 2 * c.base_q)
            if least + bound >= highest[gb]:
                break
            if least + bound >= max(beta[lowers[0]] for lowers in by_class[gb].values()):
                continue
            for i in upper:
                for b, lowers in by_class[gb].items():
                    threshold = alpha[i] + bound + 2 * zsig(sig[i], b)
                    for j in lowers:
                        if beta[j] <= threshold:
                            break
                        if alpha[i] + bound + 2 * shared(i, j) < beta[j]:
                            exact(i, j)
    chosen: set[tuple[int, int]] = set()
    for i, found in worst.items():
        for _, j in sorted(found)[:priced]:
            chosen.add((min(i, j), max(i, j)))
    return sorted(chosen)


def _reason(
    f: _Field,
    i: int,
    j: int | None,
    lowest_without_bye: int | None,
    names: Mapping[int, str] | None = None,
) -> Msg:
    a = f.players[i]
    if j is None:
        score = number(a.score)
        if i == lowest_without_bye:
            return msg("swiss.bye", score=score)
        if a.had_bye or lowest_without_bye is None:
            return msg("swiss.bye_again", score=score)
        lowest = f.ids[lowest_without_bye]
        named = names.get(lowest, str(lowest)) if names is not None else str(lowest)
        return msg("swiss.bye_moved", score=score, lowest=named)
    b = f.players[j]
    high, low = number(a.score), number(b.score)
    if f.met(i, j):
        return msg("swiss.rematch", high=high, low=low)
    if f.group[i] == f.group[j]:
        return msg("swiss.equal", score=high)
    return msg("swiss.float", high=high, low=low)


def _ahead_reason(
    f: _Field, i: int, j: int | None, instead: int | None, names: Mapping[int, str] | None
) -> Msg:
    """The reason of a pair that the usual pairing does not have, chosen to keep the
    rounds after this one pairable (Completion); ``instead``: the position of the usual
    pairing's bye."""
    a = f.players[i]
    if j is None:
        other = f.ids[instead] if instead is not None else a.id
        named = names.get(other, str(other)) if names is not None else str(other)
        return msg("swiss.bye_ahead", score=number(a.score), usual=named)
    b = f.players[j]
    if f.group[i] == f.group[j]:
        return msg("swiss.equal_ahead", score=number(a.score))
    return msg("swiss.float_ahead", high=number(a.score), low=number(b.score))


def _ahead(f: _Field, c: _Costs, mate: list[int], rounds_after: int) -> list[int]:
    """The pairing (``mate``: position → partner, ``n`` the bye) that keeps the most of
    the ``rounds_after`` rounds after this one pairable without a rematch or a second bye,
    the least costly of those; ``mate`` itself when it keeps as many, when it breaks an
    absolute criterion itself, or when the field is past the look-ahead (Completion)."""
    n = len(f.players)
    if n > LOOKAHEAD_PLAYERS:
        return mate
    free = graph(n, f.met, lambda i: f.had_bye[i])
    usual = [(i, mate[i]) for i in range(n) if mate[i] > i]
    costs: dict[tuple[int, int], int] = {}

    def cost(pairs: list[tuple[int, int]]) -> int:
        total = 0
        for pair in pairs:
            if pair not in costs:
                costs[pair] = c.cost(*pair)
            total += costs[pair]
        return total

    pairs = keep_pairable(free, n, usual, rounds_after, cost)
    if pairs is None:
        return mate
    chosen = [-1] * (n + n % 2)
    for a, b in pairs:
        chosen[a], chosen[b] = b, a
    return chosen


def pair_round(
    players: Sequence[SwissPlayer],
    *,
    seed: int,
    method: Method = "sparse",
    names: Mapping[int, str] | None = None,
    rounds_after: int = 0,
) -> SwissRound:
    """The pairing of least :class:`PairingCost`, each pair with its reason. ``method``:
    ``"sparse"`` (candidate graph and dual proof) or ``"full"`` (the complete graph, the
    reference); both give the same pairing. ``names``: player id → name, for the reasons
    that name a player (the bye's moved from the lowest-ranked; ids otherwise).
    ``rounds_after``: the rounds still to be paired after this one; the pairing keeps them
    pairable without a rematch or a second bye when it can (module docstring,
    Completion)."""
    f = _Field(players, seed)
    n = len(f.players)
    if n == 0:
        return SwissRound((), PairingCost(0, 0, 0, (), 0, 0, 0, 0), ())
    without_bye = [i for i in range(n) if not f.players[i].had_bye]
    lowest = without_bye[-1] if without_bye else None
    if n == 1:
        only = f.players[0]
        pair = SwissPair(only.id, None, _reason(f, 0, None, lowest, names))
        cost = pairing_cost(players, [(only.id, None)], seed=seed)
        return SwissRound((pair,), cost, (only.id,))
    costs = _Costs(f, seed)
    if method == "full":
        mate = _full_mate(costs)
    elif method == "sparse":
        mate = _sparse_mate(costs)
    else:
        raise ValueError(f"unknown method {method!r}")
    usual = mate
    if rounds_after > 0:
        mate = _ahead(f, costs, mate, rounds_after)
    usual_bye = usual.index(n) if n in usual else None
    pairs: list[SwissPair] = []
    bye: SwissPair | None = None
    for i in range(n):
        j = mate[i]
        changed = usual[i] != j
        if j == n:
            reason = (
                _ahead_reason(f, i, None, usual_bye, names)
                if changed
                else _reason(f, i, None, lowest, names)
            )
            bye = SwissPair(f.players[i].id, None, reason)
        elif j > i:
            reason = _ahead_reason(f, i, j, None, names) if changed else _reason(f, i, j, lowest)
            pairs.append(SwissPair(f.players[i].id, f.players[j].id, reason))
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


def pair_floats(players: Sequence[SwissPlayer], pairs: Pairs) -> dict[int, Literal["down", "up"]]:
    """The floats of a pairing, for the float history: player id → ``"down"`` for the
    higher score of a pair across scores and for the bye's player (FIDE counts the bye as
    a float down), ``"up"`` for the lower score. Players paired on equal scores float
    not."""
    score = {p.id: Decimal(p.score) for p in players}
    floats: dict[int, Literal["down", "up"]] = {}
    for a, b in pairs:
        if b is None:
            floats[a] = "down"
        elif score[a] != score[b]:
            high, low = (a, b) if score[a] > score[b] else (b, a)
            floats[high], floats[low] = "down", "up"
    return floats
