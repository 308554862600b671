"""Organisers invite referees and co-organisers (``tournaments.staff_invitations``): by
user name to an account, or by e-mail with a link on ``SITE_URL`` that leads through
sign-up to the invitation; only the tournament's organisers invite; the invited person
becomes referee or organiser when they accept, not before."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.utils import translation

from core.errors import ConflictError, NotFoundError, PermissionDeniedError
from core.permissions import is_organiser, is_referee
from tests.factories import OrganiserFactory, TournamentFactory, UserFactory
from tournaments.models import InvitationState, StaffInvitation
from tournaments.staff_invitations import (
    staff_invitation_accept,
    staff_invitation_claim,
    staff_invitation_list,
    staff_invite,
)

pytestmark = pytest.mark.django_db

PUBLIC = "https://brade.klubben.example"
LINK = re.compile(r"(\S+/account/invitations/join/[^/\s]+/)")


@pytest.fixture
def cup() -> Any:
    organiser = OrganiserFactory.create(username="olle")
    return TournamentFactory.create(name="Vårcupen", organisers=[organiser])


def test_an_invited_referee_becomes_one_only_on_accepting(cup: Any) -> None:
    olle = cup.organisers.get()
    vera = UserFactory.create(username="vera")
    invitation = staff_invite(tournament=cup, who="vera", role="referee", by=olle)
    assert invitation.user == vera and not is_referee(vera, cup)
    assert list(staff_invitation_list(by=vera)) == [invitation]
    # Asking again is the same open invitation.
    assert staff_invite(tournament=cup, who="vera", role="referee", by=olle) == invitation
    staff_invitation_accept(invitation=invitation, by=vera)
    assert is_referee(vera, cup) and not is_organiser(vera, cup)
    invitation.refresh_from_db()
    assert invitation.state == InvitationState.ACCEPTED
    with pytest.raises(ConflictError):
        staff_invite(tournament=cup, who="vera", role="referee", by=olle)


def test_an_invited_co_organiser_becomes_an_organiser(cup: Any) -> None:
    vera = UserFactory.create(username="vera")
    invitation = staff_invite(tournament=cup, who="vera", role="organiser", by=cup.organisers.get())
    staff_invitation_accept(invitation=invitation, by=vera)
    assert is_organiser(vera, cup)


def test_only_the_tournaments_organisers_invite(cup: Any) -> None:
    referee = UserFactory.create(username="domare")
    cup.referees.add(referee)
    other_organiser = OrganiserFactory.create(username="annan")  # may create, not this one's
    UserFactory.create(username="vera")
    for who in (referee, other_organiser, UserFactory.create(), None):
        with pytest.raises(PermissionDeniedError):
            staff_invite(tournament=cup, who="vera", role="referee", by=who)
    assert not StaffInvitation.objects.exists()


def test_only_the_invited_account_accepts(cup: Any) -> None:
    UserFactory.create(username="vera")
    invitation = staff_invite(tournament=cup, who="vera", role="referee", by=cup.organisers.get())
    intruder = UserFactory.create()
    with pytest.raises(NotFoundError):
        staff_invitation_accept(invitation=invitation, by=intruder)
    assert not is_referee(intruder, cup)


def test_an_unknown_user_name_is_refused(cup: Any) -> None:
    with pytest.raises(NotFoundError):
        staff_invite(tournament=cup, who="nobody", role="referee", by=cup.organisers.get())


@override_settings(SITE_URL=PUBLIC)
def test_an_email_invitation_leads_through_sign_up_to_the_referees_role(
    cup: Any, mailoutbox: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True), translation.override("sv"):
        invitation = staff_invite(
            tournament=cup, who="ny@example.org", role="referee", by=cup.organisers.get()
        )
    assert invitation.user is None
    [mail] = mailoutbox
    assert mail.to == ["ny@example.org"]
    assert mail.subject == "Inbjudan att döma Vårcupen"
    assert "olle bjuder in dig att döma ”Vårcupen”" in mail.body
    link = LINK.search(mail.body)
    assert link is not None and link.group(1).startswith(f"{PUBLIC}/account/invitations/join/")
    path = link.group(1).removeprefix(PUBLIC)

    client = Client()
    signin = client.get(path, follow=True)
    assert signin.redirect_chain[-1][0].startswith("/accounts/login/?next=")
    assert f'href="/accounts/signup/?next={path}"' in signin.content.decode()
    signed_up = client.post(
        "/accounts/signup/",
        {
            "username": "nydomare",
            "email": "ny@example.org",
            "password1": "Kungsbräde-1956",
            "password2": "Kungsbräde-1956",
            "next": path,
        },
        follow=True,
    )
    user = get_user_model().objects.get(username="nydomare")
    assert [url for url, _code in signed_up.redirect_chain] == [path, "/account/invitations/"]
    assert "Vårcupen" in signed_up.content.decode()
    invitation.refresh_from_db()
    assert invitation.user == user and not is_referee(user, cup)
    accepted = client.post(f"/account/staff-invitations/{invitation.pk}/accept/", follow=True)
    assert "Du är nu domare i Vårcupen." in accepted.content.decode()
    assert is_referee(user, cup)


def test_an_email_invitations_link_works_for_one_account(cup: Any) -> None:
    invitation = staff_invite(
        tournament=cup, who="ny@example.org", role="referee", by=cup.organisers.get()
    )
    first, second = UserFactory.create(), UserFactory.create()
    assert staff_invitation_claim(token=invitation.token, by=first) == invitation
    with pytest.raises(NotFoundError):
        staff_invitation_claim(token=invitation.token, by=second)
    with pytest.raises(NotFoundError):
        staff_invitation_claim(token="made-up", by=second)


def test_an_email_invitation_is_not_matched_to_an_account_by_its_address(cup: Any) -> None:
    """The answer and the invitation are the same whether an account has the address."""
    UserFactory.create(username="vera", email="vera@example.org")
    known = staff_invite(
        tournament=cup, who="vera@example.org", role="referee", by=cup.organisers.get()
    )
    unknown = staff_invite(
        tournament=cup, who="none@example.org", role="referee", by=cup.organisers.get()
    )
    assert known.user is None and unknown.user is None


def test_the_manage_page_invites_and_refuses_others(cup: Any) -> None:
    UserFactory.create(username="vera")
    organiser = Client()
    organiser.force_login(cup.organisers.get())
    page = organiser.get(f"/tournaments/{cup.pk}/manage/").content.decode()
    assert "Bjud in en domare eller medarrangör" in page
    done = organiser.post(
        f"/tournaments/{cup.pk}/staff/invite/", {"who": "vera", "role": "referee"}, follow=True
    )
    text = done.content.decode()
    assert "vera är inbjuden och accepterar på sin sida med inbjudningar." in text
    assert "Väntar på svar:" in text
    stranger = Client()
    stranger.force_login(UserFactory.create())
    refused = stranger.post(
        f"/tournaments/{cup.pk}/staff/invite/", {"who": "vera", "role": "organiser"}
    )
    assert refused.status_code in (403, 404)
    assert StaffInvitation.objects.count() == 1


def test_the_invited_user_sees_accepts_and_declines_on_their_page(cup: Any) -> None:
    vera = UserFactory.create(username="vera")
    olle = cup.organisers.get()
    as_referee = staff_invite(tournament=cup, who="vera", role="referee", by=olle)
    other = TournamentFactory.create(name="Höstcupen", organisers=[olle])
    as_organiser = staff_invite(tournament=other, who="vera", role="organiser", by=olle)
    client = Client()
    client.force_login(vera)
    page = client.get("/account/invitations/").content.decode()
    assert "Vårcupen" in page and "Höstcupen" in page and "Domare och arrangör" in page
    client.post(f"/account/staff-invitations/{as_organiser.pk}/decline/")
    client.post(f"/account/staff-invitations/{as_referee.pk}/accept/")
    assert is_referee(vera, cup) and not is_organiser(vera, other)
    as_organiser.refresh_from_db()
    assert as_organiser.state == InvitationState.DECLINED
    # Nobody else may answer an invitation.
    again = staff_invite(tournament=other, who="vera", role="organiser", by=olle)
    intruder = Client()
    intruder.force_login(UserFactory.create())
    assert intruder.post(f"/account/staff-invitations/{again.pk}/accept/").status_code == 404
