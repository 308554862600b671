"""Engine, scoring and verification messages in the reader's language
(matches.engine_text): the English is the engine's own, the Swedish keeps the rule."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from engine.messages import MESSAGES, Msg, Plural, param_names
from matches.engine_text import TEMPLATES, VERDICTS, render, verdict, verdict_text

RULE = re.compile(r"\b[RS]\d+(?:\.\d+)?(?:\([a-z]\))?")


def _sample(code: str, count: int) -> dict[str, Any]:
    params: dict[str, Any] = {name: f"<{name}>" for name in param_names(code)}
    params.update({k: "White" for k in ("side", "other", "loser") if k in params})
    entry = MESSAGES[code]
    if isinstance(entry, Plural):
        params[entry.count] = count
    return params


def test_every_engine_code_has_a_translation() -> None:
    assert set(TEMPLATES) == set(MESSAGES) - {"text"}


@pytest.mark.parametrize("code", sorted(set(MESSAGES) - {"text"}))
def test_english_is_the_engines_text_and_swedish_keeps_the_rule(code: str) -> None:
    for count in (1, 2):
        message = Msg(code, _sample(code, count))
        with translation.override("en"):
            english = render(message)
        with translation.override("sv"):
            swedish = render(message)
        assert english == message.text()
        assert swedish != english or code in ("value.points",)
        assert RULE.findall(swedish) == RULE.findall(english)
        assert "(s)" not in swedish and "(s)" not in english


def test_sides_and_nested_messages_are_translated() -> None:
    inner = Msg("position.too_many_on", {"side": "White", "count": 16, "point": "1"})
    outer = Msg("record.bad_position", {"detail": inner})
    with translation.override("sv"):
        assert render(outer) == "felaktig Position: Vit: 16 brickor på 1, fler än 15"
    band = Msg("step.own_band", {"side": "White", "point": 6})
    with translation.override("sv"):
        assert render(band) == "R5.3: Vit får inte bygga band på spets 6"
    with translation.override("en"):
        assert render(band) == "R5.3: White may not make a band on point 6"


def test_an_r8_example_past_the_end_of_the_game_is_translated() -> None:
    # rules.md R8: the maximum counts on past a step that ends the game; the example names
    # the whole sequence (both dice) and the play that ends the game.
    example = Msg("play.example_past_end", {"play": "5/8* 8/14*", "end": "5/8*"})
    refusal = Msg(
        "play.r8",
        {
            "side": "White",
            "best": Msg("value.dice", {"count": 2, "sum": 9}),
            "dice": "6-3",
            "value": Msg("value.dice", {"count": 1, "sum": 3}),
            "example": example,
        },
    )
    with translation.override("sv"):
        assert render(refusal) == (
            "R8: Vit måste spela 2 tärningar (summa 9) med 6-3 här, det här draget använder "
            "1 tärning (summa 3) (t.ex. 5/8* 8/14*, räknat som om partiet fortsatte efter "
            "5/8*, som avslutar det)"
        )
    with translation.override("en"):
        assert (
            render(refusal)
            == refusal.text()
            == (
                "R8: White must play 2 dice (sum 9) with 6-3 here, this play uses 1 die (sum 3) "
                "(e.g. 5/8* 8/14*, counted as if the game went on after 5/8*, which ends it)"
            )
        )


def test_verdicts_have_real_plurals_and_one_game_is_not_a_range() -> None:
    one = [
        verdict("verdict.verified", agree=verdict("verdict.agree", count=1)),
        verdict("verdict.extra_one", first=2),
    ]
    many = [
        verdict("verdict.verified", agree=verdict("verdict.agree", count=0)),
        verdict("verdict.extra_many", first=2, last=3),
    ]
    with translation.override("en"):
        assert verdict_text(one) == (
            "Verified; 1 game agrees with the entered results. Game 2 is in the record but "
            "not entered; a referee enters it (or submits this record)."
        )
        assert verdict_text(many).startswith("Verified; 0 games agree with the entered results.")
        assert "Games 2–3 are in the record" in verdict_text(many)
    with translation.override("sv"):
        assert verdict_text(one).startswith("Verifierat; 1 parti stämmer med de inmatade")
        assert "Parti 2 finns i protokollet" in verdict_text(one)
    for code in VERDICTS:
        assert code.startswith("verdict.")
