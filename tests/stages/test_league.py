"""The league's table, its "why", promotion and relegation (``stages.league``), worked by
hand; the simulated season compares the table with an independent oracle
(``tests/teams/test_league_season.py``)."""

from __future__ import annotations

import pytest

from stages.league import LeagueMatch, MatchPoints, league_fixtures, league_table, next_divisions
from stages.team_match import Board, team_match_score


def _match(home: str, away: str, *winners: str, points: int = 1) -> LeagueMatch[str]:
    boards = [
        Board(
            winner="home" if w == "h" else "away",
            home_points=points if w == "h" else 0,
            away_points=points if w == "a" else 0,
        )
        for w in winners
    ]
    return LeagueMatch(home, away, team_match_score(boards))


def test_match_points_then_board_points_and_why() -> None:
    rows = league_table(
        ["A", "B", "C"],
        [
            _match("A", "B", "h", "h", "a", "a"),
            _match("A", "C", "h", "h", "h", "a"),
            _match("B", "C", "h", "h", "h", "h"),
        ],
    )
    assert [(r.team, r.match_points, r.board_points) for r in rows] == [
        ("B", 3, 6),
        ("A", 3, 5),
        ("C", 0, 1),
    ]
    assert [r.why for r in rows] == ["board_points", "match_points", None]


def test_configured_match_points() -> None:
    rows = league_table(
        ["A", "B"], [_match("A", "B", "h", "a")], points=MatchPoints(win=3, draw=1, loss=0)
    )
    assert [r.match_points for r in rows] == [1, 1]


def test_direct_encounter_then_the_stored_lots() -> None:
    # A, B, C all 2 match points, 4 board points, equal points: A beat B, B beat C, C beat A
    matches = [
        _match("A", "B", "h", "h", "h", "a"),
        _match("B", "C", "h", "h", "h", "a"),
        _match("C", "A", "h", "h", "h", "a"),
    ]
    rows = league_table(["A", "B", "C"], matches, lots=["C", "A", "B"])
    assert [r.team for r in rows] == ["C", "A", "B"]
    assert [r.why for r in rows] == ["lots", "lots", None]


def test_direct_encounter_separates_two_level_teams() -> None:
    matches = [
        _match("A", "B", "a", "a", "a", "h"),  # B beats A
        _match("A", "C", "h", "h", "h", "h"),
        _match("B", "C", "h", "h", "a", "a"),
    ]
    rows = league_table(["A", "B", "C"], matches, chain=["direct_encounter"], lots=["A", "B", "C"])
    assert [r.team for r in rows][:2] == ["B", "A"]


def test_an_undecided_team_match_does_not_count() -> None:
    open_match = LeagueMatch("A", "B", team_match_score([Board(winner="home"), Board()]))
    rows = league_table(["A", "B"], [open_match])
    assert [r.played for r in rows] == [0, 0]


def test_an_unknown_tiebreak_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tiebreak"):
        league_table(["A"], [], chain=["buchholz"])


def test_fixtures_home_and_away_in_a_double_round_robin() -> None:
    rounds = league_fixtures(["A", "B", "C", "D"], double=True)
    pairs = [(f.first, f.second) for rnd in rounds for f in rnd]
    assert len(rounds) == 6
    assert sorted(pairs) == sorted({(a, b) for a in "ABCD" for b in "ABCD" if a != b})


def test_promotion_and_relegation_at_every_boundary() -> None:
    tables = [["A1", "A2", "A3", "A4"], ["B1", "B2", "B3", "B4"], ["C1", "C2", "C3", "C4"]]
    assert next_divisions(tables, up=1, down=1) == [
        ["A1", "A2", "A3", "B1"],
        ["B2", "B3", "A4", "C1"],
        ["C2", "C3", "C4", "B4"],
    ]
    assert next_divisions(tables, up=[0, 2, 1], down=[2, 1, 0]) == [
        ["A1", "A2", "B1", "B2"],
        ["B3", "A3", "A4", "C1"],
        ["C2", "C3", "C4", "B4"],
    ]
    with pytest.raises(ValueError, match="fewer than"):
        next_divisions(tables, up=3, down=2)
