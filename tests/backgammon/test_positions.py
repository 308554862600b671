"""Positions, legal plays (seed 002, "Flyt af brikker"…), Position ID and Match ID."""

from __future__ import annotations

import pytest

from backgammon.cube import Win, win_kind
from backgammon.errors import BackgammonError, PositionError
from backgammon.matchid import GameState, MatchState
from backgammon.movegen import legal_plays, legal_results
from backgammon.position import BAR, OFF, START, Position


def side(**points: int) -> tuple[int, ...]:
    """25 counts (points 1–24, bar) from keywords p6=5, bar=1."""
    counts = [0] * 25
    for name, n in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = n
    return tuple(counts)


def board(me: dict[str, int], opp: dict[str, int]) -> Position:
    return Position(side(**me), side(**opp))


def done() -> tuple[int, ...]:
    return Position(side(), side(p1=1)).me


START_POINTS = {"p24": 2, "p13": 5, "p8": 3, "p6": 5}


class TestPositionModel:
    def test_start_position(self) -> None:
        assert START.me == (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, *[0] * 10, 2, 0)
        assert START.pips() == (167, 167)

    def test_fewer_than_fifteen_are_borne_off(self) -> None:
        pos = board({"p1": 3}, {"p1": 1})
        assert pos.borne_off() == (12, 14)

    def test_sixteen_checkers_is_an_error(self) -> None:
        with pytest.raises(PositionError):
            board({"p1": 16}, {"p1": 1})

    def test_two_colours_on_one_point_is_an_error(self) -> None:
        with pytest.raises(PositionError, match="both sides"):
            board({"p6": 1}, {"p19": 1})  # my 6 is the opponent's 19

    def test_errors_are_value_errors(self) -> None:
        assert issubclass(PositionError, ValueError)
        assert issubclass(PositionError, BackgammonError)


class TestPositionId:
    def test_start_position_id(self) -> None:
        assert START.position_id() == "4HPwATDgc/ABMA"
        assert Position.from_id("4HPwATDgc/ABMA") == START

    def test_gnubg_show_board_example(self) -> None:
        # gnubg `show board` (X on roll, resigning): X has 4 on the 1 point, 3 on the 2,
        # 1 on the 3; O one checker on its 2 point (X's 23).
        pos = Position.from_id("AgAAPBcAAAAAAA")
        assert pos.me[1:4] == (4, 0, 3) and pos.me[4] == 1
        assert pos.opp[2] == 1 and sum(pos.opp[1:]) == 1

    def test_player_on_roll_is_encoded_second(self) -> None:
        # the gnubg code's order: opponent's checkers first, then the player on roll's
        pos = board({"p24": 15}, {"p6": 15})
        assert pos.position_id() == "4P8PAAAAAID/Pw"

    def test_round_trip_and_text(self) -> None:
        pos = board({"p3": 2, "bar": 1, "p20": 4}, {"p1": 5, "p12": 1})
        assert Position.from_text(pos.text()) == pos

    @pytest.mark.parametrize("bad", ["", "4HPwATDgc/AB", "4HPwATDgc/AB!A", "//////////////"])
    def test_bad_ids(self, bad: str) -> None:
        with pytest.raises(PositionError):
            Position.from_id(bad)


class TestMatchId:
    def test_gnubg_example(self) -> None:
        # gnubg `show board`: 5 point match, O 2 points, X 4, X owns a 2-cube, X on roll
        # resigns a single game, O to decide
        state = MatchState.from_id("USGgACAAIAAE")
        assert state.match_length == 5
        assert state.score == (2, 4)
        assert (state.cube, state.cube_owner) == (2, 1)
        assert (state.on_roll, state.turn, state.resignation) == (1, 0, 1)
        assert state.game_state is GameState.PLAYING

    @pytest.mark.parametrize("mid", ["USGgACAAIAAE", "cAkAAAAAAAAA", "8IhuACAACAAE"])
    def test_round_trip(self, mid: str) -> None:
        assert MatchState.from_id(mid).match_id() == mid

    def test_writes_every_field(self) -> None:
        state = MatchState(
            match_length=25,
            score=(24, 13),
            cube=256,
            cube_owner=0,
            on_roll=1,
            turn=0,
            crawford=True,
            game_state=GameState.PLAYING,
            double_offered=True,
            resignation=0,
            dice=(6, 3),
        )
        assert MatchState.from_text(state.text()) == state

    @pytest.mark.parametrize("bad", ["short", "USGgACAAIAA!", "////////////"])
    def test_bad_ids(self, bad: str) -> None:
        with pytest.raises(PositionError):
            MatchState.from_id(bad)

    def test_cube_must_be_a_power_of_two(self) -> None:
        with pytest.raises(PositionError):
            MatchState(cube=3)


