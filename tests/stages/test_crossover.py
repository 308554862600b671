"""Groups into a knockout, placed crosswise (stages.crossover)."""

from __future__ import annotations

from itertools import permutations, product

import pytest

from stages.crossover import MAX_GROUPS, crosswise_seeds, meeting_round
from stages.elimination import bracket_size, seed_order


def _groups(count: int, size: int) -> list[list[str]]:
    return [[f"{chr(65 + g)}{p + 1}" for p in range(size)] for g in range(count)]


def _first_round(seeds: list[str]) -> list[tuple[str | None, str | None]]:
    size = bracket_size(len(seeds))
    order = seed_order(size)
    named = [seeds[s - 1] if s <= len(seeds) else None for s in order]
    return [(named[i], named[i + 1]) for i in range(0, size, 2)]


def _spread(seeds: list[str]) -> list[int]:
    """For each pair of group-mates, the earliest round they can meet, sorted."""
    size = bracket_size(len(seeds))
    line = {seed: i for i, seed in enumerate(seed_order(size))}
    out = []
    for a in range(len(seeds)):
        for b in range(a + 1, len(seeds)):
            if seeds[a][0] == seeds[b][0]:
                out.append(meeting_round(line[a + 1], line[b + 1]))
    return sorted(out)


def test_two_groups_two_each_is_a1_b2_and_b1_a2() -> None:
    assert _first_round(crosswise_seeds(_groups(2, 3), 2)) == [("A1", "B2"), ("B1", "A2")]


def test_four_groups_cross_in_partner_pairs() -> None:
    pairs = set(_first_round(crosswise_seeds(_groups(4, 4), 2)))
    assert pairs == {("A1", "B2"), ("B1", "A2"), ("C1", "D2"), ("D1", "C2")}


@pytest.mark.parametrize(
    ("count", "k"), [(g, k) for g in range(1, 9) for k in range(1, 5) if g * k >= 2]
)
def test_tiers_and_group_mates_apart(count: int, k: int) -> None:
    seeds = crosswise_seeds(_groups(count, k), k)
    assert sorted(seeds) == sorted(f"{chr(65 + g)}{p + 1}" for g in range(count) for p in range(k))
    # tier by tier: the winners first in group order, then the runners-up, …
    for i, name in enumerate(seeds):
        assert int(name[1:]) == i // count + 1
    assert seeds[:count] == [f"{chr(65 + g)}1" for g in range(count)]
    # no group-mates meet in the first round while the groups are at least two
    if count >= 2:
        for upper, lower in _first_round(seeds):
            if upper and lower:
                assert upper[0] != lower[0], (upper, lower)
    # the winner and the runner-up of a group only in the final when 2 per group
    if k == 2 and count >= 2:
        rounds = bracket_size(count * k).bit_length() - 1
        assert _spread(seeds) == [rounds] * count


@pytest.mark.parametrize(("count", "k"), [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)])
def test_as_good_as_an_exhaustive_search(count: int, k: int) -> None:
    """No tier-respecting placement keeps group-mates apart longer (compared as the sorted
    earliest meeting rounds, earliest first: the module's term 1 orders the same way)."""
    seeds = crosswise_seeds(_groups(count, k), k)
    best = None
    tiers = [list(permutations(range(count))) for _ in range(k - 1)]
    for choice in product(*tiers):
        placed = [f"{chr(65 + g)}1" for g in range(count)]
        for tier, perm in enumerate(choice, start=2):
            row = [""] * count
            for g, i in enumerate(perm):
                row[i] = f"{chr(65 + g)}{tier}"
            placed += row
        spread = _spread(placed)
        if best is None or spread > best:
            best = spread
    assert _spread(seeds) == best


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="groups can feed"):
        crosswise_seeds(_groups(MAX_GROUPS + 1, 2), 1)
    with pytest.raises(ValueError, match="fewer than"):
        crosswise_seeds([["A1", "A2"], ["B1"]], 2)
    with pytest.raises(ValueError, match="at least one"):
        crosswise_seeds(_groups(2, 2), 0)
    with pytest.raises(ValueError, match="one line"):
        meeting_round(3, 3)
