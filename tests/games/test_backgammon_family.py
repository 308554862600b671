"""Backgammon behind the seam: its words, match scoring through the neutral results, its
records and its board picture (points, bar, trays, cube)."""

from __future__ import annotations

from pathlib import Path

import pytest

from backgammon.cube import CubeState
from backgammon.mat import read_mat
from backgammon.position import START, Position
from games.backgammon import BackgammonBoardState
from games.registry import family_for
from games.results import MatchSettings, MatchStanding, ResultValue, ScoringError

BG = family_for("backgammon")
MAT_FILES = sorted((Path(__file__).resolve().parent.parent / "data" / "backgammon").glob("*.mat"))


def game(winner: int, outcome: str, cube: int = 1, conceded: str = "") -> ResultValue:
    return ResultValue(winner, outcome, cube=cube, conceded=conceded)


def standing(length: int, *results: ResultValue, crawford: bool = True) -> MatchStanding:
    return BG.match_scoring(MatchSettings(length=length, crawford=crawford)).standing(results)


class TestVocabulary:
    def test_outcomes(self) -> None:
        assert BG.vocabulary.outcome_codes == ("single", "gammon", "backgammon", "drop", "resign")
        assert BG.vocabulary.outcome("drop").name == "dropped double"
        assert all(t.translate for t in BG.vocabulary.outcomes)  # English, translated
        assert BG.vocabulary.game_types == () and BG.vocabulary.qualifiers == ()


class TestScoring:
    def test_crawford_game_number(self) -> None:
        # 7 points: 2–0, 2–4, 6–4 (match point: game 4 is the Crawford game), 6–5, 6–6
        result = standing(
            7,
            game(0, "gammon"),
            game(1, "single", cube=4),
            game(0, "drop", cube=4),
            game(1, "single"),
            game(1, "resign", conceded="single"),
        )
        assert result.crawford_game == 4
        assert [g.crawford for g in result.games] == [False, False, False, True, False]
        assert [g.points for g in result.games] == [2, 4, 4, 1, 1]
        assert result.score == (6, 6) and not result.decided and not result.next_is_crawford
        assert result.length_unit == "points" and result.tiebreak is None

    def test_next_game_is_the_crawford_game(self) -> None:
        result = standing(3, game(1, "gammon"))
        assert result.next_is_crawford and result.crawford_game == 2

    def test_three_point_match_ends_at_once_when_a_gammon_reaches_the_length(self) -> None:
        result = standing(3, game(0, "single"), game(1, "gammon"), game(0, "gammon"))
        assert result.decided and result.winner == 0 and result.score == (3, 2)
        assert result.decided_after_game == 3
        with pytest.raises(ScoringError) as info:
            standing(3, game(0, "single"), game(1, "gammon"), game(0, "gammon"), game(1, "single"))
        assert (info.value.kind, info.value.game) == ("match", 4)

    def test_cube_128_is_allowed(self) -> None:
        result = standing(25, game(0, "backgammon", cube=128))
        assert result.score == (384, 0) and result.winner == 0

    def test_drop_at_the_current_value(self) -> None:
        assert standing(9, game(1, "drop", cube=8)).score == (0, 8)

    def test_no_double_in_the_crawford_game(self) -> None:
        with pytest.raises(ScoringError) as info:
            standing(5, game(0, "drop", cube=4), game(1, "single", cube=2))
        assert (info.value.kind, info.value.game) == ("cube", 2)
        assert "Crawford" in info.value.message
        # with the Crawford rule off the same games stand
        assert standing(
            5, game(0, "drop", cube=4), game(1, "single", cube=2), crawford=False
        ).score == (4, 2)

    @pytest.mark.parametrize(
        "bad",
        [
            game(0, "single", cube=3),
            game(0, "resign"),  # what did it concede?
            game(0, "gammon", conceded="gammon"),
            game(0, "resign", conceded="everything"),
            game(0, "hemspel"),
            ResultValue(0, "single", munk=True),
            ResultValue(0, "single", game_type="slagfalt"),
            ResultValue(5, "single"),
        ],
    )
    def test_results_backgammon_cannot_have(self, bad: ResultValue) -> None:
        with pytest.raises(ScoringError) as info:
            standing(5, bad)
        assert (info.value.kind, info.value.game) == ("result", 1)

    @pytest.mark.parametrize("length", [0, 26])
    def test_length_1_to_25_points(self, length: int) -> None:
        with pytest.raises(ScoringError) as info:
            BG.match_scoring(MatchSettings(length=length))
        assert info.value.kind == "match"

    def test_even_lengths_are_fine(self) -> None:
        assert standing(2, game(0, "gammon")).winner == 0


