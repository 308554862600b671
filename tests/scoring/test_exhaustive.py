"""Exhaustive proofs of scoring.md S2 and S4 for n = 1, 3, 5, 7 (not samples).

Every sequence of game outcomes is covered: all 26 distinct ``Outcome`` values (13 per
winner: hemspel, hemspel munk, vackert spel with each of the 4 patterns with and without
munk, jan, sprängjan, uppgivet), resignations up to the ``capped`` limit of n per player.

To keep this fast the sequences are not walked one by one:

- Outcomes that score identically under every scale (checked here with ``score_game``) form
  one branch with a multiplicity: hemspel and the 4 vackert spel (×5), the same with munk (×5),
  jan, sprängjan and uppgivet (×1 each). The counts below multiply the multiplicities out.
- Positions are merged when they agree on completed games, resignations of each player and
  the White − Black differences of points and tiebreak: S3 and S4 only compare the players.
  ``test_decision_depends_only_on_differences`` checks that assumption for n ≤ 5 with
  positions kept apart by their absolute scores.

The oracle is independent of ``scoring.match``: it restates S3 (more points, then the
better tiebreak) and enumerates continuations instead of using S4's "all jans" shortcut.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from engine.types import Outcome, OutcomeKind, Pattern, Side
from scoring.match import MatchState, ahead
from scoring.scales import Scale, score_game

W, B = Side.WHITE, Side.BLACK
LENGTHS = (1, 3, 5, 7)


def all_outcomes() -> list[Outcome]:
    outcomes = []
    for side in (W, B):
        outcomes += [
            Outcome(side, OutcomeKind.HEMSPEL),
            Outcome(side, OutcomeKind.HEMSPEL, munk=True),
            Outcome(side, OutcomeKind.JAN),
            Outcome(side, OutcomeKind.SPRANGJAN),
            Outcome(side, OutcomeKind.UPPGIVET),
        ]
        for pattern in Pattern:
            outcomes.append(Outcome(side, OutcomeKind.VACKERT_SPEL, pattern))
            outcomes.append(Outcome(side, OutcomeKind.VACKERT_SPEL, pattern, munk=True))
    return outcomes


@dataclass(frozen=True)
class Branch:
    outcome: Outcome  # representative
    multiplicity: int


def branches() -> list[Branch]:
    """Group the 26 outcomes by their score under every scale (and resigned or not)."""
    groups: dict[object, list[Outcome]] = defaultdict(list)
    for outcome in all_outcomes():
        key = (
            outcome.kind is OutcomeKind.UPPGIVET,
            tuple(score_game(scale, outcome) for scale in Scale),
        )
        groups[key].append(outcome)
    return [Branch(members[0], len(members)) for members in groups.values()]


def test_branches_cover_all_outcomes() -> None:
    grouped = branches()
    assert sum(b.multiplicity for b in grouped) == len(all_outcomes()) == 26
    # hemspel ≡ vackert spel, with and without munk, so 5 branches per winner
    assert sorted(b.multiplicity for b in grouped) == [1] * 6 + [5] * 4


def diff(scale: Scale, outcome: Outcome) -> tuple[int, int]:
    """(points, tiebreak) of one game as White − Black."""
    score = score_game(scale, outcome)
    sign = 1 if score.winner is W else -1
    return sign * score.points, sign * (score.tiebreak_winner - score.tiebreak_loser)


def s3_winner(scale: Scale, points: int, tiebreak: int) -> Side | None:
    """S3 restated on White − Black differences (None: level on everything)."""
    if points:
        return W if points > 0 else B
    if scale is not Scale.NY2 and tiebreak:
        return W if tiebreak > 0 else B
    return None


# -- (a) S2: no finished match is level --------------------------------------------------------


def full_matches(n: int) -> Iterator[tuple[int, int, int, int, int]]:
    """Every sequence of games until n are completed, ignoring early decision.

    Yields (count, points ww=ny1, tiebreak ww, tiebreak ny1, points ny2) per distinct end.
    """
    # layer: (completed, resigned W, resigned B, dp, dt_ww, dt_ny1, dp_ny2) -> count
    start: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0)
    layer: Counter[tuple[int, ...]] = Counter({start: 1})
    grouped = branches()
    while layer:
        nxt: Counter[tuple[int, ...]] = Counter()
        for (c, rw, rb, dp, dtw, dt1, dp2), count in layer.items():
            for branch in grouped:
                o = branch.outcome
                resigned = o.kind is OutcomeKind.UPPGIVET
                rw2 = rw + (resigned and o.winner is B)
                rb2 = rb + (resigned and o.winner is W)
                if rw2 > n or rb2 > n:  # S1 capped
                    continue
                pw, tw = diff(Scale.WW, o)
                p1, t1 = diff(Scale.NY1, o)
                p2, _ = diff(Scale.NY2, o)
                assert pw == p1
                key = (c + (not resigned), rw2, rb2, dp + pw, dtw + tw, dt1 + t1, dp2 + p2)
                nxt[key] += count * branch.multiplicity
        layer = Counter()
        for end, count in nxt.items():
            if end[0] == n:
                yield count, end[3], end[4], end[5], end[6]
            else:
                layer[end] += count


# Full matches covered per n (every order of games, 26 outcomes each, up to n resignations
# per player, until n games are completed), as printed by the test.
FULL_MATCHES = {1: 120, 3: 17_985_024, 5: 4_602_436_485_120, 7: 1_390_295_638_018_621_440}


@pytest.mark.parametrize("n", LENGTHS)
def test_s2_no_finished_match_is_level(n: int) -> None:
    """S2 (a): after n completed games, never level on points and tiebreak under ww/ny1,
    never level on points under ny2; and (c) ww and ny1 pick the same winner."""
    sequences = 0
    for count, dp, dt_ww, dt_ny1, dp_ny2 in full_matches(n):
        sequences += count
        ww = s3_winner(Scale.WW, dp, dt_ww)
        ny1 = s3_winner(Scale.NY1, dp, dt_ny1)
        assert ww is not None, (n, dp, dt_ww)
        assert ny1 is not None, (n, dp, dt_ny1)
        assert dp_ny2 != 0, (n, dp_ny2)
        assert ww is ny1  # (c)
        # The library's S3 comparison agrees.
        assert ahead(Scale.WW, {W: dp, B: 0}, {W: dt_ww, B: 0}) is ww
        assert ahead(Scale.NY2, {W: dp_ny2, B: 0}, {W: 0, B: 0}) is (W if dp_ny2 > 0 else B)
    # Every sequence was covered (figures in FULL_MATCHES); the count is derived independently.
    print(f"n={n}: {sequences} full matches")
    assert sequences == count_full_matches(n) == FULL_MATCHES[n]


def count_full_matches(n: int) -> int:
    """Independent count of the sequences ``full_matches`` must cover.

    12 completed outcomes per winner (24), 1 resignation outcome per winner; the last game
    is completed; a resigns by White, b by Black, each ≤ n, interleaved anywhere before it.
    """
    from math import comb

    total = 0
    for a in range(n + 1):
        for b in range(n + 1):
            slots = n - 1 + a + b  # games before the last one
            total += comb(slots, a) * comb(slots - a, b) * 24**n
    return total


# -- (b) S4: early decision is sound and complete; (c) ww and ny1 agree ------------------------


def continuation_diffs(scale: Scale, remaining: int) -> set[tuple[int, int]]:
    """All White − Black (points, tiebreak) changes of ``remaining`` completed games won
    any way but sprängjan, by either player, in any order."""
    singles = {
        diff(scale, b.outcome)
        for b in branches()
        if b.outcome.kind not in (OutcomeKind.SPRANGJAN, OutcomeKind.UPPGIVET)
    }
    reach = {(0, 0)}
    for _ in range(remaining):
        reach = {(p + dp, t + dt) for p, t in reach for dp, dt in singles}
    return reach


def can_win(
    scale: Scale,
    state: MatchState,
    side: Side,
    cache: dict[object, object],
    *,
    resigning: bool,
) -> bool:
    """Oracle: some continuation without sprängjan lets ``side`` win (S3). With
    ``resigning`` the continuation may also contain resignations by ``side`` (within S1's
    cap); S4 ignores the leader's possible resignations."""
    dp0 = state.points[W] - state.points[B]
    dt0 = state.tiebreak[W] - state.tiebreak[B]
    max_resigns = state.length - state.resignations[side] if resigning else 0
    answer_key = (scale, state.remaining, dp0, dt0, side, max_resigns)
    if answer_key in cache:
        return bool(cache[answer_key])
    reach_key = (scale, state.remaining)
    if reach_key not in cache:
        cache[reach_key] = continuation_diffs(scale, state.remaining)
    reach = cache[reach_key]
    assert isinstance(reach, set)
    rp, rt = diff(scale, Outcome(side.other, OutcomeKind.UPPGIVET))
    answer = any(
        s3_winner(scale, dp0 + dp + j * rp, dt0 + dt + j * rt) is side
        for dp, dt in reach
        for j in range(max_resigns + 1)
    )
    cache[answer_key] = answer
    return answer


