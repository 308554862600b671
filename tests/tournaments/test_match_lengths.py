"""A match length is odd and at most ``MAX_MATCH_LENGTH`` (25) wherever
it enters: the services, the draw form and page, the admin, the models and the database.
(The API is in ``tests/api/test_match_lengths.py``, the pure scoring refusal in
``tests/scoring/test_match.py``.)"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core.errors import ValidationError
from matches.models import Match
from matches.services import matches_create
from tests.factories import EntryFactory, OrganiserFactory, TournamentFactory
from tests.tournaments.helpers import drawn, match_of
from tournaments.lengths import MAX_MATCH_LENGTH, validate_match_length
from tournaments.match_plans import knockout_plan
from tournaments.models import Round, Tournament, TournamentStatus
from tournaments.round_lengths import round_length_set
from tournaments.stage_draws import tournament_draw
from web.forms.organiser import DrawForm

pytestmark = pytest.mark.django_db

TOO_LONG = "A match is played over at most 25 games, not 27 (scoring.md S1)."
TOO_LONG_SV = "En match spelas över högst 25 partier, inte 27 (scoring.md S1)."


def _draft(players: int) -> tuple[Tournament, Any]:
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser])
    for _ in range(players):
        EntryFactory.create(tournament=tournament)
    return tournament, organiser


def test_the_bound_is_scorings() -> None:
    from scoring import match

    assert MAX_MATCH_LENGTH is match.MAX_MATCH_LENGTH == 25


class TestServices:
    @pytest.mark.parametrize("lengths", [[3, 27], [27, 3], [3, 101]])
    def test_draw_refuses_a_round_over_the_bound(self, lengths: list[int]) -> None:
        tournament, organiser = _draft(3)
        with pytest.raises(ValidationError, match="at most 25 games, not") as info:
            tournament_draw(tournament=tournament, by=organiser, lengths=lengths)
        assert info.value.status == 400
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.DRAFT
        assert not Round.objects.filter(tournament=tournament).exists()

    @pytest.mark.parametrize("length", [0, 2, 26])
    def test_draw_refuses_an_even_length(self, length: int) -> None:
        tournament, organiser = _draft(2)
        with pytest.raises(ValidationError, match="odd number of games"):
            tournament_draw(tournament=tournament, by=organiser, lengths=[length])

    def test_draw_accepts_the_bound(self) -> None:
        s = drawn(3, lengths=[1, MAX_MATCH_LENGTH])
        assert match_of(s.tournament, 2, 0).length == 25

    def test_round_length_refuses_over_the_bound(self) -> None:
        s = drawn(4)
        final = Round.objects.get(tournament=s.tournament, number=2)
        with pytest.raises(ValidationError, match=re.escape(TOO_LONG)):
            round_length_set(round=final, length=27, by=s.organiser)
        final.refresh_from_db()
        assert final.match_length == 7 and match_of(s.tournament, 2, 0).length == 7
        round_length_set(round=final, length=25, by=s.organiser)
        assert match_of(s.tournament, 2, 0).length == 25

    def test_round_length_message_in_swedish(self) -> None:
        s = drawn(2)
        final = Round.objects.get(tournament=s.tournament, number=1)
        swedish = re.escape(TOO_LONG_SV)
        with translation.override("sv"), pytest.raises(ValidationError, match=swedish):
            round_length_set(round=final, length=27, by=s.organiser)

    def test_bracket_matches_refuse_a_round_over_the_bound(self) -> None:
        """The matches' own creation checks again (any caller, not only the draw)."""
        tournament, organiser = _draft(2)
        rounds = [Round(tournament=tournament, number=1, match_length=27)]
        with pytest.raises(ValidationError, match=re.escape(TOO_LONG)):
            matches_create(
                tournament=tournament,
                plan=knockout_plan(rounds=rounds, first_round=[(None, None)], third_place=False),
                by=organiser,
            )
        assert not Match.objects.filter(tournament=tournament).exists()
        rounds = [Round(tournament=tournament, number=1, match_length=4)]
        with pytest.raises(ValidationError, match="odd number of games"):
            matches_create(
                tournament=tournament,
                plan=knockout_plan(rounds=rounds, first_round=[(None, None)], third_place=False),
                by=organiser,
            )


