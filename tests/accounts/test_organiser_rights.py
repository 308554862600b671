"""A club administrator (``accounts.grant_organiser``, or a superuser) grants and revokes
the organiser right (``tournaments.add_tournament``) on ``/organisers/``, not the admin;
every change is kept with who made it and when; nobody else may."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import OrganiserRightChange
from accounts.organiser_rights import organiser_grant
from core.errors import PermissionDeniedError
from core.permissions import can_create_tournament, can_grant_organiser
from tests.factories import OrganiserFactory, UserFactory

pytestmark = pytest.mark.django_db


def fresh(user: Any) -> Any:
    """The user read again (Django caches permissions on the object)."""
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def kansli() -> Any:
    user = UserFactory.create(username="kansli")
    user.user_permissions.add(Permission.objects.get(codename="grant_organiser"))
    return fresh(user)


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_club_administrator_grants_and_revokes_the_right(kansli: Any) -> None:
    vera = UserFactory.create(username="vera")
    client = client_of(kansli)
    page = client.get("/organisers/")
    assert page.status_code == 200 and "Ge arrangörsrätten" in page.content.decode()
    granted = client.post("/organisers/grant/", {"username": "vera"}, follow=True)
    assert "vera får nu skapa turneringar." in granted.content.decode()
    assert can_create_tournament(fresh(vera))
    # The new organiser sees "New tournament" in the header.
    assert 'href="/tournaments/new/"' in client_of(vera).get("/").content.decode()
    revoked = client.post("/organisers/revoke/", {"username": "vera"}, follow=True)
    assert "vera får inte längre skapa turneringar" in revoked.content.decode()
    assert not can_create_tournament(fresh(vera))
    changes = list(OrganiserRightChange.objects.order_by("at", "id"))
    assert [(c.user, c.granted, c.by) for c in changes] == [
        (vera, True, kansli),
        (vera, False, kansli),
    ]
    assert all(c.at is not None for c in changes)
    assert "kansli gav vera rätten" in revoked.content.decode()


def test_granting_twice_records_once(kansli: Any) -> None:
    UserFactory.create(username="vera")
    assert organiser_grant(username="vera", by=kansli)[1] is True
    assert organiser_grant(username="vera", by=kansli)[1] is False
    assert OrganiserRightChange.objects.count() == 1


def test_nobody_else_grants(kansli: Any) -> None:
    vera = UserFactory.create(username="vera")
    staff = UserFactory.create(username="staff", is_staff=True)  # opens the admin only
    organiser = OrganiserFactory.create(username="arr")  # may create tournaments only
    for user in (staff, organiser, vera):
        client = client_of(user)
        assert client.get("/organisers/").status_code == 403
        assert client.post("/organisers/grant/", {"username": "vera"}).status_code == 403
        assert client.post("/organisers/revoke/", {"username": "arr"}).status_code == 403
        with pytest.raises(PermissionDeniedError):
            organiser_grant(username="vera", by=user)
    assert Client().get("/organisers/").status_code == 302  # to the sign-in page
    assert not can_create_tournament(fresh(vera)) and can_create_tournament(fresh(organiser))
    assert not OrganiserRightChange.objects.exists()


def test_a_superuser_is_a_club_administrator_and_the_header_says_so(kansli: Any) -> None:
    admin = get_user_model().objects.create_superuser("admin", "a@example.org", "pw")
    assert can_grant_organiser(admin) and can_grant_organiser(kansli)
    assert 'href="/organisers/">Arrangörer</a>' in client_of(kansli).get("/").content.decode()
    plain = client_of(UserFactory.create()).get("/").content.decode()
    assert 'href="/organisers/"' not in plain


def test_an_unknown_user_name_is_said_and_nothing_changes(kansli: Any) -> None:
    response = client_of(kansli).post("/organisers/grant/", {"username": "nobody"})
    assert response.status_code == 400
    assert "Ingen användare heter ”nobody”" in response.content.decode()
    assert not OrganiserRightChange.objects.exists()
