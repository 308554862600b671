"""The explanation of a match costs work linear in the games left, and says what it said
when it was found by enumerating game sequences.

No timings here: the cost is shown by counting every Python function call made while
explaining (a profile hook), which does not depend on the machine. The figures are in
``bench/explain_bench.py``.

``explain`` itself has no length bound (S1's bound, ``MAX_MATCH_LENGTH``, is enforced by
``match_state`` and at the edges), so states of longer matches are built here with
``dataclasses.replace`` to show how the cost grows.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable, Mapping
from functools import partial
from itertools import combinations_with_replacement
from types import FrameType
from typing import Any

import pytest

from engine.types import Outcome, OutcomeKind, Side
from scoring import explain as explain_module
from scoring.explain import _EXAMPLE_WINS, _as, explain
from scoring.match import MAX_MATCH_LENGTH, SIDES, MatchState, ahead, match_state
from scoring.scales import Scale, score_game

W, B = Side.WHITE, Side.BLACK


def calls_made(fn: Callable[[], object]) -> int:
    """How many Python function calls ``fn()`` makes (itself included)."""
    count = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        if event == "call":
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(previous)
    return count


def open_state(length: int, scale: Scale, *texts: str) -> MatchState:
    """The state after ``texts`` in a match of ``length`` (which may exceed the bound:
    the state is computed over ``MAX_MATCH_LENGTH`` games and then lengthened)."""
    outcomes = [Outcome.from_text(t) for t in texts]
    state = match_state(length=MAX_MATCH_LENGTH, scale=scale, outcomes=outcomes)
    state = dataclasses.replace(state, length=length, remaining=length - state.completed)
    assert state.winner is None
    return state


# Openings that make the player behind (or both) need many of the remaining games: the
# old enumeration of game sequences was slowest on exactly these.
OPENINGS: tuple[tuple[str, ...], ...] = ((), ("W hemspel",), ("W jan",), ("W sprängjan",))


def linear_bound(remaining: int) -> int:
    """Calls allowed for one explanation: about 40 per game left are made today; the
    enumeration made about 2,500 per game left at 24 left and 20,000 at 50 left."""
    return 80 * (remaining + 1) + 500


@pytest.mark.parametrize("length", [MAX_MATCH_LENGTH, 101, 201])
@pytest.mark.parametrize("scale", list(Scale))
def test_explanation_work_is_linear_in_games_left(length: int, scale: Scale) -> None:
    for opening in OPENINGS:
        state = open_state(length, scale, *opening)
        calls = calls_made(partial(explain, state))
        assert calls <= linear_bound(state.remaining), (opening, calls)


def test_the_bound_catches_a_super_linear_search() -> None:
    """The counter is not hollow: the enumeration that ``_fewest_wins`` replaced, run on
    the same opening at the bound, makes far more calls than the bound allows."""
    state = open_state(MAX_MATCH_LENGTH, Scale.WW)
    calls = calls_made(lambda: [brute_fewest_wins(state, side) for side in SIDES])
    assert calls > 10 * linear_bound(state.remaining)


# --- the same answers as the enumeration ------------------------------------------------


def _apply_all(
    scale: Scale, points: Mapping[Side, int], tiebreak: Mapping[Side, int], wins: list[Outcome]
) -> tuple[dict[Side, int], dict[Side, int]]:
    new_points, new_tiebreak = dict(points), dict(tiebreak)
    for outcome in wins:
        score = score_game(scale, outcome)
        for side in SIDES:
            new_points[side] += score.points_for(side)
            new_tiebreak[side] += score.tiebreak_for(side)
    return new_points, new_tiebreak


def brute_fewest_wins(state: MatchState, side: Side) -> list[Outcome] | None:
    """The old ``_example`` search, verbatim in substance: every multiset of k wins, k
    from 0, in ``combinations_with_replacement`` order; the first that wins."""
    r = state.remaining
    hemspel = Outcome(side.other, OutcomeKind.HEMSPEL)
    for k in range(r + 1):
        for combo in combinations_with_replacement(_EXAMPLE_WINS, k):
            wins = [_as(side, o) for o in reversed(combo)]
            final = _apply_all(
                state.scale, state.points, state.tiebreak, wins + [hemspel] * (r - k)
            )
            if ahead(state.scale, *final) is side:
                return wins
    return None


def synthetic(scale: Scale, remaining: int, dp: int, dt: int) -> MatchState:
    """A state with ``remaining`` games left and White ahead by ``dp`` points and ``dt``
    tiebreak (only the differences and the games left matter to the example)."""
    start = MatchState.start(length=MAX_MATCH_LENGTH, scale=scale)
    points = {W: max(dp, 0), B: max(-dp, 0)}
    tiebreak = {W: max(dt, 0), B: max(-dt, 0)}
    return dataclasses.replace(
        start,
        points=points,
        tiebreak=tiebreak,
        remaining=remaining,
        completed=MAX_MATCH_LENGTH - remaining,
    )


@pytest.mark.parametrize("scale", list(Scale))
def test_same_examples_as_the_enumeration_on_every_small_state(scale: Scale) -> None:
    """Every (games left ≤ 7, point difference, tiebreak difference) in the range where
    the example can go either way, both players: the same wins, in the same order."""
    most = score_game(scale, Outcome(W, OutcomeKind.SPRANGJAN)).points
    checked = 0
    for remaining in range(1, 8):
        span = most * remaining + 2
        for dp in range(-span, span + 1):
            for dt in range(-2, 3):
                state = synthetic(scale, remaining, dp, dt)
                for side in SIDES:
                    assert explain_module._fewest_wins(state, side) == brute_fewest_wins(
                        state, side
                    ), (
                        remaining,
                        dp,
                        dt,
                        side,
                    )
                    checked += 1
    assert checked > 1000


def test_same_explanations_as_the_enumeration_on_random_matches() -> None:
    """Random matches of every odd length up to the bound, every state along the way:
    the whole explanation is unchanged when the example comes from the enumeration."""
    rng = random.Random(11)
    kinds = [
        Outcome(side, kind, munk=munk)
        for side in SIDES
        for kind, munk in (
            (OutcomeKind.HEMSPEL, False),
            (OutcomeKind.HEMSPEL, True),
            (OutcomeKind.JAN, False),
            (OutcomeKind.SPRANGJAN, False),
            (OutcomeKind.UPPGIVET, False),
        )
    ]
    checked = 0
    for length in range(1, MAX_MATCH_LENGTH + 1, 2):
        for scale in Scale:
            state = match_state(length=length, scale=scale)
            while state.winner is None:
                outcome = rng.choice(kinds)
                if outcome.kind is OutcomeKind.UPPGIVET and state.resignations[
                    outcome.winner.other
                ] >= min(2, length):
                    continue
                state = state.after(outcome)
                fast = explain(state)
                with pytest.MonkeyPatch.context() as mp:
                    mp.setattr(explain_module, "_fewest_wins", brute_fewest_wins)
                    assert explain(state) == fast
                checked += 1
    assert checked > 100
