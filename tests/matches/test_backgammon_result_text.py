"""A backgammon result the game cannot have is refused in the reader's language.

``games.backgammon.result_of`` refuses with coded messages (``backgammon.messages``,
``bg.result.*``); result entry renders them through ``matches.engine_text``, so a Swedish
page shows Swedish and the English text is what it always was.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from backgammon.errors import ResultEntryError
from core.errors import ValidationError
from games.backgammon import result_of
from games.results import ResultValue, ScoringError
from matches.models import Match
from matches.results import game_result_enter
from tests.results import won
from tests.tournaments.helpers import drawn, match_of

# (fields of the entry, English text, Swedish text)
CASES: list[tuple[dict[str, Any], str, str]] = [
    (
        {"outcome": "single", "pattern": "trappspel"},
        "a backgammon game has no pattern, no munk and no game type",
        "ett backgammonparti har ingen figur, ingen munk och ingen speltyp",
    ),
    (
        {"outcome": "jan"},
        "no backgammon outcome 'jan'; known: single, gammon, backgammon, drop, resign",
        "ingen backgammonutgång 'jan'; kända: single, gammon, backgammon, drop, resign",
    ),
    (
        {"outcome": "resign", "cube": 2, "conceded": "double"},
        "a resignation concedes single, gammon or backgammon, not 'double'",
        "en uppgivning medger single, gammon eller backgammon, inte 'double'",
    ),
]


def _result(fields: dict[str, Any]) -> ResultValue:
    return ResultValue(winner=0, **fields)


@pytest.mark.parametrize(("fields", "english", "swedish"), CASES)
def test_the_family_refuses_with_a_coded_message(
    fields: dict[str, Any], english: str, swedish: str
) -> None:
    with pytest.raises(ScoringError) as info:
        result_of(_result(fields), 3)
    err = info.value
    assert (err.message, err.kind, err.game) == (english, "result", 3)
    assert isinstance(err.cause, ResultEntryError)
    assert err.cause.msg.code.startswith("bg.result.")


@pytest.mark.django_db
@pytest.mark.parametrize(("fields", "english", "swedish"), CASES)
def test_result_entry_shows_the_refusal_in_the_readers_language(
    fields: dict[str, Any], english: str, swedish: str
) -> None:
    s = drawn(2, lengths=[5], game="backgammon")
    match = match_of(s.tournament, 1, 0)
    for language, text, prefix in (
        ("sv", swedish, "Inte ett möjligt resultat"),
        ("en", english, "Not a possible result"),
    ):
        with translation.override(language), pytest.raises(ValidationError) as info:
            game_result_enter(
                match=Match.objects.get(pk=match.pk),
                number=1,
                result=won("W", **fields),
                by=s.referee,
            )
        assert info.value.message == f"{prefix}: {text}."
