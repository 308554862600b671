"""S2: the scales as data, one game's points and tiebreak, and how points are written."""

from __future__ import annotations

import pytest

from engine.errors import MatchError
from engine.types import Outcome, Side
from scoring.scales import MINUS, PLUS, Row, Scale, format_points, format_tiebreak, score_game

W, B = Side.WHITE, Side.BLACK

# S2's table, row by row: (result text, ww, skiljepoäng winner, loser, ny1 text, ny2).
TABLE_ROWS = [
    ("White hemspel", 1, 0, 0, "1", 3),
    ("White vackert trappspel", 1, 0, 0, "1", 3),
    ("White uppgivet", 1, 1, 0, "1+", 4),
    ("White hemspel munk", 2, 0, 1, "2−", 5),
    ("White vackert dubbelt_kronspel munk", 2, 0, 1, "2−", 5),
    ("White jan", 2, 1, 0, "2+", 7),
    ("White sprängjan", 4, 0, 1, "4−", 11),
]


class TestS2Table:
    @pytest.mark.parametrize(("text", "ww", "sk_win", "sk_lose", "ny1", "ny2"), TABLE_ROWS)
    def test_row(self, text: str, ww: int, sk_win: int, sk_lose: int, ny1: str, ny2: int) -> None:
        outcome = Outcome.from_text(text)
        score = score_game(Scale.WW, outcome)
        assert (score.winner, score.points, score.tiebreak_winner, score.tiebreak_loser) == (
            W,
            ww,
            sk_win,
            sk_lose,
        )
        assert score.mark == ""
        assert score.text() == str(ww)
        assert score_game(Scale.NY1, outcome).text() == ny1
        assert score_game(Scale.NY2, outcome).points == ny2
        assert score_game(Scale.NY2, outcome).tiebreak_winner == 0

    @pytest.mark.parametrize(("text", "ww", "sk_win", "sk_lose", "ny1", "ny2"), TABLE_ROWS)
    def test_ny1_sign_is_skiljepoang_difference(
        self, text: str, ww: int, sk_win: int, sk_lose: int, ny1: str, ny2: int
    ) -> None:
        """S2: Ny 1 ranks as skiljepoäng: + is one to the winner, − one to the loser."""
        outcome = Outcome.from_text(text)
        ny = score_game(Scale.NY1, outcome)
        assert ny.points == ww
        assert ny.tiebreak_winner - ny.tiebreak_loser == sk_win - sk_lose
        assert ny.tiebreak_loser == 0

    def test_black_winner(self) -> None:
        score = score_game("ww", Outcome.from_text("Black sprangjan"))
        assert score.winner is B
        assert score.points_for(B) == 4 and score.points_for(W) == 0
        assert score.tiebreak_for(W) == 1 and score.tiebreak_for(B) == 0

    def test_every_row_has_an_outcome(self) -> None:
        rows = {Row.of(Outcome.from_text(text)) for text, *_ in TABLE_ROWS}
        assert rows == set(Row)


class TestScaleParse:
    @pytest.mark.parametrize(
        ("text", "scale"),
        [
            ("ww", Scale.WW),
            ("WW", Scale.WW),
            ("W&W", Scale.WW),
            ("ny1", Scale.NY1),
            ("Ny 1", Scale.NY1),
            (" NY2 ", Scale.NY2),
            (Scale.NY2, Scale.NY2),
        ],
    )
    def test_known(self, text: str, scale: Scale) -> None:
        assert Scale.parse(text) is scale

    def test_unknown_is_match_error(self) -> None:
        with pytest.raises(MatchError, match="S2: unknown scale 'ny3'") as info:
            Scale.parse("ny3")
        assert info.value.kind == "match"
        assert isinstance(info.value, ValueError)

    def test_score_game_rejects_unknown_scale(self) -> None:
        with pytest.raises(MatchError):
            score_game("points", Outcome.from_text("W jan"))

    def test_tiebreak_only_without_ny2(self) -> None:
        assert Scale.WW.has_tiebreak and Scale.NY1.has_tiebreak
        assert not Scale.NY2.has_tiebreak


class TestFormat:
    def test_ny1_marks_follow_points(self) -> None:
        assert format_points(Scale.NY1, 2, 1, 0) == "2+"
        assert format_points(Scale.NY1, 4, 0, 1) == "4−"
        assert format_points("ny1", 5, 2, 1) == f"5{PLUS}{PLUS}{MINUS}"
        assert format_points(Scale.NY1, 0) == "0"

    def test_other_scales_bare_number(self) -> None:
        assert format_points(Scale.WW, 4, 1, 1) == "4"
        assert format_points(Scale.NY2, 13) == "13"

    def test_tiebreak(self) -> None:
        assert format_tiebreak(Scale.NY1, 1) == "+1"
        assert format_tiebreak(Scale.NY1, -2) == "−2"
        assert format_tiebreak(Scale.NY1, 0) == "±0"
        assert format_tiebreak(Scale.WW, 2) == "2"
