"""Match analysis: the PR arithmetic and BMAB levels (pure), the match-equity arithmetic, and
the analysis of stored matches against GNU Backgammon's own ``analyse match`` at 0-ply.

The expected figures of the last class were printed by Debian's ``gnubg`` 1.07.001 with
``scripts/gnubg_analyse.py`` (its "Error rate mEMG" / 2, and its count of unforced plays
and close or actual cube decisions) for the files in ``tests/data/backgammon``, and with
``scripts/gnubg_evaluate.py`` (a position's 0-ply probabilities) and its ``analyse match``
(a cube decision's equities); ``bench/analysis_agreement.py`` makes the same comparison on
the corpus of real exports.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from backgammon import analysis
from backgammon.analysis import (
    AnalysisUnavailable,
    analyse_record,
    bmab_level,
    error_rate,
    skill_mark,
)
from backgammon.equity import (
    CubeInfo,
    cash_points,
    cube_decision,
    cubeful_mwc,
    emg,
    match_equity,
    mwc,
)
from backgammon.mat import read_mat

try:
    import gnubg_nn  # the engine of the analysis; pinned in requirements-dev.txt
except ImportError as missing:  # its absence is a broken setup, not a reason to skip
    raise ImportError(
        "gnubg-nn is not installed although requirements-dev.txt pins it: install the dev "
        "requirements (.venv/bin/pip install -r requirements-dev.txt)"
    ) from missing

DATA = Path(__file__).resolve().parent.parent / "data" / "backgammon"


class TestErrorRate:
    def test_pr_is_the_mean_error_per_decision_times_500(self) -> None:
        assert error_rate(0.5, 50) == pytest.approx(5.0)
        assert error_rate(6.79, 75) == pytest.approx(45.2667, abs=1e-4)

    def test_no_decision_gives_zero(self) -> None:
        assert error_rate(0.0, 0) == 0.0

    @pytest.mark.parametrize(
        ("pr", "level"),
        [
            (0.0, "super_grandmaster"),
            (2.5, "super_grandmaster"),
            (2.51, "grandmaster"),
            (4.0, "grandmaster"),
            (6.5, "master"),
            (6.6, "advanced"),
            (10.0, "advanced"),
            (16.0, "intermediate"),
            (16.01, None),
        ],
    )
    def test_bmab_levels(self, pr: float, level: str | None) -> None:
        assert bmab_level(pr) == level

    @pytest.mark.parametrize(
        ("error", "mark"),
        [(0.0, None), (0.0399, None), (0.04, "doubtful"), (0.08, "bad"), (0.16, "very_bad")],
    )
    def test_marks_at_gnubgs_thresholds(self, error: float, mark: str | None) -> None:
        assert skill_mark(error) == mark


class TestMatchEquity:
    def test_the_table_as_gnubg_prints_it(self) -> None:
        # gnubg 1.07 ``show matchequitytable 5``: 4-away against 5-away 57.732 %
        assert match_equity(5, (1, 0), False, 0, 0, 0) == pytest.approx(0.57732)
        assert match_equity(5, (1, 0), False, 1, 0, 0) == pytest.approx(0.42268)

    def test_post_crawford_trailer_at_2_away(self) -> None:
        # leader 1-away after the Crawford game, trailer 2-away: 48.803 %
        assert match_equity(5, (4, 3), False, 1, 0, 0) == pytest.approx(0.48803)

    def test_winning_the_match(self) -> None:
        assert match_equity(5, (3, 0), False, 0, 2, 0) == 1.0
        assert match_equity(5, (3, 0), False, 1, 2, 0) == 0.0

    def test_emg_maps_losing_and_winning_the_cube_to_minus_and_plus_one(self) -> None:
        ci = CubeInfo(7, (2, 3), 2, 1, 0, False)
        win = ci.me(0, 2, 0)
        lose = ci.me(0, 2, 1)
        assert emg(win, ci) == pytest.approx(1.0)
        assert emg(lose, ci) == pytest.approx(-1.0)
        assert mwc(emg(0.42, ci), ci) == pytest.approx(0.42)

    def test_dead_cube_is_cubeless(self) -> None:
        ci = CubeInfo(5, (0, 0), 1, None, 0, True)  # the Crawford game: no cube
        probs = (0.6, 0.2, 0.01, 0.1, 0.005)
        assert not ci.cube_alive()
        assert cubeful_mwc(probs, ci, 0.68) == pytest.approx(cubeful_mwc(probs, ci, 0.0))

    def test_cash_points_lie_between_zero_and_one_and_mirror(self) -> None:
        probs = (0.5, 0.0, 0.0, 0.0, 0.0)
        ci = CubeInfo(7, (0, 0), 1, None, 0, False)
        first, second = cash_points(probs, ci)
        assert 0.5 < first < 1.0
        assert first == pytest.approx(second)

    def test_owning_the_cube_is_worth_something(self) -> None:
        probs = (0.6, 0.15, 0.01, 0.1, 0.005)
        centred = CubeInfo(9, (0, 0), 1, None, 0, False)
        owned = CubeInfo(9, (0, 0), 2, 0, 0, False)
        theirs = CubeInfo(9, (0, 0), 2, 1, 0, False)
        assert emg(cubeful_mwc(probs, owned, 0.68), owned) > emg(
            cubeful_mwc(probs, theirs, 0.68), theirs
        )
        assert cubeful_mwc(probs, centred, 0.68) > cubeful_mwc(probs, centred, 0.0) - 0.05


class TestWithoutTheEngine:
    def test_a_clear_error_when_gnubg_nn_is_missing(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import sys

        monkeypatch.setitem(sys.modules, "gnubg_nn", None)  # import raises ImportError
        record = read_mat((DATA / "gnubg_3pt_seed42.mat").read_text(encoding="utf-8"))
        with pytest.raises(AnalysisUnavailable, match=r"requirements-analysis\.txt"):
            analyse_record(record)


# file: ((first player's PR, decisions), (second player's PR, decisions)) by gnubg 1.07
GNUBG = {
    "fibs_1859149.mat": ((5.67, 87), (64.87, 56)),
    "fibs_1863670.mat": ((9.72, 103), (23.23, 99)),
    "gnubg_3pt_seed42.mat": ((2.35, 39), (4.80, 29)),
    "gnubg_5pt_seed2026.mat": ((0.51, 34), (1.13, 38)),
    "gnubg_7pt_seed11.mat": ((1.59, 63), (1.77, 60)),
    "gnubg_11pt_seed1234.mat": ((2.52, 129), (1.71, 157)),
    # played with noise: gnubg-nn's own nets and inputs missed the first player's PR by 1.2
    "gnubg_3pt_seed16_noise005.mat": ((32.31, 120), (37.23, 128)),
    # and here by 2.8, counting a cube decision in a two-sided bear-off as not close
    "gnubg_3pt_seed35_noise005.mat": ((60.35, 23), (11.86, 47)),
}
# position ID: gnubg 1.07's 0-ply probabilities of the side on roll
# (scripts/gnubg_evaluate.py; tests/backgammon/test_gnubg_engine.py says why each)
GNUBG_PROBS = {
    "4HPwATDgc/ABMA": (0.5214831, 0.1539093, 0.0075635, 0.1298667, 0.0075485),
    "2J2DESBot8EAKg": (0.4816146, 0.1364321, 0.0054076, 0.2206293, 0.0157787),
    "LOfgAUjozsEBAw": (0.7249082, 0.3707768, 0.0161392, 0.0577573, 0.0018647),
}


class TestAgainstGnubg:
    @pytest.mark.parametrize("name", sorted(GNUBG))
    def test_each_players_pr_within_half_a_point(self, name: str) -> None:
        record = read_mat((DATA / name).read_text(encoding="utf-8"))
        analysis = analyse_record(record, luck=False)
        for player, (pr, decisions) in zip(analysis.players, GNUBG[name], strict=True):
            assert abs(player.pr - pr) <= 0.5, (player.name, player.pr, pr)
            assert player.decisions == decisions

    @pytest.mark.parametrize("position_id", sorted(GNUBG_PROBS))
    def test_the_evaluations_are_gnubg_107s(self, position_id: str) -> None:
        evaluator = analysis._Evaluator(analysis._engine())
        board = gnubg_nn.board_from_position_id(position_id)
        probs = evaluator.probs([list(board[0]), list(board[1])])
        assert probs == pytest.approx(GNUBG_PROBS[position_id], abs=1e-4)

    def test_a_cube_decision_in_a_two_sided_bear_off_as_gnubg_107(self) -> None:
        """gnubg's "nd-cubeful-eq" and "dt-cubeful-eq" (MWC) of a double in a 7-point
        match, the doubler 7 away and the other side 6 away, the cube centred: the cube's
        efficiency comes from the bear-off database's exact money equities."""
        evaluator = analysis._Evaluator(analysis._engine())
        found = gnubg_nn.board_from_position_id("YwAA4AMAAAAAAA")
        board = [list(found[0]), list(found[1])]
        ci = CubeInfo(7, (1, 0), 1, None, 1, False)
        values = cube_decision(evaluator.probs(board), ci, evaluator.efficiency(board))
        assert mwc(values.no_double, ci) == pytest.approx(0.4532568, abs=3e-4)
        assert mwc(values.take, ci) == pytest.approx(0.4546512, abs=3e-4)

    def test_a_roll_written_without_its_play_is_a_resignation(self) -> None:
        """gnubg's ``import mat`` reads a roll written with no play, when it had a choice of
        plays, as the roll and then a resignation: no cube decision before it is analysed."""
        lines = (DATA / "gnubg_3pt_seed42.mat").read_text(encoding="utf-8").split("\n")
        # game 1 up to gnubg's 54 in row 7, written without its play; root wins a gammon
        ended = [*lines[:12], "  7) 54:", "                                  Wins 4 points", ""]
        analysis = analyse_record(read_mat("\n".join(ended)), luck=False)
        gnubgs = {(d.turn, d.kind) for d in analysis.decisions if d.player == 0}
        assert (7, "nodouble") in gnubgs  # its roll before, the cube its own
        assert not any(turn == 9 for turn, _kind in gnubgs)

    @pytest.mark.parametrize(
        ("name", "luck"),
        [
            ("fibs_1859149.mat", (-1.352, -1.035)),
            ("fibs_1863670.mat", (4.107, 0.228)),
            ("gnubg_3pt_seed42.mat", (-1.063, 1.289)),
        ],
    )
    def test_each_players_luck_near_gnubgs(self, name: str, luck: tuple[float, float]) -> None:
        """gnubg's "Luck total EMG"; a forced play (one the net's move list does not
        evaluate) is valued like any other, so no roll's luck is out of bounds."""
        record = read_mat((DATA / name).read_text(encoding="utf-8"))
        analysis = analyse_record(record)
        for player, expected in zip(analysis.players, luck, strict=True):
            assert abs(player.luck - expected) <= 0.5, (player.name, player.luck, expected)

    def test_the_worst_mistakes_name_the_better_play(self) -> None:
        record = read_mat((DATA / "fibs_1859149.mat").read_text(encoding="utf-8"))
        analysis = analyse_record(record, luck=False)
        worst = analysis.worst(1)
        assert len(worst) == 5
        assert worst[0].error >= worst[-1].error >= 0.04
        assert all(d.best != d.played for d in worst)

    def test_luck_is_measured_and_progress_reported(self) -> None:
        record = read_mat((DATA / "gnubg_1pt_seed7.mat").read_text(encoding="utf-8"))
        seen: list[tuple[int, int]] = []
        analysis = analyse_record(record, progress=lambda done, total: seen.append((done, total)))
        assert seen == [(1, 1)]
        assert any(p.luck != 0.0 for p in analysis.players)
        data = analysis.to_dict()
        assert data["engine"] == "gnubg 1.07 0-ply (gnubg-nn), Kazaross-XG2"
        assert [p.name for p in analysis.players] == ["gnubg", "root"]
