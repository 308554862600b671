"""The record viewer shows a record's turns and positions in the reader's words: the
players by name (not ``W``/``B``), the bar and "off" in the page's language, and the
position as a sentence (not ``W 24 | B 1:14 bar:1 | B``). The record itself keeps its
words: the submitted text is stored as it was."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import GameRecordSubmission, Match, RecordState
from matches.services import game_record_submit
from tests.tournaments.helpers import Setup, drawn, match_of, players_of

pytestmark = pytest.mark.django_db

# Black enters from the bar and moves on; White bears its last checker off (hemspel).
RECORD = (
    '[White "Anna Ek"]\n[Black "Bo Lind"]\n[Rules "talisman"]\n\n'
    "Game 1\nPosition: W 24 | B 1:14 bar:1 | B\nB 6-5: bar/5 1/7\nW 6-5: 24/off\n"
    "Result: White hemspel\n"
)


@dataclass(frozen=True)
class Words:
    """What the viewer shows of ``RECORD`` in one language."""

    moves: tuple[str, str]
    positions: tuple[str, str, str]  # at the start, after Black's turn, at the end
    opening: str


WORDS = {
    "sv": Words(
        moves=("Bo Lind 6-5: balken/5 1/7", "Anna Ek 6-5: 24/ut"),
        positions=(
            "Anna Ek har 1 på spets 24 och 14 utspelade; Bo Lind har 14 på spets 1 och 1 på balken",
            "Anna Ek har 1 på spets 24 och 14 utspelade; "
            "Bo Lind har 13 på spets 1, 1 på spets 5 och 1 på spets 7",
            "Anna Ek har 15 utspelade; Bo Lind har 13 på spets 1, 1 på spets 5 och 1 på spets 7",
        ),
        opening="Bo Lind i tur",
    ),
    "en": Words(
        moves=("Bo Lind 6-5: bar/5 1/7", "Anna Ek 6-5: 24/off"),
        positions=(
            "Anna Ek has 1 on point 24 and 14 borne off; "
            "Bo Lind has 14 on point 1 and 1 on the bar",
            "Anna Ek has 1 on point 24 and 14 borne off; "
            "Bo Lind has 13 on point 1, 1 on point 5 and 1 on point 7",
            "Anna Ek has 15 borne off; Bo Lind has 13 on point 1, 1 on point 5 and 1 on point 7",
        ),
        opening="Bo Lind to move",
    ),
}


@pytest.fixture
def setup() -> Setup:
    return drawn(2, lengths=[1])


@pytest.fixture
def match(setup: Setup) -> Match:
    match = match_of(setup.tournament, 1, 0)
    for player, name in zip(players_of(match), ("Anna Ek", "Bo Lind"), strict=True):
        player.name = name
        player.save()
    return match


def _submission(match: Match, by: Any, capture: Any) -> GameRecordSubmission:
    with capture(execute=True):
        sub = game_record_submit(match=match, text=RECORD, by=by)
    sub.refresh_from_db()
    assert sub.state in (RecordState.VERIFIED, RecordState.ENTERED), sub.message
    return sub


def _frames(page: str) -> list[dict[str, str]]:
    script = re.search(r'<script id="viewer-frames" type="application/json">(.*?)</script>', page)
    assert script is not None
    frames: list[dict[str, str]] = json.loads(script.group(1))
    return frames


def _text(page: str) -> str:
    """The page's words as a reader sees them (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_viewer_names_the_players_the_bar_and_the_position_in_words(
    client: Client,
    setup: Setup,
    match: Match,
    django_capture_on_commit_callbacks: Any,
    language: str,
) -> None:
    words = WORDS[language]
    sub = _submission(match, setup.referee, django_capture_on_commit_callbacks)
    client.cookies["django_language"] = language
    client.force_login(setup.referee)
    page = client.get(reverse("web:record_viewer", args=[sub.pk])).content.decode()

    frames = _frames(page)
    assert tuple(f["move"] for f in frames[1:]) == words.moves
    assert tuple(f["position"] for f in frames) == words.positions
    assert words.opening in frames[0]["move"]
    # The move list and the position line of the page as served (no JavaScript).
    shown = " ".join(_text(page).split())
    for move in words.moves:
        assert move in shown
    assert words.positions[0] in shown
    # Nothing of the record's own notation is shown as it is written.
    for raw in ("B 6-5", "W 6-5", "W 24 | B", "bar:1"):
        assert raw not in shown, raw
    # The record is stored as it was submitted.
    sub.refresh_from_db()
    assert sub.text == RECORD