def results(pos: Position, d1: int, d2: int) -> set[tuple[int, ...]]:
    return {r.me for r in legal_results(pos, d1, d2)}


def moved(pos: Position, *steps: tuple[int, int]) -> tuple[int, ...]:
    me = list(pos.me)
    for src, dst in steps:
        me[src] -= 1
        me[dst] += 1
    return tuple(me)


class TestMovingRules:
    """Seed 002, "Flyt af brikker", rules 1–6."""

    def test_opening_54_either_one_checker_or_two(self) -> None:
        # rule 3: 54 may be played 24/15 or 24/20 13/8
        found = results(START, 5, 4)
        assert moved(START, (24, 20), (20, 15)) in found
        assert moved(START, (24, 20), (13, 8)) in found

    def test_one_checker_must_touch_down_on_an_open_point(self) -> None:
        # rule 4, diagram 2: White opened 31 with 8/5 6/5 (our 17/20 19/20 from Black's
        # side); Black's 54 cannot be played 24/15: both 20 and 19 are covered
        opp = dict(START_POINTS)
        opp.update(p8=2, p6=4, p5=2)
        pos = board(START_POINTS, opp)
        assert moved(pos, (24, 20), (20, 15)) not in results(pos, 5, 4)
        assert moved(pos, (24, 19), (19, 15)) not in results(pos, 5, 4)

    def test_doubles_are_played_four_times(self) -> None:
        # rule 5: with 66 in diagram 2, 24/18 24/18 13/7 13/7
        opp = dict(START_POINTS)
        opp.update(p8=2, p6=4, p5=2)
        pos = board(START_POINTS, opp)
        assert moved(pos, (24, 18), (24, 18), (13, 7), (13, 7)) in results(pos, 6, 6)
        assert all(sum(r.me[1:]) == 15 for r in legal_results(pos, 6, 6))
        assert all(len(p.steps) == 4 for p in legal_plays(pos, 6, 6))

    def test_both_dice_when_possible(self) -> None:
        # rule 6: the opponent holds my 12 (its 13), so the 1 cannot be played first, but
        # 13/7 then 7/6 uses both dice, and so must be played
        pos = board({"p13": 1}, {"p13": 2})
        assert results(pos, 6, 1) == {moved(pos, (13, 6))}
        assert [len(p.steps) for p in legal_plays(pos, 6, 1)] == [2]

    def test_higher_die_when_only_one_can_be_played(self) -> None:
        # rule 6: one checker on 10; the opponent holds my 3 (its 22), so 10/4 (6) or
        # 10/9 (1), never both (10/4/3 and 10/9/3 are blocked): the higher die
        pos = board({"p10": 1}, {"p22": 2})
        assert results(pos, 6, 1) == {moved(pos, (10, 4))}

    def test_higher_die_with_two_checkers_outside(self) -> None:
        # the same rule where both checkers are outside the home board (the generator's
        # common path): the opponent holds my 3, 14 and 19 (its 22, 11, 6), so 10/4 or
        # 10/9 can be played, and 20 cannot move; no play uses both dice
        pos = board({"p10": 1, "p20": 1}, {"p22": 2, "p11": 2, "p6": 2})
        assert results(pos, 6, 1) == {moved(pos, (10, 4))}
        assert results(pos, 1, 6) == {moved(pos, (10, 4))}

    def test_lower_die_when_the_higher_cannot_be_played(self) -> None:
        # my 4 and 3 held (its 21 and 22): the 6 cannot be played, nor the 1 then the 6
        pos = board({"p10": 1}, {"p22": 2, "p21": 2})
        assert results(pos, 6, 1) == {moved(pos, (10, 9))}

    def test_no_play_passes_the_turn(self) -> None:
        pos = board({"bar": 1, "p6": 2}, {"p4": 2, "p3": 2})  # my 21 and 22 held
        assert legal_results(pos, 4, 3) == [pos]
        assert legal_plays(pos, 4, 3)[0].steps == ()


