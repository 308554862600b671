"""Issuing private links: the first link says nothing of an old one; every missing link
at once, the live ones left as they are."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.helpers import drawn
from tournaments.models import PrivateLink
from tournaments.private_links import private_link_issue, private_link_replaced

pytestmark = pytest.mark.django_db


def _organiser(s: object) -> Client:
    client = Client()
    client.cookies["django_language"] = "sv"
    client.force_login(s.organiser)  # type: ignore[attr-defined]
    return client


def test_a_first_link_says_nothing_of_an_old_one_and_a_reissue_does() -> None:
    s = drawn(4, results_by="players")
    player = s.players[0]
    first = private_link_issue(tournament=s.tournament, player=player, by=s.organiser)
    again = private_link_issue(tournament=s.tournament, player=player, by=s.organiser)
    assert not private_link_replaced(first) and private_link_replaced(again)

    client = _organiser(s)
    other = s.players[1]
    url = reverse("web:private_link_issue", args=[s.tournament.pk, other.pk])
    page = client.post(url, follow=True).content.decode()
    assert f"En länk till {other.name}." in page and "fungerar inte längre" not in page
    page = client.post(url, follow=True).content.decode()
    assert "den gamla fungerar inte längre" in page


def test_every_missing_link_at_once_leaves_the_live_ones() -> None:
    s = drawn(4, results_by="players")
    kept = private_link_issue(tournament=s.tournament, player=s.players[0], by=s.organiser)
    client = _organiser(s)
    manage = reverse("web:private_links", args=[s.tournament.pk])
    assert "Dela ut alla saknade länkar (3 spelare)" in client.get(manage).content.decode()
    url = reverse("web:private_links_issue_missing", args=[s.tournament.pk])
    page = client.post(url, follow=True).content.decode()
    assert "3 nya länkar" in page
    live = PrivateLink.objects.filter(tournament=s.tournament, revoked_at__isnull=True)
    assert live.count() == 4 and live.filter(pk=kept.pk).exists()
    assert "saknade" not in client.get(manage).content.decode()  # the button is gone
    page = client.post(url, follow=True).content.decode()
    assert "0 nya länkar" in page and live.count() == 4


def test_only_an_organiser_issues_every_link() -> None:
    s = drawn(4, results_by="players")
    for user in (s.referee, UserFactory.create()):
        client = Client()
        client.force_login(user)
        answer = client.post(reverse("web:private_links_issue_missing", args=[s.tournament.pk]))
        assert answer.status_code in (403, 404)
    assert not PrivateLink.objects.filter(tournament=s.tournament).exists()


def test_the_private_page_follows_an_opponents_report_without_a_reload() -> None:
    """The page asks for its matches every few seconds (htmx); they come again only when
    the tournament changed (304 otherwise), so the opponent's report shows at once."""
    from matches.reports import game_report_submit
    from tests.results import won
    from tests.tournaments.helpers import match_of, players_of
    from tournaments.private_links import private_link_token

    s = drawn(2, lengths=[3], results_by="players")
    match = match_of(s.tournament, 1, 0)
    one, two = players_of(match)
    mine = private_link_issue(tournament=s.tournament, player=two, by=s.organiser)
    url = reverse("web:private_home", args=[private_link_token(mine)])
    client = Client()
    page = client.get(url).content.decode()
    assert 'id="private-matches"' in page and f'hx-get="{url}?part=matches"' in page
    first = client.get(url + "?part=matches")
    assert first.status_code == 200 and first["ETag"]
    assert "private, no-cache" in first["Cache-Control"]
    assert client.get(url + "?part=matches", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    theirs = private_link_issue(tournament=s.tournament, player=one, by=s.organiser)
    game_report_submit(
        match=match, number=1, result=won("W", "jan"), starter="W", by=None, link=theirs
    )
    changed = client.get(url + "?part=matches", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    html = changed.content.decode()
    assert 'id="private-matches"' in html and "<html" not in html
    assert f"Parti 1: {one.name} vinner med jan." in html  # to confirm or dispute
