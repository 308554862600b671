"""Groups into a knockout, placed crosswise (stages.crossover)."""

from __future__ import annotations

from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stages.crossover import MAX_FEEDING_GROUPS, crosswise_seeds, meeting_round, rank_across_groups
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
    # tier by tier: the winners first, then the runners-up, …
    for i, name in enumerate(seeds):
        assert int(name[1:]) == i // count + 1
    # without a ranking the group order is the ranking: the winners in group order when
    # there are no byes (the classic crossing), else the byes to the first groups
    held = _byes(count, k)
    if held == 0:
        assert seeds[:count] == [f"{chr(65 + g)}1" for g in range(count)]
    assert sorted(seeds[:held]) == [f"{chr(65 + g)}1" for g in range(held)]
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
        crosswise_seeds(_groups(MAX_FEEDING_GROUPS + 1, 2), 1)
    with pytest.raises(ValueError, match="fewer than"):
        crosswise_seeds([["A1", "A2"], ["B1"]], 2)
    with pytest.raises(ValueError, match="at least one"):
        crosswise_seeds(_groups(2, 2), 0)
    with pytest.raises(ValueError, match="one line"):
        meeting_round(3, 3)


def test_byes_go_to_the_best_ranked_group_winners() -> None:
    """3 group winners on 4 lines: the one bye goes to the best by results, seed 1."""
    seeds = crosswise_seeds(_groups(3, 1), 1, ranking=[[1, 2, 0]])
    assert seeds == ["B1", "C1", "A1"]
    assert ("B1", None) in _first_round(seeds)


def test_a_later_tier_with_byes_gives_them_to_its_best_ranked() -> None:
    """5 groups × 2 = 10 players on 16 lines: 6 byes, the 5 winners' and one runner-up's.
    That one goes to the best-ranked runner-up whose place keeps the group-mates as far
    apart as any other (term 1 first): D2 or E2, whichever did better."""
    for best, name in ((3, "D2"), (4, "E2")):
        ranking = [[0, 1, 2, 3, 4], [best, *(g for g in range(5) if g != best)]]
        seeds = crosswise_seeds(_groups(5, 2), 2, ranking=ranking)
        byes = {upper for upper, lower in _first_round(seeds) if lower is None}
        assert byes == {"A1", "B1", "C1", "D1", "E1", name}
        assert _spread(seeds) == _spread(crosswise_seeds(_groups(5, 2), 2))


def test_rank_across_groups_compares_per_match_and_skips_the_direct_encounter() -> None:
    from decimal import Decimal as D

    chain = ("match_points", "direct_encounter", "game_points")
    results: list[tuple[int, list[D | None]]] = [
        (3, [D(3), D(1), D(9)]),  # 3 of 3, 3 game points a match
        (2, [D(2), None, D(8)]),  # 2 of 2, 4 game points a match: best
        (2, [D(2), None, D(6)]),  # level with group A per match: group order
    ]
    assert rank_across_groups(chain, results) == [1, 0, 2]


def test_a_ranking_must_order_every_group() -> None:
    with pytest.raises(ValueError):
        crosswise_seeds(_groups(3, 1), 1, ranking=[[0, 1]])


# The rules as a property: for every ranking of the group winners, the
# byes go to the best-ranked winners, and the ranking costs neither rule: group-mates as far
# apart and partner groups crossed as well as any order of the winners with the same byes.


def _partner(group: int, count: int) -> int | None:
    return group ^ 1 if group ^ 1 < count else None


def _rules(seeds: list[str], count: int) -> tuple[int, int]:
    """The module's terms 1 and 2 over the whole bracket: ``4 ** (rounds − r)`` for every
    two group-mates whose earliest meeting is round r, and 1 for every first-round match
    between two tiers whose groups are not partners."""
    size = bracket_size(len(seeds))
    rounds = size.bit_length() - 1
    line = {seed: i for i, seed in enumerate(seed_order(size))}
    spread = sum(
        4 ** (rounds - meeting_round(line[a + 1], line[b + 1]))
        for a in range(len(seeds))
        for b in range(a + 1, len(seeds))
        if seeds[a][0] == seeds[b][0]
    )
    crossing = 0
    for upper, lower in _first_round(seeds):
        if upper is None or lower is None or upper[1:] == lower[1:]:
            continue
        crossing += _partner(ord(lower[0]) - 65, count) != ord(upper[0]) - 65
    return spread, crossing


def _byes(count: int, k: int) -> int:
    """How many group winners have a bye."""
    return min(bracket_size(count * k) - count * k, count)


