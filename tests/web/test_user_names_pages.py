"""User names go to a tournament's staff only, on the pages too: the match page and a
game record's page name whoever submitted a record by their display name to the match's
players, by their user name to the referees and organisers (``core.names``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import GameRecordSubmission
from tests.factories import UserFactory
from tests.tournaments.helpers import drawn, match_of, players_of

pytestmark = pytest.mark.django_db


def test_a_record_s_submitter_is_named_by_display_name_to_the_players() -> None:
    s = drawn(4, lengths=[3, 3])
    referee = s.referee
    referee.username, referee.first_name, referee.last_name = "domare.login", "Rut", "Domare"
    referee.save()
    match = match_of(s.tournament, 1, 0)
    one, _two = players_of(match)
    one.user = UserFactory.create()
    one.save()
    sub = GameRecordSubmission.objects.create(match=match, submitted_by=referee, text="x")
    for user, staff in ((one.user, False), (referee, True), (s.organiser, True)):
        client = Client()
        client.force_login(user)
        for url in (
            reverse("web:match_detail", args=[match.pk]),
            reverse("web:record_detail", args=[sub.pk]),
        ):
            page = client.get(url).content.decode()
            assert ("domare.login" in page) is staff, (user, url)
            assert ("Rut Domare" in page) is not staff, (user, url)
