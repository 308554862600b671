"""Bräde behind the seam: its words, its match scoring (scoring/) and its board picture
(what the viewer draws, through web/picture.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.types import Outcome, OutcomeKind, Pattern, Side, to_other_numbering
from games.brade import BradeBoardState, outcome_of
from games.frames_brade import replay_game
from games.registry import family_for
from games.results import MatchSettings, ResultValue, ScoringError
from scoring.match import match_state

BRADE = family_for("brade")
CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"


class TestVocabulary:
    def test_outcomes_are_the_engines_codes_in_swedish(self) -> None:
        vocabulary = BRADE.vocabulary
        assert vocabulary.outcome_codes == tuple(kind.value for kind in OutcomeKind)
        assert [t.name for t in vocabulary.outcomes] == [
            "hemspel",
            "vackert spel",
            "jan",
            "sprängjan",
            "uppgivet",
        ]
        assert not any(t.translate for t in vocabulary.outcomes + vocabulary.qualifiers)

    def test_qualifiers_are_the_patterns_and_munk(self) -> None:
        codes = [t.code for t in BRADE.vocabulary.qualifiers]
        assert codes == [p.value for p in Pattern] + ["munk"]
        assert BRADE.vocabulary.qualifier("munk").name == "munk"
        with pytest.raises(KeyError):
            BRADE.vocabulary.outcome("gammon")

    def test_qualified_outcomes_follow_r11_and_r12(self) -> None:
        """Munk with hemspel and vackert spel only (R11); vackert spel always with one of
        its patterns, nothing else with one (R12); in the engine's order."""
        qualified = [(q.outcome, q.pattern, q.munk) for q in BRADE.vocabulary.qualified]
        patterns = [p.value for p in Pattern]
        assert qualified == [
            ("hemspel", "", False),
            ("hemspel", "", True),
            *(("vackert_spel", p, munk) for p in patterns for munk in (False, True)),
            ("jan", "", False),
            ("sprangjan", "", False),
            ("uppgivet", "", False),
        ]
        for key in ("backgammon", "kungabrade"):  # outcomes without qualifiers
            assert family_for(key).vocabulary.qualified == ()


def result(winner: int, outcome: str, pattern: str = "", munk: bool = False) -> ResultValue:
    return ResultValue(winner, outcome, pattern=pattern, munk=munk)


