"""``.mat`` records: reading, writing, round trips and the verifying replay (seed 002)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from backgammon.errors import ImpossibleMoveError, RecordSyntaxError
from backgammon.mat import (
    DOUBLE,
    ROLL,
    TAKE,
    clock_line,
    mat_action_lines,
    read_mat,
    write_mat,
)
from backgammon.position import START
from backgammon.replay import apply_move_text, replay_mat

DATA = Path(__file__).resolve().parent.parent / "data" / "backgammon"
REAL = sorted(DATA.glob("*.mat"))

# A 3 point match in eXtreme Gammon's layout: game 2 is the Crawford game (Alice reached
# match point 2 in game 1), game 3 post-Crawford, game 4 ends the match by a resignation.
XG = """\
; [Site "eXtreme Gammon"]
; [Match ID "12345"]
; [Player 1 "Alice"]
; [Player 2 "Bob"]
; [Variation "Backgammon"]
; [Crawford "On"]

 3 point match

 Game 1
 Alice : 0                           Bob : 0
  1) 31: 8/5 6/5                      Doubles => 2
  2)  Takes                          64: 24/18 13/9
  3)  Doubles => 4                    Drops
      Wins 2 points

 Game 2
 Alice : 2                           Bob : 0
  1)                                 52: 13/8 13/11
  2) 31: 8/5 6/5
                                      Wins 1 point

 Game 3
 Alice : 2                           Bob : 1
  1) 42: 8/4 6/4                      Doubles => 2
  2)  Drops
                                      Wins 1 point

 Game 4
 Alice : 2                           Bob : 2
  1) 31: 8/5 6/5                     66: 24/18 24/18 13/7 13/7
  2) 54: 24/20 13/8
      Wins 1 point and the match
