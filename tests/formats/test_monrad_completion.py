"""formats.monrad keeps the rounds after the one it pairs pairable (its docstring,
Completion), with the search of stages.swiss_completion.

The choice of a round is checked against every pairing of small fields: the most rounds
after it kept pairable, then the first in the Monrad's own order (the bye as low as it
goes, then the pairs from the top, each player with the nearest partner), which is the
top-down pairing itself whenever that one keeps as many. Whole Monrads of up to 8 players
and up to n − 1 rounds, the results drawn in several ways, are paired with no rematch and
no second bye in any round. The helpers are the Swiss's (tests/stages/
test_swiss_completion.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formats.monrad import monrad_order, monrad_pair
from stages.swiss import SwissPair, SwissPlayer
from tests.stages.test_swiss import canonical, every_pairing
from tests.stages.test_swiss_completion import (
    after,
    clean,
    every_round_clean,
    histories,
    rounds_pairable,
    tournament,
)

AHEAD = {"monrad.equal_ahead", "monrad.float_ahead", "swiss.bye_ahead"}


def monrad_pairs(field: list[SwissPlayer], seed: int, rounds_after: int) -> tuple[SwissPair, ...]:
    return monrad_pair(field, seed=seed, rounds_after=rounds_after).pairs


@settings(max_examples=300, deadline=None)
@given(
    st.integers(2, 8).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n - 1))),
    st.integers(0, 10**6),
    st.sampled_from(("random", "higher", "lower")),
)
def test_every_round_of_small_long_monrads_has_no_rematch_and_no_second_bye(
    shape: tuple[int, int], seed: int, winner: str
) -> None:
    every_round_clean(shape, seed, winner, pairer=monrad_pairs)


@pytest.mark.parametrize("n", range(2, 9))
def test_thirty_monrads_of_every_length_with_random_results_have_no_dead_end(n: int) -> None:
    """Every number of rounds up to n − 1, thirty draws each, the winners at random: the
    results under which the top-down pairing alone meets dead ends (12 of the 200 rounds
    of 40 Monrads of 6 players and 5 rounds, ``bench/pairing_bench.py --ahead``)."""
    for rounds in range(1, n):
        for seed in range(30):
            for field, pairs in tournament(n, rounds, seed, "random", pairer=monrad_pairs):
                assert clean(field, [(p.first, p.second) for p in pairs]), (n, rounds, seed)


@st.composite
def monrad_histories(draw: st.DrawFn) -> tuple[list[SwissPlayer], int, int]:
    """A field before a round of a Monrad of 6 or 7 players (where the top-down pairing
    meets dead ends most often) paired top-down without looking ahead, and the rounds
    after it (at most 3 for 7 players, for the oracle's time)."""
    n = draw(st.sampled_from((6, 6, 7)))
    seed = draw(st.integers(0, 10**6))
    winner = draw(st.sampled_from(("random", "higher", "lower")))
    number = draw(st.integers(1, n - 2))
    rounds = list(tournament(n, number, seed, winner, ahead=False, pairer=monrad_pairs))
    return rounds[-1][0], min(4 if n == 6 else 3, n - 1 - number), seed


@settings(max_examples=300, deadline=None)
@given(st.one_of(histories(), monrad_histories()), st.booleans())
def test_the_round_keeps_the_most_rounds_pairable_then_follows_the_monrad_order(
    case: tuple[list[SwissPlayer], int, int], by_standings: bool
) -> None:
    players, rounds_after, seed = case
    standing = None
    if by_standings:  # places in standings of the caller's, not by score alone
        places = list(range(1, len(players) + 1))
        random.Random(seed).shuffle(places)
        standing = {p.id: place for p, place in zip(players, places, strict=True)}
    result = monrad_pair(players, seed=seed, standing=standing, rounds_after=rounds_after)
    usual = monrad_pair(players, seed=seed, standing=standing)
    chosen = [(p.first, p.second) for p in result.pairs]
    options = [p for p in every_pairing([p.id for p in players]) if clean(players, p)]
    if not options:
        assert chosen == [(p.first, p.second) for p in usual.pairs]
        return

    def kept(pairing: Sequence[tuple[int, int | None]]) -> int:
        state = after(players, pairing)
        return max(k for k in range(rounds_after + 1) if rounds_pairable(state, k))

    ranked = monrad_order(players, seed=seed, standing=standing)
    pos = {p.id: i for i, p in enumerate(ranked)}
    n = len(ranked)

    def preference(pairing: Sequence[tuple[int, int | None]]) -> tuple[int, list[tuple[int, int]]]:
        """The bye as low as it goes, then the pairs from the top (positions, sorted)."""
        bye = next((a for a, b in pairing if b is None), None)
        pairs = [(pos[a], pos[b]) for a, b in pairing if b is not None]
        return (0 if bye is None else n - 1 - pos[bye], sorted((min(p), max(p)) for p in pairs))

    most = max(kept(p) for p in options)
    best = min((p for p in options if kept(p) == most), key=preference)
    assert canonical(chosen) == canonical(best)
    # The pairs the look-ahead changed say so; the others keep the top-down reason.
    before = {frozenset((p.first, p.second)): p.reason for p in usual.pairs}
    for pair in result.pairs:
        if frozenset((pair.first, pair.second)) in before:
            assert pair.reason == before[frozenset((pair.first, pair.second))]
        else:
            assert pair.reason.code in AHEAD
