"""The format in the admin: shown on a tournament's change form, changeable in
a draft through ``tournament_format_set`` (checked as at creation), read-only once the
bracket is drawn."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.contrib import admin
from django.test import Client, RequestFactory

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from games.registry import family_for
from stages.tiebreaks import default_chain
from tests.factories import OrganiserFactory
from tests.tournaments.helpers import drawn
from tests.tournaments.test_admin import staff_client
from tournaments.format_change import format_fields, tournament_format_set
from tournaments.models import Tournament, TournamentStatus
from tournaments.tournament_setup import tournament_create

pytestmark = pytest.mark.django_db


def a_draft(organiser: Any, **fields: Any) -> Tournament:
    return tournament_create(
        by=organiser, name="Vintercupen", start_date=datetime.date(2026, 12, 5), **fields
    )


def model_admin() -> Any:
    return admin.site._registry[Tournament]


def admin_request(user: Any) -> Any:
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


def test_the_format_is_read_only_once_drawn() -> None:
    setup = drawn(4)
    assert setup.tournament.status != TournamentStatus.DRAFT
    request = admin_request(setup.organiser)
    readonly = model_admin().get_readonly_fields(request, setup.tournament)
    assert set(format_fields()) <= set(readonly)
    form = model_admin().get_form(request, setup.tournament)
    assert not set(format_fields()) & set(form.base_fields)
    page = staff_client(setup.organiser).get(
        f"/admin/tournaments/tournament/{setup.tournament.pk}/change/"
    )
    html = page.content.decode()
    assert page.status_code == 200 and "Format" in html
    assert 'name="format"' not in html and 'name="tiebreaks"' not in html


def test_a_draft_keeps_its_format_editable() -> None:
    organiser = OrganiserFactory.create()
    tournament = a_draft(organiser)
    request = admin_request(organiser)
    assert not set(format_fields()) & set(model_admin().get_readonly_fields(request, tournament))
    assert set(format_fields()) <= set(model_admin().get_form(request, tournament).base_fields)
    # the add form has no format (a tournament made in the admin is a knockout)
    assert "format" not in model_admin().get_form(request, None).base_fields


def _change_form(tournament: Tournament, organiser: Any, **changes: str) -> dict[str, Any]:
    return {
        "name": tournament.name,
        "start_date": tournament.start_date.isoformat(),
        "end_date": tournament.end_date.isoformat(),
        "venue": "",
        "is_public": "on",
        "game": tournament.game,
        "rules": tournament.rules,
        "addons": "[]",
        "scale": tournament.scale,
        "resignation_policy": tournament.resignation_policy,
        "results_by": tournament.results_by,
        "organisers": [organiser.pk],
        "format": tournament.format,
        "tiebreaks": "[]",
        "groups": "1",
        "group_advance": "0",
        "swiss_rounds": "",
        "grand_final_reset": "on",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "rounds-TOTAL_FORMS": "0",
        "rounds-INITIAL_FORMS": "0",
        **changes,
    }


def test_a_draft_becomes_a_round_robin_in_the_admin() -> None:
    organiser = OrganiserFactory.create()
    tournament = a_draft(organiser)
    client: Client = staff_client(organiser)
    client.cookies["django_language"] = "sv"  # the messages below are read in Swedish
    url = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    response = client.post(
        url, _change_form(tournament, organiser, format="round_robin", double_round="on")
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament.refresh_from_db()
    assert (tournament.format, tournament.double_round) == ("round_robin", True)
    # the new format's chain
    assert tournament.tiebreaks == default_chain(family_for("brade"), "ww")
    # a bad chain is refused with the service's message, nothing stored
    response = client.post(
        url,
        _change_form(tournament, organiser, format="round_robin", tiebreaks='["wins", "wins"]'),
        follow=True,
    )
    assert "En särskiljning står två gånger i ordningen." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.tiebreaks == default_chain(family_for("brade"), "ww")


class TestService:
    def test_only_before_the_draw(self) -> None:
        setup = drawn(4)
        with pytest.raises(
            ConflictError, match="Changing the format is possible only before the bracket is drawn"
        ):
            tournament_format_set(
                tournament=setup.tournament, by=setup.organiser, format="round_robin"
            )
        setup.tournament.refresh_from_db()
        assert setup.tournament.format == "knockout"

    def test_only_its_organisers(self) -> None:
        tournament = a_draft(OrganiserFactory.create())
        with pytest.raises(PermissionDeniedError):
            tournament_format_set(
                tournament=tournament, by=OrganiserFactory.create(), format="round_robin"
            )

    def test_checked_as_at_creation(self) -> None:
        organiser = OrganiserFactory.create()
        tournament = a_draft(organiser, format="round_robin", tiebreaks=["wins"])
        with pytest.raises(ValidationError):
            tournament_format_set(tournament=tournament, by=organiser, format="chess")
        with pytest.raises(ValidationError):
            tournament_format_set(tournament=tournament, by=organiser, groups=2, format="knockout")
        with pytest.raises(ValidationError):
            tournament_format_set(tournament=tournament, by=organiser, venue="Aulan")
        # a knockout has no chain and no double round; a round robin keeps a chain given
        tournament_format_set(tournament=tournament, by=organiser, double_round=True)
        assert (tournament.tiebreaks, tournament.double_round) == (["wins"], True)
        tournament_format_set(tournament=tournament, by=organiser, format="knockout")
        stored = Tournament.objects.get(pk=tournament.pk)
        assert (stored.format, stored.tiebreaks, stored.double_round) == ("knockout", [], False)


def test_a_new_game_and_format_together_get_the_new_game_s_chain() -> None:
    organiser = OrganiserFactory.create()
    tournament = a_draft(organiser)
    client: Client = staff_client(organiser)
    response = client.post(
        f"/admin/tournaments/tournament/{tournament.pk}/change/",
        _change_form(tournament, organiser, game="backgammon", format="round_robin"),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament.refresh_from_db()
    assert (tournament.game, tournament.format) == ("backgammon", "round_robin")
    assert tournament.tiebreaks == default_chain(family_for("backgammon"), tournament.scale)
    assert "skiljepoang" not in tournament.tiebreaks


def test_a_new_game_alone_rechecks_the_chain() -> None:
    """Only the game changes: a chain that was the old game's default becomes the new
    game's; a chosen chain the new game cannot have is refused, nothing stored."""
    organiser = OrganiserFactory.create()
    client: Client = staff_client(organiser)
    default = a_draft(organiser, format="round_robin")
    assert "skiljepoang" in default.tiebreaks
    form = _change_form(default, organiser, game="backgammon")
    form["tiebreaks"] = json.dumps(default.tiebreaks)
    assert (
        client.post(f"/admin/tournaments/tournament/{default.pk}/change/", form).status_code == 302
    )
    default.refresh_from_db()
    backgammon = default_chain(family_for("backgammon"), "ww")
    assert (default.game, default.tiebreaks) == ("backgammon", backgammon)
    chosen = a_draft(organiser, format="round_robin", tiebreaks=["skiljepoang", "wins"])
    form = _change_form(chosen, organiser, game="backgammon")
    form["tiebreaks"] = json.dumps(chosen.tiebreaks)
    page = client.post(f"/admin/tournaments/tournament/{chosen.pk}/change/", form, follow=True)
    assert "Skiljepoäng" in page.content.decode()
    chosen.refresh_from_db()
    assert (chosen.game, chosen.tiebreaks) == ("brade", ["skiljepoang", "wins"])


def test_swiss_rounds_are_checked_as_at_creation() -> None:
    organiser = OrganiserFactory.create()
    tournament = a_draft(organiser, format="swiss")
    with pytest.raises(ValidationError):
        tournament_format_set(tournament=tournament, by=organiser, swiss_rounds=0)
    tournament_format_set(tournament=tournament, by=organiser, swiss_rounds=4)
    assert Tournament.objects.get(pk=tournament.pk).swiss_rounds == 4
    tournament_format_set(tournament=tournament, by=organiser, format="knockout")
    assert Tournament.objects.get(pk=tournament.pk).swiss_rounds is None
