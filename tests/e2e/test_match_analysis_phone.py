"""A backgammon match's analysis on a phone, in Swedish: a referee uploads the match's
record, asks for its analysis on the match's page, and the part shows each player's PR
and BMAB level and the worst mistakes with the better play, at 360 px without scrolling
sideways. Screenshot: test-output/screenshots/phone-sv-bg-analysis.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from matches.models import MatchAnalysis, RecordState
from matches.records import game_record_submit
from tests.backgammon.test_mat import XG
from tests.e2e.conftest import login, shoot
from tests.e2e.test_phone_layout import PHONE, WIDTH
from tests.matches.test_games_seam import _alice_and_bob

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_analysis_on_a_phone_in_swedish(live_server: Any, new_page: Any) -> None:
    _t, match, referee = _alice_and_bob()
    referee.set_password("pw")
    referee.save()
    sub = game_record_submit(match=match, text=XG, by=referee)  # eager task, committed
    sub.refresh_from_db()
    assert sub.state == RecordState.ENTERED, sub.message
    base = live_server.url
    page = new_page(*PHONE)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "sv", "url": base}])
    login(page, base, referee.username)
    page.goto(f"{base}/matches/{match.pk}/")
    page.get_by_role("button", name="Analysera matchen").click()
    page.locator("table.analysis-players").wait_for()
    assert MatchAnalysis.objects.get(match=match).state == "done"
    shoot(page, "phone-sv-bg-analysis")
    part = page.locator("#match-analysis").inner_text()
    assert "Matchanalys" in part
    assert "Alice" in part and "Bob" in part
    assert "Värsta misstagen: Alice" in part
    width = page.evaluate(WIDTH)
    assert width["scroll"] <= width["view"], width
