"""stages.elimination: bracket shapes, checked by playing them with random results."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from stages.elimination import (
    NOBODY,
    Bracket,
    _Builder,
    bracket_size,
    consolation,
    double_elimination,
    drop_in_risks,
    resolve,
    single_elimination,
)


@dataclass
class Played:
    winners: dict[str, int] = field(default_factory=dict)
    matches: list[tuple[str, int, int]] = field(default_factory=list)  # code, top, bottom
    losses: Counter[int] = field(default_factory=Counter)
    count: Counter[int] = field(default_factory=Counter)


def play(bracket: Bracket, seed: int) -> Played:
    """Every match decided at random, round by round, through ``resolve``."""
    rng = random.Random(seed)
    out = Played()
    while True:
        sides = resolve(bracket, out.winners)
        ready = [
            m.code
            for m in bracket.matches
            if m.code not in out.winners
            and None not in sides[m.code]
            and NOBODY not in sides[m.code]
        ]
        if not ready:
            break
        for code in ready:
            top, bottom = sides[code]
            assert top is not None and bottom is not None
            out.winners[code] = rng.choice((top, bottom))
    for m in bracket.matches:
        top, bottom = sides[m.code]
        assert top is not None and bottom is not None, f"{m.code} was never decided"
        if NOBODY in (top, bottom):
            continue
        out.matches.append((m.code, top, bottom))
        out.count.update((top, bottom))
        out.losses[bottom if out.winners[m.code] == top else top] += 1
    return out


def codes(bracket: Bracket) -> list[str]:
    return [f"{m.code}: {m.top.label()} v {m.bottom.label()}" for m in bracket.matches]


@pytest.mark.parametrize("n", range(2, 129))
def test_single_elimination_has_n_minus_one_matches(n: int) -> None:
    bracket = single_elimination(n)
    assert len(bracket.matches) == n - 1
    result = play(bracket, n)
    assert sorted(result.losses.values()) == [1] * (n - 1)


def test_double_elimination_of_four() -> None:
    assert codes(double_elimination(4)) == [
        "W1.1: seed 1 v seed 4",
        "W1.2: seed 2 v seed 3",
        "W2.1: winner of W1.1 v winner of W1.2",
        "L1.1: loser of W1.1 v loser of W1.2",
        "L2.1: winner of L1.1 v loser of W2.1",
        "GF: winner of W2.1 v winner of L2.1",
        "GF2: winner of W2.1 v winner of L2.1",
    ]
    gf, reset = double_elimination(4).matches[-2:]
    assert (gf.if_needed, reset.if_needed) == (False, True)
    # The reset is played only when the losers' bracket's player wins the grand final.
    decided = {"W1.1": 1, "W1.2": 2, "W2.1": 1, "L1.1": 4, "L2.1": 4}
    assert resolve(double_elimination(4), {**decided, "GF": 1})["GF2"] == (NOBODY, NOBODY)
    assert resolve(double_elimination(4), {**decided, "GF": 4})["GF2"] == (1, 4)


def test_double_elimination_of_six_resolves_its_byes() -> None:
    assert codes(double_elimination(6, reset=False)) == [
        "W1.2: seed 4 v seed 5",
        "W1.4: seed 3 v seed 6",
        "W2.1: seed 1 v winner of W1.2",
        "W2.2: seed 2 v winner of W1.4",
        "W3.1: winner of W2.1 v winner of W2.2",
        # L1 would pair a bye with each first-round loser: they enter in round 2,
        # crossed: the loser of W2.2 meets the first-round loser from the other half.
        "L2.1: loser of W1.2 v loser of W2.2",
        "L2.2: loser of W1.4 v loser of W2.1",
        "L3.1: winner of L2.1 v winner of L2.2",
        "L4.1: winner of L3.1 v loser of W3.1",
        "GF: winner of W3.1 v winner of L4.1",
    ]


def test_the_losers_of_each_winners_round_enter_at_their_round_crossed_pairwise() -> None:
    bracket = double_elimination(16)
    entries = {
        m.code: (m.top.match if m.top.kind == "loser" else m.bottom.match)
        for m in bracket.matches
        if m.bracket == "losers" and "loser" in (m.top.kind, m.bottom.kind)
    }
    assert drop_in_risks(bracket) == frozenset()
    assert entries == {
        "L1.1": "W1.1", "L1.2": "W1.3", "L1.3": "W1.5", "L1.4": "W1.7",
        "L2.1": "W2.2", "L2.2": "W2.1", "L2.3": "W2.4", "L2.4": "W2.3",
        "L4.1": "W3.2", "L4.2": "W3.1",
        "L6.1": "W4.1",
    }  # fmt: skip
    assert [m.bottom.match for m in bracket.matches if m.code.startswith("L1.")] == [
        "W1.2", "W1.4", "W1.6", "W1.8"
    ]  # fmt: skip


@pytest.mark.parametrize(
    "n", [2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 24, 31, 32, 33, 48, 64, 100, 128]
)
def test_double_elimination_everyone_but_the_champion_leaves_after_two_losses(n: int) -> None:
    bracket = double_elimination(n)
    assert len(bracket.matches) == 2 * n - 1, "the reset is listed, played only if needed"
    for seed in range(8):
        result = play(bracket, seed)
        losses = sorted(result.losses[p] for p in range(1, n + 1))
        reset_played = any(code == "GF2" for code, _, _ in result.matches)
        assert losses == [int(reset_played)] + [2] * (n - 1)
        assert len(result.matches) == 2 * n - 2 + reset_played


@pytest.mark.parametrize("n", [2, 3, 6, 16, 37, 128])
def test_without_the_reset_the_grand_final_is_the_last_match(n: int) -> None:
    bracket = double_elimination(n, reset=False)
    assert len(bracket.matches) == 2 * n - 2
    for seed in range(8):
        result = play(bracket, seed)
        assert len(result.matches) == 2 * n - 2
        losses = sorted(result.losses[p] for p in range(1, n + 1))
        # The grand final's loser leaves after one loss when it came from the winners' side.
        assert losses in ([0] + [2] * (n - 1), [1, 1] + [2] * (n - 2))


def dropped_rematches(bracket: Bracket, result: Played) -> set[int]:
    """The main rounds whose losers met an earlier opponent in their first match below."""
    main = "W" if bracket.format == "double" else "M"
    sources = {m.code: m for m in bracket.matches}
    met: set[frozenset[int]] = set()
    found: set[int] = set()
    for code, top, bottom in result.matches:
        m = sources[code]
        if m.bracket in ("losers", "consolation"):
            for side in (m.top, m.bottom):
                if side.kind == "loser" and side.match.startswith(main):
                    rnd = int(side.match[1 : side.match.index(".")])
                    if bracket.size >> rnd >= 2 and frozenset((top, bottom)) in met:
                        found.add(rnd)
        met.add(frozenset((top, bottom)))
    return found


@pytest.mark.parametrize("n", [4, 6, 7, 8, 12, 13, 16, 24, 25, 30, 32, 48, 49, 64, 100, 128])
@pytest.mark.parametrize("progressive", [False, True])
def test_no_player_meets_an_earlier_opponent_on_dropping_in(n: int, progressive: bool) -> None:
    bracket = consolation(n, progressive=True) if progressive else double_elimination(n)
    assert drop_in_risks(bracket) == frozenset()
    for seed in range(25):
        assert dropped_rematches(bracket, play(bracket, seed)) == set()


def test_the_crossing_is_what_prevents_those_rematches() -> None:
    # Feeding W2's losers straight down (no crossing) lets them meet the players they beat.
    straight = _Builder(16)
    winners = straight.main("W", "winners")
    straight.losers("L", "losers", winners, straight.rounds, {2: 0, 3: 0})
    uncrossed = straight.finish("double")
    assert drop_in_risks(uncrossed) == {2, 3}
    assert any(dropped_rematches(uncrossed, play(uncrossed, seed)) for seed in range(25))


@pytest.mark.parametrize("n", range(3, 129))
def test_drop_in_risks_remain_only_one_round_in_thin_fields(n: int) -> None:
    size = bracket_size(n)
    rounds = size.bit_length() - 1
    for bracket in (double_elimination(n), consolation(n, progressive=True)):
        risks = drop_in_risks(bracket)
        if n == 3 and bracket.format == "double":
            assert risks == {1}, "three players: the first loser can only meet the next"
        elif size // 2 < n < size * 3 // 4:
            assert risks == {rounds - 1}, "the semifinal losers of a field full of byes"
        else:
            assert risks == frozenset()
        for seed in range(3):
            assert dropped_rematches(bracket, play(bracket, seed)) <= risks


@pytest.mark.parametrize("n", range(4, 129))
@pytest.mark.parametrize("progressive", [False, True])
def test_consolation_gives_every_entrant_at_least_two_matches(n: int, progressive: bool) -> None:
    bracket = consolation(n, progressive=progressive)
    for seed in range(3):
        result = play(bracket, seed)
        assert min(result.count[p] for p in range(1, n + 1)) >= 2
        main = [m for m in result.matches if m[0].startswith("M")]
        assert len(main) == n - 1
        # Nobody loses twice in the main bracket; the consolation is a knockout too.
        assert max(result.losses.values()) <= 2


def test_simple_consolation_is_for_first_match_losers() -> None:
    assert codes(consolation(6))[-3:] == [
        "C1.1: loser of M2.1 if it was its first match v loser of M1.2",
        "C1.2: loser of M2.2 if it was its first match v loser of M1.4",
        "C2.1: winner of C1.1 v winner of C1.2",
    ]
    bracket = consolation(6)
    # Seeds 1 and 2 (byes) win round 2: the round-1 losers go straight to C2.1.
    sides = resolve(bracket, {"M1.2": 4, "M1.4": 3, "M2.1": 1, "M2.2": 2})
    assert sides["C1.1"] == (NOBODY, 5) and sides["C1.2"] == (NOBODY, 6)
    assert sides["C2.1"] == (5, 6)
    # Seed 1 loses its first match: it enters the consolation.
    sides = resolve(bracket, {"M1.2": 4, "M1.4": 3, "M2.1": 4, "M2.2": 2})
    assert sides["C1.1"] == (1, 5)


def test_progressive_consolation_takes_later_losers_deeper() -> None:
    bracket = consolation(16, progressive=True)
    entry_round = {}
    for m in bracket.matches:
        for s in (m.top, m.bottom):
            if m.bracket == "consolation" and s.kind == "loser":
                entry_round[s.match.split(".")[0]] = m.round
    assert entry_round == {"M1": 1, "M2": 2, "M3": 4}, "no loser of the final (M4)"
    assert bracket.matches[-1].code == "C5.1"
    assert len([m for m in bracket.matches if m.bracket == "consolation"]) == 16 - 3


def test_resolve_refuses_a_winner_who_did_not_play() -> None:
    with pytest.raises(ValueError):
        resolve(single_elimination(4), {"M1.1": 2})
    with pytest.raises(ValueError):
        single_elimination(1)