class TestScoring:
    def test_delegates_to_scoring(self) -> None:
        results = [
            result(0, "hemspel", munk=True),
            result(1, "jan"),
            result(0, "vackert_spel", pattern="trappspel"),
        ]
        outcomes = [outcome_of(r) for r in results]
        assert outcomes[2] == Outcome(Side.WHITE, OutcomeKind.VACKERT_SPEL, Pattern.TRAPPSPEL)
        for scale in ("ww", "ny1", "ny2"):
            standing = BRADE.match_scoring(MatchSettings(length=5, scale=scale)).standing(results)
            state = match_state(length=5, scale=scale, outcomes=outcomes)
            assert standing.score == (state.points[Side.WHITE], state.points[Side.BLACK])
            assert sum(g.points for g in standing.games if g.winner == 0) == standing.score[0]
            assert standing.length_unit == "games" and standing.crawford_game is None
            if scale == "ny2":
                assert standing.tiebreak is None
            else:
                assert standing.tiebreak == (
                    state.tiebreak[Side.WHITE],
                    state.tiebreak[Side.BLACK],
                )

    @pytest.mark.parametrize(
        ("scale", "games", "score", "tiebreak"),
        [
            # W&W: a skiljepoäng to the loser of a hemspel with munk, to the winner of a
            # jan, none for a vackert spel (S2)
            ("ww", [("2", 1), ("2", 1), ("1", None)], ("3", "2"), ("0", "2")),
            # Ny 1: the marks are the tiebreak, after each game's points and the totals
            ("ny1", [("2−", None), ("2+", None), ("1", None)], ("3−", "2+"), ("−1", "+1")),
            ("ny2", [("5", None), ("7", None), ("3", None)], ("8", "7"), None),
        ],
    )
    def test_the_score_as_the_scale_writes_it(
        self,
        scale: str,
        games: list[tuple[str, int | None]],
        score: tuple[str, str],
        tiebreak: tuple[str, str] | None,
    ) -> None:
        results = [
            result(0, "hemspel", munk=True),
            result(1, "jan"),
            result(0, "vackert_spel", pattern="trappspel"),
        ]
        standing = BRADE.match_scoring(MatchSettings(length=7, scale=scale)).standing(results)
        assert standing.scale == scale
        assert [(g.text, g.tiebreak_to) for g in standing.games] == games
        assert standing.score_text == score
        assert standing.tiebreak_text == tiebreak

    def test_decided_early_and_no_game_after_it(self) -> None:
        scoring = BRADE.match_scoring(MatchSettings(length=3))
        two_jans = [result(1, "jan"), result(1, "jan")]
        standing = scoring.standing(two_jans)
        assert standing.decided and standing.winner == 1 and standing.decided_after_game == 2
        with pytest.raises(ScoringError) as info:
            scoring.standing([*two_jans, result(0, "hemspel")])
        assert (info.value.kind, info.value.game) == ("match", 3)
        assert info.value.cause is not None  # the engine's coded MatchError

    def test_even_length_is_refused(self) -> None:
        with pytest.raises(ScoringError) as info:
            BRADE.match_scoring(MatchSettings(length=4))
        assert info.value.kind == "match"

    @pytest.mark.parametrize(
        "bad",
        [
            ResultValue(0, "hemspel", cube=2),
            ResultValue(0, "hemspel", game_type="slagfalt"),
            ResultValue(0, "gammon"),
            ResultValue(0, "vackert_spel"),  # R12: vackert spel names its pattern
            ResultValue(0, "jan", munk=True),  # munk only with hemspel or vackert spel
            ResultValue(2, "jan"),
        ],
    )
    def test_results_bräde_cannot_have(self, bad: ResultValue) -> None:
        with pytest.raises(ScoringError) as info:
            BRADE.match_scoring(MatchSettings(length=3)).standing([bad])
        assert (info.value.kind, info.value.game) == ("result", 1)


class TestBoard:
    @pytest.mark.parametrize("view", [0, 1])
    def test_picture_is_the_engines_position(self, view: int) -> None:
        """Every frame of a recorded game: the picture's stacks (in the viewer's numbering,
        R1), bar, trays and dice are the engine's position and turn."""
        board = BRADE.board
        assert board is not None and board.layout == "brade"
        game = replay_game((CORPUS / "talisman.txt").read_text(encoding="utf-8"), 1)
        sides = (Side.WHITE, Side.BLACK)
        seat = sides[view]
        for frame in game.frames:
            picture = board.picture(frame.state, view=view)
            position = frame.position
            for index, side in enumerate(sides):
                for point in range(1, 25):
                    seen = point if side is seat else to_other_numbering(point)
                    assert picture.count(index, seen) == position.count(side, point)
            assert picture.bar == (position.bar(Side.WHITE), position.bar(Side.BLACK))
            assert picture.off == (
                position.borne_off(Side.WHITE),
                position.borne_off(Side.BLACK),
            )
            assert picture.dice == (() if frame.turn is None else frame.turn.dice)
            assert picture.checkers(0) == picture.checkers(1) == 15

    def test_highlights_of_a_turn(self) -> None:
        game = replay_game("Game 1\nTek: 2-5\nW 6-4: 1/7 1/5\nB 3-1: 1/4/5\nW resigns\n", 1)
        board = BRADE.board
        assert board is not None
        white = board.picture(BradeBoardState(game.frames[1].position, game.frames[1].turn))
        assert (white.sources, white.targets, white.mover) == ((1,), (5, 7), 0)
        # Black's 1 and 5 are White's 13 and 17 (R1)
        black = board.picture(BradeBoardState(game.frames[2].position, game.frames[2].turn))
        assert (black.sources, black.targets, black.mover) == ((13,), (16, 17), 1)
        assert black.cube is None
