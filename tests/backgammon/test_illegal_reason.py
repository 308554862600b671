"""Why a backgammon play is illegal (``backgammon.illegal``): one reason per rule of seed
002 a play can break while it can still be carried out on the board, each checked to be a
play the move generator does not hold (so the reason is for an illegal play)."""

from __future__ import annotations

import pytest

from backgammon.illegal import illegal_reason
from backgammon.movegen import legal_results
from backgammon.position import START, Position
from backgammon.replay import apply_move_text
from tests.backgammon.test_positions import board

Steps = tuple[tuple[int, int], ...]


def _words(p: int) -> str:
    return "bar" if p == 25 else "off" if p == 0 else str(p)


def _reason(pos: Position, dice: tuple[int, int], steps: Steps) -> tuple[str, dict[str, object]]:
    played = apply_move_text(pos, tuple(f"{_words(a)}/{_words(b)}" for a, b in steps))
    assert played.me not in {r.me for r in legal_results(pos, *dice)}, "a legal play"
    msg = illegal_reason(pos, dice, steps)
    assert msg.code == "bg.play.illegal"
    reason = msg.params["reason"]
    assert not isinstance(reason, (str, int))
    return reason.code, dict(reason.params)


def test_the_message_names_the_roll_the_play_and_the_reason() -> None:
    msg = illegal_reason(START, (2, 5), ((13, 8), (13, 10)))
    assert msg.text() == (
        "52: 13/8 13/10 is not a legal play: 13/10 moves 3 pips, and no die left shows that "
        "(dice left: 2)"
    )
    assert illegal_reason(START, (6, 4), ()).params["moves"] == "(no move)"


@pytest.mark.parametrize(
    ("pos", "dice", "steps", "code", "params"),
    [
        # a wrong count: 13/10 with 5-2
        (START, (5, 2), ((13, 8), (13, 10)), "bg.play.no_die", {"pips": 3, "left": "2"}),
        # three steps for two dice
        (START, (5, 2), ((13, 8), (13, 11), (6, 4)), "bg.play.too_many", {"dice": "5-2"}),
        # a checker moved back
        (START, (6, 4), ((6, 8), (13, 9)), "bg.play.backwards", {"move": "6/8"}),
        # the checker on the bar not entered first
        (
            board({"p13": 5, "p8": 3, "p6": 6, "bar": 1}, {"p24": 2, "p13": 5, "p8": 3, "p6": 5}),
            (6, 4),
            ((13, 7), (13, 9)),
            "bg.play.bar_first",
            {"move": "13/7"},
        ),
        # borne off with a checker still outside the home board
        (
            board({"p8": 1, "p7": 1, "p6": 5, "p5": 5, "p4": 3}, {"p24": 2}),
            (6, 1),
            ((6, 0), (8, 7)),
            "bg.play.not_home",
            {"move": "6/off"},
        ),
        # a 6 bears off from the 4 point while the 5 point is held
        (
            board({"p5": 2, "p4": 3}, {"p24": 2}),
            (6, 1),
            ((4, 0), (5, 4)),
            "bg.play.bear_off_higher",
            {"move": "4/off", "die": 6},
        ),
        # one die played where both can be
        (START, (6, 4), ((24, 18),), "bg.play.unused", {}),
        # nothing played where something can be
        (START, (6, 4), (), "bg.play.unused", {}),
        # the lower die played where only one can be played, and the higher one can
        (board({"p24": 1}, {"p12": 2}), (6, 5), ((24, 19),), "bg.play.unused", {}),
    ],
    ids=[
        "wrong-count",
        "too-many",
        "backwards",
        "bar-first",
        "not-home",
        "bear-off-higher",
        "one-die",
        "no-move",
        "higher-die",
    ],
)
def test_each_rule_a_play_breaks(
    pos: Position,
    dice: tuple[int, int],
    steps: Steps,
    code: str,
    params: dict[str, object],
) -> None:
    found, found_params = _reason(pos, dice, steps)
    assert found == code
    assert params.items() <= found_params.items()