"""


def replace_line(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


class TestReading:
    def test_headers_length_players(self) -> None:
        record = read_mat(XG)
        assert record.length == 3
        assert record.players == ("Alice", "Bob")
        assert record.header("Site") == "eXtreme Gammon"
        assert [g.score for g in record.games] == [(0, 0), (2, 0), (2, 1), (2, 2)]

    def test_columns_give_the_player(self) -> None:
        game = read_mat(XG).games[0]
        assert [(a.player, a.kind) for a in game.actions[:4]] == [
            (0, ROLL),
            (1, DOUBLE),
            (0, TAKE),
            (1, ROLL),
        ]
        assert game.actions[3].moves == ("24/18", "13/9")

    def test_a_lone_right_hand_entry(self) -> None:
        game = read_mat(XG).games[1]
        assert game.actions[0].player == 1 and game.actions[0].dice == (5, 2)
        assert game.actions[-1].player == 1  # "Wins" in the right column

    def test_syntax_error_names_the_line(self) -> None:
        bad = replace_line(XG, "  2) 54: 24/20 13/8", "  2) 54: 24/20 13/8 banana")
        with pytest.raises(RecordSyntaxError) as info:
            read_mat(bad)
        assert info.value.line == XG.splitlines().index("  2) 54: 24/20 13/8") + 1

    def test_no_length_line(self) -> None:
        with pytest.raises(RecordSyntaxError):
            read_mat(" Game 1\n")


class TestRoundTrip:
    @pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
    def test_real_files(self, path: Path) -> None:
        record = read_mat(path.read_text())
        assert read_mat(write_mat(record)) == record

    def test_xg_layout(self) -> None:
        record = read_mat(XG)
        written = write_mat(record)
        assert '; [Site "eXtreme Gammon"]' in written
        assert read_mat(written) == record


class TestLeftHandDrop:
    """A left-hand player's ``Drops`` and the right-hand player's ``Wins`` on one row, as
    gnubg writes them: gnubg 1.07 reads a ``Wins`` line of its own below a left-hand
    ``Drops`` as a beaver and the rest of the match wrong."""

    GNUBG = DATA / "gnubg_11pt_seed1234.mat"  # gnubg's export, with two such rows

    def test_the_row_is_written_as_gnubg_writes_it(self) -> None:
        left_drop = re.compile(r"^\s*\d+\)  Drops")  # a row that starts with a drop
        gnubg = [line.rstrip() for line in self.GNUBG.read_text().splitlines()]
        written = write_mat(read_mat(self.GNUBG.read_text())).splitlines()
        drops = [line for line in gnubg if left_drop.match(line)]
        assert drops == [
            " 16)  Drops                       Wins 1 point",
            " 22)  Drops                       Wins 2 points",
        ]
        assert [line for line in written if left_drop.match(line)] == drops

    def test_the_old_layout_still_reads_and_replays_the_same(self) -> None:
        new = write_mat(read_mat(XG))
        row = "  2)  Drops                       Wins 1 point\n"
        old = replace_line(new, row, "  2)  Drops\n" + " " * 34 + "Wins 1 point\n")
        assert read_mat(old) == read_mat(new)
        before, after = replay_mat(old), replay_mat(new)
        assert before.valid and after.valid
        assert (before.winner, before.score) == (after.winner, after.score)
        assert [g.points for g in before.games] == [g.points for g in after.games]


class TestActionLines:
    """``mat_action_lines`` names the line ``write_mat`` writes each action on: the line
    a reader gives it back (the line a replay's warnings and errors name)."""

    @pytest.mark.parametrize("path", [*REAL, None], ids=[p.name for p in REAL] + ["xg"])
    def test_the_lines_read_back(self, path: Path | None) -> None:
        record = read_mat(XG if path is None else path.read_text())
        reread = read_mat(write_mat(record))
        assert mat_action_lines(record) == tuple(
            tuple(action.line for action in game.actions) for game in reread.games
        )
        assert len({line for game in mat_action_lines(record) for line in game}) > 1


class TestReplayRealFiles:
    @pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
    def test_real_files_verify(self, path: Path) -> None:
        report = replay_mat(path.read_text())
        assert report.valid, [str(e) for e in report.errors]
        assert report.warnings == []
        assert report.winner is not None and report.score[report.winner] >= report.length

    def test_gnubg_crawford_game_found(self) -> None:
        # GNU Backgammon writes no Crawford header; the replay finds the game from the
        # score (6-0 to 7: game 3 is played without the cube) and gnubg did not double in it
        report = replay_mat((DATA / "gnubg_7pt_seed11.mat").read_text())
        assert report.crawford_game == 3 and report.games[2].cube == 1
        assert report.score == (8, 0)
        long = replay_mat((DATA / "gnubg_15pt_seed99.mat").read_text())
        assert (long.crawford_game, long.score, len(long.games)) == (9, (18, 12), 13)

    def test_gnubg_moves_are_all_legal_here(self) -> None:
        # gnubg only ever plays legal moves: a warning here would be our engine's error
        gnubg_files = [p for p in REAL if p.name.startswith("gnubg_")]
        assert len(gnubg_files) >= 8
        for path in gnubg_files:
            report = replay_mat(path.read_text())
            assert report.valid and report.warnings == [], path.name

    def test_game_figures(self) -> None:
        report = replay_mat((DATA / "fibs_1863670.mat").read_text())
        assert [(g.points, g.how, g.cube) for g in report.games] == [
            (1, "drop", 1),
            (1, "drop", 1),
            (1, "drop", 1),
            (2, "resign", 2),
            (1, "drop", 1),
            (1, "drop", 1),
            (2, "single", 2),
        ]
        assert report.crawford_game is None


class TestReplayVerification:
    def test_valid_match_with_crawford(self) -> None:
        report = replay_mat(XG)
        assert report.valid, [str(e) for e in report.errors]
        assert report.score == (3, 2) and report.winner == 0
        assert report.crawford_game == 2
        assert [g.crawford for g in report.games] == [False, True, False, False]
        assert [(g.points, g.cube, g.how) for g in report.games] == [
            (2, 2, "drop"),
            (1, 1, "resign"),
            (1, 1, "drop"),
            (1, 1, "resign"),
        ]
        assert report.to_dict()["score"] == {"Alice": 3, "Bob": 2}

    def test_double_in_the_crawford_game(self) -> None:
        bad = replace_line(
            XG,
            "  2) 31: 8/5 6/5\n",
            "  2) 31: 8/5 6/5                     Doubles => 2\n",
        )
        report = replay_mat(bad)
        assert not report.valid
        err = report.errors[0]
        assert err.kind == "cube" and "Crawford" in err.message
        assert (err.game, err.line) == (
            2,
            bad.splitlines().index("  2) 31: 8/5 6/5                     Doubles => 2") + 1,
        )

    def test_double_out_of_turn(self) -> None:
        # Alice doubles right after her own roll: Bob is on roll
        bad = replace_line(
            XG,
            "  1) 31: 8/5 6/5                      Doubles => 2",
            "  1) 31: 8/5 6/5\n  2)  Doubles => 2",
        )
        report = replay_mat(bad)
        assert report.errors and report.errors[0].kind == "cube"
        assert report.errors[0].line == 13

    def test_wrong_wins(self) -> None:
        bad = replace_line(XG, "      Wins 2 points", "      Wins 1 point")
        report = replay_mat(bad)
        assert report.errors[0].kind == "result_mismatch"
        assert report.errors[0].line == 15

    def test_wrong_score_line(self) -> None:
        bad = replace_line(
            XG,
            " Alice : 2                           Bob : 0",
            " Alice : 1                           Bob : 0",
        )
        report = replay_mat(bad)
        assert report.errors[0].kind == "score_mismatch"
        assert (report.errors[0].game, report.errors[0].line) == (2, 18)

    def test_impossible_move_is_an_error(self) -> None:
        bad = replace_line(
            XG,
            "  1) 31: 8/5 6/5                      Doubles",
            "  1) 31: 7/4 6/5                      Doubles",
        )
        report = replay_mat(bad)
        assert report.errors[0].kind == "illegal"
        assert "no checker" in report.errors[0].message and report.errors[0].line == 12

    def test_illegal_move_stands_with_a_warning(self) -> None:
        # 31 played as 8/4 6/5 (a 4 and a 1): Bob doubles after it, so it stands
        bad = replace_line(
            XG,
            "  1) 31: 8/5 6/5                      Doubles",
            "  1) 31: 8/4 6/5                      Doubles",
        )
        report = replay_mat(bad)
        assert report.valid
        assert [(w.game, w.line) for w in report.warnings] == [(1, 12)]
        assert "stands" in report.warnings[0].message

    def test_and_the_match_may_be_left_out(self) -> None:
        # GNU Backgammon 1.07 writes the last game's "Wins N points" without it
        plain = replace_line(XG, "Wins 1 point and the match", "Wins 1 point")
        report = replay_mat(plain)
        assert report.valid and report.score == replay_mat(XG).score

    def test_and_the_match_before_the_end_is_wrong(self) -> None:
        text = XG.replace("Wins 2 points\n", "Wins 2 points and the match\n", 1)
        assert text != XG
        report = replay_mat(text)
        assert report.errors[0].kind == "result_mismatch"
        assert "'and the match' is wrong" in report.errors[0].message

    def test_game_after_the_match(self) -> None:
        extra = XG + "\n Game 5\n Alice : 3                           Bob : 2\n  1) 31: 8/5 6/5\n"
        report = replay_mat(extra)
        assert not report.valid
        assert (report.errors[0].kind, report.errors[0].game) == ("match", 5)


class TestMoveText:
    def test_bar_and_off_spellings(self) -> None:
        pos = START
        assert apply_move_text(pos, ("13/7(2)",)) == apply_move_text(pos, ("13/7", "13/7"))

    def test_point_that_does_not_exist(self) -> None:
        with pytest.raises(ImpossibleMoveError, match="does not exist"):
            apply_move_text(START, ("30/24",))

    def test_onto_a_held_point(self) -> None:
        with pytest.raises(ImpossibleMoveError, match="held"):
            apply_move_text(START, ("13/12",))  # the opponent's 13 is my 12


class TestClockLines:
    """A clocked match's times ride on a line of their own below each row (``backgammon.mat``:
    ``; [%clk 0h01m52s 0h01m40s]``, the left-hand player's first): read onto the row's
    actions, written back, a malformed one a warning, and never part of the match."""

    CLOCKED = replace_line(
        replace_line(
            replace_line(
                XG,
                "  1) 31: 8/5 6/5                      Doubles => 2\n",
                "  1) 31: 8/5 6/5                      Doubles => 2\n; [%clk 0h05m52s 0h05m40s]\n",
            ),
            "  2)  Takes                          64: 24/18 13/9\n",
            "  2)  Takes                          64: 24/18 13/9\n; [%clk 1h02m03.4s 0h04m59s]\n",
        ),
        "  2) 31: 8/5 6/5\n",
        "  2) 31: 8/5 6/5\n  ; [%CLK 0h03m00s 0h02m00s]\n",
    )

    def test_the_reader_puts_the_times_on_the_rows_actions(self) -> None:
        games = read_mat(self.CLOCKED).games
        assert [a.clock for a in games[0].actions[:4]] == [
            (352_000, 340_000),
            (352_000, 340_000),
            (3_723_400, 299_000),
            (3_723_400, 299_000),
        ]
        assert games[0].actions[4].clock is None  # row 3 has no clock line
        assert games[1].actions[1].clock == (180_000, 120_000)  # case and indent as they come
        # the times change neither the match nor its replay
        assert read_mat(self.CLOCKED) == read_mat(XG)
        clocked, bare = replay_mat(self.CLOCKED), replay_mat(XG)
        assert clocked.valid and clocked.warnings == []
        assert clocked.to_dict() == bare.to_dict()

    def test_the_writer_writes_a_clock_line_below_each_timed_row(self) -> None:
        text = write_mat(read_mat(self.CLOCKED))
        lines = text.splitlines()
        first = next(k for k, line in enumerate(lines) if line.startswith("  1) 31: 8/5 6/5"))
        assert lines[first + 1] == "; [%clk 0h05m52s 0h05m40s]"
        assert lines[first + 3] == "; [%clk 1h02m03s 0h04m59s]"  # whole seconds, as shown
        assert lines[first + 4].startswith("  3)")  # a row without times gets no line
        again = read_mat(text)
        assert again == read_mat(self.CLOCKED)
        assert [a.clock for a in again.games[0].actions[:2]] == [(352_000, 340_000)] * 2
        # the lines a replay names are the written ones, clock lines counted
        where = mat_action_lines(again)
        assert [lines[n - 1][:4] for n in where[0][:4]] == ["  1)", "  1)", "  2)", "  2)"]
        assert write_mat(read_mat(XG)) == write_mat(read_mat(write_mat(read_mat(XG))))

    def test_a_resignations_time_is_written_below_its_wins_line(self) -> None:
        record = read_mat(XG)
        game = record.games[3]
        last = game.actions[-1]
        timed = (
            *(replace(a, clock=(60_000, 50_000)) for a in game.actions[:-1]),
            replace(last, clock=(55_000, 50_000)),
        )
        games = (*record.games[:3], replace(game, actions=timed))
        text = write_mat(replace(record, games=games))
        assert "     Wins 1 point and the match\n; [%clk 0h00m55s 0h00m50s]\n" in text
        # the time of a turn that wrote a row is written once, below the row
        same = replace(last, clock=(60_000, 50_000))
        games = (*record.games[:3], replace(game, actions=(*timed[:-1], same)))
        assert write_mat(replace(record, games=games)).count("[%clk") == 2

    @pytest.mark.parametrize(
        "line",
        [
            "; [%clk 0:05:52 0:05:40]",  # PGN's spelling: gnubg reads 05: as a roll
            "; [%clk 0h05m52s]",  # one time
            "; [%clk 0h75m52s 0h05m40s]",
            "; [%clk soon]",
        ],
    )
    def test_a_malformed_clock_line_is_a_warning_and_ignored(self, line: str) -> None:
        text = replace_line(
            XG,
            "  1) 31: 8/5 6/5                      Doubles => 2\n",
            f"  1) 31: 8/5 6/5                      Doubles => 2\n{line}\n",
        )
        report = replay_mat(text)
        assert report.valid, report.errors
        assert [(w.msg.code, w.line) for w in report.warnings] == [("bg.read.clock", 13)]
        assert report.warnings[0].msg.params == {"text": repr(line)}
        assert report.games == replay_mat(XG).games
        assert read_mat(text).games[0].actions[0].clock is None

    def test_a_clock_line_below_no_row_is_a_warning(self) -> None:
        twice = "; [%clk 0h05m52s 0h05m40s]\n"
        text = replace_line(
            XG,
            "  1) 31: 8/5 6/5                      Doubles => 2\n",
            twice
            + "  1) 31: 8/5 6/5                      Doubles => 2\n"
            + twice
            + "; a remark, not a clock line: [%clk\n"  # other comments stay comments
            + twice,
        )
        report = replay_mat(text)
        assert report.valid, report.errors
        assert [(w.msg.code, w.line) for w in report.warnings] == [
            ("bg.read.clock", 12),  # below the score line
            ("bg.read.clock", 16),  # a second one below the same row
        ]
        assert read_mat(text).games[0].actions[0].clock == (352_000, 340_000)

    @pytest.mark.parametrize("seconds", [0, 59, 754, 3_599, 3_600, 45_296, 359_999])
    def test_a_clock_line_is_one_column_to_gnubg(self, seconds: int) -> None:
        """gnubg's ``ImportGame`` splits a line with two colons (or a double space past
        column 15) into two columns and reads after a ``)``; `` Game `` starts a game: a
        clock line has none of them, so gnubg skips it as one unrecognised entry."""
        line = clock_line((seconds * 1000, seconds * 1000 + 999))
        assert line.startswith("; [%clk ")
        assert ":" not in line and ")" not in line and "  " not in line
        assert " Game " not in line
        read = read_mat(f" 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n{line}\n")
        assert read.games[0].actions[0].clock == (seconds * 1000, seconds * 1000)