def check_decision(state: MatchState, cache: dict[object, object]) -> None:
    scale = state.scale
    if state.winner is None:
        # complete: both players (so the one behind) can still win with completed games
        # alone, no sprängjan and no resignation
        assert state.remaining > 0
        assert can_win(scale, state, W, cache, resigning=False), state
        assert can_win(scale, state, B, cache, resigning=False), state
        assert state.next_starter is state.outcomes[-1].winner.other  # S5
    elif state.decided_early:
        # sound: the player behind cannot win without sprängjan, not even by resigning
        # games of their own (talisman's remark on extra games)
        assert state.remaining > 0
        assert not can_win(scale, state, state.winner.other, cache, resigning=True), state
        assert state.decided_after_game == len(state.outcomes)
    else:  # all n completed games played: S3
        assert state.remaining == 0 and state.completed == state.length
        dp = state.points[W] - state.points[B]
        assert state.winner is s3_winner(scale, dp, state.tiebreak[W] - state.tiebreak[B])


def diff_key(state: MatchState) -> tuple[int, ...]:
    return (
        state.completed,
        state.resignations[W],
        state.resignations[B],
        state.points[W] - state.points[B],
        state.tiebreak[W] - state.tiebreak[B],
    )


@dataclass
class Walk:
    positions: int = 0  # distinct merged positions checked
    prefixes: int = 0  # outcome sequences checked (every prefix of every match)
    matches: int = 0  # complete matches (until decided, early or after n)


