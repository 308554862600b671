"""stages.roundrobin: FIDE's Berger tables, every pair once (or twice), byes, groups."""

from __future__ import annotations

from collections import Counter

import pytest

from stages.roundrobin import berger_table, round_robin, snake_groups

# FIDE Handbook C.05 (General Regulations for Competitions), Annex 1, "Berger Tables for
# Round-Robin Tournaments", as published (e.g. the copy at
# http://c.w.fox.tripod.com/chess/berger.html, "If there is an odd number of players, the
# highest number counts as a bye"). First-named player first.
FIDE_3_OR_4 = ["1-4 2-3", "4-3 1-2", "2-4 3-1"]
FIDE_5_OR_6 = ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]
FIDE_7_OR_8 = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
]
FIDE_9_OR_10_ROUND_2 = "10-6 7-5 8-4 9-3 1-2"


def written(n: int) -> list[str]:
    return [" ".join(f"{a}-{b}" for a, b in tables) for tables in berger_table(n)]


@pytest.mark.parametrize(
    ("n", "table"),
    [(3, FIDE_3_OR_4), (4, FIDE_3_OR_4), (5, FIDE_5_OR_6), (6, FIDE_5_OR_6), (8, FIDE_7_OR_8)],
)
def test_the_table_is_fides(n: int, table: list[str]) -> None:
    assert written(n) == table


def test_ten_players_round_two_is_fides() -> None:
    assert written(10)[1] == FIDE_9_OR_10_ROUND_2


@pytest.mark.parametrize("n", range(2, 129))
def test_every_pair_meets_exactly_once_and_each_player_at_most_once_a_round(n: int) -> None:
    rounds = round_robin(list(range(1, n + 1)))
    assert len(rounds) == (n if n % 2 else n - 1)
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for number, fixtures in enumerate(rounds, start=1):
        seen: list[int] = []
        for f in fixtures:
            assert f.round == number
            seen.append(f.first)
            if f.second is None:
                byes[f.first] += 1
                assert f.table == 0
            else:
                seen.append(f.second)
                met[frozenset((f.first, f.second))] += 1
        assert len(seen) == len(set(seen)) == n, "everyone plays or has the bye, once"
        tables = [f.table for f in fixtures if f.second is not None]
        assert tables == list(range(1, n // 2 + 1))
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    assert byes == (Counter(range(1, n + 1)) if n % 2 else Counter())


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 11, 16, 33, 64])
def test_a_double_round_robin_meets_twice_with_the_names_swapped(n: int) -> None:
    rounds = round_robin(list(range(1, n + 1)), double=True)
    single = n if n % 2 else n - 1
    assert len(rounds) == 2 * single
    ordered: Counter[tuple[int, int]] = Counter()
    for fixtures in rounds:
        players = [p for f in fixtures for p in (f.first, f.second) if p is not None]
        assert len(players) == len(set(players)) == n
        ordered.update((f.first, f.second) for f in fixtures if f.second is not None)
    assert set(ordered.values()) == {1}
    assert all((b, a) in ordered for a, b in ordered), "each pair once each way round"
    # The second cycle is the first with the names swapped.
    for first, second in zip(rounds[:single], rounds[single:], strict=True):
        assert {(f.second, f.first) for f in first if f.second is not None} == {
            (f.first, f.second) for f in second if f.second is not None
        }


def test_the_last_two_rounds_of_the_first_cycle_are_exchanged_in_a_double() -> None:
    rounds = round_robin(list(range(1, 7)), double=True)
    first_cycle = [" ".join(f"{f.first}-{f.second}" for f in fx) for fx in rounds[:5]]
    assert first_cycle == [*FIDE_5_OR_6[:3], FIDE_5_OR_6[4], FIDE_5_OR_6[3]]


@pytest.mark.parametrize("n", [n for n in range(2, 41) if n != 4])
def test_nobody_is_named_first_or_second_three_rounds_running_in_a_double(n: int) -> None:
    lines: dict[int, str] = {p: "" for p in range(1, n + 1)}
    for fixtures in round_robin(list(range(1, n + 1)), double=True):
        for f in fixtures:
            if f.second is not None:
                lines[f.first] += "F"
                lines[f.second] += "S"
    assert not [p for p, line in lines.items() if "FFF" in line or "SSS" in line]


def test_an_odd_field_gives_the_bye_to_whoever_meets_the_missing_number() -> None:
    rounds = round_robin(["A", "B", "C", "D", "E"])
    assert [(f.first, f.second) for f in rounds[0]] == [("B", "E"), ("C", "D"), ("A", None)]
    assert [f.first for r in rounds for f in r if f.second is None] == ["A", "D", "B", "E", "C"]


def test_snake_groups_deal_back_and_forth() -> None:
    groups = snake_groups(list(range(1, 11)), 3)
    assert groups == [[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]
    with pytest.raises(ValueError):
        snake_groups([1, 2, 3], 2)


def test_a_round_robin_needs_two_players() -> None:
    with pytest.raises(ValueError):
        berger_table(1)
