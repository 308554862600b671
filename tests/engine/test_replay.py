"""Replay (game-record.md, "What a replay reports"): starter, steps, rolls, results."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine.errors import EngineError, MatchError
from engine.position import Position
from engine.record import GameRecord, MatchRecord, read_record, write_json
from engine.replay import ReplayReport, replay, replay_text, report_lines
from engine.types import Outcome, OutcomeKind, Side

W, B = Side.WHITE, Side.BLACK


def invalid(text: str | bytes, kind: str, line: int | None, *words: str) -> EngineError:
    report = replay_text(text)
    assert not report.valid, "the record should not be valid"
    error = report.error
    assert error is not None
    assert (error.kind, error.line) == (kind, line), error
    for word in words:
        assert word in error.message
    return error


class TestValid:
    def test_opening_moves_then_resignation(self) -> None:
        text = (
            '[Rules "talisman"]\n'
            "Game 1\nTek: 2-5\n"
            "W 6-4: 1/7 1/5\n"
            "B 3-1: 1/4 4/5\n"
            "W resigns\n"
            "Result: Black uppgivet\n"
        )
        report = replay_text(text)
        assert report.valid, report.error
        assert report.error is None
        (game,) = report.games
        assert game.number == 1 and game.starter is W and game.turns == 2
        assert game.outcome == Outcome(B, OutcomeKind.UPPGIVET)
        assert len(game.positions) == 3
        assert game.positions[0] == Position.initial(W)
        assert game.positions[1].to_move is B
        assert game.positions[1].count(W, 7) == 1 and game.positions[1].count(W, 5) == 1
        assert game.positions[1].count(W, 1) == 13
        assert game.positions[2].count(B, 5) == 1 and game.positions[2].count(B, 1) == 14

    def test_resignation_without_result_line_ends_the_game(self) -> None:
        report = replay_text("Game 1\nStarter: Black\nB resigns\n")
        assert report.valid, report.error
        assert report.games[0].outcome == Outcome(W, OutcomeKind.UPPGIVET)
        assert report.games[0].turns == 0 and len(report.games[0].positions) == 1

    def test_later_game_starts_with_the_loser(self) -> None:
        text = (
            "Game 1\nStarter: White\nW resigns\n\n"
            "Game 2\nW 6-4: 1/7 1/5\nB resigns\n\n"
            "Game 3\nStarter: Black\nB resigns\n"
        )
        report = replay_text(text)
        assert report.valid, report.error
        assert [g.starter for g in report.games] == [W, W, B]
        assert [g.outcome for g in report.games] == [
            Outcome(B, OutcomeKind.UPPGIVET),
            Outcome(W, OutcomeKind.UPPGIVET),
            Outcome(W, OutcomeKind.UPPGIVET),
        ]

    def test_game_from_a_position_ends_in_hemspel(self) -> None:
        text = (
            "Game 1\nPosition: W 24:2 | B 1:15 | W\nW 2-1: 24/off 24/off\nResult: White hemspel\n"
        )
        report = replay_text(text)
        assert report.valid, report.error
        assert report.games[0].starter is W
        assert report.games[0].outcome == Outcome(W, OutcomeKind.HEMSPEL)
        assert report.games[0].positions[-1].borne_off(W) == 15

    def test_json_form_gives_the_same_report(self) -> None:
        text = "Game 1\nTek: 2-5\nW 6-4: 1/7 1/5\nB 3-1: 1/4 4/5\nW resigns\n"
        as_json = write_json(read_record(text))
        assert replay_text(as_json).to_dict() == replay_text(text).to_dict()

    def test_to_dict_is_the_documented_json(self) -> None:
        report = replay_text('[Rules "vasa"]\nGame 1\nStarter: W\nW resigns\n')
        assert report.to_dict() == {
            "valid": True,
            "error": None,
            "rules": "vasa",
            "games": [
                {
                    "number": 1,
                    "starter": "W",
                    "winner": "B",
                    "outcome": "uppgivet",
                    "pattern": None,
                    "munk": False,
                    "turns": 0,
                }
            ],
        }
        assert json.loads(json.dumps(report.to_dict())) == report.to_dict()
        assert report_lines(report)[0].startswith("Record valid")


class TestIllegalPlay:
    def test_band_on_point_7(self) -> None:
        error = invalid("Game 1\nTek: 1-2\nW 6-6: 1/7 1/7 1/7 1/7\n", "illegal", 3, "R5")
        assert error.game == 1

    def test_die_not_rolled(self) -> None:
        invalid("Game 1\nTek: 1-2\nW 6-4: 1/7 1/4\n", "illegal", 3)

    def test_too_little_of_the_roll_played(self) -> None:
        invalid("Game 1\nTek: 1-2\nW 6-4: 1/7\n", "illegal", 3, "R8")

    def test_moving_backwards(self) -> None:
        invalid("Game 1\nTek: 1-2\nW 6-4: 1/7 1/5\nB 6-4: 1/7 1/5\nW 6-1: 7/1 5/6\n", "illegal", 5)

    def test_false_hit_claim(self) -> None:
        invalid("Game 1\nTek: 1-2\nW 6-4: 1/7* 1/5\n", "illegal", 3, "R5.2", "1/7*")

    def test_claims_are_optional(self) -> None:
        assert replay_text("Game 1\nTek: 1-2\nW 6-4: 1/7 1/5\nB resigns\n").valid

    def test_single_die_where_r13_forbids_it(self) -> None:
        invalid('[Rules "vasa"]\nGame 1\nTek: 1-2\nW 5: 1/6\n', "illegal", 4, "R13")
        invalid("Game 1\nTek: 1-2\nW 5: 1/6\n", "illegal", 3, "R13")

    def test_first_turn_contradicts_the_position(self) -> None:
        invalid("Game 1\nPosition: W 24:2 | B 1:15 | W\nB 2-1: 1/3 1/2\n", "illegal", 3)

    def test_turn_after_the_game_ended(self) -> None:
        text = "Game 1\nPosition: W 24:2 | B 1:15 | W\nW 2-1: 24/off 24/off\nB 2-1: 1/3 1/2\n"
        invalid(text, "illegal", 4, "R11", "already over")

    def test_resignation_forbidden_after_a_band_on_13_to_24(self) -> None:
        invalid("Game 1\nPosition: W 1:13 14:2 | B 1:15 | W\nW resigns\n", "illegal", 3, "R14")

    def test_json_errors_name_the_turn(self) -> None:
        text = "Game 1\nTek: 1-2\nW 6-4: 1/7 1/5\nB 6-4: 1/7 1/4\n"
        report = replay_text(write_json(read_record(text)))
        assert report.error is not None
        assert (report.error.kind, report.error.game, report.error.line) == ("illegal", 1, None)
        assert report.error.message.startswith("turn 2 (B): ")


class TestGameEnd:
    def test_incomplete_game(self) -> None:
        text = "Game 1\nTek: 1-2\nW 6-4: 1/7 1/5 ; the end of the file\n\n"
        error = invalid(text, "incomplete", 3)
        assert error.game == 1

    def test_result_claimed_before_the_game_ended(self) -> None:
        invalid("Game 1\nTek: 1-2\nW 6-4: 1/7 1/5\nResult: White jan\n", "result_mismatch", 4)

    def test_wrong_result(self) -> None:
        text = "Game 1\nPosition: W 24:2 | B 1:15 | W\nW 2-1: 24/off 24/off\nResult: White jan\n"
        invalid(text, "result_mismatch", 4, "hemspel")

    def test_munk_claimed_without_a_checker_on_the_bar(self) -> None:
        text = (
            "Game 1\nPosition: W 24:2 | B 1:15 | W\nW 2-1: 24/off 24/off\n"
            "Result: White hemspel munk\n"
        )
        invalid(text, "result_mismatch", 4)

    def test_uppgivet_needs_the_resignation(self) -> None:
        invalid("Game 1\nTek: 1-2\nW 6-4: 1/7 1/5\nResult: Black uppgivet\n", "result_mismatch", 4)


class TestStarter:
    def test_tek_naming_the_winner_of_the_previous_game(self) -> None:
        text = "Game 1\nStarter: W\nW resigns\n\nGame 2\nTek: 2-1\nB 6-4: 1/7 1/5\n"
        error = invalid(text, "match", 6, "wrong starter")
        assert error.game == 2

    def test_starter_naming_the_winner_of_the_previous_game(self) -> None:
        text = "Game 1\nStarter: W\nW resigns\n\nGame 2\nStarter: Black\nB resigns\n"
        invalid(text, "match", 6, "wrong starter")

    def test_winner_plays_first_in_the_next_game(self) -> None:
        text = "Game 1\nStarter: W\nW resigns\n\nGame 2\nB 6-4: 1/7 1/5\n"
        report = replay_text(text)
        assert report.error is not None and report.error.kind == "match"
        assert report.error.line == 6 and "wrong starter" in report.error.message
        assert [g.number for g in report.games] == [1]

    def test_first_turn_by_the_side_that_lost_the_tek(self) -> None:
        # game-record.md lists "wrong starter" among the match-level breaches (R2, S5)
        error = invalid("Game 1\nTek: 5-2\nW 6-4: 1/7 1/5\n", "match", 3, "wrong starter")
        assert error.game == 1 and "Tek 5-2" in error.message and "Black" in error.message
        error = invalid(
            '[Length "3"]\nGame 1\nStarter: W\nW resigns\n\nGame 2\nTek: 1-2\nB 6-4: 1/7 1/5\n',
            "match",
            8,
            "wrong starter",
        )
        assert error.game == 2

    def test_first_turn_against_the_starter_line(self) -> None:
        error = invalid("Game 1\nStarter: Black\nW 6-4: 1/7 1/5\n", "match", 3, "wrong starter")
        assert error.game == 1

    def test_wrong_starter_report_has_the_match_section(self) -> None:
        text = '[Length "3"]\nGame 1\nStarter: W\nW resigns\n\nGame 2\nTek: 1-2\nB 6-4: 1/7 1/5\n'
        report = replay_text(text, match_scorer=FakeScorer())
        assert report.error is not None and report.error.kind == "match"
        assert [g.number for g in report.games] == [1]
        # the hook saw game 1 only (the games before the breach), in a record of two
        assert report.to_dict()["match"] == {"length": 3, "games": 2, "rules": "talisman"}

    def test_position_game_needs_no_starter_check(self) -> None:
        # The loser of game 1 is White, but the Position gives Black the move.
        text = "Game 1\nStarter: W\nW resigns\n\nGame 2\nPosition: W 1:15 | B 1:15 | B\nB resigns\n"
        report = replay_text(text)
        assert report.valid, report.error
        assert report.games[1].starter is B


class TestInput:
    def test_unknown_rules_tag(self) -> None:
        invalid('[Event "x"]\n[Rules "chess"]\nGame 1\nStarter: W\n', "syntax", 2, "Rules")
        assert replay_text('[Rules "chess"]\nGame 1\nStarter: W\n').rules == "chess"

    def test_unknown_addon(self) -> None:
        invalid('[Rules "board"]\n[Addons "turbo"]\nGame 1\nStarter: W\n', "syntax", 2, "Addons")

    def test_bad_position(self) -> None:
        invalid("Game 1\nPosition: nonsense\nW resigns\n", "syntax", 2, "Position")

    @pytest.mark.parametrize("data", ["", b"", "   ", b"\xff\xfe", "{", "Game 1", 17])
    def test_never_raises(self, data: Any) -> None:
        report = replay_text(data)
        assert not report.valid and report.error is not None and report.games == []
        assert report.error.kind == "syntax"


class FakeScorer:
    """A stand-in for the scoring app's match scorer (the replay's scoring hook)."""

    def __init__(self, breach_game: int | None = None) -> None:
        self.breach_game = breach_game
        self.seen: list[Outcome] = []

    def __call__(
        self,
        *,
        tags: Mapping[str, str],
        rules: str,
        outcomes: Sequence[Outcome],
        games_in_record: int,
    ) -> dict[str, Any] | None:
        self.seen = list(outcomes)
        if self.breach_game is not None and games_in_record >= self.breach_game:
            raise MatchError("S4: the match was already decided", game=self.breach_game)
        if "Length" not in tags:
            return None
        return {"length": int(tags["Length"]), "games": games_in_record, "rules": rules}


class TestMatchHook:
    TEXT = '[Length "3"]\nGame 1\nStarter: W\nW resigns\n\nGame 2\nW resigns\n'

    def test_match_section(self) -> None:
        scorer = FakeScorer()
        report = replay_text(self.TEXT, match_scorer=scorer)
        assert report.valid
        assert report.to_dict()["match"] == {"length": 3, "games": 2, "rules": "talisman"}
        assert scorer.seen == [Outcome(B, OutcomeKind.UPPGIVET)] * 2
        assert "match" not in replay_text(self.TEXT).to_dict()

    def test_no_match_section_without_length(self) -> None:
        report = replay_text("Game 1\nStarter: W\nW resigns\n", match_scorer=FakeScorer())
        assert report.valid and "match" not in report.to_dict()

    def test_match_error_locates_the_game(self) -> None:
        report = replay_text(self.TEXT, match_scorer=FakeScorer(breach_game=2))
        assert report.error is not None and not report.valid
        assert (report.error.kind, report.error.game, report.error.line) == ("match", 2, 6)
        assert [g.number for g in report.games] == [1]

    def test_match_error_report_shows_the_state_before_the_breach(self) -> None:
        # game-record.md: on a ``match`` error the report's match section is the state
        # after the last game that counted (the hook is asked again for it)
        scorer = FakeScorer(breach_game=2)
        data = replay_text(self.TEXT, match_scorer=scorer).to_dict()
        assert data["error"]["kind"] == "match"
        assert data["match"] == {"length": 3, "games": 1, "rules": "talisman"}
        assert scorer.seen == [Outcome(B, OutcomeKind.UPPGIVET)]

    def test_the_first_error_wins(self) -> None:
        text = self.TEXT + "\nGame 3\nStarter: White\n"  # game 3 is incomplete
        report = replay_text(text, match_scorer=FakeScorer(breach_game=3))
        assert report.error is not None and report.error.kind == "match"
        assert (report.error.game, report.error.line) == (3, 9)
        illegal = text.replace("Game 2\nW resigns", "Game 2\nW 5: 1/6")
        report = replay_text(illegal, match_scorer=FakeScorer(breach_game=3))
        assert report.error is not None and report.error.kind == "illegal"
        assert (report.error.game, report.error.line) == (2, 7)


def test_replay_of_a_built_record() -> None:
    record = MatchRecord(
        tags={"Rules": "helmfrid"},
        games=(GameRecord(1, starter=B, result=Outcome(W, OutcomeKind.UPPGIVET)),),
    )
    report: ReplayReport = replay(record)
    assert report.error is not None and report.error.kind == "result_mismatch"
    assert report.rules == "helmfrid" and report.games == []