def walk(n: int, scales: tuple[Scale, ...]) -> Walk:
    """Play every match under the given scales side by side (same outcomes), layer by
    layer, checking every reached position; for two scales also (c) that they agree."""
    cache: dict[object, object] = {}
    grouped = branches()
    starts = tuple(MatchState.start(length=n, scale=s) for s in scales)
    layer: dict[tuple[object, ...], tuple[tuple[MatchState, ...], int]] = {(): (starts, 1)}
    result = Walk()
    while layer:
        nxt: dict[tuple[object, ...], tuple[tuple[MatchState, ...], int]] = {}
        for states, count in layer.values():
            for branch in grouped:
                o = branch.outcome
                resigner = o.winner.other
                if o.kind is OutcomeKind.UPPGIVET and states[0].resignations[resigner] >= n:
                    continue  # S1 cap: the library must refuse it (checked in test_match.py)
                new = tuple(s.after(o) for s in states)
                key = tuple(diff_key(s) for s in new)
                weight = count * branch.multiplicity
                result.prefixes += weight
                if new[0].is_over:
                    result.matches += weight
                if key in nxt:  # merged: same differences, same future (see module doc)
                    nxt[key] = (nxt[key][0], nxt[key][1] + weight)
                    continue
                result.positions += 1
                nxt[key] = (new, weight)
                for s in new:
                    check_decision(s, cache)
                # (c): ww with skiljepoäng and ny1 with plus/minus pick the same winner, after
                # the same game.
                assert len({(s.winner, s.decided_after_game) for s in new}) == 1
        layer = {k: v for k, v in nxt.items() if not v[0][0].is_over}
    return result


# Figures of the walk, per n and scales: distinct merged positions checked, outcome
# sequences checked (every prefix of every match, each of the 26 outcomes counted apart)
# and complete matches (until decided, early or after n completed games). Pinned, so a
# change in what the walk covers (or in S4) shows up here; print them with -s.
WALK_FIGURES = {
    (1, "ww+ny1"): Walk(positions=35, prefixes=124, matches=120),
    (1, "ny2"): Walk(positions=35, prefixes=124, matches=120),
    (3, "ww+ny1"): Walk(positions=1161, prefixes=7_386_122, matches=7_087_534),
    (3, "ny2"): Walk(positions=741, prefixes=7_588_058, matches=7_281_438),
    (5, "ww+ny1"): Walk(positions=7991, prefixes=1_316_114_461_368, matches=1_262_826_415_888),
    (5, "ny2"): Walk(positions=3623, prefixes=1_380_731_074_862, matches=1_324_852_341_112),
    (7, "ww+ny1"): Walk(
        positions=30775,
        prefixes=317_634_380_505_610_848,
        matches=304_766_397_199_115_460,
    ),
    (7, "ny2"): Walk(
        positions=10955,
        prefixes=339_968_804_152_719_062,
        matches=326_200_871_872_622_506,
    ),
}


@pytest.mark.parametrize("scales", [(Scale.WW, Scale.NY1), (Scale.NY2,)], ids=["ww+ny1", "ny2"])
@pytest.mark.parametrize("n", LENGTHS)
def test_s4_early_decision_sound_and_complete(n: int, scales: tuple[Scale, ...]) -> None:
    """S4 (b) for every reachable position of every match, and (c) for ww vs ny1."""
    result = walk(n, scales)
    print(f"n={n} {'+'.join(scales)}: {result}")
    assert result == WALK_FIGURES[(n, "+".join(scales))]


# -- the merging of positions above is sound -------------------------------------------------


def absolute_key(state: MatchState) -> tuple[int, ...]:
    return (
        state.completed,
        state.resignations[W],
        state.resignations[B],
        state.points[W],
        state.points[B],
        state.tiebreak[W],
        state.tiebreak[B],
    )


@pytest.mark.parametrize("scale", list(Scale))
@pytest.mark.parametrize("n", (3, 5))
def test_decision_depends_only_on_differences(n: int, scale: Scale) -> None:
    """Positions with the same differences get the same decision, whatever the scores."""
    decisions: dict[tuple[int, ...], tuple[Side | None, bool]] = {}
    seen = set()
    stack = [MatchState.start(length=n, scale=scale)]
    grouped = branches()
    while stack:
        state = stack.pop()
        for branch in grouped:
            o = branch.outcome
            if o.kind is OutcomeKind.UPPGIVET and state.resignations[o.winner.other] >= n:
                continue
            new = state.after(o)
            key = absolute_key(new)
            if key in seen:
                continue
            seen.add(key)
            decision = (new.winner, new.decided_early)
            assert decisions.setdefault(diff_key(new), decision) == decision
            if not new.is_over:
                stack.append(new)
    assert len(seen) > len(decisions)  # merging happened, so this checked something
