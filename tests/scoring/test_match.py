"""S1, S3, S4, S5: match state from the outcomes so far, and its errors."""

from __future__ import annotations

import pytest

from engine.errors import MatchError
from engine.types import Outcome, Side
from scoring.match import MAX_MATCH_LENGTH, MatchState, ResignationPolicy, match_state
from scoring.scales import Scale

W, B = Side.WHITE, Side.BLACK


def outcomes(*texts: str) -> list[Outcome]:
    return [Outcome.from_text(t) for t in texts]


class TestS4WorkedExamples:
    """The three worked examples of S4; A is White, B is Black."""

    def test_helmfrid_best_of_5_ww_decided_after_game_4(self) -> None:
        games = outcomes("W jan", "W hemspel", "W hemspel")
        open_state = match_state(length=5, scale="ww", outcomes=games)
        assert open_state.winner is None and open_state.remaining == 2
        state = open_state.after(Outcome.from_text("B vackert trappspel munk"))
        assert state.points == {W: 4, B: 2}
        assert state.tiebreak == {W: 2, B: 0}  # jan won, munk lost
        assert state.completed == 4 and state.remaining == 1
        assert state.winner is W
        assert state.decided_after_game == 4 and state.decided_early
        assert state.is_over and state.next_starter is None

    def test_talisman_best_of_5_ny2(self) -> None:
        state = match_state(length=5, scale=Scale.NY2, outcomes=outcomes("W jan", "W hemspel"))
        state = state.after(Outcome.from_text("W hemspel"))
        assert state.points == {W: 13, B: 0}
        assert state.remaining == 2
        assert state.winner is None  # B could win 14–13 with two jans
        assert state.next_starter is B
        state = state.after(Outcome.from_text("B vackert trappspel munk"))
        assert state.points == {W: 13, B: 5}
        assert state.winner is W and state.decided_after_game == 4 and state.decided_early

    def test_helmfrid_best_of_3_ww_b_wins_on_skiljepoang(self) -> None:
        state = match_state(
            length=3, outcomes=outcomes("W hemspel", "W vackert trappspel", "B jan")
        )
        assert state.points == {W: 2, B: 2}
        assert state.tiebreak == {W: 0, B: 1}
        assert state.winner is B
        assert state.decided_after_game == 3 and not state.decided_early
        assert state.to_report() == {
            "length": 3,
            "scale": "ww",
            "points": {"W": 2, "B": 2},
            "tiebreak": {"W": 0, "B": 1},
            "winner": "B",
            "decided_after_game": 3,
        }

    def test_same_games_under_ny1(self) -> None:
        state = match_state(
            length=3, scale="ny1", outcomes=outcomes("W hemspel", "W vackert trappspel", "B jan")
        )
        assert state.winner is B
        assert state.tiebreak == {W: 0, B: 1}
        assert state.points_text(B) == "2+" and state.points_text(W) == "2"


class TestS1Length:
    @pytest.mark.parametrize("length", [0, 2, 4, -1, -3])
    def test_even_or_non_positive_rejected(self, length: int) -> None:
        with pytest.raises(MatchError, match="S1: a match is played over an odd number") as info:
            match_state(length=length)
        assert info.value.kind == "match" and info.value.game is None

    @pytest.mark.parametrize("length", [MAX_MATCH_LENGTH + 2, 27, 51, 201, 10**9 + 1])
    def test_longer_than_the_bound_rejected(self, length: int) -> None:
        """Past best of 25 a clear ``match`` error, before any work is done."""
        with pytest.raises(
            MatchError, match=f"S1: a match is played over at most 25 completed games, not {length}"
        ) as info:
            match_state(length=length)
        assert info.value.kind == "match" and info.value.game is None

    def test_the_bound_itself_is_accepted(self) -> None:
        assert MAX_MATCH_LENGTH == 25
        state = match_state(length=MAX_MATCH_LENGTH, outcomes=outcomes("W hemspel"))
        assert state.remaining == 24 and state.winner is None

    @pytest.mark.parametrize("length", [True, 3.0, "3"])
    def test_not_an_int(self, length: object) -> None:
        with pytest.raises(MatchError, match="S1: a match length must be a whole number"):
            match_state(length=length)  # type: ignore[arg-type]

    def test_unknown_scale(self) -> None:
        with pytest.raises(MatchError, match="S2: unknown scale"):
            match_state(length=3, scale="ny9")

    def test_unknown_policy(self) -> None:
        with pytest.raises(MatchError, match="S1: unknown resignation policy"):
            match_state(length=3, policy="sometimes")

    def test_before_first_game(self) -> None:
        state = match_state(length=7)
        assert state.points == {W: 0, B: 0} and state.remaining == 7 and state.completed == 0
        assert state.next_starter is None  # tek decides (S5)
        assert state.winner is None and state.decided_after_game is None
        assert not state.is_over
        assert state.to_report()["winner"] is None


