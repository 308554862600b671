"""stages.matching: the blossom algorithm against a brute force over every matching."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from stages.matching import Edge, max_weight_matching


def best_by_brute_force(n: int, edges: Sequence[Edge], max_cardinality: bool) -> tuple[int, ...]:
    weight = {(min(i, j), max(i, j)): w for i, j, w in edges}
    best: tuple[int, ...] | None = None

    def walk(free: list[int], size: int, total: int) -> None:
        nonlocal best
        key = (size, total) if max_cardinality else (total,)
        if best is None or key > best:
            best = key
        if not free:
            return
        v, rest = free[0], free[1:]
        walk(rest, size, total)
        for u in rest:
            if (v, u) in weight:
                walk([x for x in rest if x != u], size + 1, total + weight[(v, u)])

    walk(list(range(n)), 0, 0)
    assert best is not None
    return best


def value(mate: list[int], edges: Sequence[Edge], max_cardinality: bool) -> tuple[int, ...]:
    weight = {(min(i, j), max(i, j)): w for i, j, w in edges}
    size = total = 0
    for v, u in enumerate(mate):
        if u >= 0:
            assert mate[u] == v, "the matching is symmetric"
            if u > v:
                size += 1
                total += weight[(v, u)]
    return (size, total) if max_cardinality else (total,)


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[Edge]]:
    n = draw(st.integers(2, 8))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=1, unique=True))
    weights = draw(
        st.lists(st.integers(-3, 12), min_size=len(chosen), max_size=len(chosen))
        | st.lists(st.integers(0, 2**80), min_size=len(chosen), max_size=len(chosen))
    )
    return n, [(i, j, w) for (i, j), w in zip(chosen, weights, strict=True)]


@settings(max_examples=600)
@given(graphs(), st.booleans())
def test_the_matching_is_as_heavy_as_the_best_of_all_matchings(
    graph: tuple[int, list[Edge]], max_cardinality: bool
) -> None:
    n, edges = graph
    mate = max_weight_matching(edges, max_cardinality=max_cardinality)
    assert value(mate, edges, max_cardinality) == best_by_brute_force(n, edges, max_cardinality)


def test_a_blossom_is_needed_for_the_best_matching() -> None:
    # The triangle 0-1-2 forms a blossom before the search finds 0-5, 1-2, 3-4 (21).
    edges = [(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7), (0, 5, 5), (3, 4, 6)]
    mate = max_weight_matching(edges)
    assert mate == [5, 2, 1, 4, 3, 0]
    assert value(mate, edges, False) == (21,)


def test_no_edges_no_matching() -> None:
    assert max_weight_matching([]) == []
