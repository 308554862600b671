"""A match's explanation worded at the edge: every code of the families' catalogues has a
wording in each language, and a name's possessive follows each language's rule."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from engine.messages import Msg, param_names
from games.explain_messages import MESSAGES as GAME_MESSAGES
from matches.explain_text import SAME_IN_EVERY_LANGUAGE, TEMPLATES, explanation, genitive, render
from scoring.explain_messages import MESSAGES as SCORING_MESSAGES

CODES = sorted({*SCORING_MESSAGES, *GAME_MESSAGES})


def test_every_code_has_a_wording() -> None:
    assert set(CODES) == {*TEMPLATES, *SAME_IN_EVERY_LANGUAGE, "explain.genitive"}


@pytest.mark.parametrize("code", CODES)
def test_each_wording_uses_the_parameters_of_the_english(code: str) -> None:
    """Rendered with every parameter the English names (count 1 and 2 for the plurals),
    each language's text uses every parameter that carries a value into the sentence."""
    names = param_names(code)
    for count in (1, 2):
        params = {name: (count if name == "count" else f"<{name}>") for name in names}
        for lang, _name in settings.LANGUAGES:
            with translation.override(lang):
                text = render(Msg(code, params))
            assert text
            missing = {n for n in names if n != "count" and f"<{n}>" not in text}
            assert missing == set(), (code, lang, missing)


def test_the_english_wording_is_the_catalogues_english() -> None:
    """The edge's English and ``Msg.text`` agree, so the CLI and an English page read alike
    (the possessive aside: only the edge knows each language's rule)."""
    for code in CODES:
        if code == "explain.genitive":
            continue
        names = param_names(code)
        for count in (1, 2):
            message = Msg(code, {n: (count if n == "count" else f"<{n}>") for n in names})
            assert explanation([message], lang="en") == [message.text()], code


@pytest.mark.parametrize(
    ("name", "english", "swedish", "danish"),
    [
        ("Anna", "Anna's", "Annas", "Annas"),
        ("Lars", "Lars'", "Lars", "Lars'"),
        ("Max", "Max's", "Max", "Max'"),
        ("Fritz", "Fritz's", "Fritz", "Fritz'"),
        ("A", "A's", "A:s", "A's"),
        ("SM", "SM's", "SM:s", "SM's"),
        ("Ö", "Ö's", "Ö:s", "Ö's"),
    ],
)
def test_the_possessive_in_each_language(
    name: str, english: str, swedish: str, danish: str
) -> None:
    with translation.override("en"):
        assert genitive(name) == english
    with translation.override("sv"):
        assert genitive(name) == swedish
    with translation.override("da"):  # Retskrivningsordbogen: Annas, Lars', DBgF's
        assert genitive(name) == danish


def test_default_names_and_nested_messages_are_worded_in_the_language() -> None:
    white = Msg("explain.white")
    line = Msg("explain.decided", {"winner": white, "game": 3})
    assert explanation([line], lang="sv") == [
        "Vit har vunnit matchen: den avgjordes efter parti 3."
    ]
    assert explanation([line], lang="en") == [
        "White has won the match: it was decided after game 3."
    ]
    assert explanation([line], lang="da") == [
        "Hvid har vundet kampen: den blev afgjort efter parti 3."
    ]


def test_an_unknown_code_is_refused() -> None:
    with pytest.raises(KeyError, match="no wording"):
        explanation([Msg("explain.nonsense")], lang="en")