class TestS1Resignations:
    def test_resigned_game_lengthens_the_match(self) -> None:
        state = match_state(length=1, outcomes=outcomes("B uppgivet"))
        assert state.completed == 0 and state.remaining == 1
        assert state.points == {W: 0, B: 1} and state.tiebreak == {W: 0, B: 1}
        assert state.resignations == {W: 1, B: 0}
        assert state.winner is None and state.next_starter is W  # S5: the loser starts
        state = state.after(Outcome.from_text("W hemspel"))
        # 1–1 on points, skiljepoäng 0–1: Black wins, decided after game 2 (of 2 played)
        assert state.winner is B and state.decided_after_game == 2 and not state.decided_early

    def test_cap_is_n_per_player(self) -> None:
        state = match_state(length=3, outcomes=outcomes(*["W uppgivet"] * 3))
        assert state.resignations == {W: 0, B: 3}
        # White may still resign; Black may not.
        state.after(Outcome.from_text("B uppgivet"))
        with pytest.raises(MatchError, match="S1: each player may resign at most 3") as info:
            state.after(Outcome.from_text("W uppgivet"))
        assert info.value.game == 4 and info.value.kind == "match"

    def test_forbidden(self) -> None:
        state = match_state(length=3, policy="forbidden", outcomes=outcomes("W hemspel"))
        with pytest.raises(MatchError, match="S1: resigning is not allowed") as info:
            state.after(Outcome.from_text("W uppgivet"))
        assert info.value.game == 2
        assert state.policy is ResignationPolicy.FORBIDDEN

    def test_check_resignation_before_the_game(self) -> None:
        state = match_state(length=1, outcomes=outcomes("W uppgivet"))
        state.check_resignation(W)
        with pytest.raises(MatchError) as info:
            state.check_resignation(B)
        assert info.value.game == 2

    def test_resignation_can_decide_the_match(self) -> None:
        """S4 is checked after every game, resigned ones too."""
        # ww best of 3: 2–0 with one game left; B's jan would give 2–2, B ahead 1–0 on
        # skiljepoäng: open.
        state = match_state(length=3, outcomes=outcomes("W hemspel", "W hemspel"))
        assert state.winner is None
        # B resigns game 3: 3–0, skiljepoäng 1–0, still one completed game left; B's jan
        # gives 2–3: decided after the resigned game.
        state = state.after(Outcome.from_text("W uppgivet"))
        assert state.remaining == 1
        assert state.winner is W and state.decided_after_game == 3 and state.decided_early


class TestS4:
    def test_game_after_decided_is_an_error(self) -> None:
        games = outcomes("W jan", "W hemspel", "W hemspel", "B vackert trappspel munk", "B jan")
        with pytest.raises(MatchError, match="S4: the match was decided after game 4") as info:
            match_state(length=5, outcomes=games)
        assert info.value.game == 5

    def test_game_after_last_completed_game_is_an_error(self) -> None:
        with pytest.raises(MatchError, match="decided after game 1") as info:
            match_state(length=1, outcomes=outcomes("W hemspel", "B uppgivet"))
        assert info.value.game == 2

    def test_decided_by_points_with_one_game_left(self) -> None:
        # ww best of 3: 3–0 (skiljepoäng B 1 for the munk); B's jan gives 2–3.
        state = match_state(length=3, outcomes=outcomes("W hemspel munk", "W hemspel"))
        assert state.winner is W and state.decided_early and state.decided_after_game == 2
        # ny2: 10–0; B's jan gives 7–10.
        state = match_state(length=3, scale="ny2", outcomes=outcomes("W jan", "W hemspel"))
        assert state.winner is W and state.decided_early
        # ...but 6–0 is open: B's jan gives 7–6.
        state = match_state(length=3, scale="ny2", outcomes=outcomes("W hemspel", "W hemspel"))
        assert state.winner is None

    def test_open_when_a_jan_ties_points_and_wins_on_tiebreak(self) -> None:
        # ww best of 3: A hemspel, A hemspel: 2–0; B's jan would give 2–2 with B ahead on
        # skiljepoäng 1–0, so B can still win without sprängjan.
        state = match_state(length=3, outcomes=outcomes("W hemspel", "W hemspel"))
        assert state.winner is None and state.next_starter is B

    def test_next_starter_is_loser_of_last_game(self) -> None:
        state = match_state(length=5, outcomes=outcomes("W hemspel"))
        assert state.next_starter is B
        state = state.after(Outcome.from_text("B jan"))
        assert state.next_starter is W

    def test_check_open(self) -> None:
        state = match_state(length=1)
        state.check_open()
        state = state.after(Outcome.from_text("B hemspel"))
        with pytest.raises(MatchError) as info:
            state.check_open()
        assert info.value.game == 2

    def test_leader(self) -> None:
        assert match_state(length=3).leader is None
        assert match_state(length=3, outcomes=outcomes("B hemspel")).leader is B

    def test_start_equals_match_state(self) -> None:
        assert MatchState.start(length=5, scale="ny1") == match_state(length=5, scale="ny1")
