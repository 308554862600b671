"""Pages of the players' reports: a player reports a game from the match
page, the opponent confirms or disputes it there, referees and organisers see the open
reports on the entry and manage pages and decide; game 1's tek on the entry page; all of
it in Swedish."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Game, GameReport, Match, ReportState
from matches.reports import game_report_dispute, game_report_submit
from tests.factories import OrganiserFactory, UserFactory
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of, players_of
from tests.web.test_swedish_crawl import english_fragments, visible_text
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@dataclass
class Table:
    setup: Setup
    match: Match
    white: Any
    black: Any


def table(results_by: str = "players") -> Table:
    setup = drawn(4, lengths=[3, 3], results_by=results_by)
    match = match_of(setup.tournament, 1, 0)
    one, two = players_of(match)
    one.user = UserFactory.create(username="anna")
    one.save()
    two.user = UserFactory.create(username="bertil")
    two.save()
    return Table(setup, match, one.user, two.user)


def as_user(user: Any, language: str = "en") -> Client:
    client = Client()
    client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    return client


def match_url(match: Match) -> str:
    return reverse("web:match_detail", args=[match.pk])


def report_url(match: Match) -> str:
    return reverse("web:match_report", args=[match.pk])


def test_a_player_reports_and_the_opponent_confirms_on_the_match_page() -> None:
    t = table()
    anna, bertil = as_user(t.white), as_user(t.black)
    page = anna.get(match_url(t.match)).content.decode()
    assert report_url(t.match) in page and "Report game 1" in page
    form = anna.get(report_url(t.match)).content.decode()
    assert form.count('name="winner"') == 2 and form.count('name="starter"') == 2  # tek
    response = anna.post(
        report_url(t.match), {"number": 1, "winner": "B", "outcome": "jan", "starter": "W"}
    )
    assert response.status_code == 302 and response["Location"] == match_url(t.match)
    report = GameReport.objects.get()
    assert (report.winner, report.starter, report.state) == ("B", "W", ReportState.PENDING)
    assert not Game.objects.exists()  # counts for nothing yet

    reporter_view = anna.get(match_url(t.match)).content.decode()
    assert "Waiting for" in reporter_view and "confirm" in reporter_view
    assert reverse("web:report_withdraw", args=[report.pk]) in reporter_view
    assert reverse("web:report_confirm", args=[report.pk]) not in reporter_view
    assert "Report game 1" not in reporter_view  # one open report per game

    opponent_view = bertil.get(match_url(t.match)).content.decode()
    assert reverse("web:report_confirm", args=[report.pk]) in opponent_view
    # The opponent's confirmation from the match page's live part (one tap).
    live_url = reverse("web:match_live", args=[t.match.pk])
    live = bertil.get(live_url, headers={"HX-Request": "true"}).content.decode()
    assert reverse("web:report_confirm", args=[report.pk]) in live

    # The reporter's own "confirm" is refused with a message, not an error page.
    refused = anna.post(reverse("web:report_confirm", args=[report.pk]), follow=True)
    assert refused.status_code == 200 and "your opponent" in refused.content.decode()
    assert not Game.objects.exists()

    done = bertil.post(reverse("web:report_confirm", args=[report.pk]), follow=True)
    assert "Confirmed." in done.content.decode()
    game = Game.objects.get()
    assert (game.winner, game.outcome, game.starter, game.source) == ("B", "jan", "W", "players")
    after = as_user(None).get(match_url(t.match)).content.decode()
    assert t.match.player1 is not None and t.match.player1.name in after  # the starter column


def test_nobody_else_sees_reports_or_may_report() -> None:
    t = table()
    report = game_report_submit(match=t.match, number=1, result=won("W", "jan"), by=t.white)
    for user in (None, UserFactory.create()):
        page = as_user(user).get(match_url(t.match)).content.decode()
        assert "Report game" not in page and f"report-{report.pk}" not in page
    assert as_user(UserFactory.create()).get(report_url(t.match)).status_code == 403
    assert as_user(t.setup.referee).get(report_url(t.match)).status_code == 403
    stranger = as_user(UserFactory.create())
    assert stranger.get(reverse("web:report_detail", args=[report.pk])).status_code == 404
    anonymous = as_user(None).get(report_url(t.match))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_in_the_referees_mode_players_do_not_report() -> None:
    t = table(results_by="referees")
    anna = as_user(t.white)
    assert "Report game" not in anna.get(match_url(t.match)).content.decode()
    assert anna.get(report_url(t.match)).status_code == 403


def test_a_dispute_goes_to_the_referees_who_decide_on_the_entry_page() -> None:
    t = table()
    anna, bertil = as_user(t.white), as_user(t.black)
    anna.post(report_url(t.match), {"number": 1, "winner": "W", "outcome": "sprangjan"})
    report = GameReport.objects.get()
    detail = bertil.get(reverse("web:report_detail", args=[report.pk])).content.decode()
    assert 'id="dispute"' in detail
    bertil.post(reverse("web:report_dispute", args=[report.pk]), {"note": "It was jan."})
    report.refresh_from_db()
    assert report.state == ReportState.DISPUTED and report.dispute_note == "It was jan."

    organiser = as_user(t.setup.organiser)
    manage = organiser.get(
        reverse("web:tournament_manage", args=[t.setup.tournament.pk])
    ).content.decode()
    assert reverse("web:report_detail", args=[report.pk]) in manage and "disputed" in manage
    referee = as_user(t.setup.referee)
    entry = referee.get(reverse("web:match_enter", args=[t.match.pk])).content.decode()
    assert "It was jan." in entry and "Enter as reported" in entry
    # The referee decides: jan, not sprängjan (the normal buttons settle the report).
    referee.post(
        reverse("web:match_enter", args=[t.match.pk]),
        {"number": 1, "winner": "W", "outcome": "jan"},
    )
    report.refresh_from_db()
    assert report.state == ReportState.OVERRIDDEN
    assert Game.objects.get().outcome == "jan"
    assert "It was jan." not in referee.get(match_url(t.match)).content.decode()


def test_enter_as_reported_takes_the_report_as_it_is() -> None:
    t = table()
    report = game_report_submit(
        match=t.match,
        number=1,
        result=won("B", "vackert_spel", pattern="trappspel", munk=True),
        starter="B",
        by=t.white,
    )
    game_report_dispute(report=report, by=t.black)
    referee = as_user(t.setup.referee)
    page = referee.get(reverse("web:match_enter", args=[t.match.pk])).content.decode()
    assert 'value="vackert_spel:trappspel+munk"' in page
    referee.post(
        reverse("web:match_enter", args=[t.match.pk]),
        {"number": 1, "winner": "B", "outcome": "vackert_spel:trappspel+munk", "starter": "B"},
    )
    game = Game.objects.get()
    assert (game.winner, game.outcome, game.pattern, game.munk, game.starter) == (
        "B",
        "vackert_spel",
        "trappspel",
        True,
        "B",
    )


def test_withdraw_on_the_page_then_report_again() -> None:
    t = table()
    anna = as_user(t.white)
    anna.post(report_url(t.match), {"number": 1, "winner": "W", "outcome": "jan"})
    report = GameReport.objects.get()
    anna.post(reverse("web:report_withdraw", args=[report.pk]))
    report.refresh_from_db()
    assert report.state == ReportState.WITHDRAWN
    assert "Report game 1" in anna.get(match_url(t.match)).content.decode()


def test_the_referee_enters_game_1s_tek() -> None:
    """The entry page asks who started game 1 (the tek), and stores it; not for game 2."""
    t = table(results_by="referees")
    referee = as_user(t.setup.referee)
    url = reverse("web:match_enter", args=[t.match.pk])
    page = referee.get(url).content.decode()
    assert page.count('name="starter"') == 2 and "tek" in page
    referee.post(url, {"number": 1, "winner": "W", "outcome": "hemspel", "starter": "B"})
    assert Game.objects.get(number=1).starter == "B"
    assert 'name="starter"' not in referee.get(url).content.decode()
    referee.post(url, {"number": 2, "winner": "W", "outcome": "hemspel"})
    assert Game.objects.get(number=2).starter == "B"  # the loser of game 1 (S5)


def test_the_organiser_chooses_the_players_mode_on_the_new_tournament_page() -> None:
    organiser = OrganiserFactory.create()
    client = as_user(organiser)
    page = client.get(reverse("web:tournament_create")).content.decode()
    assert 'name="results_by"' in page
    client.post(
        reverse("web:tournament_create"),
        {
            "name": "Klubbmästerskapet",
            "start_date": "2027-03-06",
            "rules": "talisman",
            "scale": "ww",
            "resignation_policy": "capped",
            "results_by": "players",
        },
    )
    tournament = Tournament.objects.get(name="Klubbmästerskapet")
    assert tournament.results_by == "players"
    manage = client.get(reverse("web:tournament_manage", args=[tournament.pk]))
    assert "players report results" in manage.content.decode()


def test_the_report_pages_are_swedish() -> None:
    """Every page and part of this feature, as each role sees it, in Swedish: no English
    text of the catalogue (tests/web/test_swedish_crawl.py's check)."""
    t = table()
    anna, bertil = as_user(t.white, "sv"), as_user(t.black, "sv")
    organiser, referee = as_user(t.setup.organiser, "sv"), as_user(t.setup.referee, "sv")
    assert "Rapportera parti 1" in anna.get(match_url(t.match)).content.decode()
    report_page = anna.get(report_url(t.match)).content.decode()
    response = anna.post(
        report_url(t.match), {"number": 1, "winner": "W", "outcome": "jan"}, follow=True
    )
    reported = response.content.decode()
    pending = GameReport.objects.get()
    opponent = bertil.get(match_url(t.match)).content.decode()
    assert "Bekräfta" in opponent and "Bestrid" in opponent
    detail = bertil.get(reverse("web:report_detail", args=[pending.pk])).content.decode()
    refused = anna.post(
        reverse("web:report_confirm", args=[pending.pk]), follow=True
    ).content.decode()
    disputed = bertil.post(
        reverse("web:report_dispute", args=[pending.pk]), {"note": "Fel"}, follow=True
    ).content.decode()
    pages = {
        "report form": report_page,
        "reported": reported,
        "opponent's match page": opponent,
        "report detail": detail,
        "own confirmation refused": refused,
        "disputed": disputed,
        "referee's report detail": referee.get(
            reverse("web:report_detail", args=[pending.pk])
        ).content.decode(),
        "entry page": referee.get(reverse("web:match_enter", args=[t.match.pk])).content.decode(),
        "manage page": organiser.get(
            reverse("web:tournament_manage", args=[t.setup.tournament.pk])
        ).content.decode(),
        "new tournament": organiser.get(reverse("web:tournament_create")).content.decode(),
    }
    fragments = english_fragments()
    found = {
        name: {f for f in fragments if f in visible_text(page)} for name, page in pages.items()
    }
    assert {name: shown for name, shown in found.items() if shown} == {}
    assert "spelarna rapporterar" in pages["new tournament"].casefold()
    assert "bestrider" in pages["entry page"] and "För in som rapporterat" in pages["entry page"]
