"""Backgammon's errors and warnings carry a code and parameters (``backgammon.messages``):
the English text is made from them, and the stored report keeps them for the pages."""

from __future__ import annotations

from backgammon.errors import CubeError
from backgammon.messages import MESSAGES
from backgammon.replay import replay_mat
from engine.messages import MESSAGES as ALL
from engine.messages import Msg, param_names
from tests.backgammon.test_mat import XG, replace_line


def test_the_codes_are_registered_with_the_engines_catalogue() -> None:
    assert all(ALL[code] == entry for code, entry in MESSAGES.items())
    assert all(code.startswith("bg.") for code in MESSAGES)


def test_a_crawford_double_is_coded_with_its_line() -> None:
    text = replace_line(XG, "  2) 31: 8/5 6/5", "  2)  Doubles => 2")
    report = replay_mat(text)
    (error,) = report.errors
    assert isinstance(error, CubeError)
    assert error.msg == Msg("bg.cube.crawford", {})
    assert error.message == "no doubling in the Crawford game (Crawford rule)"
    assert (error.game, error.line) == (2, text.splitlines().index("  2)  Doubles => 2") + 1)
    plain = error.to_dict()
    coded = error.to_dict(coded=True)
    assert plain == {k: v for k, v in coded.items() if k not in ("code", "params")}
    assert coded["code"] == "bg.cube.crawford" and report.to_dict()["errors"] == [plain]


def test_wrong_wins_and_score_lines_keep_their_numbers_as_parameters() -> None:
    wins = replay_mat(replace_line(XG, "      Wins 2 points\n", "      Wins 4 points\n")).errors[0]
    assert wins.msg == Msg("bg.wins.points", {"claimed": 4, "points": 2})
    assert wins.message == "Wins 4 points, but the game gives 2"
    one = Msg("bg.wins.points", {"claimed": 1, "points": 2}).text()
    assert one == "Wins 1 point, but the game gives 2"
    score = replay_mat(
        replace_line(XG, " Alice : 2                           Bob : 1", " Alice : 1   Bob : 1")
    ).errors[0]
    assert score.msg.code == "bg.score.line"
    assert score.message == "score line 1–1, but the games before give 2–1"


def test_an_illegal_move_that_stands_is_a_coded_warning() -> None:
    text = replace_line(
        XG, "  1) 31: 8/5 6/5                      Doubles", "  1) 31: 8/4 6/5   Doubles"
    )
    report = replay_mat(text)
    assert report.valid
    (warning,) = report.warnings
    assert warning.msg == Msg("bg.turn.illegal_stands", {"dice": "31", "moves": "8/4 6/5"})
    assert warning.to_dict(coded=True)["code"] == "bg.turn.illegal_stands"
    assert "Ugyldige slag og ulovlige ryk" in warning.message


def test_every_template_formats_with_its_parameters() -> None:
    for code in MESSAGES:
        params = {name: 2 for name in param_names(code)}
        assert "{" not in Msg(code, params).text()
