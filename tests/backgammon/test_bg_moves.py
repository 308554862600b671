"""``bg_moves``: its pure core and the management command."""

from __future__ import annotations

import io
import json
import sys

import pytest
from django.core.management import CommandError, call_command

from backgammon.errors import PositionError
from backgammon.position import Position
from backgammon.tools import bg_moves, bg_moves_line


class TestBgMovesCore:
    def test_opening_31_sorted_ids(self) -> None:
        ids = json.loads(bg_moves_line("4HPwATDgc/ABMA 3 1"))
        assert len(ids) == 16 and ids == sorted(ids)
        assert "4HPwATDgc/ABMA" not in ids

    def test_dice_order_does_not_matter(self) -> None:
        assert bg_moves_line("4HPwATDgc/ABMA 1 3") == bg_moves_line("4HPwATDgc/ABMA 3 1")

    def test_one_result(self) -> None:
        # gnubg show-board example: 66 bears off four checkers, one way only
        assert json.loads(bg_moves_line("AgAAPBcAAAAAAA 6 6")) == ["AgAAPAAAAAAAAA"]

    def test_no_play_lists_the_position_itself(self) -> None:
        closed = (2, 2, 2, 2, 2, 2) + (0,) * 19  # the opponent's closed board
        pos = Position((0,) * 24 + (1,), closed)  # my one checker on the bar
        assert json.loads(bg_moves_line(f"{pos.position_id()} 6 5")) == [pos.position_id()]

    def test_blank_lines_skipped_and_errors_name_the_line(self) -> None:
        assert len(list(bg_moves(["4HPwATDgc/ABMA 3 1", "", "4HPwATDgc/ABMA 6 6"]))) == 2
        with pytest.raises(PositionError) as info:
            list(bg_moves(["4HPwATDgc/ABMA 3 1", "4HPwATDgc/ABMA 7 1"]))
        assert info.value.line == 2


class TestBgMovesCommand:
    def test_reads_stdin_writes_json_lines(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("4HPwATDgc/ABMA 3 1\n4HPwATDgc/ABMA 6 5\n"))
        out = io.StringIO()
        call_command("bg_moves", stdout=out)
        lines = out.getvalue().splitlines()
        assert len(lines) == 2
        assert lines[0] == bg_moves_line("4HPwATDgc/ABMA 3 1")

    def test_bad_line_is_a_command_error(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("nonsense\n"))
        with pytest.raises(CommandError, match="line 1"):
            call_command("bg_moves", stdout=io.StringIO())
