"""Every Swedish page is Swedish: a crawl of the main pages of the demo tournament
(``manage.py seed_demo``, which holds a rejected game record among others) fails on any
English text of the catalogue shown untranslated: a msgid of the Swedish .po whose
translation differs, or a template of the engine's and scoring's messages
(``engine.messages``), found in the visible text of a Swedish page."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path
from typing import Any

import polib
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from engine.messages import MESSAGES, Plural
from matches.models import GameRecordSubmission, Match, RecordState
from tournaments.models import Player, Tournament
from web.demo import TOURNAMENT_NAME

pytestmark = pytest.mark.django_db

PO = Path(__file__).resolve().parents[2] / "locale" / "sv" / "LC_MESSAGES" / "django.po"
# Shorter English fragments ("Final", "bye", "Game") are words Swedish shares or too
# short to tell; longer ones are sentences or phrases that only English has.
MIN_FRAGMENT = 14
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def _fragments(text: str) -> list[str]:
    """The literal pieces of a message between its placeholders, long enough to tell."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))  # as a page shows it
    return [
        " ".join(part.split())
        for part in PLACEHOLDER.split(text)
        if len(part.strip()) >= MIN_FRAGMENT
    ]


def english_fragments(po: Path = PO) -> set[str]:
    """English text no page in the language of ``po`` (a catalogue, the Swedish one
    unless told) may show: from the .po (translated differently) and from the engine's
    message templates."""
    out: set[str] = set()
    for entry in polib.pofile(str(po)):
        forms = [(entry.msgid, entry.msgstr)]
        if entry.msgid_plural:
            forms = [
                (entry.msgid, entry.msgstr_plural.get(0, "")),
                (entry.msgid_plural, entry.msgstr_plural.get(1, "")),
            ]
        for msgid, msgstr in forms:
            if msgstr and msgstr != msgid:
                translated = set(_fragments(msgstr))
                out.update(f for f in _fragments(msgid) if f not in translated)
    for template in MESSAGES.values():
        texts = [template.singular, template.plural] if isinstance(template, Plural) else [template]
        for text in texts:
            out.update(_fragments(text))
    return out


def visible_text(page: str) -> str:
    """The page's text as a reader sees it (tags, scripts and styles removed)."""
    page = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", page)
    page = re.sub(r"(?s)<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(page))


def test_the_fragments_cover_engine_and_page_messages() -> None:
    """The check is not hollow: it knows the engine's and the pages' English."""
    fragments = english_fragments()
    assert "may not make a band on point" in fragments  # engine, R5.3
    assert "games agree with the entered results" in fragments  # a record's verdict
    assert "Step through the game" in fragments  # a page
    assert len(fragments) > 300


@pytest.fixture
def demo(django_capture_on_commit_callbacks: Any) -> Tournament:
    with django_capture_on_commit_callbacks(execute=True):
        call_command("seed_demo", stdout=io.StringIO())
    return Tournament.objects.get(name=TOURNAMENT_NAME)


def _pages(demo: Tournament) -> list[str]:
    urls = [
        reverse("web:tournament_list"),
        reverse("web:tournament_detail", args=[demo.pk]),
        reverse("web:glossary"),
    ]
    urls += [
        reverse("web:match_detail", args=[m.pk]) for m in Match.objects.filter(tournament=demo)
    ]
    urls += [
        reverse("web:player_detail", args=[p.pk])
        for p in Player.objects.filter(entries__tournament=demo)
    ]
    for sub in GameRecordSubmission.objects.filter(match__tournament=demo):
        urls.append(reverse("web:record_detail", args=[sub.pk]))
    return urls


def test_swedish_pages_show_no_english_catalogue_text(client: Client, demo: Tournament) -> None:
    states = set(
        GameRecordSubmission.objects.filter(match__tournament=demo).values_list("state", flat=True)
    )
    assert RecordState.INVALID in states and RecordState.VERIFIED in states
    client.force_login(get_user_model().objects.get(is_superuser=True))
    fragments = english_fragments()
    found: dict[str, set[str]] = {}
    pages = _pages(demo)
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        text = visible_text(response.content.decode())
        shown = {f for f in fragments if f in text}
        if shown:
            found[url] = shown
    assert found == {}
    # Swedish round names, and the rejected record's rule in Swedish with its number.
    bracket = visible_text(
        client.get(reverse("web:tournament_detail", args=[demo.pk])).content.decode()
    )
    assert all(name in bracket for name in ("Åttondelsfinal", "Kvartsfinal", "Semifinal"))
    rejected = GameRecordSubmission.objects.filter(
        match__tournament=demo, state=RecordState.INVALID
    ).first()
    assert rejected is not None
    page = visible_text(
        client.get(reverse("web:record_detail", args=[rejected.pk])).content.decode()
    )
    assert re.search(r"\bR\d+", page)


def _rejected_mat(name: str) -> str:
    """The XG record of tests.backgammon.test_mat broken in one way."""
    from tests.backgammon.test_mat import XG

    broken = {
        # Game 2 is the Crawford game (Alice has 2 of 3 points): no doubling in it.
        "crawford": ("  2) 31: 8/5 6/5", "  2)  Doubles => 2"),
        "wins": ("      Wins 2 points\n", "      Wins 4 points\n"),
        "score": (" Alice : 2                           Bob : 1", " Alice : 1   Bob : 1"),
        "syntax": ("  2) 31: 8/5 6/5", "  2) 31: 8/5 6/5 hello"),
        "move": ("  1) 31: 8/5 6/5                      Doubles", "  1) 31: 9/6 6/5   Doubles"),
    }
    old, new = broken[name]
    assert old in XG
    return XG.replace(old, new, 1)


@pytest.mark.parametrize(
    ("name", "swedish"),
    [
        ("crawford", "ingen dubbling i Crawfordpartiet (Crawfordregeln)"),
        ("wins", "Wins 4 poäng, men partiet ger 2"),
        ("score", "ställningsraden 1–1, men partierna före ger 2–1"),
        ("syntax", "okänd post 'hello'"),
        ("move", "den som flyttar har ingen bricka på punkt 9"),
    ],
)
def test_a_rejected_mat_record_is_swedish(
    client: Client, django_capture_on_commit_callbacks: Any, name: str, swedish: str
) -> None:
    """A backgammon record the engine rejects: its page in Swedish shows the engine's
    message in Swedish (with its line) and no English of the catalogue; in English the
    engine's own text."""
    from backgammon.messages import MESSAGES as BACKGAMMON
    from matches.records import game_record_submit
    from tests.web.test_games_pages import _mat_match

    fragments = english_fragments()
    assert "no doubling in the Crawford game (Crawford rule)" in fragments
    assert all(code in MESSAGES for code in BACKGAMMON)
    match, referee = _mat_match()
    with django_capture_on_commit_callbacks(execute=True):
        sub = game_record_submit(match=match, text=_rejected_mat(name), by=referee)
    sub = GameRecordSubmission.objects.get(pk=sub.pk)
    assert sub.state == RecordState.INVALID
    client.force_login(referee)
    url = reverse("web:record_detail", args=[sub.pk])
    page = visible_text(client.get(url).content.decode())
    assert swedish in page
    assert {f for f in fragments if f in page} == set()
    client.cookies["django_language"] = "en"
    english = visible_text(client.get(url).content.decode())
    report = sub.report if isinstance(sub.report, dict) else {}
    assert report["error"]["message"] in english  # the stored English, the engine's own
    assert sub.message.endswith(report["error"]["message"])
