"""Maximum-weight matching in a general graph (Edmonds' blossom algorithm).

The Swiss pairing (:mod:`stages.swiss`) solves a maximum-weight perfect matching over the
players (plus a bye vertex when their number is odd), with an integer weight per pair that
encodes the pairing rules lexicographically. networkx is not a dependency of the project,
so the algorithm is written here.

It is the primal–dual method of Edmonds as refined by Galil ("Efficient algorithms for
finding maximum matching in graphs", ACM Computing Surveys 18(1), 1986), O(n³), in the
array layout made popular by Joris van Rantwijk's public-domain ``mwmatching.py`` (the same
layout networkx uses): vertices ``0…n−1``, blossoms ``n…2n−1``, each edge ``k`` has two
*endpoints* ``2k`` (its first vertex) and ``2k+1`` (its second).

Weights are integers and stay integers: every edge's slack is ``u_i + u_j − 2·w``, and all
the vertex duals of the search trees have one parity, so the slacks between two S-vertices
are even and halving them is exact. Python's integers are unbounded, so weights may be as
large as the lexicographic encoding needs.

Two entry points:

- :func:`max_weight_matching`: the classic start (every vertex dual at the largest weight,
  nothing matched, every free vertex the root of a search tree in every stage). With
  ``max_cardinality=True`` the result is, among the matchings of largest size, one of
  largest total weight. It makes the same choices, step for step, as the first version
  of this module (checked on thousands of random graphs when it was rewritten).
- :func:`max_weight_perfect_matching`: a perfect matching of largest weight, started
  greedily (each vertex dual at its heaviest edge, the mutually heaviest edges matched,
  weights doubled inside so that those duals share one parity) and grown one search tree
  at a time (a stage ends when its tree reaches another free vertex, whose dual did not
  move), returned with its dual solution. The duals are an optimality certificate that
  reaches beyond the edges given: a pair ``(i, j)`` left out of the graph cannot improve
  the matching when :meth:`PerfectMatching.reduced_cost` of it is ``≥ 0`` (LP duality
  for Edmonds' perfect matching polytope: the duals stay feasible with the pair added,
  and the matching with them still meets complementary slackness). :mod:`stages.swiss`
  solves a sparse candidate graph this way and adds the pairs that fail the test until
  none does.

Constant factors, which decide what a pure-Python O(n³) can do: a dual change does not
touch every vertex (the duals of the labelled vertices move by a running *shift*, folded
in at the end of a stage); the next change is found from three heaps (least slack to a
free vertex, between two S-blossoms, least T-blossom dual) rather than by scanning all
vertices and blossoms; each blossom keeps the list of its vertices until it is changed;
and no routine recurses, as blossoms nest hundreds deep in a field of 1,000 players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from heapq import heappop, heappush

Edge = tuple[int, int, int]


def max_weight_matching(edges: Sequence[Edge], *, max_cardinality: bool = False) -> list[int]:
    """``mate[v]``: the vertex matched to ``v``, or −1. ``edges`` are ``(i, j, weight)``
    with ``i != j`` and at most one edge per pair of vertices."""
    if not edges:
        return []
    return _blossom(edges, max_cardinality=max_cardinality, greedy=False).mate


@dataclass(frozen=True, slots=True)
class PerfectMatching:
    """A maximum-weight perfect matching and the dual solution that proves it.

    ``dual[v]`` is the vertex dual, ``parent[b]`` the blossom containing vertex or blossom
    ``b`` (−1 at the top) and ``blossom_dual[b − n]`` the dual of blossom ``b``, all for the
    weights as doubled inside (:meth:`reduced_cost` takes the weights as given)."""

    mate: list[int]
    dual: list[int]
    parent: list[int]
    blossom_dual: list[int]
    tree: BlossomTree

    def reduced_cost(self, i: int, j: int, weight: int) -> int:
        """``u_i + u_j − 4·w`` plus twice the duals of the blossoms holding both ``i`` and
        ``j``: never negative for an edge of the graph, and zero for a matched edge."""
        return self.dual[i] + self.dual[j] - 4 * weight + 2 * self.tree.shared(i, j)


class BlossomTree:
    """The nested blossoms of a :class:`PerfectMatching`, for the sum of the duals of the
    blossoms that hold two given vertices (:meth:`shared`) in O(1).

    The vertices are laid out in depth-first order of the blossom forest; the blossoms
    holding two vertices are the common ancestors of the two, and because a blossom's dual
    is never negative, their sum is the least of the same sums for the neighbouring pairs
    of that order between the two (a range minimum, from a sparse table)."""

    def __init__(self, parent: Sequence[int], blossom_dual: Sequence[int]) -> None:
        nvertex = len(parent) // 2
        children: list[list[int]] = [[] for _ in range(len(parent))]
        for x, p in enumerate(parent):
            if p != -1:
                children[p].append(x)
        # above[x]: the duals of the blossoms holding x (x's own dual included for a blossom).
        above = [0] * len(parent)
        roots = [x for x in range(len(parent)) if parent[x] == -1 and (x < nvertex or children[x])]
        self.position = [0] * nvertex
        self.top = list(range(nvertex))  # the top-level blossom holding each vertex
        between: list[int] = []  # between[t]: the shared sum of the t-th and (t+1)-th vertex
        order: list[int] = []
        for root in roots:
            shared = 0  # different top-level blossoms share nothing
            stack = [(root, 0)]
            if root >= nvertex:
                above[root] = blossom_dual[root - nvertex]
            while stack:
                node, index = stack[-1]
                if node < nvertex:
                    stack.pop()
                    if order:
                        between.append(shared)
                    self.position[node] = len(order)
                    self.top[node] = root
                    order.append(node)
                    continue
                if index == len(children[node]):
                    stack.pop()
                    continue
                stack[-1] = (node, index + 1)
                if index > 0:
                    shared = above[node]  # the next vertex shares node with the last one
                child = children[node][index]
                if child >= nvertex:
                    above[child] = above[node] + blossom_dual[child - nvertex]
                stack.append((child, 0))
        self.table = [between]
        width = 1
        while 2 * width <= len(between):
            last = self.table[-1]
            self.table.append([min(last[t], last[t + width]) for t in range(len(last) - width)])
            width *= 2

    def shared(self, i: int, j: int) -> int:
        """The sum of the duals of the blossoms holding both ``i`` and ``j`` (``i != j``)."""
        a, b = self.position[i], self.position[j]
        if a > b:
            a, b = b, a
        level = (b - a).bit_length() - 1
        row = self.table[level]
        return min(row[a], row[b - (1 << level)])


def max_weight_perfect_matching(edges: Sequence[Edge], nvertex: int) -> PerfectMatching:
    """A perfect matching of largest weight on vertices ``0…nvertex−1`` with its duals.
    ValueError when the graph has no perfect matching."""
    if nvertex == 0:
        return PerfectMatching([], [], [], [], BlossomTree([], []))
    if not edges or 1 + max(max(i, j) for i, j, _ in edges) != nvertex:
        raise ValueError("the graph has no perfect matching")
    result = _blossom(edges, max_cardinality=True, greedy=True)
    if -1 in result.mate:
        raise ValueError("the graph has no perfect matching")
    return result


def _blossom(edges: Sequence[Edge], *, max_cardinality: bool, greedy: bool) -> PerfectMatching:
    nedge = len(edges)
    nvertex = 1 + max(max(i, j) for i, j, _ in edges)
    for i, j, _ in edges:
        if i < 0 or j < 0 or i == j:
            raise ValueError(f"bad edge ({i}, {j})")
    # edge k joins edge_i[k] and edge_j[k]; twice_w[k] is twice its weight, as the slack
    # u_i + u_j − 2·w needs it (the weights themselves doubled first when greedy).
    edge_i = [i for i, _, _ in edges]
    edge_j = [j for _, j, _ in edges]
    scale = 4 if greedy else 2
    twice_w = [scale * w for _, _, w in edges]
    maxweight = max(0, max(w for _, _, w in edges))

    # endpoint[p]: the vertex at endpoint p; neighbend[v]: the remote endpoints of v's edges.
    endpoint = [0] * (2 * nedge)
    endpoint[0::2] = edge_i
    endpoint[1::2] = edge_j
    neighbend: list[list[int]] = [[] for _ in range(nvertex)]
    for k in range(nedge):
        neighbend[edge_i[k]].append(2 * k + 1)
        neighbend[edge_j[k]].append(2 * k)

    # mate[v]: the remote endpoint of v's matched edge, or −1 (turned into vertices at the end).
    mate = [-1] * nvertex
    # label of a top-level blossom: 0 free, 1 S (outer), 2 T (inner); 5 marks a breadcrumb.
    label = [0] * (2 * nvertex)
    # labelend[b]: the endpoint through which b got its label, or −1.
    labelend = [-1] * (2 * nvertex)
    inblossom = list(range(nvertex))
    blossomparent = [-1] * (2 * nvertex)
    blossomchilds: list[list[int]] = [[] for _ in range(2 * nvertex)]
    blossombase = list(range(nvertex)) + [-1] * nvertex
    blossomendps: list[list[int]] = [[] for _ in range(2 * nvertex)]
    # bestedge[b]: the least-slack edge from b to a different S-blossom (or free vertex).
    bestedge = [-1] * (2 * nvertex)
    blossombestedges: list[list[int] | None] = [None] * (2 * nvertex)
    unusedblossoms = list(range(nvertex, 2 * nvertex))
    allowedge = [False] * nedge
    queue: list[int] = []

    # Duals, updated lazily: within a stage every S-vertex loses delta and every T-vertex
    # gains it at each dual change (top-level blossoms the other way round), so the dual of
    # x is dualvar[x] + dsign[x] · shift, shift being the stage's total change so far, and
    # dsign[x] follows the label of x's top-level blossom (sync). At the end of a stage the
    # shift is folded into dualvar.
    dualvar = [maxweight] * nvertex + [0] * nvertex
    dsign = [0] * (2 * nvertex)
    shift = 0
    # The candidates for the next dual change, as heaps with keys that do not move while
    # the shift grows: (slack + shift, v, edge) for an edge from an S-vertex to free vertex
    # v; (slack // 2 + shift, b, edge) for one between S-blossom b and another; (dual +
    # shift, b) for T-blossom b. Entries that no longer hold are dropped when met.
    free_heap: list[tuple[int, int, int]] = []
    outer_heap: list[tuple[int, int, int]] = []
    inner_heap: list[tuple[int, int]] = []

    if greedy:
        # Each vertex dual at its heaviest edge (doubled weights: all duals even, so the
        # parity argument above holds); the edges heaviest for both ends are tight.
        for v in range(nvertex):
            dualvar[v] = max((twice_w[p >> 1] for p in neighbend[v]), default=0) // 2
        for k in range(nedge):
            i, j = edge_i[k], edge_j[k]
            if mate[i] == -1 and mate[j] == -1 and dualvar[i] + dualvar[j] == twice_w[k]:
                mate[i] = 2 * k + 1
                mate[j] = 2 * k

    def slack(k: int) -> int:
        i, j = edge_i[k], edge_j[k]
        return dualvar[i] + dualvar[j] + (dsign[i] + dsign[j]) * shift - twice_w[k]

    # leafcache[b]: the vertices of blossom b, in the order of its children (None: not
    # known since the blossom was made or its children were rotated).
    single = [[v] for v in range(nvertex)]
    leafcache: list[list[int] | None] = [None] * (2 * nvertex)

    def blossom_leaves(b: int) -> list[int]:
        if b < nvertex:
            return single[b]
        known = leafcache[b]
        if known is not None:
            return known
        order = []
        stack = [b]
        while stack:
            t = stack.pop()
            order.append(t)
            stack.extend(c for c in blossomchilds[t] if c >= nvertex and leafcache[c] is None)
        for t in reversed(order):  # the children first
            leaves: list[int] = []
            for c in blossomchilds[t]:
                cached = single[c] if c < nvertex else leafcache[c]
                assert cached is not None
                leaves.extend(cached)
            leafcache[t] = leaves
        found = leafcache[b]
        assert found is not None
        return found

    def sync(b: int) -> None:
        """Top-level blossom b has (maybe) a new label: rebase the duals of its leaves and
        of itself, and queue it (or its free leaves) as candidates for the dual change."""
        t = label[b]
        sign = -1 if t == 1 else 1 if t == 2 else 0
        for leaf in blossom_leaves(b):
            if dsign[leaf] != sign:
                dualvar[leaf] += (dsign[leaf] - sign) * shift
                dsign[leaf] = sign
            if t == 0 and bestedge[leaf] != -1:
                heappush(free_heap, (slack(bestedge[leaf]) + shift, leaf, bestedge[leaf]))
        if b >= nvertex:
            freeze(b, -sign)
            if t == 2:
                heappush(inner_heap, (dualvar[b] + dsign[b] * shift + shift, b))

    def freeze(b: int, sign: int) -> None:
        if dsign[b] != sign:
            dualvar[b] += (dsign[b] - sign) * shift
            dsign[b] = sign

    # outer_slack[b]: the slack of bestedge[b], an edge between S-blossoms, plus twice the
    # shift (it does not move while both ends stay S, as they do until the stage ends).
    outer_slack = [0] * (2 * nvertex)

    def set_outer_best(b: int, k: int, kslack: int) -> None:
        bestedge[b] = k
        outer_slack[b] = kslack + 2 * shift
        heappush(outer_heap, (kslack // 2 + shift, b, k))

    def set_free_best(w: int, k: int, kslack: int) -> None:
        bestedge[w] = k
        heappush(free_heap, (kslack + shift, w, k))

    def assign_label(w: int, t: int, p: int) -> None:
        while True:
            b = inblossom[w]
            label[w] = label[b] = t
            labelend[w] = labelend[b] = p
            bestedge[w] = bestedge[b] = -1
            sync(b)
            if t == 1:
                queue.extend(blossom_leaves(b))
                return
            # b became a T-blossom: its base's mate becomes an S-vertex.
            base = blossombase[b]
            w, t, p = endpoint[mate[base]], 1, mate[base] ^ 1

    def scan_blossom(v: int, w: int) -> int:
        """Trace back from v and w; the base of the new blossom, or −1 (augmenting path)."""
        path: list[int] = []
        base = -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = blossombase[b]
                break
            path.append(b)
            label[b] = 5
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint[labelend[b]]
                b = inblossom[v]
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(base: int, k: int) -> None:
        v, w = edge_i[k], edge_j[k]
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        b = unusedblossoms.pop()
        blossombase[b] = base
        blossomparent[b] = -1
        blossomparent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            blossomparent[bv] = b
            path.append(bv)
            endps.append(labelend[bv])
            v = endpoint[labelend[bv]]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            w = endpoint[labelend[bw]]
            bw = inblossom[w]
        blossomchilds[b] = path
        blossomendps[b] = endps
        label[b] = 1
        labelend[b] = labelend[bb]
        dualvar[b] = 0
        dsign[b] = 0
        for sub in path:
            if sub >= nvertex:
                freeze(sub, 0)  # no longer top-level: its dual stops moving
        for leaf in blossom_leaves(b):
            if label[inblossom[leaf]] == 2:
                # A T-vertex becomes part of an S-blossom: scan it too.
                queue.append(leaf)
            inblossom[leaf] = b
        sync(b)
        bestedgeto: dict[int, int] = {}  # by blossom; the first found wins a tie
        bestslack: dict[int, int] = {}
        for sub in path:
            own = blossombestedges[sub]
            if own is None:
                nblists = [[p >> 1 for p in neighbend[leaf]] for leaf in blossom_leaves(sub)]
            else:
                nblists = [own]
            for nblist in nblists:
                for kk in nblist:
                    j = edge_j[kk]
                    if inblossom[j] == b:
                        j = edge_i[kk]
                    bj = inblossom[j]
                    if bj != b and label[bj] == 1:
                        s = slack(kk)
                        if bj not in bestedgeto or s < bestslack[bj]:
                            bestedgeto[bj] = kk
                            bestslack[bj] = s
            blossombestedges[sub] = None
            bestedge[sub] = -1
        best = [bestedgeto[bj] for bj in sorted(bestedgeto)]
        blossombestedges[b] = best
        bestedge[b] = -1
        least = 0
        for bj in sorted(bestedgeto):
            if bestedge[b] == -1 or bestslack[bj] < least:
                bestedge[b] = bestedgeto[bj]
                least = bestslack[bj]
        if bestedge[b] != -1:
            set_outer_best(b, bestedge[b], least)

    def discard(b: int) -> None:
        freeze(b, 0)
        label[b] = labelend[b] = -1
        leafcache[b] = None
        blossomchilds[b] = []
        blossomendps[b] = []
        blossombase[b] = -1
        blossombestedges[b] = None
        bestedge[b] = -1
        unusedblossoms.append(b)

    def expand_blossom(b: int, endstage: bool) -> None:
        """Undo blossom b; at the end of a stage also its sub-blossoms of zero dual, depth
        first (a stack, not recursion: blossoms nest hundreds deep in large fields)."""
        frames = [(b, 0)]
        while frames:
            node, index = frames[-1]
            if node != b and index == len(blossomchilds[node]):
                frames.pop()
                discard(node)
                continue
            if index == len(blossomchilds[node]):
                break
            frames[-1] = (node, index + 1)
            s = blossomchilds[node][index]
            blossomparent[s] = -1
            if s < nvertex:
                inblossom[s] = s
            elif endstage and dualvar[s] == 0:
                frames.append((s, 0))
            else:
                for leaf in blossom_leaves(s):
                    inblossom[leaf] = s
        if not endstage and label[b] == 2:
            # Relabel the sub-blossoms on the even-length path from the entry child to the
            # base as T and S alternately; the others become free (or stay reached).
            childs = blossomchilds[b]
            endps = blossomendps[b]
            entrychild = inblossom[endpoint[labelend[b] ^ 1]]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep = 1
                endptrick = 0
            else:
                jstep = -1
                endptrick = 1
            p = labelend[b]
            while j != 0:
                label[endpoint[p ^ 1]] = 0
                label[endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
                assign_label(endpoint[p ^ 1], 2, p)
                allowedge[endps[j - endptrick] >> 1] = True
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                allowedge[p >> 1] = True
                j += jstep
            bv = childs[j]
            label[endpoint[p ^ 1]] = label[bv] = 2
            labelend[endpoint[p ^ 1]] = labelend[bv] = p
            bestedge[bv] = -1
            sync(bv)
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if label[bv] == 1:
                    j += jstep
                    continue
                reached = -1
                for leaf in blossom_leaves(bv):
                    if label[leaf] != 0:
                        reached = leaf
                        break
                if reached != -1:
                    label[reached] = 0
                    label[endpoint[mate[blossombase[bv]]]] = 0
                    assign_label(reached, 2, labelend[reached])
                j += jstep
        if not endstage:
            for s in blossomchilds[b]:
                sync(s)
        discard(b)

    def augment_blossom(top: int, start: int) -> None:
        """Swap matched and unmatched edges inside blossom top on the path from vertex
        start to its base, which start becomes. Each sub-blossom on the path is a task of
        its own (they touch disjoint vertices), kept on a stack rather than recursion."""
        tasks = [(top, start)]
        while tasks:
            b, v = tasks.pop()
            t = v
            while blossomparent[t] != b:
                t = blossomparent[t]
            if t >= nvertex:
                tasks.append((t, v))
            childs = blossomchilds[b]
            endps = blossomendps[b]
            i = j = childs.index(t)
            if i & 1:
                j -= len(childs)
                jstep = 1
                endptrick = 0
            else:
                jstep = -1
                endptrick = 1
            while j != 0:
                j += jstep
                t = childs[j]
                p = endps[j - endptrick] ^ endptrick
                if t >= nvertex:
                    tasks.append((t, endpoint[p]))
                j += jstep
                t = childs[j]
                if t >= nvertex:
                    tasks.append((t, endpoint[p ^ 1]))
                mate[endpoint[p]] = p ^ 1
                mate[endpoint[p ^ 1]] = p
            blossomchilds[b] = childs[i:] + childs[:i]
            blossomendps[b] = endps[i:] + endps[:i]
            leafcache[b] = None
            blossombase[b] = v

    def augment_matching(k: int) -> None:
        v, w = edge_i[k], edge_j[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= nvertex:
                    augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= nvertex:
                    augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

    def scan(v: int) -> bool:
        """Scan the edges of S-vertex v; True when the matching was augmented."""
        bv = inblossom[v]
        dv = dualvar[v] + dsign[v] * shift  # constant while v is scanned
        for p in neighbend[v]:
            k = p >> 1
            w = endpoint[p]
            bw = inblossom[w]
            if bv == bw:
                continue
            if allowedge[k]:
                kslack = 0
            else:
                kslack = dv + dualvar[w] + dsign[w] * shift - twice_w[k]
                if kslack <= 0:
                    allowedge[k] = True
            lw = label[bw]
            if allowedge[k]:
                if lw == 0:
                    if mate[blossombase[bw]] == -1:
                        # A free vertex outside the tree (one tree at a time): augment.
                        labelend[bw] = -1
                        augment_matching(k)
                        return True
                    assign_label(w, 2, p ^ 1)
                elif lw == 1:
                    base = scan_blossom(v, w)
                    if base >= 0:
                        add_blossom(base, k)
                        bv = inblossom[v]
                    else:
                        augment_matching(k)
                        return True
                elif label[w] == 0:
                    # w is inside a T-blossom but not yet reached from outside it.
                    label[w] = 2
                    labelend[w] = p ^ 1
            elif lw == 1:
                best = bestedge[bv]
                if best == -1 or kslack < outer_slack[bv] - 2 * shift:
                    set_outer_best(bv, k, kslack)
            elif label[w] == 0:
                best = bestedge[w]
                if best == -1:
                    set_free_best(w, k, kslack)
                else:
                    i, j = edge_i[best], edge_j[best]
                    if (
                        kslack
                        < dualvar[i] + dualvar[j] + (dsign[i] + dsign[j]) * shift - twice_w[best]
                    ):
                        set_free_best(w, k, kslack)
        return False

    def least_free() -> tuple[int, int] | None:
        """(slack, edge) of the least-slack edge from an S-vertex to a free vertex."""
        while free_heap:
            key, v, k = free_heap[0]
            if bestedge[v] == k and label[inblossom[v]] == 0 and slack(k) == key - shift:
                return key - shift, k
            heappop(free_heap)
        return None

    def least_outer() -> tuple[int, int] | None:
        """(slack // 2, edge) of the least-slack edge between two S-blossoms."""
        while outer_heap:
            key, b, k = outer_heap[0]
            if (
                bestedge[b] == k
                and blossomparent[b] == -1
                and label[b] == 1
                and slack(k) // 2 == key - shift
            ):
                return key - shift, k
            heappop(outer_heap)
        return None

    def least_inner() -> tuple[int, int] | None:
        """(dual, blossom) of the T-blossom of least dual."""
        while inner_heap:
            key, b = inner_heap[0]
            if (
                label[b] == 2
                and blossomparent[b] == -1
                and blossombase[b] >= 0
                and dualvar[b] + dsign[b] * shift == key - shift
            ):
                return key - shift, b
            heappop(inner_heap)
        return None

    for _stage in range(nvertex):
        label[:] = [0] * (2 * nvertex)
        bestedge[:] = [-1] * (2 * nvertex)
        blossombestedges[nvertex:] = [None] * nvertex
        allowedge[:] = [False] * nedge
        queue[:] = []
        free_heap.clear()
        outer_heap.clear()
        inner_heap.clear()
        shift = 0
        for v in range(nvertex):
            if mate[v] == -1 and label[inblossom[v]] == 0:
                assign_label(v, 1, -1)
                if greedy:
                    break  # one tree at a time: the other free vertices wait, unlabeled
        augmented = False
        while True:
            while queue:
                if scan(queue.pop()):
                    augmented = True
                    break
            if augmented:
                break

            # No augmenting path with the current duals: compute the dual change delta.
            deltatype = -1
            delta = 0
            deltaedge = -1
            deltablossom = -1
            if not max_cardinality:
                deltatype = 1
                delta = min(dualvar[v] + dsign[v] * shift for v in range(nvertex))
            found = least_free()
            if found is not None and (deltatype == -1 or found[0] < delta):
                delta, deltaedge = found
                deltatype = 2
            found = least_outer()
            if found is not None and (deltatype == -1 or found[0] < delta):
                delta, deltaedge = found
                deltatype = 3
            found = least_inner()
            if found is not None and (deltatype == -1 or found[0] < delta):
                delta, deltablossom = found
                deltatype = 4
            if deltatype == -1:
                # Maximum cardinality reached; a last update keeps the duals verifiable.
                deltatype = 1
                delta = max(0, min(dualvar[v] + dsign[v] * shift for v in range(nvertex)))

            shift += delta

            if deltatype == 1:
                break
            if deltatype == 2:
                allowedge[deltaedge] = True
                i, j = edge_i[deltaedge], edge_j[deltaedge]
                if label[inblossom[i]] == 0:
                    i, j = j, i
                queue.append(i)
            elif deltatype == 3:
                allowedge[deltaedge] = True
                queue.append(edge_i[deltaedge])
            else:
                expand_blossom(deltablossom, False)

        # End of a stage: fold the shift into the duals.
        for x in range(2 * nvertex):
            if dsign[x]:
                dualvar[x] += dsign[x] * shift
                dsign[x] = 0
        shift = 0
        if not augmented:
            break
        # Expand the S-blossoms whose dual is zero.
        for b in range(nvertex, 2 * nvertex):
            if blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                expand_blossom(b, True)

    parent = [
        p if (x < nvertex or blossombase[x] >= 0) and (p < 0 or blossombase[p] >= 0) else -1
        for x, p in enumerate(blossomparent)
    ]
    return PerfectMatching(
        mate=[endpoint[m] if m >= 0 else -1 for m in mate],
        dual=dualvar[:nvertex],
        parent=parent,
        blossom_dual=dualvar[nvertex:],
        tree=BlossomTree(parent, dualvar[nvertex:]),
    )
