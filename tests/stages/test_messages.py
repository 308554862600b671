"""stages.messages: every code renders in English from its parameters."""

from __future__ import annotations

from decimal import Decimal

import pytest

from stages.messages import MESSAGES, Msg, Plural, msg, number, param_names


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_message_renders_with_its_parameters(code: str) -> None:
    params: dict[str, str | int] = {name: f"<{name}>" for name in param_names(code)}
    entry = MESSAGES[code]
    if isinstance(entry, Plural):
        params[entry.count] = 2
    text = Msg(code, params).text()
    assert "{" not in text and all(f"<{name}>" in text for name in params if name != "count")


def test_nested_messages_and_json() -> None:
    why = msg("standing.ahead", above="A", below="B", tiebreak=msg("tiebreak.wins"), a="3", b="2")
    assert why.text() == "A is above B on wins (3 to 2)"
    assert why.to_dict()["params"] == {
        "above": "A",
        "below": "B",
        "tiebreak": {"code": "tiebreak.wins", "params": {}},
        "a": "3",
        "b": "2",
    }
    one = msg("standing.direct", above="A", below="B", a="1", b="0", count=1).text()
    assert one.endswith("among the 1 tied player")


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Decimal("1.50"), "1.5"),
        (Decimal("2.0"), "2"),
        (Decimal(10), "10"),
        (Decimal("-0.5"), "-0.5"),
        (3, "3"),
    ],
)
def test_scores_are_written_plainly(value: Decimal | int, text: str) -> None:
    assert number(value) == text
