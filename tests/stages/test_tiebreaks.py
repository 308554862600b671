"""stages.tiebreaks: standings by a chain of tiebreaks, with FIDE's unplayed-round rules."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stages.messages import Msg
from stages.tiebreaks import (
    CHOOSABLE,
    TIEBREAKS,
    MatchPoints,
    Result,
    Standings,
    chain_problem,
    default_chain,
    explain_order,
    standings,
)

D = Decimal


def order(table: Standings) -> list[int]:
    return [row.player for row in table.rows]


# A round robin of four: 2 wins everything, 1 beats 3 and 4, 3 beats 4.
ROUND_ROBIN = [
    Result(1, 1, 4, winner=1, first_points=5, second_points=2),
    Result(1, 2, 3, winner=2, first_points=5, second_points=4, second_skiljepoang=1),
    Result(2, 4, 3, winner=3, first_points=1, second_points=5),
    Result(2, 1, 2, winner=2, first_points=3, second_points=5, first_skiljepoang=2),
    Result(3, 2, 4, winner=2, first_points=5, second_points=0),
    Result(3, 3, 1, winner=1, first_points=2, second_points=5),
]


def test_a_round_robin_every_value_by_hand() -> None:
    table = standings(players=[1, 2, 3, 4], results=ROUND_ROBIN, chain=TIEBREAKS)
    assert order(table) == [2, 1, 3, 4]
    values = {row.player: dict(row.values) for row in table.rows}
    assert values[2]["match_points"] == 3 and values[1]["match_points"] == 2
    assert [values[p]["buchholz"] for p in (1, 2, 3, 4)] == [4, 3, 5, 6]
    assert [values[p]["buchholz_cut1"] for p in (1, 2, 3, 4)] == [4, 3, 5, 5]
    assert [values[p]["sonneborn_berger"] for p in (1, 2, 3, 4)] == [1, 3, 0, 0]
    assert [values[p]["game_points"] for p in (1, 2, 3, 4)] == [13, 15, 11, 3]
    assert [values[p]["points_difference"] for p in (1, 2, 3, 4)] == [4, 8, 0, -12]
    assert [values[p]["skiljepoang"] for p in (1, 2, 3, 4)] == [2, 0, 1, 0]
    assert [values[p]["wins"] for p in (1, 2, 3, 4)] == [2, 3, 1, 0]
    # Nobody is tied after match points, so no direct-encounter value is needed.
    assert all(v["direct_encounter"] is None for v in values.values())
    assert set(values[1]) == set(TIEBREAKS), "every row carries every tiebreak of the chain"
    assert table.lots == {}


# A Swiss of five over three rounds, with byes, a walkover and a withdrawal:
# R1: 1 beats 2, 3 beats 4, 5 bye.  R2: 3 beats 1, 5 wins by walkover (2 did not come),
# 4 bye.  R3: 3 beats 5, 1 beats 4; 2 has withdrawn.
SWISS = [
    Result(1, 1, 2, winner=1, first_points=3, second_points=1),
    Result(1, 3, 4, winner=3),
    Result(1, 5),
    Result(2, 1, 3, winner=3),
    Result(2, 5, 2, winner=5, played=False),
    Result(2, 4),
    Result(3, 3, 5, winner=3),
    Result(3, 1, 4, winner=1),
]


def test_unplayed_rounds_follow_the_dummy_opponent_rule() -> None:
    table = standings(players=[1, 2, 3, 4, 5], results=SWISS, chain=TIEBREAKS)
    v = {row.player: row.values for row in table.rows}
    assert [v[p]["match_points"] for p in (1, 2, 3, 4, 5)] == [2, 0, 3, 1, 2]
    # 2's adjusted score is 0 + two draws after its last match (R1): 1.
    # 1: opponents 2 (1), 3 (3), 4 (1).  2: 1 (2), then walkover lost and absent: own 0, 0.
    # 4: 3 (3), its bye: own 1, 1 (2).  5: its bye and walkover won: own 2 each, 3 (3).
    assert [v[p]["buchholz"] for p in (1, 2, 3, 4, 5)] == [5, 2, 5, 6, 7]
    assert [v[p]["buchholz_cut1"] for p in (1, 2, 3, 4, 5)] == [4, 2, 4, 5, 5]
    assert [v[p]["sonneborn_berger"] for p in (1, 2, 3, 4, 5)] == [2, 0, 5, 1, 4]
    # Only matches at the board count as wins and give game points.
    assert [v[p]["wins"] for p in (1, 2, 3, 4, 5)] == [2, 0, 3, 0, 0]
    assert v[5]["game_points"] == 0 and v[1]["game_points"] == 3


def test_the_chain_orders_and_explains() -> None:
    names = {1: "Anna", 2: "Bo", 3: "Cilla", 4: "Dan", 5: "Eva"}
    table = standings(players=[1, 2, 3, 4, 5], results=SWISS, chain=["match_points", "buchholz"])
    assert order(table) == [3, 5, 1, 4, 2]
    assert explain_order(table, 3, 5, names=names).text() == (
        "Cilla is above Eva on match points (3 to 2)"
    )
    assert explain_order(table, 5, 1, names=names).text() == (
        "Eva is above Anna on Buchholz (7 to 5); they are level on every tiebreak before it"
    )
    assert explain_order(table, 5, 2).to_dict() == {
        "code": "standing.ahead",
        "params": {
            "above": "5",
            "below": "2",
            "tiebreak": {"code": "tiebreak.match_points", "params": {}},
            "a": "2",
            "b": "0",
        },
    }
    with pytest.raises(ValueError):
        explain_order(table, 2, 5)


def test_standings_after_an_earlier_round_leave_later_results_out() -> None:
    after_one = standings(players=[1, 2, 3, 4, 5], results=SWISS, chain=TIEBREAKS, rounds=1)
    v = {row.player: row.values for row in after_one.rows}
    assert [v[p]["match_points"] for p in (1, 2, 3, 4, 5)] == [1, 0, 1, 0, 1]
    assert v[5]["buchholz"] == 1, "its bye: a dummy opponent with its own score"


def test_cut_1_drops_a_voluntarily_unplayed_round_first() -> None:
    # 1 is absent in round 1, then beats 2 and 3; 2 beats 3 in round 1; byes for the rest.
    results = [
        Result(1, 2, 3, winner=2),
        Result(2, 1, 2, winner=1),
        Result(2, 3),
        Result(3, 1, 3, winner=1),
        Result(3, 2),
    ]
    table = standings(players=[1, 2, 3], results=results, chain=["buchholz", "buchholz_cut1"])
    row = table.row(1)
    # Contributions: absent (own score 2), 2 (2), 3 (1). The absence is cut, not the 1.
    assert (row.values["buchholz"], row.values["buchholz_cut1"]) == (5, 3)


def test_direct_encounter_among_exactly_the_tied_players() -> None:
    # 3 wins both; 1 and 2 tie on one match point, and 2 beat 1.
    results = [
        Result(1, 2, 1, winner=2),
        Result(1, 3, 4, winner=3),
        Result(2, 1, 4, winner=1),
        Result(2, 3, 2, winner=3),
    ]
    chain = ["match_points", "direct_encounter"]
    table = standings(players=[1, 2, 3, 4], results=results, chain=chain)
    assert order(table) == [3, 2, 1, 4]
    assert [table.row(p).values["direct_encounter"] for p in (1, 2, 3, 4)] == [0, 1, None, None]
    assert explain_order(table, 2, 1).text() == (
        "2 is above 1 on the direct encounter: 1 to 0 in the matches among the 2 tied players"
    )
    assert table.lots == {}


def test_direct_encounter_in_a_circle_separates_no_one() -> None:
    results = [Result(1, 1, 2, winner=1), Result(2, 2, 3, winner=2), Result(3, 3, 1, winner=3)]
    chain = ["match_points", "direct_encounter"]
    table = standings(players=[1, 2, 3], results=results, chain=chain)
    assert {row.values["direct_encounter"] for row in table.rows} == {1}
    assert sorted(table.lots.values()) == [1, 2, 3], "the lots decide"
    assert explain_order(table, table.rows[0].player, table.rows[1].player).code == "standing.lots"


# 1, 2 and 3 end on two match points; 1 beat 2 and 3, who have not met each other.
NOT_ALL_MET = [
    Result(1, 1, 2, winner=1),
    Result(1, 3, 5, winner=3),
    Result(2, 1, 3, winner=1),
    Result(2, 2, 5, winner=2),
    Result(3, 2, 6, winner=2),
    Result(3, 3, 7, winner=3),
]


def test_direct_encounter_places_a_player_no_one_tied_can_still_reach() -> None:
    chain = ["match_points", "direct_encounter"]
    table = standings(players=[1, 2, 3, 5, 6, 7], results=NOT_ALL_MET, chain=chain)
    # 1 scored 2; 2 and 3 scored 0 and could reach 1 at most (their unplayed match).
    assert order(table)[0] == 1
    assert [table.row(p).values["direct_encounter"] for p in (1, 2, 3)] == [2, 0, 0]
    second, third = order(table)[1:3]
    assert {second, third} == {2, 3}
    assert explain_order(table, 1, second).code == "standing.direct"
    assert explain_order(table, second, third).code == "standing.lots"


def test_direct_encounter_separates_no_one_while_a_tied_player_could_catch_up() -> None:
    # 4 is also on two points and has met none of them: it could still reach 3.
    results = [*NOT_ALL_MET, Result(1, 4, 8, winner=4), Result(2, 4, 9, winner=4)]
    chain = ["match_points", "direct_encounter"]
    table = standings(players=[1, 2, 3, 4, 5, 6, 7, 8, 9], results=results, chain=chain)
    assert set(order(table)[:4]) == {1, 2, 3, 4}
    assert {1, 2, 3, 4} <= set(table.lots), "nobody separated: the lots decide all four"
    assert table.row(4).values["direct_encounter"] == 0
    top = order(table)
    assert all(
        explain_order(table, a, b).code == "standing.lots" for a, b in itertools.pairwise(top[:4])
    )


def test_lots_are_drawn_from_the_seed_returned_and_reused() -> None:
    players = [10, 20, 30]
    first = standings(players=players, results=[], chain=["match_points"], seed=5)
    again = standings(players=players, results=[], chain=["match_points"], seed=5)
    assert first.rows == again.rows and set(first.lots) == {10, 20, 30}
    stored = {10: 3, 20: 2, 30: 1}
    reused = standings(players=players, results=[], chain=["match_points"], seed=5, lots=stored)
    assert order(reused) == [30, 20, 10] and reused.lots == stored
    assert [row.lot for row in reused.rows] == [1, 2, 3]
    seeds = {
        tuple(order(standings(players=players, results=[], chain=[], seed=s))) for s in range(30)
    }
    assert len(seeds) > 1


def test_points_for_a_win_and_a_bye_are_the_stages() -> None:
    results = [Result(1, 1, 2, winner=1), Result(1, 3)]
    table = standings(
        players=[1, 2, 3], results=results, chain=["match_points"], points=MatchPoints(D(2), D(1))
    )
    assert [(row.player, row.values["match_points"]) for row in table.rows] == [
        (1, 2),
        (3, 1),
        (2, 0),
    ]


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        standings(players=[1], results=[], chain=["elo"])
    with pytest.raises(ValueError):
        standings(players=[1, 2], results=[Result(1, 1, 2, winner=1), Result(1, 1)], chain=[])
    with pytest.raises(ValueError):
        standings(players=[1], results=[Result(1, 1, 2, winner=1)], chain=[])
    with pytest.raises(ValueError):
        Result(1, 1, 2, winner=3)
    with pytest.raises(ValueError):
        Result(1, 1, 2, played=False)


SCALAR = [k for k in TIEBREAKS if k != "direct_encounter"]


@settings(max_examples=150)
@given(
    st.integers(2, 14),
    st.integers(1, 7),
    st.integers(0, 10**6),
    st.lists(st.sampled_from(SCALAR), unique=True, max_size=4),
)
def test_rows_are_in_chain_order_and_explained_by_the_first_difference(
    n: int, rounds: int, seed: int, chain: list[str]
) -> None:
    rng = random.Random(seed)
    results: list[Result] = []
    for rnd in range(1, rounds + 1):
        present = [p for p in range(1, n + 1) if rng.random() > 0.15]
        rng.shuffle(present)
        while len(present) >= 2:
            a, b = present.pop(), present.pop()
            results.append(
                Result(
                    rnd,
                    a,
                    b,
                    winner=rng.choice((a, b)),
                    played=rng.random() > 0.1,
                    first_points=rng.randint(0, 9),
                    second_points=rng.randint(0, 9),
                )
            )
        if present:
            results.append(Result(rnd, present[0]))
    table = standings(players=list(range(1, n + 1)), results=results, chain=chain, seed=seed)
    keys = [tuple(row.values[k] for k in chain) for row in table.rows]
    assert keys == sorted(keys, reverse=True)  # type: ignore[type-var]
    for upper, lower in itertools.pairwise(table.rows):
        why = explain_order(table, upper.player, lower.player)
        if all(upper.values[k] == lower.values[k] for k in chain):
            assert why.code == "standing.lots" and upper.lot is not None and lower.lot is not None
            assert upper.lot < lower.lot
        else:
            first = next(k for k in chain if upper.values[k] != lower.values[k])
            assert why.params["tiebreak"] == Msg(f"tiebreak.{first}")


@dataclass(frozen=True)
class Game:
    """A game as the chains see it (the games registry's family gives the same two)."""

    length_unit: str
    tiebreak_scales: tuple[str, ...] = ()


BEST_OF = Game("games", ("ww", "ny1"))
TO_POINTS = Game("points")


def test_the_default_chain_follows_the_games_unit_and_scales() -> None:
    tail = ["direct_encounter", "sonneborn_berger", "wins"]
    assert default_chain(BEST_OF, "ww") == ["game_points", "skiljepoang", *tail]
    assert default_chain(BEST_OF, "ny2") == ["game_points", *tail]
    assert default_chain(TO_POINTS, "ww") == ["points_difference", *tail]
    assert all(chain_problem(default_chain(g, "ww"), g) is None for g in (BEST_OF, TO_POINTS))


def test_a_chain_is_refused_for_each_reason() -> None:
    assert "match_points" not in CHOOSABLE
    assert chain_problem(["match_points"], BEST_OF) == "unknown"
    assert chain_problem(["wins", "wins"], BEST_OF) == "twice"
    assert chain_problem(["skiljepoang"], TO_POINTS) == "skiljepoang"
    assert chain_problem(["skiljepoang", "wins"], BEST_OF) is None


def test_pairing_numbers_rank_a_tie_the_chain_leaves_before_the_lots() -> None:
    # A Monrad's standings: 10, 20, 30 won, 40, 50, 60 lost, nothing else separates them.
    results = [Result(1, 10, 40, winner=10), Result(1, 20, 50, winner=20)]
    results.append(Result(1, 30, 60, winner=30))
    numbers = {10: 5, 20: 1, 30: 3, 40: 2, 50: 6, 60: 4}
    chain = ["match_points", "sonneborn_berger", "wins"]
    table = standings(players=list(numbers), results=results, chain=chain, seed=9, numbers=numbers)
    assert order(table) == [20, 30, 10, 40, 60, 50]
    assert [row.place for row in table.rows] == [1, 2, 3, 4, 5, 6]
    assert table.lots == {}, "no tie is left for the lots"
    why = explain_order(table, 20, 30, names={20: "Ann", 30: "Bo"})
    assert why.code == "standing.pairing_number"
    assert why.text() == (
        "Ann is above Bo on pairing number (1 to 3); they are level on every tiebreak"
    )
    assert explain_order(table, 10, 40).code == "standing.ahead"
    # Equal numbers leave the tie to the lots, which come after the number.
    same = standings(players=[10, 20], results=[], chain=["match_points"], numbers={10: 1, 20: 1})
    assert set(same.lots) == {10, 20}
    assert explain_order(same, *order(same)).code == "standing.lots"
    with pytest.raises(ValueError, match="no pairing number"):
        standings(players=[10, 20], results=[], chain=["match_points"], numbers={10: 1})


def test_each_tiebreak_is_one_object_named_and_abbreviated_everywhere() -> None:
    """A tiebreak is one object (key, name, abbreviation, how it ranks); the pages' words
    and the messages' catalogue name each one, in English as the object does."""
    from django.utils import translation

    from matches.stage_text import tiebreak_abbreviation, tiebreak_name
    from stages.messages import MESSAGES
    from stages.tiebreaks import TIEBREAK_LIST, tiebreak

    assert tuple(t.key for t in TIEBREAK_LIST) == TIEBREAKS
    assert tuple(t.key for t in TIEBREAK_LIST if t.key != "match_points") == CHOOSABLE
    with translation.override("en"):
        for t in TIEBREAK_LIST:
            assert tiebreak(t.key) is t
            assert tiebreak_name(t.key) == t.name == MESSAGES[f"tiebreak.{t.key}"]
            assert tiebreak_abbreviation(t.key) == t.abbreviation
    with translation.override("sv"):
        assert tiebreak_abbreviation("game_points") == "PP"
        assert tiebreak_abbreviation("direct_encounter") == "IM"
