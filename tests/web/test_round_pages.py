"""A large round robin's rounds on their own pages (``web.views.rounds``): the tournament
page draws only the current round and links to every round, so it stays bounded; each
round's page lists its matches; unpublished Swiss rounds and other kinds are not found."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest

from matches.models import Match
from matches.swiss_progression import swiss_round_pair
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory
from tests.tournaments.test_round_robin import group, win
from tests.tournaments.test_swiss import swiss
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create
from web.views.rounds import ROUNDS_ON_THE_PAGE

pytestmark = pytest.mark.django_db


def test_a_large_round_robin_links_its_rounds_and_shows_the_current_one(client: Any) -> None:
    t, referee, _players = group(16)  # 15 rounds of 8 matches: 120 > ROUNDS_ON_THE_PAGE
    assert Match.objects.filter(tournament=t).count() > ROUNDS_ON_THE_PAGE
    for m in Match.objects.filter(tournament=t, round__number=1):
        win(m, m.player1_id or 0, referee)
    page = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    rounds_part = page[page.index('id="rounds-h"') :]
    assert rounds_part.count('class="round"') == 1 and "Omgång 2" in rounds_part
    links = re.findall(rf'href="/tournaments/{t.pk}/rounds/(\d+)/"', rounds_part)
    assert links == [str(n) for n in range(1, 16)]
    assert 'aria-current="page">2<' in rounds_part  # round 1 is finished
    one = client.get(f"/tournaments/{t.pk}/rounds/1/", HTTP_ACCEPT_LANGUAGE="sv")
    text = one.content.decode()
    assert one.status_code == 200 and "Omgång 1" in text
    assert text.count('class="match state-decided"') == 8
    assert f'href="/tournaments/{t.pk}/rounds/2/"' in text
    assert client.get(f"/tournaments/{t.pk}/rounds/16/").status_code == 404


def test_a_small_round_robin_keeps_every_round_on_its_page(client: Any) -> None:
    t, _referee, _players = group(5)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    rounds_part = page[page.index('id="rounds-h"') :]
    assert rounds_part.count('class="round"') == 5 and 'rounds/1/"' not in rounds_part


def test_an_unpublished_swiss_round_and_a_knockout_round_are_not_found(client: Any) -> None:
    t, organiser, _players = swiss(6)
    swiss_round_pair(tournament=t, by=organiser)
    assert client.get(f"/tournaments/{t.pk}/rounds/1/").status_code == 404
    client.force_login(organiser)
    assert client.get(f"/tournaments/{t.pk}/rounds/1/").status_code == 200
    client.logout()
    org = OrganiserFactory.create()
    cup = tournament_create(by=org, name="Cup", start_date=datetime.date(2026, 11, 25))
    for i in range(4):
        EntryFactory.create(tournament=cup, player=PlayerFactory.create(name=f"K{i}"))
    tournament_draw(tournament=cup, by=org)
    assert client.get(f"/tournaments/{cup.pk}/rounds/1/").status_code == 404