class TestCubeLimit:
    """The highest cube a game can use at a score (an entry asks to confirm a larger one):
    the power of two covering what the player furthest from the length still needs."""

    @pytest.mark.parametrize(
        ("length", "score", "limit"),
        [
            (1, (0, 0), 1),
            (3, (0, 0), 4),
            (3, (2, 2), 1),
            (5, (4, 0), 8),
            (7, (0, 0), 8),
            (7, (6, 3), 4),
            (25, (0, 0), 32),
        ],
    )
    def test_by_what_the_trailing_player_needs(
        self, length: int, score: tuple[int, int], limit: int
    ) -> None:
        assert BG.cube_limit(MatchSettings(length=length), score) == limit

    @pytest.mark.parametrize("key", ["brade", "kungabrade"])
    def test_a_game_without_a_cube_has_no_limit(self, key: str) -> None:
        assert family_for(key).cube_limit(MatchSettings(length=3), (0, 0)) is None


class TestRecords:
    @pytest.mark.parametrize("path", MAT_FILES, ids=[p.name for p in MAT_FILES])
    def test_mat_read_and_written(self, path: Path) -> None:
        fmt, sgf, text, as_json = BG.records
        assert (fmt.name, fmt.suffix) == ("mat", ".mat")
        assert [(f.name, f.suffix) for f in (sgf, text, as_json)] == [
            ("sgf", ".sgf"),
            ("text", ".txt"),
            ("json", ".json"),
        ]
        # gnubg's .sgf is read, not written (the site writes .mat and its own form)
        assert sgf.read is not None and sgf.write is None
        assert fmt.read is not None and fmt.write is not None
        record = fmt.read(path.read_text())
        assert fmt.read(fmt.write(record)) == record == read_mat(path.read_text())


class TestBoard:
    def test_start_from_either_seat(self) -> None:
        board = BG.board
        assert board is not None and board.layout == "backgammon"
        state = BackgammonBoardState((START.me, START.opp), CubeState())
        for view in (0, 1):
            picture = board.picture(state, view=view)
            mine, theirs = view, 1 - view
            # own 24, 13, 8, 6 and the opponent's on 25 − p (seed 002, diagram 1)
            assert [(s.point, s.count) for s in picture.stacks if s.side == mine] == [
                (6, 5),
                (8, 3),
                (13, 5),
                (24, 2),
            ]
            assert [(s.point, s.count) for s in picture.stacks if s.side == theirs] == [
                (1, 2),
                (12, 5),
                (17, 3),
                (19, 5),
            ]
            assert picture.bar == (0, 0) and picture.off == (0, 0)
            assert picture.cube is not None and (picture.cube.value, picture.cube.owner) == (
                1,
                None,
            )

    def test_bar_off_cube_owner(self) -> None:
        # player 1 on roll with a checker on the bar and 3 borne off; player 0 owns a 4-cube
        me = [0] * 26
        me[25], me[6], me[5] = 1, 6, 5
        opp = [0] * 26
        opp[24], opp[1] = 2, 13
        position = Position(tuple(me), tuple(opp))
        state = BackgammonBoardState.from_position(position, on_roll=1, cube=CubeState(4, 0))
        board = BG.board
        assert board is not None
        picture = board.picture(state, view=0)
        assert picture.bar == (0, 1) and picture.off == (0, 3)
        assert picture.count(0, 24) == 2 and picture.count(1, 19) == 6 and picture.count(1, 20) == 5
        assert picture.cube is not None and (picture.cube.value, picture.cube.owner) == (4, 0)
        assert picture.checkers(0) == picture.checkers(1) == 15
