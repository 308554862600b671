"""formats.monrad: the Monrad pairing against an oracle that walks every pairing.

The oracle restates the rule from scratch (it shares only the ranking order,
``monrad_order``): among the pairings without a rematch, the bye goes to the lowest-ranked
player without one (to the next one up when that forces a rematch, to a player who had a
bye only when every other forces one), and the pairs are the top-down ones: the first
player with the nearest partner the rest allows, then the next free player, and so on.
When every pairing has a rematch, the fewest rematches, fewest repeated byes, the lowest
bye and the closest pairs. The same invariants as the Swiss's (``tests/stages/
test_swiss.py``): no avoidable rematch, the bye's rule, everyone once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formats.monrad import monrad_order, monrad_pair
from stages.swiss import SwissPlayer
from tests.stages.test_swiss import Pairing, canonical, every_pairing, fields


def _met(by_id: dict[int, SwissPlayer], a: int, b: int) -> bool:
    return b in by_id[a].opponents or a in by_id[b].opponents


def rematches(players: Sequence[SwissPlayer], pairing: Pairing) -> int:
    by_id = {p.id: p for p in players}
    return sum(_met(by_id, a, b) for a, b in pairing if b is not None)


def oracle(players: Sequence[SwissPlayer], seed: int, standing: dict[int, int] | None) -> Pairing:
    """The pairing the rule gives, chosen among every pairing of the field."""
    ranked = [p.id for p in monrad_order(players, seed=seed, standing=standing)]
    pos = {pid: i for i, pid in enumerate(ranked)}
    by_id = {p.id: p for p in players}
    n = len(ranked)

    def bye_of(pairing: Pairing) -> int | None:
        return next((a for a, b in pairing if b is None), None)

    def bye_key(pairing: Pairing) -> tuple[int, int]:
        bye = bye_of(pairing)
        if bye is None:
            return (0, 0)
        return (int(by_id[bye].had_bye), n - 1 - pos[bye])  # without a bye first, lowest first

    def top_down(pairing: Pairing) -> tuple[tuple[int, int], ...]:
        pairs = sorted(tuple(sorted((pos[a], pos[b]))) for a, b in pairing if b is not None)
        return tuple((i, j) for i, j in pairs)

    every = list(every_pairing(ranked))
    clean = [p for p in every if rematches(players, p) == 0]
    if clean:
        return min(clean, key=lambda p: (bye_key(p), top_down(p)))
    best = min(fallback_cost(players, p, ranked) for p in every)
    return next(p for p in every if fallback_cost(players, p, ranked) == best)


def fallback_cost(
    players: Sequence[SwissPlayer], pairing: Pairing, ranked: Sequence[int]
) -> tuple[int, int, int, int]:
    """When a rematch cannot be avoided: rematches, repeated byes, the bye's rank from the
    bottom, the sum of the squared distances between partners (pairings equal on all four
    are equally good; the matching picks one)."""
    pos = {pid: i for i, pid in enumerate(ranked)}
    by_id = {p.id: p for p in players}
    bye = next((a for a, b in pairing if b is None), None)
    return (
        rematches(players, pairing),
        0 if bye is None else int(by_id[bye].had_bye),
        0 if bye is None else len(ranked) - 1 - pos[bye],
        sum((pos[a] - pos[b]) ** 2 for a, b in pairing if b is not None),
    )


def _standing(players: Sequence[SwissPlayer], rng: random.Random) -> dict[int, int] | None:
    if rng.random() < 0.3:
        return None
    return {p.id: rng.randint(1, 4) for p in players}


@settings(max_examples=300)
@given(fields(), st.integers(0, 2**32))
def test_the_pairing_is_the_rules_pairing_among_every_pairing(
    field: tuple[list[SwissPlayer], int], extra: int
) -> None:
    players, seed = field
    standing = _standing(players, random.Random(extra))
    result = monrad_pair(players, seed=seed, standing=standing)
    chosen = [(p.first, p.second) for p in result.pairs]
    assert sorted(pid for pair in chosen for pid in pair if pid is not None) == sorted(
        p.id for p in players
    )
    expected = oracle(players, seed, standing)
    if rematches(players, expected) == 0:
        assert canonical(chosen) == canonical(expected)
    else:
        ranked = [p.id for p in monrad_order(players, seed=seed, standing=standing)]
        assert fallback_cost(players, chosen, ranked) == fallback_cost(players, expected, ranked)
    assert result.cost.rematches == rematches(players, expected)


@settings(max_examples=200)
@given(fields())
def test_a_search_that_gives_up_still_avoids_every_avoidable_rematch(
    field: tuple[list[SwissPlayer], int],
) -> None:
    # With no steps the matching decides: fewest rematches and the bye's rule still hold.
    players, seed = field
    result = monrad_pair(players, seed=seed, search_steps=0)
    chosen = [(p.first, p.second) for p in result.pairs]
    ranked = [p.id for p in monrad_order(players, seed=seed)]
    best = min(fallback_cost(players, p, ranked) for p in every_pairing(ranked))
    assert fallback_cost(players, chosen, ranked) == best
    assert len([p for p in result.pairs if p.second is None]) == len(players) % 2


@pytest.mark.parametrize("n", [2, 7, 8, 33])
def test_round_one_pairs_by_seed_one_two_three_four(n: int) -> None:
    # Pairing numbers 1…n given in a shuffled order: the pairs follow the numbers.
    players = [SwissPlayer(id=100 + k, score=Decimal(0), rank=k) for k in range(1, n + 1)]
    random.Random(n).shuffle(players)
    result = monrad_pair(players, seed=3)
    got = [(p.first, p.second) for p in result.pairs]
    want: list[tuple[int, int | None]] = [(100 + k, 101 + k) for k in range(1, n, 2)]
    if n % 2:
        want.append((100 + n, None))  # the bye to the lowest-ranked
    assert got == want
    assert [p.reason.code for p in result.pairs][-1] == ("swiss.bye" if n % 2 else "monrad.equal")
    # Without standings, each pair's reason names its ranks in the order 1…n.
    first = result.pairs[0].reason
    assert (first.code, first.params["a"], first.params["b"]) == ("monrad.equal", 1, 2)


def test_each_meets_the_next_not_met_and_the_bottom_is_re_paired() -> None:
    # Ranked 1…6 (ids = ranks). 1 met 2: 1 takes 3. 2 then takes 4, 5–6 remain; but 5 and
    # 6 have met, so the search backtracks: 2 takes 5 and 4 meets 6.
    met = {1: {2}, 2: {1}, 5: {6}, 6: {5}}
    players = [
        SwissPlayer(id=i, score=Decimal(0), rank=i, opponents=frozenset(met.get(i, set())))
        for i in range(1, 7)
    ]
    result = monrad_pair(players, seed=1)
    assert [(p.first, p.second) for p in result.pairs] == [(1, 3), (2, 5), (4, 6)]
    assert result.cost.rematches == 0


def test_the_bye_moves_up_when_the_lowest_would_force_a_rematch() -> None:
    # 1, 2, 3: 3 has no bye yet but 1 and 2 have met, so 3 cannot sit out; 2 has the
    # bye again? No: 1 has had one, 2 has not: the bye goes to 2, 1 meets 3.
    players = [
        SwissPlayer(id=1, score=Decimal(1), rank=1, opponents=frozenset({2}), had_bye=True),
        SwissPlayer(id=2, score=Decimal(1), rank=2, opponents=frozenset({1})),
        SwissPlayer(id=3, score=Decimal(0), rank=3),
    ]
    result = monrad_pair(players, seed=1, names={3: "Cecilia"})
    assert [(p.first, p.second) for p in result.pairs] == [(1, 3), (2, None)]
    bye = result.pairs[-1].reason
    assert bye.code == "swiss.bye_moved" and bye.params["lowest"] == "Cecilia"


def test_the_standing_orders_players_on_equal_scores() -> None:
    # Equal scores: the better place in the standings (its tiebreaks) ranks higher than
    # the better pairing number.
    players = [SwissPlayer(id=i, score=Decimal(1), rank=i) for i in range(1, 5)]
    ranked = monrad_order(players, seed=1, standing={1: 3, 2: 1, 3: 2, 4: 3})
    assert [p.id for p in ranked] == [2, 3, 1, 4]
    result = monrad_pair(players, seed=1, standing={1: 3, 2: 1, 3: 2, 4: 3})
    assert [(p.first, p.second) for p in result.pairs] == [(2, 3), (1, 4)]


def test_a_thousand_players_after_ten_rounds_have_no_rematch() -> None:
    rng = random.Random(5)
    n = 1000
    score = dict.fromkeys(range(1, n + 1), Decimal(0))
    met: dict[int, set[int]] = {p: set() for p in score}
    bye = dict.fromkeys(score, False)
    for _ in range(10):
        field = [SwissPlayer(p, score[p], p, frozenset(met[p]), bye[p]) for p in score]
        result = monrad_pair(field, seed=9)
        assert result.cost.rematches == 0 and result.cost.repeat_bye == 0
        for pair in result.pairs:
            if pair.second is None:
                bye[pair.first] = True
                score[pair.first] += 1
                continue
            met[pair.first].add(pair.second)
            met[pair.second].add(pair.first)
            score[pair.first if rng.random() < 0.5 else pair.second] += 1


def test_the_standings_order_is_followed_and_each_reason_names_its_places() -> None:
    # The caller's standings (distinct places, as the page shows them) are the order: the
    # pairing number does not reorder players the standings rank, and each reason names
    # the two places it paired. Places 3 and 4 met: 3 takes 5, and 4 meets 6.
    standing = {10: 1, 11: 3, 12: 2, 13: 5, 14: 4, 15: 6}
    met = {11: {14}, 14: {11}}
    players = [
        SwissPlayer(id=pid, score=Decimal(1), rank=pid - 9, opponents=frozenset(met.get(pid, ())))
        for pid in standing
    ]
    ranked = [p.id for p in monrad_order(players, seed=4, standing=standing)]
    assert ranked == sorted(standing, key=standing.__getitem__)
    result = monrad_pair(players, seed=4, standing=standing)
    got = [(p.first, p.second, p.reason.params["a"], p.reason.params["b"]) for p in result.pairs]
    assert got == [(10, 12, 1, 2), (11, 13, 3, 5), (14, 15, 4, 6)]
    assert all(p.reason.code == "monrad.equal" for p in result.pairs)
    assert result.pairs[0].reason.text() == "places 1 and 2 in the standings: equal scores (1)"


def test_a_player_missing_from_the_standings_is_refused() -> None:
    players = [SwissPlayer(id=i, score=Decimal(0), rank=i) for i in (1, 2)]
    with pytest.raises(ValueError, match="no place in the standings"):
        monrad_pair(players, seed=1, standing={1: 1})
