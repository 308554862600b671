"""The bracket's own address (``/tournaments/N/bracket/``, the live part of a knockout's
page) for a tournament played without a bracket: a round robin's leads to its
page's standings instead of drawing its rounds as knockout columns; a private one stays
absent to outsiders."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.helpers import drawn
from tests.tournaments.test_round_robin import group

pytestmark = pytest.mark.django_db


def test_a_round_robin_bracket_leads_to_its_standings(client: Client) -> None:
    tournament, _, _ = group(4)
    url = reverse("web:tournament_bracket", args=[tournament.pk])
    detail = reverse("web:tournament_detail", args=[tournament.pk])
    for method in (client.get, client.head):
        response = method(url)
        assert response.status_code == 302
        assert response["Location"] == detail + "#standings-h"
    page = client.get(detail).content.decode()
    assert 'id="standings-h"' in page  # the anchor is there
    assert 'class="bracket"' not in page


def test_a_private_round_robin_stays_absent(client: Client) -> None:
    tournament, referee, _ = group(3)
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    url = reverse("web:tournament_bracket", args=[tournament.pk])
    assert client.get(url).status_code == 404
    client.force_login(UserFactory.create())
    assert client.get(url).status_code == 404
    client.force_login(referee)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].endswith("#standings-h")


@pytest.mark.parametrize("public", [True, False])
def test_a_knockout_still_gets_its_bracket(client: Client, public: bool) -> None:
    setup: Any = drawn(4, is_public=public)
    client.force_login(setup.referee)
    response = client.get(reverse("web:tournament_bracket", args=[setup.tournament.pk]))
    assert response.status_code == 200
    assert 'class="bracket"' in response.content.decode()


def test_a_poll_of_a_round_robin_costs_the_one_query_of_the_stamp(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    tournament, _, _ = group(4)
    url = reverse("web:tournament_bracket", args=[tournament.pk])
    assert client.get(url).status_code == 302  # the answer is kept with the version
    with django_assert_max_num_queries(1):
        assert Client().get(url).status_code == 302
