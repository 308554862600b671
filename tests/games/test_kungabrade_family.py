"""Kungabräde behind the seam: results only (seed 004), best of an odd number of games."""

from __future__ import annotations

import pytest

from games.registry import family_for
from games.results import MatchSettings, ResultValue, ScoringError

KB = family_for("kungabrade")


def game(winner: int, outcome: str = "castle", game_type: str = "maktkamp") -> ResultValue:
    return ResultValue(winner, outcome, game_type=game_type)


class TestVocabulary:
    def test_how_a_game_is_won(self) -> None:
        assert [(t.code, t.name) for t in KB.vocabulary.outcomes] == [
            ("castle", "castle taken"),
            ("destroyed", "every piece destroyed"),
            ("driven_back", "driven back over the defence line"),
        ]

    def test_game_types_keep_their_swedish_names(self) -> None:
        types = KB.vocabulary.game_types
        assert [(t.code, t.name, t.translate) for t in types] == [
            ("slagfalt", "Slagfält", False),
            ("erovring", "Erövring", False),
            ("maktkamp", "Maktkamp", False),
            ("other", "other", True),
        ]

    def test_results_only(self) -> None:
        assert KB.replay is None and KB.board is None and KB.records == ()
        assert KB.detect(" 3 point match\nGame 1\nTek: 2-5\n") == 0.0


class TestScoring:
    def test_best_of_three_decided_by_the_second_win(self) -> None:
        scoring = KB.match_scoring(MatchSettings(length=3))
        first = scoring.standing([game(1)])
        assert not first.decided and first.score == (0, 1)
        result = scoring.standing([game(1), game(0, "destroyed", "erovring"), game(1)])
        assert result.winner == 1 and result.decided_after_game == 3 and result.score == (1, 2)
        assert result.length_unit == "games" and result.crawford_game is None

    def test_no_game_after_the_decision(self) -> None:
        scoring = KB.match_scoring(MatchSettings(length=3))
        with pytest.raises(ScoringError) as info:
            scoring.standing([game(0), game(0), game(1)])
        assert (info.value.kind, info.value.game) == ("match", 3)

    @pytest.mark.parametrize("length", [0, 2, 27])
    def test_odd_length_from_1_to_25(self, length: int) -> None:
        with pytest.raises(ScoringError) as info:
            KB.match_scoring(MatchSettings(length=length))
        assert info.value.kind == "match"

    @pytest.mark.parametrize("game_type", ["slagfalt", "other"])
    def test_driven_back_wins_slagfalt(self, game_type: str) -> None:
        result = KB.match_scoring(MatchSettings(length=1)).standing(
            [game(0, "driven_back", game_type)]
        )
        assert result.winner == 0

    @pytest.mark.parametrize(
        "bad",
        [
            game(0, "driven_back", "erovring"),  # §1.3: castle or every piece only
            game(0, "driven_back", "maktkamp"),
            game(0, "castle", ""),  # a game has a type
            game(0, "checkmate"),
            ResultValue(0, "castle", cube=2, game_type="slagfalt"),
            ResultValue(0, "castle", munk=True, game_type="slagfalt"),
            ResultValue(3, "castle", game_type="slagfalt"),
        ],
    )
    def test_results_kungabrade_cannot_have(self, bad: ResultValue) -> None:
        with pytest.raises(ScoringError) as info:
            KB.match_scoring(MatchSettings(length=3)).standing([bad])
        assert (info.value.kind, info.value.game) == ("result", 1)
