"""Every Danish page is Danish: the switch on every page offers Dansk, and a crawl of one
page of every kind of the demo (``manage.py seed_demo``: each game and format, with a
backgammon ``.mat`` record and a rejected bräde record) in Danish fails on a page that
does not answer, or on English text of the catalogue shown untranslated: a msgid of the
Danish .po whose translation differs, or a template of the engine's and scoring's
messages (``engine.messages``), found in the visible text (the rules of
``test_swedish_crawl``, with the Danish catalogue). The season and team pages, which the
demo has none of, are read from a club's season of their own."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from matches.models import GameRecordSubmission, Match, RecordState
from matches.records import game_record_submit
from teams.rosters import roster_player_add
from tests.backgammon.test_mat import XG
from tests.teams.helpers import squad
from tests.web.language_words import foreign_words, page_urls
from tests.web.test_games_pages import _mat_match
from tests.web.test_page_words import OTHERS
from tests.web.test_swedish_crawl import _rejected_mat, english_fragments, visible_text
from tournaments.models import Tournament
from web.demo import TOURNAMENT_NAME

pytestmark = pytest.mark.django_db

PO = Path(__file__).resolve().parents[2] / "locale" / "da" / "LC_MESSAGES" / "django.po"


def test_the_fragments_know_the_danish_catalogues_english() -> None:
    """Not hollow: the English of the pages and the engine is there, and not the English
    a Danish page shows as it is (the game words, the federation's section names)."""
    fragments = english_fragments(PO)
    assert "Step through the game" in fragments  # a page
    assert "games agree with the entered results" in fragments  # a record's verdict
    assert "no doubling in the Crawford game (Crawford rule)" in fragments  # the engine
    assert "Ugyldige slag og ulovlige ryk" not in fragments
    assert len(fragments) > 300


def test_the_switch_offers_dansk_and_the_page_follows_it(client: Client) -> None:
    page = client.get(reverse("web:tournament_list")).content.decode()
    assert re.search(r'<button[^>]*name="language" value="da" lang="da"[^>]*>Dansk</button>', page)
    response = client.post(
        reverse("set_language"), {"language": "da", "next": reverse("web:tournament_list")}
    )
    assert response.status_code == 302
    page = client.get(reverse("web:tournament_list")).content.decode()
    assert '<html lang="da">' in page
    assert "Turneringer" in page and "Log ind" in page and "Opret en konto" in page


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
    assert {RecordState.ENTERED, RecordState.MISMATCH, RecordState.INVALID} <= states
    return page_urls()


def test_danish_pages_show_no_english_catalogue_text(client: Client, demo: list[str]) -> None:
    client.force_login(get_user_model().objects.get(is_superuser=True))
    client.cookies["django_language"] = "da"
    fragments = english_fragments(PO)
    found: dict[str, set[str]] = {}
    for url in demo:
        response = client.get(url)
        if response.status_code != 200:  # the superuser sees every page, or is sent on
            assert response.status_code == 302, url
            continue
        page = response.content.decode()
        if "<html" in page:  # a whole page, not a part htmx swaps in
            assert '<html lang="da"' in page, url
        text = visible_text(page)
        shown = {f for f in fragments if f in text}
        if shown:
            found[url] = shown
    assert found == {}
    assert len(demo) > 40
    # The rounds by their Danish names, and a rejected record's rule with its number.
    cup = Tournament.objects.get(name=TOURNAMENT_NAME)
    bracket = visible_text(
        client.get(reverse("web:tournament_detail", args=[cup.pk])).content.decode()
    )
    assert all(name in bracket for name in ("Ottendedelsfinale", "Kvartfinale", "Semifinale"))
    rejected = GameRecordSubmission.objects.filter(state=RecordState.INVALID).first()
    assert rejected is not None
    page = visible_text(
        client.get(reverse("web:record_detail", args=[rejected.pk])).content.decode()
    )
    assert "Protokollen blev afvist" in page and re.search(r"\bR\d+", page)


@pytest.mark.parametrize(
    ("name", "danish"),
    [
        ("crawford", "ingen dobling i Crawfordpartiet (Crawfordreglen)"),
        ("wins", "Wins 4 point, men partiet giver 2"),
        ("score", "stillingslinjen 1–1, men partierne før giver 2–1"),
        ("syntax", "ukendt post 'hello'"),
        ("move", "den, der rykker, har ingen brik på punkt 9"),
    ],
)
def test_a_rejected_mat_record_is_danish(
    client: Client, django_capture_on_commit_callbacks: Any, name: str, danish: str
) -> None:
    """A backgammon record the engine rejects: its page in Danish shows the engine's
    message in the Danish federation's words (with its line), and no English of the
    catalogue."""
    fragments = english_fragments(PO)
    match, referee = _mat_match()
    with django_capture_on_commit_callbacks(execute=True):
        sub = game_record_submit(match=match, text=_rejected_mat(name), by=referee)
    sub = GameRecordSubmission.objects.get(pk=sub.pk)
    assert sub.state == RecordState.INVALID
    client.force_login(referee)
    client.cookies["django_language"] = "da"
    page = visible_text(client.get(reverse("web:record_detail", args=[sub.pk])).content.decode())
    assert danish in page
    assert re.search(r"\blinje \d+", page)
    assert {f for f in fragments if f in page} == set()


def test_a_seasons_teams_pages_are_danish(client: Client) -> None:
    """The season and team pages (not in the demo): in Danish, whole, with no English of
    the catalogue and no other language's words, for the keeper and the captain."""
    s = squad()
    roster_player_add(team=s.team, player=s.players[0], by=s.captain)
    fragments = english_fragments(PO)
    names = (s.club.name, s.season.name, s.team.name, *(p.name for p in s.players))
    pages = {
        s.keeper: [
            reverse("clubs:season_detail", args=[s.season.pk]),
            reverse("clubs:season_edit", args=[s.season.pk]),
            reverse("teams:season_teams", args=[s.season.pk]),
            reverse("teams:team_detail", args=[s.team.pk]),
            reverse("teams:team_edit", args=[s.team.pk]),
        ],
        s.captain: [reverse("teams:roster_edit", args=[s.team.pk])],
    }
    found: dict[str, list[str]] = {}
    for user, urls in pages.items():
        client.force_login(user)
        client.cookies["django_language"] = "da"
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
            page = response.content.decode()
            assert '<html lang="da">' in page, url
            text = visible_text(page)
            shown = [f for f in fragments if f in text]
            shown += foreign_words(text, "da", names)
            if shown:
                found[url] = shown
    assert found == {}
    client.force_login(s.captain)
    roster = visible_text(
        client.get(reverse("teams:roster_edit", args=[s.team.pk])).content.decode()
    )
    assert "Holdliste" in roster and "Tilføj en spiller" in roster
