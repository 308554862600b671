"""Backgammon match scoring from entered results (seed 002: gammon and backgammon, the
doubling cube, the Crawford rule)."""

from __future__ import annotations

import pytest

from backgammon.cube import Win
from backgammon.errors import CubeError, MatchError, ResultEntryError
from backgammon.match import (
    MAX_MATCH_POINTS,
    Ending,
    GameResult,
    check_cube_value,
    game_points,
    score_match,
)


class TestGamePoints:
    @pytest.mark.parametrize(
        ("ending", "times"), [(Ending.SINGLE, 1), (Ending.GAMMON, 2), (Ending.BACKGAMMON, 3)]
    )
    def test_played_out_is_cube_times_1_2_3(self, ending: Ending, times: int) -> None:
        for cube in (1, 2, 4, 64, 128):
            assert game_points(ending, cube) == times * cube

    def test_drop_at_the_current_value(self) -> None:
        assert game_points(Ending.DROP, 1) == 1
        assert game_points(Ending.DROP, 4) == 4

    @pytest.mark.parametrize(
        ("conceded", "times"), [(Win.SINGLE, 1), (Win.GAMMON, 2), (Win.BACKGAMMON, 3)]
    )
    def test_resignation_concedes_1_2_or_3_times_the_cube(self, conceded: Win, times: int) -> None:
        assert game_points(Ending.RESIGN, 2, conceded) == 2 * times

    def test_a_resignation_needs_its_level_and_only_it_has_one(self) -> None:
        with pytest.raises(ResultEntryError, match="concedes"):
            game_points(Ending.RESIGN, 1)
        with pytest.raises(ResultEntryError, match="only a resignation"):
            game_points(Ending.GAMMON, 1, Win.GAMMON)

    @pytest.mark.parametrize("cube", [0, 3, 6, 96, -2, True, 2.0])
    def test_cube_values_are_powers_of_two(self, cube: object) -> None:
        with pytest.raises(ResultEntryError):
            check_cube_value(cube)

    def test_cube_values_past_64(self) -> None:
        assert check_cube_value(128) == 128 and check_cube_value(1024) == 1024

    def test_winner_is_player_0_or_1(self) -> None:
        with pytest.raises(ResultEntryError):
            GameResult(2, Ending.SINGLE)


class TestMatch:
    def test_crawford_game_number(self) -> None:
        # 5-point match: 2–0, 4–0 (match point: game 3 is the Crawford game), 4–1, 4–3
        match = score_match(
            length=5,
            results=[
                GameResult(0, Ending.GAMMON),
                GameResult(0, Ending.DROP, cube=2),
                GameResult(1, Ending.SINGLE),
                GameResult(1, Ending.SINGLE, cube=2),
            ],
        )
        assert match.crawford_game == 3
        assert [g.crawford for g in match.games] == [False, False, True, False]
        assert match.points == (4, 3) and not match.over and not match.next_is_crawford

    def test_next_game_is_crawford(self) -> None:
        match = score_match(length=3, results=[GameResult(0, Ending.GAMMON)])
        assert match.next_is_crawford and match.crawford_game == 2

    def test_three_point_match_ends_at_once_when_a_gammon_reaches_the_length(self) -> None:
        match = score_match(
            length=3, results=[GameResult(1, Ending.SINGLE), GameResult(0, Ending.GAMMON, cube=2)]
        )
        assert match.over and match.winner == 0 and match.points == (4, 1)
        assert match.decided_after_game == 2
        assert match.crawford_game is None  # no one stood at match point
        with pytest.raises(MatchError) as info:
            score_match(
                length=3,
                results=[
                    GameResult(1, Ending.SINGLE),
                    GameResult(0, Ending.GAMMON, cube=2),
                    GameResult(1, Ending.SINGLE),
                ],
            )
        assert info.value.game == 3 and info.value.kind == "match"

    def test_cube_128_is_allowed(self) -> None:
        match = score_match(length=25, results=[GameResult(1, Ending.SINGLE, cube=128)])
        assert match.points == (0, 128) and match.winner == 1

    def test_no_doubled_cube_or_drop_in_the_crawford_game(self) -> None:
        to_match_point = GameResult(0, Ending.GAMMON)
        for bad in (GameResult(1, Ending.SINGLE, cube=2), GameResult(0, Ending.DROP)):
            with pytest.raises(CubeError, match="Crawford") as info:
                score_match(length=3, results=[to_match_point, bad])
            assert info.value.game == 2
        # a resignation at cube 1 is fine, and doubling is allowed again after it
        match = score_match(
            length=3,
            results=[
                to_match_point,
                GameResult(1, Ending.RESIGN, conceded=Win.SINGLE),
                GameResult(1, Ending.DROP, cube=1),
            ],
        )
        assert match.points == (2, 2) and [g.crawford for g in match.games] == [
            False,
            True,
            False,
        ]

    def test_crawford_rule_off(self) -> None:
        match = score_match(
            length=3,
            results=[GameResult(0, Ending.GAMMON), GameResult(1, Ending.SINGLE, cube=2)],
            crawford_rule=False,
        )
        assert match.crawford_game is None and match.points == (2, 2)

    @pytest.mark.parametrize("length", [0, MAX_MATCH_POINTS + 1, -3])
    def test_length_from_1_to_25(self, length: int) -> None:
        with pytest.raises(MatchError):
            score_match(length=length, results=[])

    def test_one_point_match(self) -> None:
        match = score_match(length=1, results=[GameResult(1, Ending.SINGLE)])
        assert match.winner == 1 and match.crawford_game is None
