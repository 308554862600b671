"""A flag fall on the pages: the match page and the referee's page say the time ran out
where they say the walkover, and a referee (or organiser) overrules it there with a note
and the seconds the flagged player goes on with; players and readers get no such form."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import EventKind, MatchEvent, MatchState
from scoresheets.models import LiveGame
from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.scoresheets.helpers import Table
from tests.tournaments.helpers import drawn, match_of

pytestmark = pytest.mark.django_db

BANK = 3 * 120_000  # 2 minutes per point, a 3-point match
DELAY = 12_000
FORM = 'action="/matches/%s/flag/overrule/"'
RAN_OUT = {
    "en": "wins by walkover</strong>: the opponent's time ran out (flag fall)",
    "sv": "vinner på walkover</strong>: motståndarens tid tog slut (flaggfall)",
    "da": "vinder på walkover</strong>: modstanderens tid løb ud (flagfald)",
}

OVERRULE = {"en": "Overrule the flag fall", "sv": "Upphäv flaggfallet", "da": "Omstød flagfaldet"}


@pytest.fixture
def flagged(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A clocked backgammon match whose first player's flag fell after the opening roll."""
    now = [1_800_000_000_000]  # the server's clock, moved by hand
    monkeypatch.setattr("scoresheets.services.clock_now", lambda: now[0])
    s = drawn(2, lengths=[3], game="backgammon", clock_per_point=120, clock_delay=12)
    match = match_of(s.tournament, 1, 0)
    table = Table(client_for(s.referee), match.pk)
    assert table.start().status_code == 201
    assert table.post("start", dice=[5, 2]).status_code == 201
    now[0] += BANK + DELAY  # nobody moved
    assert table.post("flag", used=BANK + DELAY).status_code == 201
    match.refresh_from_db()
    assert match.state == MatchState.WALKOVER
    return s, match


def _page(client: Client, match: Any, language: str = "en") -> str:
    client.cookies["django_language"] = language
    return unescape(client.get(reverse("web:match_detail", args=[match.pk])).content.decode())


@pytest.mark.parametrize("language", ["en", "sv", "da"])
def test_the_match_page_says_the_time_ran_out(client: Client, flagged: Any, language: str) -> None:
    s, match = flagged
    page = _page(client, match, language)
    assert RAN_OUT[language] in page
    assert FORM % match.pk not in page  # a reader gets no overrule form
    client.force_login(s.referee)
    client.cookies["django_language"] = language
    entry = unescape(client.get(reverse("web:match_enter", args=[match.pk])).content.decode())
    assert RAN_OUT[language] in entry
    # the referee's form, in the page's language
    page = _page(client, match, language)
    assert FORM % match.pk in page and OVERRULE[language] in page


def test_a_referee_overrules_the_flag_fall_on_the_match_page(client: Client, flagged: Any) -> None:
    s, match = flagged
    client.force_login(s.referee)
    page = _page(client, match)
    assert FORM % match.pk in page
    assert 'name="note"' in page and 'name="seconds"' in page
    url = reverse("web:match_flag_overrule", args=[match.pk])

    no_note = client.post(url, {"note": " ", "seconds": "60"}, follow=True)
    assert no_note.status_code == 200
    match.refresh_from_db()
    assert match.state == MatchState.WALKOVER  # the note is required

    ruled = client.post(url, {"note": "The phone fell; the clock ran on.", "seconds": "90"})
    assert ruled.status_code == 302 and ruled["Location"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.state == MatchState.READY and match.winner_id is None
    event = MatchEvent.objects.get(match=match, kind=EventKind.RESULT_CORRECTED)
    assert event.data["note"] == "The phone fell; the clock ran on."
    live = LiveGame.objects.get(match=match)
    assert live.clock is not None
    assert live.clock["remaining"] == [90_000, BANK] and live.clock["running"] == 0
    after = _page(client, match)
    assert "(flag fall)" not in after and FORM % match.pk not in after


def test_the_organiser_overrules_it_too(client: Client, flagged: Any) -> None:
    s, match = flagged
    client.force_login(s.organiser)
    assert FORM % match.pk in _page(client, match)
    url = reverse("web:match_flag_overrule", args=[match.pk])
    assert client.post(url, {"note": "Clock fault", "seconds": "30"}).status_code == 302
    match.refresh_from_db()
    assert match.state == MatchState.READY


def test_a_player_gets_no_form_and_is_refused(client: Client, flagged: Any) -> None:
    _, match = flagged
    user = UserFactory.create()
    match.player2.user = user
    match.player2.save()
    client.force_login(user)
    assert FORM % match.pk not in _page(client, match)
    url = reverse("web:match_flag_overrule", args=[match.pk])
    refused = client.post(url, {"note": "I let them go on", "seconds": "60"})
    assert refused.status_code == 403
    match.refresh_from_db()
    assert match.state == MatchState.WALKOVER


def test_a_reader_not_signed_in_is_sent_to_sign_in(client: Client, flagged: Any) -> None:
    _, match = flagged
    url = reverse("web:match_flag_overrule", args=[match.pk])
    response = client.post(url, {"note": "x", "seconds": "60"})
    assert response.status_code == 302 and "/login" in response["Location"]
    match.refresh_from_db()
    assert match.state == MatchState.WALKOVER