class TestBarAndHits:
    """Seed 002, "At slå en brik"."""

    def test_a_blot_is_hit_and_goes_to_the_bar(self) -> None:
        pos = board({"p13": 1, "p6": 2}, {"p17": 1})  # its 17 is my 8
        hits = [r for r in legal_results(pos, 5, 1) if r.opp[BAR] == 1]
        assert hits and all(r.opp[17] == 0 for r in hits)

    def test_enter_from_the_bar_first(self) -> None:
        # diagram 3: with 61 the checker enters on the 24 point, then a 6 is played
        # White's 4-point block on its 3–6 points (my 22–19): the 6 cannot enter
        pos = board({"bar": 1, "p10": 2, "p6": 3}, {"p3": 2, "p4": 2, "p5": 2, "p6": 2})
        plays = legal_plays(pos, 6, 1)
        assert plays
        for play in plays:
            assert (play.steps[0].src, play.steps[0].dst) == (BAR, 24)
            assert len(play.steps) == 2

    def test_closed_points_stop_the_entry(self) -> None:
        # diagram 3: with 43 nothing can be played, the 3 and 4 points are covered
        # the opponent's 3 and 4 points are my 22 and 21
        pos = board({"bar": 1, "p10": 2, "p6": 3}, {"p3": 2, "p4": 2, "p5": 2, "p6": 2})
        assert legal_results(pos, 4, 3) == [pos]

    def test_play_text_marks_hits(self) -> None:
        pos = board({"p13": 1}, {"p17": 1, "p1": 1})
        texts = {p.text() for p in legal_plays(pos, 5, 3)}
        assert texts == {"13/8* 8/5", "13/10 10/5"}  # same checkers, different hits


class TestBearingOff:
    """Seed 002, "Udtagning af brikker"."""

    def test_only_when_all_are_home(self) -> None:
        # 21 with a checker on the 7 point: it comes home first; only then may a checker
        # bear off (7/6 2/off), never 2/off while the 7 point is still held
        pos = board({"p7": 1, "p2": 2}, {"p1": 1})
        assert results(pos, 2, 1) == {
            moved(pos, (7, 4)),
            moved(pos, (7, 5), (2, 1)),
            moved(pos, (7, 6), (2, OFF)),
        }

    def test_larger_die_bears_off_from_the_highest_point(self) -> None:
        # a 6 with checkers only on the 5 point and below: off from the 5 point
        pos = board({"p5": 1, "p2": 1}, {"p1": 1})
        assert moved(pos, (5, 0), (2, 1)) in results(pos, 6, 1)

    def test_larger_die_never_bears_off_a_lower_checker(self) -> None:
        pos = board({"p5": 1, "p2": 1}, {"p1": 1})
        assert moved(pos, (2, 0), (5, 4)) not in results(pos, 6, 1)

    def test_diagram_4_61_may_play_4_3_then_3_off(self) -> None:
        pos = board({"p4": 1, "p3": 1, "p1": 2}, {"p1": 1})
        found = results(pos, 6, 1)
        assert moved(pos, (4, 3), (3, 0)) in found  # 4/3 3/off
        assert moved(pos, (4, 0), (3, 2)) in found  # 4/off 3/2


class TestResults:
    """Seed 002, "Gammon og backgammon", diagrams 5–7."""

    def test_single(self) -> None:
        assert win_kind(done(), Position(side(), side(p1=14)).opp) is Win.SINGLE

    def test_gammon(self) -> None:
        assert win_kind(done(), Position(side(), side(p1=15)).opp) is Win.GAMMON

    def test_backgammon_in_the_winners_home_board(self) -> None:
        assert win_kind(done(), Position(side(), side(p1=14, p20=1)).opp) is Win.BACKGAMMON

    def test_backgammon_on_the_bar(self) -> None:
        assert win_kind(done(), Position(side(), side(p1=14, bar=1)).opp) is Win.BACKGAMMON

    def test_gammon_with_checkers_outside_the_winners_home(self) -> None:
        assert win_kind(done(), Position(side(), side(p1=14, p18=1)).opp) is Win.GAMMON
