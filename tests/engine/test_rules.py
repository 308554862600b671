"""One test class per rule of rules.md (R1–R15), on hand-built positions.

Positions use the record's ``Position:`` form (game-record.md), each side in its own
numbering. Worked examples of the sources are cited by file:

- ``001_*`` = Lyckans Talisman, *Regler för bräde* (``talisman``): the bear-off figures
  6-2, 5-3 (two) and 3-3 in "Hemspel", the jan figure in "Jan";
- ``000_*`` = Helmfrid, *Regler för bräde* (``helmfrid``): "Jan" — jan may be finished
  with the lower die alone;
- ``003_*`` = *The Board* rules (``board`` and "Vasa Competition Rules"): the entry
  example (5-2 enters and blasts, 4-2 cannot enter), bearing off from the back (6-3), the
  single crown with 5-1.

The sources' figures are lost in the text copies; the positions below are rebuilt from
the words, with the checkers the text does not mention placed where they cannot matter.
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalPlayError
from engine.game import Game
from engine.messages import Msg
from engine.movegen import legal_plays
from engine.position import Position
from engine.rules import RuleSet
from engine.types import Outcome, OutcomeKind, Pattern, Side, to_other_numbering

W, B = Side.WHITE, Side.BLACK


def rs(name: str = "talisman", *addons: str) -> RuleSet:
    return RuleSet.from_names(name, addons)


def plays(text: str, dice: tuple[int, ...], rules: RuleSet | None = None) -> set[str]:
    return {p.text() for p in legal_plays(Position.from_text(text), dice, rules or rs())}


def game(text: str, rules: RuleSet | None = None) -> Game:
    return Game(rules or rs(), position=Position.from_text(text))


def illegal(g: Game, dice: tuple[int, ...], steps: list[tuple[int, int]], pattern: str) -> None:
    with pytest.raises(IllegalPlayError, match=pattern):
        g.play_turn(dice, steps)


class TestR1Board:
    def test_numbering(self) -> None:
        assert to_other_numbering(1) == 13
        assert to_other_numbering(13) == 1
        assert to_other_numbering(24) == 12
        assert all(to_other_numbering(to_other_numbering(p)) == p for p in range(1, 25))

    def test_set_up(self) -> None:
        pos = Position.initial(W)
        for side in Side:
            assert pos.count(side, 1) == 15
            assert sum(pos.count(side, p) for p in range(0, 26)) == 15

    def test_one_point_holds_one_side(self) -> None:
        with pytest.raises(ValueError, match="both sides"):
            Position.from_text("W 1:14 13 | B 1:15 | W")

    def test_each_side_moves_in_its_own_numbering(self) -> None:
        # White's blot on its 14 is Black's point 2: Black's 1/2 hits it.
        g = game("W 1:14 14 | B 1:15 | B")
        result = g.play_turn((1, 3), [(1, 2), (1, 4)])
        assert result.play.steps[0].hit
        assert result.position.count(W, 0) == 1 and result.position.count(B, 2) == 1


class TestR2WhoStarts:
    def test_starter_moves_first(self) -> None:
        assert Game(rs(), starter=B).position.to_move is B
        g = Game(rs(), starter=W)
        g.play_turn((6, 5), [(1, 7), (7, 12)])
        assert g.position.to_move is B


class TestR3Rolls:
    @pytest.mark.parametrize("dice", [(7, 1), (0, 3), (1, 2, 3), ()])
    def test_bad_dice(self, dice: tuple[int, ...]) -> None:
        with pytest.raises(IllegalPlayError, match="R3"):
            Game(rs(), starter=W).play_turn(dice, [])

    def test_double_is_four_steps(self) -> None:
        assert plays(Position.initial(W).text(), (2, 2)) == {
            "1/3 3/5 5/7 7/9",
            "1/3 3/5 1/3 5/7",
        }

    def test_single_die_only_under_r13(self) -> None:
        illegal(Game(rs(), starter=W), (4,), [(1, 5)], "R13: White may not roll a single die")
        illegal(Game(rs("vasa"), starter=W), (4,), [(1, 5)], "R3: a single die is never")

    def test_more_steps_than_dice(self) -> None:
        illegal(Game(rs(), starter=W), (2, 1), [(1, 3), (3, 4), (4, 5)], "R3")


class TestR4Steps:
    # Black's band on its 16 is White's 4.
    POS = "W 1:15 | B 1:13 16:2 | W"

    def test_intermediate_point_must_be_open(self) -> None:
        assert plays(self.POS, (3, 2)) == {"1/3 3/6"}
        illegal(game(self.POS), (3, 2), [(1, 4), (4, 6)], r"R5\.1: White may not land on point 4")

    def test_hit_in_passing(self) -> None:
        g = game("W 1:15 | B 1:14 16 | W")  # a Black blot on White's 4
        result = g.play_turn((3, 2), [(1, 4), (4, 6)])
        assert result.play.text() == "1/4* 4/6"
        assert result.position.count(B, 0) == 1

    def test_die_follows_from_distance(self) -> None:
        illegal(Game(rs(), starter=W), (6, 5), [(1, 8)], "R4: no die of 6-5")
        illegal(Game(rs(), starter=W), (6, 5), [(7, 1)], "R4: .* does not move forward")


class TestR5Landing:
    def test_opponent_band_blocks(self) -> None:
        assert plays("W 1:15 | B 1:11 18:2 19:2 | W", (6, 5)) == {"-"}  # White's 6 and 7

    def test_blot_is_hit(self) -> None:
        g = game("W 1:14 3 | B 1:14 19 | W")  # Black's 19 = White's 7
        result = g.play_turn((4, 1), [(3, 7), (1, 2)])
        assert result.play.steps[0].hit and result.position.bar(B) == 1

    def test_no_band_on_2_to_11(self) -> None:
        assert plays(Position.initial(W).text(), (6, 6)) == {"1/7"}
        illegal(
            Game(rs(), starter=W),
            (6, 6),
            [(1, 7), (1, 7)],
            r"R5\.3: White may not make a band on point 7",
        )

    def test_band_on_huk_and_beyond_allowed(self) -> None:
        # R5.3: bands are allowed from the huk (12) on, never on 2–11.
        pos = "W 1:13 10 12 | B 1:15 | W"
        found = plays(pos, (2, 1))
        assert "10/12 1/2" in found  # the engine writes a play's steps in their order
        g = game(pos)
        result = g.play_turn((2, 1), [(10, 12), (1, 2)])
        assert result.position.count(W, 12) == 2
        g = game("W 1:13 12 16 | B 1:15 | W")
        result = g.play_turn((4, 1), [(12, 16), (1, 2)])
        assert result.position.count(W, 16) == 2
        illegal(
            game("W 1:12 3 10 12 | B 1:15 | W"),
            (2, 1),
            [(1, 3), (1, 2)],
            r"R5\.3: White may not make a band on point 3",
        )

    def test_home_band_is_never_remade(self) -> None:
        # R5.3 / R6: point 1 is reached only by entry, and entry onto own checkers is out.
        assert plays("W 1 5 14:12 bar:1 | B 1:15 | W", (1, 1)) == {"-"}
        illegal(
            game("W 1 5 14:12 bar:1 | B 1:15 | W"),
            (1, 2),
            [(0, 1)],
            "R6: White may not enter onto own",
        )

    def test_board_no_more_than_five_consecutive_bands(self) -> None:
        # White bands on 13–17 (Black's 1–5); 12/18 would make a sixth (Black's 6).
        pos = "W 1:3 12 13:2 14:2 15:2 16:2 17:2 18 | B 20:15 | W"
        assert not any(p.startswith("12/18") for p in plays(pos, (6, 1), rs("board")))
        assert any(p.startswith("12/18") for p in plays(pos, (6, 1), rs("talisman")))
        illegal(
            game(pos, rs("board")),
            (6, 1),
            [(12, 18), (1, 2)],
            r"R5 \(board\): White may not have more than five",
        )

    def test_board_runs_count_in_the_opponents_numbering(self) -> None:
        # White's 24 and 1 are Black's 12 and 13: consecutive for Black. Bands on 20–23
        # and 1, and 18/24 would make six in a row (Black's 8–13).
        pos = "W 1:2 20:2 21:2 22:2 23:2 24 18 | B 1:15 | W"
        illegal(game(pos, rs("board")), (6, 5), [(18, 24)], r"R5 \(board\)")
        assert any("18/24" in p for p in plays(pos, (6, 5), rs("talisman")))

    def test_board_run_limit_lifted_when_opponent_has_14_off(self) -> None:
        pos = "W 1:3 12 13:2 14:2 15:2 16:2 17:2 18 | B 20 | W"
        assert any(p.startswith("12/18") for p in plays(pos, (6, 1), rs("board")))


class TestR6Bar:
    def test_must_enter_first(self) -> None:
        pos = "W 1:14 bar:1 | B 1:15 | W"
        illegal(
            game(pos),
            (6, 5),
            [(1, 7), (0, 5)],
            r"R6: White has 1 checker on the bar and must enter",
        )
        # bar/5 5/11 and bar/6 6/11 end in the same position: one play (R8 counts
        # plays by their resulting position), written whichever way was found first.
        found = plays(pos, (6, 5))
        assert len(found) == 2 and "bar/5 1/7" in found
        assert found & {"bar/5 5/11", "bar/6 6/11"}
        assert all(p.startswith("bar/") for p in found)

    def test_dice_that_cannot_enter_are_forfeited(self) -> None:
        # Two on the bar; White's 3 holds a Black band (Black's 15): only the 2 enters.
        assert plays("W 1:13 bar:2 | B 1:13 15:2 | W", (3, 2)) == {"bar/2"}

    def test_dice_are_not_added_for_one_entry(self) -> None:
        illegal(game("W 1:14 bar:1 | B 1:15 | W"), (4, 3), [(0, 7)], "R4: no die of 4-3")


class TestR7BearingOff:
    def test_talisman_6_2(self) -> None:
        # 001_* Hemspel, upper left figure: blot on 21, band on 24, White rolls 6-2.
        pos = "W 21 24:2 | B 1:15 | W"
        assert plays(pos, (6, 2)) == {"21/off 24/off"}
        illegal(
            game(pos),
            (6, 2),
            [(21, 23), (23, 25)],
            "R8: White must play 5 points with 6-2 here, this play uses 4",
        )

    def test_talisman_5_3_munk(self) -> None:
        # 001_* upper right: the last checker on 20, a Black blot on White's 23 (Black's 11).
        pos = "W 20 | B 1:14 11 | W"
        assert plays(pos, (5, 3)) == {"20/off", "20/23* 23/off"}
        assert game(pos).play_turn((5, 3), [(20, 25)]).outcome == Outcome(W, OutcomeKind.HEMSPEL)
        result = game(pos).play_turn((5, 3), [(20, 23), (23, 25)])
        assert result.outcome == Outcome(W, OutcomeKind.HEMSPEL, munk=True)

    def test_talisman_5_3_must_not_waste(self) -> None:
        # 001_* lower left: 20/23 then 21/off (reduced) = 7 points; 20/off alone = 5.
        pos = "W 20 21:2 | B 1:13 12:2 | W"  # Black's band on White's 24 (Black's 12)
        assert plays(pos, (5, 3)) == {"20/23 21/off"}
        illegal(
            game(pos),
            (5, 3),
            [(20, 25)],
            "R8: White must play 7 points with 5-3 here, this play uses 5",
        )

    def test_talisman_3_3(self) -> None:
        # 001_* lower right: three 3s bear off from 22; the fourth is forfeited — 23 is not
        # the rearmost (21 is) so no reduced 3 from 23.
        pos = "W 21 22:3 23:2 | B 1:13 12:2 | W"
        assert plays(pos, (3, 3)) == {"22/off 22/off 22/off"}
        illegal(
            game(pos),
            (3, 3),
            [(22, 25), (22, 25), (22, 25), (23, 25)],
            "R7: a 3 bears White's checker off from point 23 only if it is the rearmost",
        )

    def test_not_all_home(self) -> None:
        illegal(
            game("W 18 22 | B 1:15 | W"),
            (3, 1),
            [(22, 25)],
            "R7: White may bear off only with every checker",
        )

    def test_hit_checker_must_come_home_first(self) -> None:
        # The entered checker is far from home: no bear-off with the rest of the roll.
        pos = "W 22 23 bar:1 | B 1:15 | W"
        found = plays(pos, (3, 2))
        assert "bar/3 22/24" in found and found & {"bar/3 3/5", "bar/2 2/5"}
        assert len(found) == 2 and not any("off" in p for p in found)
        illegal(game(pos), (3, 2), [(0, 2), (22, 25)], "R7: White may bear off only")

    def test_board_overshoot_from_any_point(self) -> None:
        pos = "W 20 23 | B 1:15 | W"
        assert "23/off 20/21" in plays(pos, (6, 1), rs("board"))
        assert not any(
            "23/off" in p for p in plays(pos, (6, 1), rs("talisman")) if "20/21" not in p
        )
        illegal(
            game(pos),
            (6, 1),
            [(23, 25), (20, 21)],
            "R7: a 6 bears White's checker off from point 23",
        )

    def test_vasa_from_the_back_6_3(self) -> None:
        # 003_* "Vasa Competition Rules": one on 19, one on 20, two on 21, the rest on 22;
        # 6-3 bears off 19 with the 6, then 20 or a 21 moves 3; 22/off is not allowed.
        pos = "W 19 20 21:2 22:11 | B 1:15 | W"
        vasa = plays(pos, (6, 3), rs("vasa"))
        assert {"19/off 20/23", "19/off 21/24"} <= vasa
        assert not any("22/off" in p for p in vasa)
        # rules.md R7/R8 (followed over the source's wording): 19/22 then 20/off (the 6
        # reduced, 20 now rearmost) uses both dice too, so it is legal under vasa.
        assert vasa == {"19/off 20/23", "19/off 21/24", "19/22 20/off"}
        illegal(
            game(pos, rs("vasa")),
            (6, 3),
            [(22, 25), (19, 25)],
            r"R7 \(vasa\): White may bear off only from the rearmost point \(19\), not from 22",
        )
        # talisman counts points: 19/22 20/off travels 8, less than 9.
        assert plays(pos, (6, 3)) >= {"19/off 20/23", "19/off 21/24", "19/off 22/off"}
        assert "19/22 20/off" not in plays(pos, (6, 3))


class TestR8HowMuch:
    # White's 6 and 7 are blocked (Black bands on its 18 and 19): home cannot move.
    POS = "W 1:14 18 | B 1:11 18:2 19:2 | W"

    def test_higher_die_when_only_one_can_be_played(self) -> None:
        assert plays(self.POS, (6, 5)) == {"18/24"}
        assert plays(self.POS, (6, 5), rs("board")) == {"18/24"}
        illegal(
            game(self.POS),
            (6, 5),
            [(18, 23)],
            r"R8: White must play 6 points with 6-5 here, this play uses 5 points \(e.g. 18/24\)",
        )
        illegal(
            game(self.POS, rs("vasa")), (6, 5), [(18, 23)], r"R8: White must play 1 die \(sum 6\)"
        )

    def test_both_dice_when_possible(self) -> None:
        illegal(Game(rs(), starter=W), (6, 5), [(1, 7)], "R8: White must play 11 points")

    def test_nothing_to_play(self) -> None:
        g = game("W 1:15 | B 1:11 18:2 19:2 | W")
        assert g.legal_plays((6, 5))[0].steps == ()
        result = g.play_turn((6, 5), [])
        assert result.play.text() == "-" and result.position.to_move is B

    # White's 6s are blocked (Black's bands on White's 9 and 11, 24/off not yet) until
    # 5/8* opens 8/14; 5/8* hits and makes Black jan (its Q1 is full).
    GAME_ENDS = "W 3 5 24:13 | B 1 2 3 4 5 6 13:2 20 21:2 23:2 24:2 | W"

    def test_the_maximum_counts_on_past_a_step_that_ends_the_game(self) -> None:
        # rules.md R8 "a step that ends the game": 5/8* 8/14* is the maximum, 5/8* wins at
        # once, 3/6 alone falls short although no play that goes on uses more.
        for rules in (rs("talisman"), rs("helmfrid"), rs("board"), rs("vasa")):
            assert plays(self.GAME_ENDS, (6, 3), rules) == {"5/8*"}, rules
            result = game(self.GAME_ENDS, rules).play_turn((6, 3), [(5, 8)])
            assert result.outcome == Outcome(W, OutcomeKind.JAN)
        example = "e.g. 5/8* 8/14*, counted as if the game went on after 5/8*, which ends it"
        with pytest.raises(IllegalPlayError) as talisman:
            game(self.GAME_ENDS).play_turn((6, 3), [(3, 6)])
        assert talisman.value.msg.text() == (
            f"R8: White must play 9 points with 6-3 here, this play uses 3 points ({example})"
        )
        with pytest.raises(IllegalPlayError) as vasa:
            game(self.GAME_ENDS, rs("vasa")).play_turn((6, 3), [(3, 6)])
        # the example uses the two dice the refusal names
        assert vasa.value.msg.text() == (
            "R8: White must play 2 dice (sum 9) with 6-3 here, this play uses 1 die (sum 3) "
            f"({example})"
        )
        nested = vasa.value.msg.params["example"]
        assert isinstance(nested, Msg) and nested.params == {"play": "5/8* 8/14*", "end": "5/8*"}

    def test_pips_versus_dice(self) -> None:
        # 6-2 example of 001_*: board counts dice (both used either way), talisman points.
        pos = "W 21 24:2 | B 1:15 | W"
        assert "21/23 23/off" in plays(pos, (6, 2), rs("board"))
        assert "21/23 23/off" not in plays(pos, (6, 2), rs("talisman"))


class TestR9Blasting:
    # Black bands on its 19–24 = White's 7–12: a run of six.
    BLOCKADE = "W 1:14 5 | B 1:3 19:2 20:2 21:2 22:2 23:2 24:2 | W"

    def test_blockade_blasting(self) -> None:
        g = game(self.BLOCKADE)
        result = g.play_turn((3, 1), [(5, 8), (1, 2)])
        assert result.play.steps[0].blast
        assert result.position.bar(B) == 2

    def test_right_ends_when_run_is_broken(self) -> None:
        # Black's home holds a blot only, so the run is White's 7–12 alone. After blasting
        # 7 the run is 8–12 (five): 7/9 may not blast again.
        pos = "W 1:14 5 | B 1 2 3 19:2 20:2 21:2 22:2 23:2 24:2 | W"
        illegal(game(pos), (2, 2), [(5, 7), (7, 9)], r"R5\.1: White may not land on point 9")

    def test_home_band_keeps_the_run_alive(self) -> None:
        # With Black's home band (White's 13) the run after blasting 7 is 8–13: six, so
        # 7/9 blasts again.
        result = game(self.BLOCKADE).play_turn((2, 2), [(5, 7), (7, 9), (1, 3), (3, 5)])
        assert [s.blast for s in result.play.steps[:2]] == [True, True]
        assert result.position.bar(B) == 4

    def test_right_exists_with_other_moves_available(self) -> None:
        assert "5/8* 1/2" in plays(self.BLOCKADE, (3, 1))
        assert "1/4 1/2" in plays(self.BLOCKADE, (3, 1))

    def test_run_may_include_the_opponents_home(self) -> None:
        # Black's bands on 20–24 (White 8–12) and its home (White 13): six in a row.
        pos = "W 1:14 7 | B 1:5 20:2 21:2 22:2 23:2 24:2 | W"
        assert "7/13* 1/2" in plays(pos, (6, 1))  # the engine writes the 6 first

    def test_board_has_no_blockade_blasting(self) -> None:
        assert not any("5/8" in p for p in plays(self.BLOCKADE, (3, 1), rs("board")))

    def test_r9c_fourteen_off_never_blasts(self) -> None:
        pos = "W 5 | B 1:3 19:2 20:2 21:2 22:2 23:2 24:2 | W"
        assert plays(pos, (3, 2)) == {"-"}
        illegal(game(pos), (3, 2), [(5, 8)], r"R9\(c\): White has borne off 14")

    # 003_* entry example: three on the bar, three at home, a blot on 6; Black bands on
    # White's 2, 3, 4 (Black's 14, 15, 16).
    ENTRY = "W 1:3 6 14:8 bar:3 | B 1:9 14:2 15:2 16:2 | W"

    def test_board_entry_example(self) -> None:
        board = rs("board")
        assert plays(self.ENTRY, (5, 2), board) == {"bar/5 bar/2*"}
        assert plays(self.ENTRY, (4, 2), board) == {"-"}
        result = game(self.ENTRY, board).play_turn((5, 2), [(0, 5), (0, 2)])
        assert result.play.steps[1].blast and result.position.bar(B) == 2

    def test_entry_blasting_talisman_and_easy_reentry(self) -> None:
        # more on the bar (3) than free points (1): blast at once
        for rules in (rs("talisman"), rs("board", "easy-reentry"), rs("vasa"), rs("helmfrid")):
            assert plays(self.ENTRY, (4, 2), rules) == {"bar/4* bar/2*"}, rules

    def test_higher_die_when_the_right_ends_after_one_blast(self) -> None:
        # Two on the bar, one free point (5); bands on 3 and 4. After one blast the bar
        # holds 1 and one point is free: the right ends, the lower die is forfeited.
        pos = "W 1:10 2 6 14 bar:2 | B 1:11 15:2 16:2 | W"
        assert plays(pos, (4, 3)) == {"bar/4*"}
        illegal(game(pos), (4, 3), [(0, 3)], "R8: White must play 4 points with 4-3")


class TestR10Jan:
    def test_jan_example(self) -> None:
        # 001_* "Jan": four White checkers on the bar, three Q1 points held by White.
        pos = Position.from_text("W 1:8 3 5 14 bar:4 | B 1:15 | B")
        assert pos.is_jan(W)
        assert not Position.from_text("W 1:9 3 14 bar:4 | B 1:15 | B").is_jan(W)
        with pytest.raises(ValueError, match="jan"):
            Game(rs(), position=pos)

    # Black: three on the bar, its 1, 2, 3 held (three free points); a Black blot on
    # White's 3 and bands on White's 7 and 9. White's 2/3* makes Black jan with the 1,
    # after which the 6 could not be played; 2/8 1/2 uses both dice (7 points).
    R10 = "W 1:14 2 | B 1:5 2 3 15 19:2 21:2 bar:3 | W"

    def test_talisman_jan_must_begin_an_r8_play(self) -> None:
        # 001_* "Jan": jan only with a play that uses as much of the roll as possible.
        assert plays(self.R10, (6, 1), rs("talisman")) == {"2/8 1/2"}
        illegal(
            game(self.R10, rs("talisman")),
            (6, 1),
            [(2, 3)],
            "R10: under talisman a jan must come from a play that satisfies R8",
        )

    def test_helmfrid_jan_with_the_lower_die_alone(self) -> None:
        # 000_* "Jan": "Det är tillåtet att avsluta en jan med den tärning som visar minst".
        for rules in (rs("helmfrid"), rs("board"), rs("vasa")):
            assert plays(self.R10, (6, 1), rules) == {"2/8 1/2", "2/3*"}, rules
        result = game(self.R10, rs("helmfrid")).play_turn((6, 1), [(2, 3)])
        assert result.outcome == Outcome(W, OutcomeKind.JAN)
        assert result.position.to_move is W

    def test_steps_after_jan_are_illegal(self) -> None:
        pos = "W 1:14 2 | B 1:5 2 3 15 21:2 bar:3 | W"  # now 3/9 is open
        illegal(game(pos, rs("helmfrid")), (6, 1), [(2, 3), (3, 9)], "R10: the game ended with jan")

    SPRANG = "W 1:10 4 5 6 bar:2 | B 1:7 2 3 14:2 15:2 bar:2 | W"

    def test_sprangjan(self) -> None:
        # White's Q1 is full (bands of Black on 2 and 3): White blasts by entry, and the
        # two blasted checkers make Black jan.
        result = game(self.SPRANG).play_turn((2, 1), [(0, 2)])
        assert result.outcome == Outcome(W, OutcomeKind.SPRANGJAN)
        assert plays(self.SPRANG, (3, 2)) == {"bar/3*", "bar/2*"}

    def test_blast_then_hit_is_plain_jan(self) -> None:
        pos = "W 1:11 4 5 6 bar:1 | B 1:7 2 3 14:2 15:2 20 bar:1 | W"
        result = game(pos).play_turn((2, 2), [(0, 2), (6, 8)])
        assert result.play.steps[0].blast and result.play.steps[1].hit
        assert result.outcome == Outcome(W, OutcomeKind.JAN)


class TestR11Hemspel:
    def test_last_checker_ends_the_game(self) -> None:
        result = game("W 23 24 | B 1:15 | W").play_turn((2, 1), [(23, 25), (24, 25)])
        assert result.outcome == Outcome(W, OutcomeKind.HEMSPEL)

    def test_munk(self) -> None:
        result = game("W 24 | B 1:14 bar:1 | W").play_turn((3, 1), [(24, 25)])
        assert result.outcome == Outcome(W, OutcomeKind.HEMSPEL, munk=True)

    def test_board_single_die_may_finish(self) -> None:
        # R11: the 6 alone bears the last checker off although 20/21/off uses both dice;
        # both end in the same position, so they are one play.
        assert plays("W 20 | B 1:15 | W", (6, 1), rs("board")) == {"20/off"}
        for steps in ([(20, 25)], [(20, 21), (21, 25)]):
            result = game("W 20 | B 1:15 | W", rs("board")).play_turn((6, 1), steps)
            assert result.outcome == Outcome(W, OutcomeKind.HEMSPEL)
        illegal(
            game("W 20 | B 1:15 | W", rs("board")),
            (6, 1),
            [(20, 25), (20, 21)],
            "R11: the game ended with hemspel",
        )


class TestR12VackertSpel:
    # Single crown but one checker: 3 each on 20–23, 2 on 24, the blot on 19.
    CROWN = "W 19 20:3 21:3 22:3 23:3 24:2 | B 1:15 | W"

    def test_vasa_single_crown_5_1(self) -> None:
        # 003_* Vasa: 19/24 with the 5 completes the single crown and ends the game; the 1
        # may not be played after it. 19/20 then 20/off is legal too.
        vasa = rs("vasa")
        assert {"19/24", "19/20 20/off"} <= plays(self.CROWN, (5, 1), vasa)
        result = game(self.CROWN, vasa).play_turn((5, 1), [(19, 24)])
        assert result.outcome == Outcome(W, OutcomeKind.VACKERT_SPEL, Pattern.ENKELT_KRONSPEL)
        illegal(
            game(self.CROWN, vasa),
            (5, 1),
            [(19, 24), (20, 21)],
            "R12: the game ended with vackert spel",
        )

    def test_talisman_needs_the_whole_roll(self) -> None:
        result = game(self.CROWN).play_turn((5, 1), [(19, 24), (20, 21)])
        assert result.outcome is None
        illegal(game(self.CROWN), (5, 1), [(19, 24)], "R8")

    def test_talisman_pattern_at_the_end_of_a_double(self) -> None:
        # Staircase (3, 5, 7 on 22, 23, 24) standing after all four 1s are played.
        pos = "W 20 22:3 23:5 24:6 | B 1:15 | W"
        result = game(pos).play_turn((1, 1), [(20, 21), (21, 22), (22, 23), (23, 24)])
        assert result.outcome == Outcome(W, OutcomeKind.VACKERT_SPEL, Pattern.TRAPPSPEL)
        # The same roll played otherwise (a checker off from 24) leaves no pattern.
        result = game(pos).play_turn((1, 1), [(20, 21), (21, 22), (22, 23), (24, 25)])
        assert result.outcome is None and result.position.borne_off(W) == 1

    def test_pattern_in_mid_double_must_play_on(self) -> None:
        # 18/24 forms the double crown with the first 6, but three 6s are left: under
        # talisman they must be played (bearing off), which ends the pattern.
        pos = "W 22:5 23:5 24:4 18 | B 1:14 bar:1 | W"
        illegal(game(pos), (6, 6), [(18, 24)], "R8: White must play")
        result = game(pos).play_turn((6, 6), [(18, 24), (22, 25), (22, 25), (22, 25)])
        assert result.outcome is None
        # Under vasa the step that forms the pattern ends the game, with munk.
        result = game(pos, rs("vasa")).play_turn((6, 6), [(18, 24)])
        assert result.outcome == Outcome(
            W, OutcomeKind.VACKERT_SPEL, Pattern.DUBBELT_KRONSPEL, munk=True
        )

    def test_vackert_with_munk(self) -> None:
        pos = "W 22:5 23:5 24:4 19 | B 1:14 bar:1 | W"
        result = game(pos).play_turn((5,), [(19, 24)])
        assert result.outcome == Outcome(
            W, OutcomeKind.VACKERT_SPEL, Pattern.DUBBELT_KRONSPEL, munk=True
        )

    def test_uppspel(self) -> None:
        pos = "W 24:14 23 | B 1:15 | W"
        result = game(pos, rs("vasa")).play_turn((1, 1), [(23, 24)])
        assert result.outcome == Outcome(W, OutcomeKind.VACKERT_SPEL, Pattern.UPPSPEL)

    def test_no_pattern_after_bearing_off(self) -> None:
        # 14 checkers left (one borne off): 3-5-6 would be a staircase with the 15th.
        pos = "W 22:3 23:5 24:5 21 | B 1:15 | W"
        assert game(pos).single_die() == "forbidden"
        # 21/24 makes 3-5-6: a staircase but for the checker that is off; no win.
        result = game(pos, rs("vasa")).play_turn((3, 1), [(21, 24), (22, 23)])
        assert result.outcome is None


class TestR13OneDie:
    CROWN = TestR12VackertSpel.CROWN

    def test_condition(self) -> None:
        assert game(self.CROWN).single_die() == "allowed"
        assert Game(rs(), starter=W).single_die() == "forbidden"
        assert game(self.CROWN, rs("board")).single_die() == "forbidden"
        assert game(self.CROWN, rs("vasa")).single_die() == "forbidden"
        assert game(self.CROWN, rs("board", "one-die")).single_die() == "allowed"

    def test_single_die_win(self) -> None:
        result = game(self.CROWN).play_turn((5,), [(19, 24)])
        assert result.outcome == Outcome(W, OutcomeKind.VACKERT_SPEL, Pattern.ENKELT_KRONSPEL)

    def test_series_of_three(self) -> None:
        # Black's runner on its 13 (White's 1) moves where White has nothing.
        g = game(self.CROWN.replace("B 1:15", "B 1:14 13"))
        g.play_turn((2,), [(19, 21)])  # no win: two more single-die turns
        g.play_turn((2, 1), [(13, 15), (15, 16)])  # Black
        assert g.single_die() == "required"
        illegal(g, (6, 5), [(21, 25)], "R13: White must roll a single die this turn")
        g.play_turn((1,), [(20, 21)])
        g.play_turn((2, 1), [(16, 18), (18, 19)])
        assert g.single_die() == "required"  # even though no pattern is in reach
        g.play_turn((1,), [(21, 22)])
        g.play_turn((2, 1), [(19, 21), (21, 22)])
        assert g.single_die() == "forbidden"  # series over, no pattern in reach
        assert g.position.state(W).single_die_left == 0

    def test_board_one_die_series_as_long_as_the_die(self) -> None:
        g = game(self.CROWN, rs("board", "one-die"))
        g.play_turn((3,), [(19, 22)])
        assert g.position.state(W).single_die_left == 3


class TestR14Resigning:
    def test_initial_position_may_resign(self) -> None:
        assert Game(rs(), starter=W).resign() == Outcome(B, OutcomeKind.UPPGIVET)

    def test_band_on_13_to_24_ever(self) -> None:
        g = game("W 1:13 8 9 | B 1:15 | W")
        g.play_turn((6, 5), [(8, 14), (9, 14)])
        g.play_turn((6, 5), [(1, 7), (7, 12)])
        assert g.position.state(W).ever_band_13_24
        with pytest.raises(
            IllegalPlayError, match="R14: White may not resign: White has had a band"
        ):
            g.resign()

    def test_janblotta_tracked_through_the_game(self) -> None:
        # Blots on 8, 9, 10 and Q1 points 1, 2 held: 3 exposed, not more than 6 - 2.
        g = game("W 1:11 2 8 9 10 | B 1:15 | W")
        assert g.can_resign()
        g.play_turn((6, 5), [(1, 7), (1, 6)])  # 4 exposed > 6 - 3: the janblotta is out
        g.play_turn((6, 5), [(1, 7), (7, 12)])  # Black
        assert g.position.state(W).ever_janblotta and not g.can_resign()
        with pytest.raises(IllegalPlayError, match=r"R14: White may not resign: .*janblotta"):
            g.resign()

    def test_a_band_made_and_broken_in_one_roll_counts(self) -> None:
        g = game("W 1:13 12 14 | B 1:15 | W")
        assert g.can_resign()
        g.play_turn((2, 1), [(12, 14), (14, 15)])  # a band on 14, broken by the 1
        assert g.position.count(W, 14) == 1 and g.position.count(W, 15) == 1
        g.play_turn((6, 5), [(1, 7), (7, 12)])  # Black
        with pytest.raises(IllegalPlayError, match=r"R14: White may not resign: .*band"):
            g.resign()

    def test_janblotta_from_a_position(self) -> None:
        # one on the bar + five blots outside Q1 > 6 - 1 (home only)
        g = game("W 1:9 8 9 10 14 15 bar:1 | B 1:15 | W")
        with pytest.raises(IllegalPlayError, match="janblotta"):
            g.resign()

    def test_only_at_the_start_of_own_turn_and_game_not_over(self) -> None:
        g = game("W 24 | B 1:15 | W")
        g.play_turn((3, 1), [(24, 25)])
        with pytest.raises(IllegalPlayError, match="over"):
            g.resign()


class TestR15BoardAddOns:
    ALL = ("double-six", "easy-reentry", "one-die")

    def test_double_six_stack(self) -> None:
        g = Game(rs("board", *self.ALL), starter=W)
        assert "1/7 1/7 1/7 1/7 1/7 1/7" in {p.text() for p in g.legal_plays((6, 6))}
        result = g.play_turn((6, 6), [(1, 7)] * 6)
        assert result.position.count(W, 7) == 6 and result.position.state(W).stack_on_7

    def test_stack_is_hit_as_a_whole(self) -> None:
        # R15: the stack is not a band. White's 7 is Black's 19: Black's 15/19* hits all
        # six checkers of the stack, and White (six on the bar, only point 1 held in Q1)
        # is jan at once.
        g = Game(rs("board", "double-six"), starter=W)
        g.play_turn((6, 6), [(1, 7)] * 6)
        assert g.position.state(W).stack_on_7
        g.play_turn((3, 1), [(1, 4), (4, 5)])  # Black's first roll
        g.play_turn((2, 1), [(1, 3), (3, 4)])  # White
        result = g.play_turn((6, 4), [(5, 11), (11, 15)])  # Black, now on its 15
        assert result.outcome is None
        g.play_turn((2, 1), [(1, 2), (4, 6)])  # White keeps the stack on 7
        assert g.position.count(W, 7) == 6
        result = g.play_turn((4, 1), [(15, 19)])
        assert result.play.steps[0].hit and not result.play.steps[0].blast
        assert result.position.bar(W) == 6 and result.position.count(W, 7) == 0
        assert result.outcome == Outcome(B, OutcomeKind.JAN)

    def test_a_band_on_7_is_not_a_stack_elsewhere(self) -> None:
        # Without the add-on the same six checkers could never stand on 7 (R5.3).
        with pytest.raises(ValueError, match=r"R5\.3"):
            Game(rs("board"), position=Position.from_text("W 1:9 7:6 | B 1:15 | B"))

    def test_opponent_double_six_sends_the_stack_home(self) -> None:
        g = Game(rs("board", "double-six"), starter=W)
        g.play_turn((6, 6), [(1, 7)] * 6)
        g.play_turn((6, 6), [(1, 7)] * 6)
        assert g.position.count(W, 7) == 0 and g.position.count(W, 1) == 15
        assert g.position.count(B, 7) == 6

    def test_not_without_the_addon_or_after_the_first_roll(self) -> None:
        illegal(Game(rs("board"), starter=W), (6, 6), [(1, 7)] * 6, "R3")
        g = Game(rs("board", "double-six"), starter=W)
        g.play_turn((2, 1), [(1, 3), (3, 4)])
        g.play_turn((2, 1), [(1, 3), (3, 4)])
        illegal(g, (6, 6), [(1, 7)] * 6, "R3")

    def test_easy_reentry(self) -> None:
        pos = TestR9Blasting.ENTRY
        assert plays(pos, (4, 2), rs("board")) == {"-"}
        assert plays(pos, (4, 2), rs("board", "easy-reentry")) == {"bar/4* bar/2*"}

    def test_vasa_has_easy_reentry_and_no_one_die(self) -> None:
        assert rs("vasa").easy_reentry and rs("vasa").r13_mode == "none"
