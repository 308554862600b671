"""stages.matching: the blossom algorithm against a brute force over every matching, and
the duals of the perfect matching as a proof beyond the edges it was given."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stages.matching import Edge, max_weight_matching, max_weight_perfect_matching


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


@st.composite
def graphs_with_a_perfect_matching(draw: st.DrawFn) -> tuple[int, list[Edge]]:
    """A graph on an even number of vertices holding the perfect matching 0–1, 2–3, …"""
    n = 2 * draw(st.integers(1, 5))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if (i % 2, j - i) != (0, 1)]
    chosen = [(i, i + 1) for i in range(0, n, 2)]
    chosen += draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    weights = draw(
        st.lists(st.integers(-5, 12), min_size=len(chosen), max_size=len(chosen))
        | st.lists(st.integers(0, 2**90), min_size=len(chosen), max_size=len(chosen))
    )
    return n, [(i, j, w) for (i, j), w in zip(chosen, weights, strict=True)]


@settings(max_examples=500)
@given(graphs_with_a_perfect_matching())
def test_the_perfect_matching_is_the_heaviest_and_its_duals_prove_it(
    graph: tuple[int, list[Edge]],
) -> None:
    n, edges = graph
    result = max_weight_perfect_matching(edges, n)
    assert value(result.mate, edges, True) == best_by_brute_force(n, edges, True)
    assert (len(result.mate), -1 in result.mate) == (n, False)
    for i, j, w in edges:
        assert result.reduced_cost(i, j, w) >= 0
        if result.mate[i] == j:
            assert result.reduced_cost(i, j, w) == 0
    assert all(d >= 0 for d in result.blossom_dual)


@settings(max_examples=500)
@given(graphs_with_a_perfect_matching(), st.data())
def test_duals_from_part_of_a_graph_prove_the_matching_for_all_of_it(
    graph: tuple[int, list[Edge]], data: st.DataObject
) -> None:
    """Solve on a subgraph holding a perfect matching; when no edge left out has a
    negative reduced cost, the matching is the heaviest of the whole graph."""
    n, edges = graph
    part = edges[: n // 2] + [e for e in edges[n // 2 :] if data.draw(st.booleans())]
    result = max_weight_perfect_matching(part, n)
    left_out = [e for e in edges if e not in part]
    if all(result.reduced_cost(i, j, w) >= 0 for i, j, w in left_out):
        assert value(result.mate, edges, True) == best_by_brute_force(n, edges, True)
    else:
        assert any(result.reduced_cost(i, j, w) < 0 for i, j, w in left_out)


@settings(max_examples=300)
@given(graphs_with_a_perfect_matching())
def test_shared_blossom_duals_are_the_common_ancestors(graph: tuple[int, list[Edge]]) -> None:
    n, edges = graph
    result = max_weight_perfect_matching(edges, n)

    def above(v: int) -> list[int]:
        found, b = [], result.parent[v]
        while b != -1:
            found.append(b)
            b = result.parent[b]
        return found

    for i in range(n):
        for j in range(n):
            if i != j:
                common = set(above(i)) & set(above(j))
                assert result.tree.shared(i, j) == sum(result.blossom_dual[b - n] for b in common)


def test_the_blossom_duals_enter_the_reduced_costs() -> None:
    # Two heavy triangles joined by a light edge: a triangle is an odd set whose dual pays
    # for its inside edges, which the vertex duals alone would not.
    edges = [(0, 1, 10), (1, 2, 10), (0, 2, 10), (2, 3, 1), (3, 4, 10), (4, 5, 10), (3, 5, 10)]
    result = max_weight_perfect_matching(edges, 6)
    assert value(result.mate, edges, True) == best_by_brute_force(6, edges, True)
    assert any(b != -1 for b in result.parent[:6])
    for i, j, w in edges:
        assert result.reduced_cost(i, j, w) == 0
        inside = result.parent[i] == result.parent[j] != -1
        assert (result.dual[i] + result.dual[j] - 4 * w < 0) == inside


def test_no_perfect_matching_is_refused() -> None:
    with pytest.raises(ValueError):
        max_weight_perfect_matching([(0, 1, 1), (0, 2, 1)], 3)
    with pytest.raises(ValueError):
        max_weight_perfect_matching([(0, 1, 1), (0, 2, 1), (0, 3, 1)], 4)
    assert max_weight_perfect_matching([], 0).mate == []
