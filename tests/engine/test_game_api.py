"""The public engine API other modules build on (rules, position, play, movegen, game).

A short walk through exactly the names the record replay uses: constructing a rule set
and a game, ``legal_plays``, ``play_turn``, ``single_die``, ``resign`` and the errors.
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalPlayError
from engine.game import Game, TurnResult
from engine.movegen import legal_plays
from engine.play import Play, Step
from engine.position import Position
from engine.rules import RuleSet
from engine.types import Outcome, OutcomeKind, Side

W, B = Side.WHITE, Side.BLACK


class TestRuleSetApi:
    def test_default_is_talisman(self) -> None:
        assert RuleSet.from_names() == RuleSet.from_names("talisman", ())
        assert RuleSet.from_names().name == "talisman"

    def test_board_addons(self) -> None:
        rules = RuleSet.from_names("board", ["double-six", "one-die"])
        assert rules.addons == frozenset({"double-six", "one-die"})
        assert rules.double_six

    @pytest.mark.parametrize(
        ("name", "addons", "word"),
        [
            ("chess", (), "unknown rule set"),
            ("board", ("x",), "unknown add-on"),
            ("talisman", ("one-die",), "only with rule set 'board'"),
        ],
    )
    def test_bad_names(self, name: str, addons: tuple[str, ...], word: str) -> None:
        with pytest.raises(ValueError, match=word):
            RuleSet.from_names(name, addons)


class TestPositionApi:
    def test_initial(self) -> None:
        pos = Position.initial(W)
        assert pos.count(W, 1) == 15 and pos.count(B, 1) == 15
        assert pos.borne_off(W) == 0 and pos.to_move is W
        assert Position.from_text(pos.text()) == pos

    def test_text_round_trip(self) -> None:
        # game-record.md's own example puts White's 13 and Black's 1 (the same point) both
        # occupied, which R1 rules out; this is it with White's band moved to 14.
        pos = Position.from_text("W 1:10 7 9 14:2 19 bar:0 | B 1:12 5 bar:2 | W")
        assert pos.text() == "W 1:10 7 9 14:2 19 | B 1:12 5 bar:2 | W"
        assert pos.count(W, 14) == 2 and pos.count(B, 0) == 2 and pos.borne_off(B) == 0
        assert Position.from_text(pos.text()) == pos
        assert hash(pos) == hash(Position.from_text(pos.text()))

    @pytest.mark.parametrize(
        "text",
        ["W 1:16 | B 1:15 | W", "W 25 | B 1 | W", "W 1 | B 13 | W", "W 1 | W 2 | B", "nonsense"],
    )
    def test_bad_text(self, text: str) -> None:
        with pytest.raises(ValueError):
            Position.from_text(text)


class TestGameApi:
    def test_a_few_turns_of_the_initial_position(self) -> None:
        game = Game(RuleSet.from_names("talisman"), starter=W)
        plays = game.legal_plays((6, 5))
        assert all(isinstance(p, Play) for p in plays)
        assert {p.text() for p in plays} == {"1/7 1/6", "1/7 7/12"}
        result = game.play_turn((6, 5), [(1, 7), (7, 12)])
        assert isinstance(result, TurnResult)
        assert result.play == Play((Step(1, 7, 6), Step(7, 12, 5)))
        assert result.outcome is None and result.position is game.position
        assert game.position.to_move is B and game.position.count(W, 12) == 1
        game.play_turn((3, 1), [(1, 4), (4, 5)])
        assert game.position.count(B, 5) == 1 and game.history[-1].play.text() == "1/4 4/5"
        assert game.single_die() == "forbidden"
        with pytest.raises(IllegalPlayError, match=r"R5\.3: White may not make a band on point 7"):
            game.play_turn((6, 6), [(1, 7), (1, 7)])
        game.play_turn((2, 2), [(1, 3), (3, 5), (5, 7), (7, 9)])
        assert len(game.history) == 3

    def test_r8_message_names_the_maximum(self) -> None:
        game = Game(RuleSet(), starter=W)
        with pytest.raises(IllegalPlayError, match=r"^R8: White must play 11 points with 6-5"):
            game.play_turn((6, 5), [(1, 7)])

    def test_resign(self) -> None:
        game = Game(RuleSet(), starter=B)
        assert game.resign() == Outcome(W, OutcomeKind.UPPGIVET)
        assert game.outcome == Outcome(W, OutcomeKind.UPPGIVET)
        with pytest.raises(IllegalPlayError):
            game.play_turn((6, 5), [(1, 7), (7, 12)])

    def test_from_position_and_module_function(self) -> None:
        pos = Position.from_text("W 24 | B 1:15 | W")
        assert [p.text() for p in legal_plays(pos, (3, 1), RuleSet())] == ["24/off"]
        game = Game(RuleSet(), position=pos)
        result = game.play_turn((3, 1), [(24, 25)])
        assert result.outcome == Outcome(W, OutcomeKind.HEMSPEL)
        assert game.outcome == result.outcome

    def test_exactly_one_of_starter_and_position(self) -> None:
        with pytest.raises(ValueError):
            Game(RuleSet())
        with pytest.raises(ValueError):
            Game(RuleSet(), starter=W, position=Position.initial(W))
