"""A Monrad tournament never calls itself a Swiss: its pages (public, manage, round,
screen, a player's half-point byes) and the API's messages to it (errors included) name no
other format, in Swedish and in English. Pages are read as their text (tags, attributes
and scripts aside: the addresses keep their ``/swiss/`` path)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match, MatchState
from matches.services import match_walkover
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

# "Swiss" in English, "schweizer…" (schweizersystem, schweizerturnering, schweizeromgång)
# in Swedish.
OTHER_FORMAT = re.compile(r"Swiss|schweizer", re.IGNORECASE)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("script", "style") and self._skip > 0

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def text_of(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(parser.parts)


def _messages(data: Any) -> list[str]:
    """Every string of an API answer (its messages, codes aside)."""
    if isinstance(data, dict):
        return [s for key, v in data.items() if key != "code" for s in _messages(v)]
    if isinstance(data, list):
        return [s for v in data for s in _messages(v)]
    return [data] if isinstance(data, str) else []


@pytest.fixture
def monrad() -> tuple[Tournament, Any, Any]:
    organiser = OrganiserFactory.create(username="monradord")
    client = Client()
    client.force_login(organiser)
    client.post(
        reverse("web:tournament_create"),
        {
            "name": "Monradkvällen",
            "start_date": "2027-03-06",
            "rules": "talisman",
            "scale": "ww",
            "resignation_policy": "capped",
            "format": "monrad",
            "swiss_rounds": "3",
            "is_public": "on",
        },
    )
    t = Tournament.objects.get(name="Monradkvällen")
    player_user = UserFactory.create(username="spelaren")
    for i in range(1, 6):
        player = PlayerFactory.create(name=f"Spelare {i}", user=player_user if i == 1 else None)
        EntryFactory.create(tournament=t, player=player)
    client.post(reverse("web:tournament_bracket_generate", args=[t.pk]), {"lengths": "3, 3, 3"})
    client.post(reverse("web:swiss_half_bye_rules", args=[t.pk]), {"allowed": "1", "until": "3"})
    client.post(reverse("web:swiss_pair", args=[t.pk]))
    client.post(reverse("web:swiss_publish", args=[t.pk, 1]))
    for m in Match.objects.filter(tournament=t, state=MatchState.READY):
        assert m.player1 is not None
        match_walkover(match=m, winner=m.player1, by=organiser)
    client.post(reverse("web:swiss_pair", args=[t.pk]))  # round 2, unpublished
    t.refresh_from_db()
    return t, organiser, player_user


@pytest.mark.parametrize("language", ["sv", "en"])
def test_a_monrads_pages_name_no_other_format(
    language: str, monrad: tuple[Tournament, Any, Any]
) -> None:
    t, organiser, player_user = monrad
    pages = {
        "public": (None, reverse("web:tournament_detail", args=[t.pk])),
        "player": (player_user, reverse("web:tournament_detail", args=[t.pk])),
        "staff": (organiser, reverse("web:tournament_detail", args=[t.pk])),
        "manage": (organiser, reverse("web:tournament_manage", args=[t.pk])),
        "round": (None, reverse("web:tournament_round", args=[t.pk, 1])),
        "unpublished round": (organiser, reverse("web:tournament_round", args=[t.pk, 2])),
        "screen": (None, reverse("web:tournament_screen", args=[t.pk])),
    }
    texts = {}
    for name, (user, url) in pages.items():
        client = Client()
        client.cookies["django_language"] = language
        if user is not None:
            client.force_login(user)
        response = client.get(url, follow=True)
        assert response.status_code == 200, name
        texts[name] = text_of(response.content.decode())
    assert "Monrad" in texts["manage"]  # the format is named, by its own name
    assert {name: OTHER_FORMAT.findall(text) for name, text in texts.items()} == {
        name: [] for name in texts
    }


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_api_tells_a_monrad_no_other_format(
    language: str, monrad: tuple[Tournament, Any, Any]
) -> None:
    t, organiser, _player_user = monrad
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(organiser)
    base = f"/api/tournaments/{t.pk}/swiss"
    stranger = EntryFactory.create().pk  # an entry of another tournament
    entry = Entry.objects.filter(tournament=t).first()
    assert entry is not None
    answers = {
        "rounds": client.get(f"{base}/"),
        "standings": client.get(f"/api/tournaments/{t.pk}/standings/"),
        "no round": client.post(f"{base}/rounds/9/publish/"),
        "not entered": client.post(
            f"{base}/half-byes/", {"entry": stranger, "round": 3}, content_type="application/json"
        ),
        "no bye": client.delete(f"{base}/half-byes/9999/"),
        "past the rounds": client.post(
            f"{base}/half-byes/", {"entry": entry.pk, "round": 9}, content_type="application/json"
        ),
        "all paired": client.post(f"{base}/pair/"),
    }
    assert answers["rounds"].status_code == 200 and answers["standings"].status_code == 200
    refused = {name: a.status_code for name, a in answers.items() if a.status_code >= 400}
    assert set(refused) == {"no round", "not entered", "no bye", "past the rounds", "all paired"}
    said = {name: _messages(a.json()) for name, a in answers.items()}
    assert all(said[name] for name in refused)
    assert {name: [s for s in texts if OTHER_FORMAT.search(s)] for name, texts in said.items()} == {
        name: [] for name in said
    }
