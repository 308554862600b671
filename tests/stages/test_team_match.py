"""A team match from its boards (``stages.team_match``), worked by hand."""

from __future__ import annotations

from stages.team_match import Board, team_match_score

HOME = Board(winner="home", home_points=3, away_points=1, home_tiebreak=2)
AWAY = Board(winner="away", home_points=0, away_points=3, away_tiebreak=4)
OPEN = Board()


def test_a_team_ahead_by_more_than_the_boards_left_has_won_early() -> None:
    score = team_match_score([HOME, HOME, HOME, OPEN])
    assert (score.home_boards, score.away_boards, score.undecided) == (3, 0, 1)
    assert (score.winner, score.early) == ("home", True)
    assert (score.home_points, score.away_points, score.home_tiebreak) == (9, 3, 6)


def test_a_lead_the_other_can_still_equal_is_not_decided() -> None:
    score = team_match_score([HOME, HOME, AWAY, OPEN])
    assert score.winner is None
    assert not score.decided


def test_equal_boards_with_every_board_played_is_a_draw_never_early() -> None:
    assert team_match_score([HOME, AWAY, HOME, AWAY]).winner == "draw"
    assert team_match_score([HOME, OPEN, OPEN, AWAY]).winner is None


def test_a_walkover_gives_the_board_and_no_points() -> None:
    walkover = Board(winner="away", home_points=5, away_points=7, walkover=True)
    nobody = Board(walkover=True)
    score = team_match_score([walkover, nobody, HOME, AWAY])
    assert (score.home_boards, score.away_boards, score.undecided) == (1, 2, 0)
    assert score.winner == "away"
    assert (score.home_points, score.away_points) == (3, 4)
