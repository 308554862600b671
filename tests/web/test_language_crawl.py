"""Every page kind in every language (Swedish, English, Danish): a crawl of the demo
(``manage.py seed_demo``: each game and format), with a backgammon ``.mat`` record stepped
through and a bräde record that disagrees with its match, finds no tell-tale word of
another language on a page (``tests.web.language_words``), and no page fails. The
language is set per request, explicitly."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from matches.models import GameRecordSubmission, Match, RecordState
from matches.records import game_record_submit
from tests.backgammon.test_mat import XG
from tests.web.language_words import (
    TELLTALE,
    foreign_words,
    page_urls,
    proper_names,
    visible_text,
)
from tests.web.test_games_pages import _mat_match
from tests.web.test_page_words import OTHERS
from web.demo import TOURNAMENT_NAME

pytestmark = pytest.mark.django_db


def test_the_word_lists_tell_the_languages_apart() -> None:
    """Not hollow: each list finds the words that leaked before, and not its own."""
    assert foreign_words("Alice: Doubles => 2", "sv") and foreign_words("Alice: Takes", "sv")
    assert foreign_words("hemspel med munk", "en")
    assert foreign_words("Game 3: game 3 is the Crawford game", "sv")
    assert not foreign_words("Anna Lindqvist vinner med jan", "sv")
    assert not foreign_words("Anna Lindqvist wins by hemspel with munk", "en")
    # Danish: English and Swedish words leak onto a Danish page; Danish onto the others.
    assert foreign_words("Alice: Takes", "da") and foreign_words("Anna vinner med jan", "da")
    assert foreign_words("Omgång 2: 3 poäng", "da")
    assert foreign_words("Anna vinder med jan", "sv") and foreign_words("Runde 2", "en")
    assert not foreign_words("Anna Lindqvist vinder med hemspel og munk i kampen", "da")
    assert not foreign_words("Bob dobler til 2, Alice tager: 4 point, Crawfordpartiet", "da")
    assert set(TELLTALE) == {"sv", "en", "da"}


@pytest.fixture
def demo(django_capture_on_commit_callbacks: Any) -> list[str]:
    with django_capture_on_commit_callbacks(execute=True):
        call_command("seed_demo", stdout=io.StringIO())
        match, referee = _mat_match()
        game_record_submit(match=match, text=XG, by=referee)
        brade = Match.objects.filter(tournament__name=TOURNAMENT_NAME, state="playing").first()
        assert brade is not None
        game_record_submit(match=brade, text=OTHERS, by=brade.tournament.referees.first())
    states = set(GameRecordSubmission.objects.values_list("state", flat=True))
    assert {RecordState.ENTERED, RecordState.MISMATCH} <= states
    return page_urls()


@pytest.mark.parametrize("lang", ["sv", "en", "da"])
def test_no_page_shows_the_other_languages_words(demo: list[str], lang: str) -> None:
    names = proper_names()
    signed_in = Client()
    signed_in.force_login(get_user_model().objects.get(is_superuser=True))
    anonymous = Client()
    found: dict[str, list[str]] = {}
    for client in (signed_in, anonymous):
        client.cookies["django_language"] = lang
        for url in demo:
            response = client.get(url)
            if response.status_code != 200:
                if client is signed_in:  # the superuser sees every page, or is sent on
                    assert response.status_code == 302, url
                continue
            words = foreign_words(visible_text(response.content.decode()), lang, names)
            if words:
                found[url] = words
    assert found == {}
    assert len(demo) > 40
