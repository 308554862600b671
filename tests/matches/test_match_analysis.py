"""A backgammon match's analysis through the site: asked for, run by the task (eager in the
tests), shown on the match's page, in the player's history and in the API."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from matches import analysis
from matches.models import AnalysisState, MatchAnalysis, RecordState
from matches.records import game_record_submit
from tests.backgammon.test_mat import XG
from tests.matches.test_games_seam import _alice_and_bob

pytestmark = pytest.mark.django_db


def _recorded(capture: Any) -> tuple[Any, Any]:
    _t, match, referee = _alice_and_bob()
    with capture(execute=True):
        sub = game_record_submit(match=match, text=XG, by=referee)
    sub.refresh_from_db()
    assert sub.state == RecordState.ENTERED, sub.message
    return match, referee


class TestService:
    def test_asked_for_it_runs_and_stores_each_players_pr(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        match, _referee = _recorded(django_capture_on_commit_callbacks)
        with django_capture_on_commit_callbacks(execute=True):
            analysis.match_analysis_request(match=match)
        row = MatchAnalysis.objects.get(match=match)
        assert row.state == AnalysisState.DONE, row.message
        assert row.progress == row.total == 4
        assert row.result is not None
        names = [p["name"] for p in row.result["players"]]
        assert names == ["Alice", "Bob"]
        assert row.pr_first == pytest.approx(row.result["players"][0]["pr"], abs=0.01)
        assert row.result["engine"] == "gnubg 1.07 0-ply (gnubg-nn), Kazaross-XG2"

    def test_a_match_without_a_record_is_refused(self) -> None:
        _t, match, _referee = _alice_and_bob()
        with pytest.raises(analysis.AnalysisRefused):
            analysis.match_analysis_request(match=match)
        assert not MatchAnalysis.objects.exists()

    def test_without_gnubg_nn_it_says_so(
        self, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        match, _referee = _recorded(django_capture_on_commit_callbacks)
        monkeypatch.setitem(sys.modules, "gnubg_nn", None)
        with django_capture_on_commit_callbacks(execute=True):
            analysis.match_analysis_request(match=match)
        row = MatchAnalysis.objects.get(match=match)
        assert row.state == AnalysisState.UNAVAILABLE
        assert "requirements-analysis.txt" in row.message


class TestPagesAndApi:
    def test_the_page_part_shows_the_button_then_the_players(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        match, referee = _recorded(django_capture_on_commit_callbacks)
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # pages are Swedish otherwise
        client.force_login(referee)
        part = reverse("web:match_analysis", args=[match.pk])
        html = client.get(part, headers={"HX-Request": "true"}).content.decode()
        assert "Analyse the match" in html
        with django_capture_on_commit_callbacks(execute=True):
            asked = client.post(
                reverse("web:match_analysis_ask", args=[match.pk]), headers={"HX-Request": "true"}
            )
        assert asked.status_code == 200
        html = client.get(part, headers={"HX-Request": "true"}).content.decode()
        assert "Alice" in html
        assert "Analyse again" in html
        page = client.get(reverse("web:match_detail", args=[match.pk])).content.decode()
        assert part in page
        history = client.get(reverse("web:player_detail", args=[match.player1_id])).content
        assert b">PR<" in history

    def test_the_api_reads_and_asks(self, django_capture_on_commit_callbacks: Any) -> None:
        match, referee = _recorded(django_capture_on_commit_callbacks)
        client = Client()
        url = f"/api/matches/{match.pk}/analysis/"
        assert client.get(url).json()["state"] == "none"
        client.force_login(referee)
        with django_capture_on_commit_callbacks(execute=True):
            asked = client.post(url)
        assert asked.status_code == 202
        data = client.get(url).json()
        assert data["state"] == "done"
        assert [p["name"] for p in data["result"]["players"]] == ["Alice", "Bob"]
        assert set(data["result"]["players"][0]) >= {"pr", "level", "luck", "errors"}
