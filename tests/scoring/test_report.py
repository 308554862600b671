"""The replay report's ``match`` section from a record's tags (game-record.md)."""

from __future__ import annotations

import pytest

from engine.errors import MatchError
from engine.types import Outcome
from scoring.report import FixedMatchScorer, match_scorer, match_section, match_start

EXAMPLE_1 = [
    Outcome.from_text(t) for t in ("W jan", "W hemspel", "W hemspel", "B vackert trappspel munk")
]


def test_no_length_no_section() -> None:
    assert match_section({"Rules": "talisman", "Scale": "ny2"}, EXAMPLE_1) is None
    assert match_scorer(tags={}, rules="talisman", outcomes=[], games_in_record=3) is None


def test_scale_defaults_to_ww() -> None:
    assert match_section({"Length": "5"}, EXAMPLE_1) == {
        "length": 5,
        "scale": "ww",
        "points": {"W": 4, "B": 2},
        "tiebreak": {"W": 2, "B": 0},
        "winner": "W",
        "decided_after_game": 4,
    }


def test_tag_keys_any_case_and_ny2() -> None:
    section = match_section({"length": " 5 ", "SCALE": "ny2"}, EXAMPLE_1[:3])
    assert section is not None
    assert section["points"] == {"W": 13, "B": 0}
    assert section["winner"] is None and section["decided_after_game"] is None


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ({"Length": "4"}, "S1: a match is played over an odd number"),
        ({"Length": "27"}, "S1: a match is played over at most 25 completed games, not 27"),
        ({"Length": "three"}, "S1: the Length tag must be an odd whole number"),
        ({"Length": "3", "Scale": "ny3"}, "S2: unknown scale"),
        ({"Length": "3", "Resignations": "never"}, "S1: unknown resignation policy"),
    ],
)
def test_bad_tags(tags: dict[str, str], message: str) -> None:
    with pytest.raises(MatchError, match=message) as info:
        match_section(tags, [])
    assert info.value.game is None and info.value.kind == "match"


def test_resignations_tag_forbidden() -> None:
    tags = {"Length": "3", "Resignations": "forbidden"}
    with pytest.raises(MatchError, match="S1: resigning is not allowed") as info:
        match_section(tags, [Outcome.from_text("B uppgivet")])
    assert info.value.game == 1
    start = match_start(tags)
    assert start is not None and start.policy == "forbidden"


def test_game_after_decided() -> None:
    with pytest.raises(MatchError, match="decided after game 4") as info:
        match_section({"Length": "5"}, [*EXAMPLE_1, Outcome.from_text("B jan")])
    assert info.value.game == 5


def test_scorer_reports_a_further_game_the_replay_could_not_finish() -> None:
    """The replay stopped inside game 5 (say an illegal play); the match was already
    decided after game 4, so game 5 is the first error (S4)."""
    tags = {"Length": "5"}
    with pytest.raises(MatchError) as info:
        match_scorer(tags=tags, rules="helmfrid", outcomes=EXAMPLE_1, games_in_record=5)
    assert info.value.game == 5
    # An open match with more games in the record is no match error.
    section = match_scorer(tags=tags, rules="helmfrid", outcomes=EXAMPLE_1[:3], games_in_record=5)
    assert section is not None and section["winner"] is None


def test_fixed_scorer_ignores_tags() -> None:
    scorer = FixedMatchScorer(length=5, scale="ny2")
    section = scorer(tags={"Length": "3"}, rules="talisman", outcomes=EXAMPLE_1, games_in_record=4)
    assert section["scale"] == "ny2" and section["points"] == {"W": 13, "B": 5}
    with pytest.raises(MatchError) as info:
        scorer(tags={}, rules="talisman", outcomes=EXAMPLE_1, games_in_record=6)
    assert info.value.game == 5
    with pytest.raises(MatchError, match="S1"):
        FixedMatchScorer(length=2)
