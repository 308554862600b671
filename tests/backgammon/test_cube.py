"""The doubling cube, the Crawford rule and match scoring (seed 002, "Dobleterningen")."""

from __future__ import annotations

import pytest

from backgammon.cube import CubeState, MatchScore
from backgammon.errors import CubeError, MatchError


class TestCube:
    def test_centred_cube_either_player_on_roll_may_double(self) -> None:
        cube = CubeState()
        assert cube.double(0, on_roll=0, rolled=False).offered_by == 0
        assert cube.double(1, on_roll=1, rolled=False).offered_by == 1

    def test_only_the_player_on_roll(self) -> None:
        with pytest.raises(CubeError, match="on roll"):
            CubeState().double(1, on_roll=0, rolled=False)

    def test_only_before_rolling(self) -> None:
        with pytest.raises(CubeError, match="before the roll"):
            CubeState().double(0, on_roll=0, rolled=True)

    def test_the_taker_owns_the_cube_at_twice_the_value(self) -> None:
        cube = CubeState().double(0, on_roll=0, rolled=False).take(1)
        assert (cube.value, cube.owner, cube.offered_by) == (2, 1, None)

    def test_redouble_only_by_the_owner(self) -> None:
        cube = CubeState(value=2, owner=1)
        with pytest.raises(CubeError, match="owner"):
            cube.double(0, on_roll=0, rolled=False)
        assert cube.double(1, on_roll=1, rolled=False).take(0) == CubeState(4, 0)

    def test_drop_loses_the_value_before_the_double(self) -> None:
        assert CubeState(value=4, owner=0).double(0, on_roll=0, rolled=False).drop(1) == 4

    def test_values_past_64(self) -> None:
        cube = CubeState(value=64, owner=1).double(1, on_roll=1, rolled=False).take(0)
        assert cube.value == 128
        assert cube.double(0, on_roll=0, rolled=False).take(1).value == 256

    def test_no_doubling_in_the_crawford_game(self) -> None:
        with pytest.raises(CubeError, match="Crawford"):
            CubeState(crawford=True).double(0, on_roll=0, rolled=False)

    def test_take_or_drop_needs_a_double(self) -> None:
        with pytest.raises(CubeError):
            CubeState().take(1)
        with pytest.raises(CubeError):
            CubeState().drop(1)

    def test_the_doubler_cannot_answer(self) -> None:
        offered = CubeState().double(0, on_roll=0, rolled=False)
        with pytest.raises(CubeError):
            offered.take(0)


class TestMatchScoring:
    def test_match_ends_at_once_at_the_length(self) -> None:
        score = MatchScore(5).add_game(0, 4).add_game(1, 2).add_game(0, 2)
        assert score.winner == 0 and score.over and score.score == (6, 2)
        with pytest.raises(MatchError):
            score.add_game(1, 1)

    def test_crawford_game_follows_first_reaching_match_point(self) -> None:
        score = MatchScore(7).add_game(0, 2).add_game(0, 4)  # 6–0: match point
        assert score.crawford_game == 3 and score.next_is_crawford()
        score = score.add_game(1, 1)  # the Crawford game
        assert not score.next_is_crawford()  # post-Crawford: doubling again
        score = score.add_game(1, 4)  # 6–5; the trailer reaching 6 makes no new Crawford game
        assert score.crawford_game == 3 and not score.next_is_crawford()

    def test_jumping_past_match_point_is_no_crawford(self) -> None:
        score = MatchScore(3).add_game(0, 1)
        assert score.crawford_game is None
        assert score.add_game(0, 1).crawford_game == 3

    def test_one_point_match_has_no_crawford_game(self) -> None:
        assert not MatchScore(1).next_is_crawford()

    def test_crawford_rule_off(self) -> None:
        assert MatchScore(3, crawford_rule=False).add_game(0, 2).crawford_game is None