class TestModels:
    @pytest.mark.parametrize("length", [27, 0])
    def test_field_validators(self, length: int) -> None:
        """The fields know the bound; that a length in games is odd is the services' and
        the constraints' (they know the unit: backgammon's points may be even)."""
        for field in (Round._meta.get_field("match_length"), Match._meta.get_field("length")):
            with pytest.raises(DjangoValidationError) as info:
                field.clean(length, None)
            assert [e.code for e in info.value.error_list] == ["match_length"]
        with pytest.raises(DjangoValidationError):
            validate_match_length(length)
        validate_match_length(25)

    def test_an_even_length_is_a_length_in_points_only(self) -> None:
        for field in (Round._meta.get_field("match_length"), Match._meta.get_field("length")):
            field.clean(4, None)
        with pytest.raises(DjangoValidationError):
            validate_match_length(4)
        s = drawn(2)
        with pytest.raises(IntegrityError), transaction.atomic():
            Round.objects.filter(tournament=s.tournament).update(match_length=4)
        Round.objects.filter(tournament=s.tournament).update(match_length=4, length_unit="points")
        Match.objects.filter(tournament=s.tournament).update(length=4, length_unit="points")
        with pytest.raises(IntegrityError), transaction.atomic():
            Match.objects.filter(tournament=s.tournament).update(length=26)

    def test_database_refuses_a_long_round(self) -> None:
        s = drawn(2)
        with pytest.raises(IntegrityError), transaction.atomic():
            Round.objects.filter(tournament=s.tournament).update(match_length=27)
        Round.objects.filter(tournament=s.tournament).update(match_length=25)

    @pytest.mark.parametrize("length", [27, 4, 0])
    def test_database_refuses_a_long_or_even_match(self, length: int) -> None:
        s = drawn(2)
        with pytest.raises(IntegrityError), transaction.atomic():
            Match.objects.filter(tournament=s.tournament).update(length=length)
        Match.objects.filter(tournament=s.tournament).update(length=25)


class TestDrawForm:
    def test_refuses_over_the_bound(self) -> None:
        form = DrawForm(data={"lengths": "3, 27"}, rounds=2, players=4)
        assert not form.is_valid()
        assert form.errors["lengths"] == [TOO_LONG]

    def test_refuses_a_huge_number(self) -> None:
        form = DrawForm(data={"lengths": "9" * 40}, rounds=1, players=2)
        assert not form.is_valid()
        assert "at most 25 games" in form.errors["lengths"][0]

    def test_message_in_swedish(self) -> None:
        with translation.override("sv"):
            form = DrawForm(data={"lengths": "27"}, rounds=1, players=2)
            assert form.errors["lengths"] == [TOO_LONG_SV]

    def test_accepts_the_bound(self) -> None:
        form = DrawForm(data={"lengths": "25, 25"}, rounds=2, players=4)
        assert form.is_valid(), form.errors
        assert form.cleaned_data["lengths"] == [25, 25]

    def test_page_shows_the_message_and_draws_nothing(self, client: Client) -> None:
        tournament, organiser = _draft(2)
        client.force_login(organiser)
        client.cookies["django_language"] = "en"
        url = reverse("web:tournament_bracket_generate", args=[tournament.pk])
        response = client.post(url, {"lengths": "27"})
        assert response.status_code == 200
        assert TOO_LONG in response.content.decode()
        assert not Match.objects.filter(tournament=tournament).exists()


class TestAdmin:
    def _client(self, user: Any) -> Client:
        user.is_staff = True
        user.save()
        client = Client()
        client.force_login(user)
        return client

    def test_round_form_refuses_over_the_bound(self) -> None:
        s = drawn(2)
        final = Round.objects.get(tournament=s.tournament, number=1)
        client = self._client(s.organiser)
        url = f"/admin/tournaments/round/{final.pk}/change/"
        response = client.post(url, {"match_length": "27", "_save": "Save"})
        assert response.status_code == 200  # the form again, with the error (Swedish admin)
        assert TOO_LONG_SV in response.content.decode()
        final.refresh_from_db()
        assert final.match_length == 7

        response = client.post(url, {"match_length": "25", "_save": "Save"})
        assert response.status_code == 302
        final.refresh_from_db()
        assert final.match_length == 25 and match_of(s.tournament, 1, 0).length == 25
