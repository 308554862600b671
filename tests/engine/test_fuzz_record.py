"""Property-based fuzzing of the reader and the replay.

Whatever the input, reading raises nothing but ``RecordSyntaxError`` and ``replay_text``
raises nothing at all (the error goes in the report, and is one of the engine's own).
Whatever reads, writes back to a canonical form that reads to the same record.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import EngineError, RecordSyntaxError
from engine.record import read_record, write_json, write_text
from engine.replay import replay_text

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SEED_RECORD = """\
[Event "Fuzz"]
[Rules "talisman"]
Game 1
Tek: 2-5
1. W 6-4: 1/7 1/5
2. B 3-1: 1/4 4/5
W 5-5: 7/12 5/10/15 12/17
B 6-2: 1/7/9
W resigns
Result: Black uppgivet

Game 2
W 2-1: 1/3 1/2
B 4: 4/8*
W 6-6: 1/7(6)
Result: White hemspel munk
"""

TOKENS = [
    "Game 1", "Game 2", "Tek: 2-5", "Tek: 3-3", "Starter: White", "Starter: B",
    "Position: W 24:2 | B 1:15 | W", "Position: W 1:15 bar:0 | B 1:15 | B", "Position: ",
    "W", "B", "White", "Black", " ", "  ", "\n", "\r\n", ";", "-", ":", "/", "*", ",",
    "(2)", "(6)", "(99)", "6-4", "64", "5-5", "5", "0", "7-1", "1/7", "1/7/13", "bar/3",
    "21/off", "25", "off/1", "resigns", "Result: White hemspel", "Result: B vackert trappspel munk",
    "Result: W jan munk", '[Rules "vasa"]', '[Rules "chess"]', '[Addons "one-die"]',
    '[X "a\\"b"]', "[", "]", '"', "1.", "ä", "\x00", "\ufeff", "{", "}",
]  # fmt: skip


def check_replay(data: str | bytes) -> None:
    report = replay_text(data)
    if report.valid:
        assert report.error is None
    else:
        assert isinstance(report.error, EngineError)
        assert report.error.kind in {"syntax", "illegal", "result_mismatch", "incomplete", "match"}
    json.dumps(report.to_dict())


def check_read(data: str | bytes) -> None:
    try:
        record = read_record(data)
    except RecordSyntaxError as exc:
        assert exc.message
        return
    text = write_text(record)
    assert read_record(text) == record
    assert write_text(read_record(write_json(record))) == text


@FUZZ
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_token_soup(tokens: list[str]) -> None:
    data = "".join(tokens)
    check_read(data)
    check_replay(data)


@FUZZ
@given(st.text(max_size=300))
def test_any_text(data: str) -> None:
    check_read(data)
    check_replay(data)


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes(data: bytes) -> None:
    check_read(data)
    check_replay(data)


@FUZZ
@given(st.data())
def test_mutated_record(data: st.DataObject) -> None:
    lines = SEED_RECORD.split("\n")
    for _ in range(data.draw(st.integers(1, 4))):
        action = data.draw(st.sampled_from(["replace", "insert", "delete", "swap", "char"]))
        index = data.draw(st.integers(0, len(lines) - 1))
        if action == "replace":
            lines[index] = data.draw(st.sampled_from(TOKENS)) + data.draw(st.sampled_from(TOKENS))
        elif action == "insert":
            lines.insert(index, data.draw(st.sampled_from(TOKENS)))
        elif action == "delete" and len(lines) > 1:
            del lines[index]
        elif action == "swap":
            other = data.draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        elif lines[index]:
            pos = data.draw(st.integers(0, len(lines[index]) - 1))
            char = data.draw(st.characters(codec="utf-8"))
            lines[index] = lines[index][:pos] + char + lines[index][pos + 1 :]
    text = "\n".join(lines)
    check_read(text)
    check_replay(text)


JSON_KEYS = ["tags", "games", "tek", "starter", "position", "turns", "result", "side", "dice"]
JSON_KEYS += ["steps", "resigns", "winner", "outcome", "pattern", "munk", "number", "Rules"]
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 30)
    | st.sampled_from(
        ["W", "B", "*", "jan", "hemspel", "vackert_spel", "trappspel", "talisman", "board"]
    ),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(JSON_KEYS),
            children,
            max_size=5,
        )
    ),
    max_leaves=30,
)


@FUZZ
@given(JSON_VALUES)
def test_any_json(value: Any) -> None:
    data = json.dumps(value)
    check_read(data)
    check_replay(data)


@FUZZ
@given(
    st.lists(
        st.fixed_dictionaries(
            {"side": st.sampled_from(["W", "B"])},
            optional={
                "dice": st.lists(st.integers(0, 7), max_size=3),
                "steps": st.lists(
                    st.lists(st.integers(-1, 26), min_size=2, max_size=2), max_size=5
                ),
            },
        ),
        max_size=6,
    ),
    st.sampled_from([{"tek": [1, 2]}, {"starter": "B"}, {"tek": [6, 6]}, {}]),
)
def test_json_turns(turns: list[dict[str, Any]], opening: dict[str, Any]) -> None:
    data = json.dumps({"tags": {"Rules": "helmfrid"}, "games": [{**opening, "turns": turns}]})
    check_read(data)
    check_replay(data)