def _check(count: int, k: int, winners: tuple[int, ...]) -> tuple[tuple[int, int], list[str]]:
    """Seeds for a ranking of the winners (later tiers in group order), checked for the
    rules that need no comparison; returns their rules' cost and the seeds."""
    ranking = [list(winners), *[list(range(count))] * (k - 1)]
    seeds = crosswise_seeds(_groups(count, k), k, ranking=ranking)
    byes = _byes(count, k)
    # (c) the byes go to the best-ranked winners
    assert {name for name, other in _first_round(seeds) if other is None and name} >= {
        f"{chr(65 + g)}1" for g in winners[:byes]
    }
    assert {seeds[s][0] for s in range(byes)} == {chr(65 + g) for g in winners[:byes]}
    # tiers stay tiers; no group-mates in the first round
    for i, name in enumerate(seeds):
        assert int(name[1:]) == i // count + 1
    for upper, lower in _first_round(seeds):
        assert not (upper and lower and upper[0] == lower[0]), (upper, lower)
    if byes == 0 and count >= 2 and k in (2, 4):
        # (a), (b) without byes: every first-round match crosses partner groups, and
        # group-mates meet in the final (2 each) or from the semifinals (4 each) only
        for upper, lower in _first_round(seeds):
            assert upper and lower
            assert _partner(ord(upper[0]) - 65, count) == ord(lower[0]) - 65, seeds
        rounds = bracket_size(count * k).bit_length() - 1
        line = {seed: i for i, seed in enumerate(seed_order(bracket_size(count * k)))}
        for a in range(len(seeds)):
            for b in range(a + 1, len(seeds)):
                if seeds[a][0] == seeds[b][0]:
                    assert meeting_round(line[a + 1], line[b + 1]) >= rounds - (k // 4), seeds
        # (d) without byes nothing stops the best winner from being seed 1
        assert seeds[0] == f"{chr(65 + winners[0])}1"
    return _rules(seeds, count), seeds


def _compared(count: int, k: int, cost: tuple[int, int]) -> tuple[int, ...]:
    """What the module promises of the rules' cost: both terms; only term 1 when a later
    tier has byes as well (their results come before the crossing, module doc)."""
    later_byes = bracket_size(count * k) - count * k > count
    return cost[:1] if later_byes else cost


def test_sixteen_players_in_four_groups_cross_partners_whatever_the_ranking() -> None:
    """The issue's case: 4 groups, top 2, 8 lines. Seeded B > C > D > A by results, the
    partners' winners B1 and A1 shared a half (seeds 1 and 4), and the first round paired
    B1–D2, A1–C2 …; the winners are still ordered by results where the crossing holds."""
    seeds = crosswise_seeds(_groups(4, 4), 2, ranking=[[1, 2, 3, 0], [0, 1, 2, 3]])
    assert set(_first_round(seeds)) == {("A1", "B2"), ("B1", "A2"), ("C1", "D2"), ("D1", "C2")}
    assert seeds[0] == "B1"
    # B > D > A > C costs nothing: it is followed seed by seed
    seeds = crosswise_seeds(_groups(4, 4), 2, ranking=[[1, 3, 0, 2], [0, 1, 2, 3]])
    assert seeds[:4] == ["B1", "D1", "A1", "C1"]


@pytest.mark.parametrize(("count", "k"), [(g, k) for g in range(2, 6) for k in range(1, 5)])
def test_every_ranking_of_the_winners_costs_neither_rule(count: int, k: int) -> None:
    """Every ranking of up to 5 winners: the rules cost the same for all rankings that
    give the byes to the same winners; without byes, as much as the classic crossing."""
    by_byes: dict[frozenset[int], set[tuple[int, ...]]] = {}
    for winners in permutations(range(count)):
        cost, _ = _check(count, k, winners)
        by_byes.setdefault(frozenset(winners[: _byes(count, k)]), set()).add(
            _compared(count, k, cost)
        )
    for costs in by_byes.values():
        assert len(costs) == 1, costs
    if _byes(count, k) == 0:
        assert by_byes[frozenset()] == {_rules(crosswise_seeds(_groups(count, k), k), count)}


@pytest.mark.parametrize(("count", "k"), [(g, k) for g in range(6, 9) for k in range(1, 5)])
@settings(max_examples=15, deadline=None, derandomize=True)
@given(data=st.data())
def test_any_ranking_of_six_to_eight_winners_costs_neither_rule(
    count: int, k: int, data: st.DataObject
) -> None:
    """6 to 8 winners, rankings drawn: the same rules' cost as the order that gives the
    byes to the same winners and is otherwise by group letter (the classic crossing when
    there are no byes)."""
    winners = tuple(data.draw(st.permutations(range(count))))
    cost, _ = _check(count, k, winners)
    held = winners[: _byes(count, k)]
    plain = (*sorted(held), *sorted(set(range(count)) - set(held)))
    assert _compared(count, k, cost) == _compared(count, k, _check(count, k, plain)[0])
