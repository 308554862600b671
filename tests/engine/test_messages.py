"""Every engine and scoring message has a stable code and parameters (engine.messages);
the English text, which the CLI and the stored verdict show, is made from them."""

from __future__ import annotations

import pytest

from engine.errors import IllegalPlayError, MatchError
from engine.messages import MESSAGES, Msg, Plural, param_names
from engine.replay import replay_text
from scoring.match import check_length


def _sample(code: str, count: int) -> dict[str, str | int]:
    params: dict[str, str | int] = {name: f"<{name}>" for name in param_names(code)}
    entry = MESSAGES[code]
    if isinstance(entry, Plural):
        params[entry.count] = count
    return params


def test_an_illegal_step_carries_its_code_and_parameters() -> None:
    text = (
        '[Rules "talisman"]\n\nGame 1\nPosition: W 1:2 2 | B 24 | W\nW 1-1: 1/2 1/2\n'
        "Result: White hemspel\n"
    )
    report = replay_text(text)
    assert report.error is not None
    error = report.error
    assert error.code == "step.own_band"
    assert dict(error.params) == {"side": "White", "point": 2}
    assert error.message == "R5.3: White may not make a band on point 2"
    assert error.to_dict() == {"kind": "illegal", "game": 1, "line": 5, "message": error.message}
    assert error.to_dict(coded=True)["params"] == {"side": "White", "point": 2}


def test_a_wrapped_value_error_keeps_its_own_code() -> None:
    report = replay_text('[Rules "talisman"]\n\nGame 1\nPosition: W 1:16 | B 24 | W\n')
    assert report.error is not None
    assert report.error.code == "record.bad_position"
    inner = report.error.params["detail"]
    assert isinstance(inner, Msg) and inner.code == "position.too_many_on"
    assert report.error.message == "bad Position: White: 16 checkers on 1, more than 15"


def test_scoring_errors_are_coded_with_real_plurals() -> None:
    with pytest.raises(MatchError) as caught:
        check_length(4)
    assert caught.value.code == "match.length_odd" and caught.value.params == {"length": 4}
    one = Msg("match.too_long", {"count": 1, "game": 2}).text()
    assert one.startswith("S1: this match can last at most 1 game (")
    assert "games" in Msg("match.too_long", {"count": 3, "game": 4}).text()
    assert Msg("value.points", {"count": 1}).text() == "1 point"
    assert Msg("value.dice", {"count": 1, "sum": 6}).text() == "1 die (sum 6)"


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_template_formats_and_cites_no_plural_in_brackets(code: str) -> None:
    for count in (1, 2):
        text = Msg(code, _sample(code, count)).text()
        assert "(s)" not in text and "{" not in text


def test_errors_keep_their_message_when_located() -> None:
    err = IllegalPlayError(Msg("resign.band", {"side": "Black"}))
    moved = err.located(game=2, line=9)
    assert (moved.code, moved.game, moved.line) == ("resign.band", 2, 9)
    assert (
        str(moved)
        == "game 2, line 9: R14: Black may not resign: Black has had a band on points 13–24"
    )
