"""Each option is stored as its format reads it (``tournaments.format_options``): an option
the format does not read at its default, at creation and when a draft's format changes;
the match for third place is the knockout's option and changes with the format."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from core.errors import ConflictError, ValidationError
from tests.factories import OrganiserFactory
from tests.tournaments.helpers import drawn
from tournaments.format_change import tournament_format_set
from tournaments.format_options import format_values
from tournaments.models import Tournament
from tournaments.tournament_setup import tournament_create, tournament_update

pytestmark = pytest.mark.django_db


def a_draft(organiser: Any, **fields: Any) -> Tournament:
    return tournament_create(
        by=organiser, name="Vintercupen", start_date=datetime.date(2026, 12, 5), **fields
    )


def test_an_option_the_format_does_not_read_is_stored_at_its_default() -> None:
    organiser = OrganiserFactory.create()
    knockout = a_draft(organiser, grand_final_reset=False, double_round=True)
    assert knockout.grand_final_reset is True and knockout.double_round is False
    round_robin = a_draft(organiser, format="round_robin", third_place_match=True)
    assert round_robin.third_place_match is False
    double = a_draft(organiser, format="double_elimination", grand_final_reset=False)
    assert double.grand_final_reset is False


def test_a_keyword_that_is_no_option_is_refused() -> None:
    with pytest.raises(TypeError, match="no such tournament options: board_count"):
        a_draft(OrganiserFactory.create(), board_count=2)
    with pytest.raises(TypeError, match="no such tournament options: board_count"):
        format_values("brade", "ww", format="knockout", options={"board_count": 2})


def test_a_new_format_puts_the_options_it_does_not_read_back_to_their_defaults() -> None:
    organiser = OrganiserFactory.create()
    tournament = a_draft(organiser, third_place_match=True)
    tournament_format_set(tournament=tournament, by=organiser, format="double_elimination")
    tournament_format_set(tournament=tournament, by=organiser, grand_final_reset=False)
    tournament_format_set(tournament=tournament, by=organiser, format="round_robin")
    tournament.refresh_from_db()
    assert tournament.third_place_match is False
    assert tournament.grand_final_reset is True


def test_the_match_for_third_place_changes_with_the_format_until_the_draw() -> None:
    organiser = OrganiserFactory.create()
    tournament = a_draft(organiser)
    tournament_format_set(tournament=tournament, by=organiser, third_place_match=True)
    tournament.refresh_from_db()
    assert tournament.third_place_match is True
    with pytest.raises(ValidationError, match="cannot be changed: third_place_match"):
        tournament_update(tournament=tournament, by=organiser, third_place_match=False)
    setup = drawn(4)
    with pytest.raises(ConflictError, match="Changing the format is possible only before"):
        tournament_format_set(
            tournament=setup.tournament, by=setup.organiser, third_place_match=True
        )


def test_the_api_stores_what_the_format_reads() -> None:
    organiser = OrganiserFactory.create()
    client = APIClient()
    client.force_authenticate(organiser)
    made = client.post(
        "/api/tournaments/",
        {"name": "Höstcupen", "start_date": "2026-10-03", "grand_final_reset": False},
        format="json",
    )
    assert made.status_code == 201 and made.json()["grand_final_reset"] is True
    changed = client.patch(
        f"/api/tournaments/{made.json()['id']}/",
        {"format": "round_robin", "third_place_match": True},
        format="json",
    )
    assert changed.status_code == 200 and changed.json()["third_place_match"] is False
