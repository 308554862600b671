"""Who manages a tournament's webhooks (its organisers and superusers, through the API and
the manage page), the secret shown once, the test event button and the delivery log."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.api.conftest import client_for
from tests.factories import OrganiserFactory, TournamentFactory, UserFactory
from tests.webhooks.receiver import Receiver
from webhooks.models import SUBSCRIBABLE, DeliveryState, Webhook, WebhookDelivery

pytestmark = pytest.mark.django_db


def api(tournament: Any, *rest: Any) -> str:
    tail = "".join(f"{part}/" for part in rest)
    return f"/api/tournaments/{tournament.pk}/webhooks/{tail}"


@pytest.fixture
def tournament() -> Any:
    organiser = OrganiserFactory.create(username="arrangor")
    referee = UserFactory.create(username="domare")
    return TournamentFactory.create(organisers=[organiser], referees=[referee])


def organiser_of(tournament: Any) -> Any:
    return tournament.organisers.get()


class TestApi:
    def test_an_organiser_creates_lists_and_deletes(self, tournament: Any) -> None:
        client = client_for(organiser_of(tournament))
        made = client.post(
            api(tournament),
            {"url": "https://scores.example.org/hook", "events": ["match.decided"]},
            format="json",
        )
        assert made.status_code == 201, made.content
        body = made.json()
        assert len(body["secret"]) == 64 and body["secret_start"] == body["secret"][:6]
        assert body["events"] == ["match.decided"]
        assert made["Cache-Control"] == "no-store"
        listed = client.get(api(tournament)).json()
        assert [h["url"] for h in listed] == ["https://scores.example.org/hook"]
        assert "secret" not in listed[0]  # shown only once
        assert "secret" not in client.get(api(tournament, body["id"])).json()
        assert client.delete(api(tournament, body["id"])).status_code == 204
        assert not Webhook.objects.exists()

    def test_every_kind_by_default(self, tournament: Any) -> None:
        client = client_for(organiser_of(tournament))
        made = client.post(api(tournament), {"url": "https://s.example.org/"}, format="json")
        assert made.json()["events"] == list(SUBSCRIBABLE)

    @pytest.mark.parametrize(
        "url", ["ftp://s.example.org/", "not a url", "https://user:pw@s.example.org/"]
    )
    def test_bad_urls_are_refused(self, tournament: Any, url: str) -> None:
        client = client_for(organiser_of(tournament))
        assert client.post(api(tournament), {"url": url}, format="json").status_code == 400
        assert not Webhook.objects.exists()

    def test_unknown_kinds_are_refused(self, tournament: Any) -> None:
        client = client_for(organiser_of(tournament))
        answer = client.post(
            api(tournament), {"url": "https://s.example.org/", "events": ["ping"]}, format="json"
        )
        assert answer.status_code == 400

    @pytest.mark.parametrize("who", ["referee", "stranger", "other organiser"])
    def test_others_get_403(self, tournament: Any, who: str) -> None:
        user = {
            "referee": lambda: tournament.referees.get(),
            "stranger": lambda: UserFactory.create(),
            "other organiser": lambda: organiser_of(
                TournamentFactory.create(organisers=[OrganiserFactory.create()])
            ),
        }[who]()
        hook = (
            client_for(organiser_of(tournament))
            .post(api(tournament), {"url": "https://s.example.org/"}, format="json")
            .json()
        )
        client = client_for(user)
        assert client.get(api(tournament)).status_code == 403
        assert (
            client.post(
                api(tournament), {"url": "https://x.example.org/"}, format="json"
            ).status_code
            == 403
        )
        assert client.delete(api(tournament, hook["id"])).status_code == 403
        assert client.post(api(tournament, hook["id"], "test")).status_code == 403
        assert client.get(api(tournament, hook["id"], "deliveries")).status_code == 403
        assert Webhook.objects.count() == 1

    def test_anonymous_is_refused(self, tournament: Any) -> None:
        client = client_for(None)
        assert client.get(api(tournament)).status_code in (401, 403)
        assert (
            client.post(
                api(tournament), {"url": "https://x.example.org/"}, format="json"
            ).status_code
            == 401
        )

    def test_a_private_tournament_is_not_found_by_strangers(self) -> None:
        private = TournamentFactory.create(organisers=[OrganiserFactory.create()], is_public=False)
        assert client_for(UserFactory.create()).get(api(private)).status_code == 404
        assert client_for(organiser_of(private)).get(api(private)).status_code == 200

    def test_a_superuser_manages_any_tournaments_hooks(self, tournament: Any) -> None:
        admin = UserFactory.create(is_superuser=True)
        made = client_for(admin).post(
            api(tournament), {"url": "https://s.example.org/"}, format="json"
        )
        assert made.status_code == 201

    def test_the_test_event_and_the_delivery_log(
        self, tournament: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
    ) -> None:
        receiver.script = [500]
        client = client_for(organiser_of(tournament))
        hook = client.post(api(tournament), {"url": receiver.url}, format="json").json()
        with django_capture_on_commit_callbacks(execute=True):
            sent = client.post(api(tournament, hook["id"], "test"))
        assert sent.status_code == 202
        (row,) = client.get(api(tournament, hook["id"], "deliveries")).json()
        assert row["event"] == sent.json()["event"] and row["kind"] == "ping"
        assert (row["state"], row["attempts"], row["last_status"]) == ("delivered", 2, 200)

    def test_a_hook_of_another_tournament_is_not_found(self, tournament: Any) -> None:
        other = TournamentFactory.create(organisers=[organiser_of(tournament)])
        client = client_for(organiser_of(tournament))
        hook = client.post(api(other), {"url": "https://s.example.org/"}, format="json").json()
        assert client.delete(api(tournament, hook["id"])).status_code == 404


class TestManagePage:
    def login(self, user: Any) -> Client:
        client = Client()
        client.force_login(user)
        client.cookies["django_language"] = "en"
        return client

    def test_add_a_hook_see_the_secret_once_send_a_test_and_read_the_log(
        self, tournament: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
    ) -> None:
        client = self.login(organiser_of(tournament))
        manage = reverse("web:tournament_manage", args=[tournament.pk])
        page = client.get(manage).content.decode()
        assert 'id="webhooks"' in page and "No webhooks yet." in page
        created = client.post(
            reverse("webhooks:create", args=[tournament.pk]),
            {"url": receiver.url, "events": list(SUBSCRIBABLE)},
        )
        assert created.status_code == 200
        hook = Webhook.objects.get()
        assert hook.secret in created.content.decode()
        page = client.get(manage).content.decode()
        assert hook.url in page and hook.secret not in page and hook.secret[:6] in page
        receiver.script = [503]
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(reverse("webhooks:test", args=[tournament.pk, hook.pk]))
        assert answer.status_code == 302
        delivery = WebhookDelivery.objects.get()
        assert delivery.state == DeliveryState.DELIVERED and delivery.attempts == 2
        page = client.get(manage).content.decode()
        assert "Latest deliveries" in page and str(delivery.event_id) in page
        assert "HTTP 200" in page and "delivered" in page
        client.post(reverse("webhooks:delete", args=[tournament.pk, hook.pk]))
        assert not Webhook.objects.exists()

    def test_the_section_in_swedish(self, tournament: Any) -> None:
        client = self.login(organiser_of(tournament))
        client.cookies["django_language"] = "sv"
        page = client.get(
            reverse("web:tournament_manage", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="sv"
        ).content.decode()
        assert "Webhooks" in page and "Inga webhooks ännu." in page
        assert "Lägg till webhooken" in page
        # A webhook's events are happenings ("Händelser"), not a season's events
        # ("Tävlingar", the same English word).
        assert "<legend>Händelser</legend>" in page and "Tävlingar" not in page

    def test_a_referee_may_not_add_send_or_delete(self, tournament: Any) -> None:
        hook = Webhook.objects.create(
            tournament=tournament, url="https://s.example.org/", secret="x" * 64
        )
        client = self.login(tournament.referees.get())
        for name, args in (
            ("webhooks:create", [tournament.pk]),
            ("webhooks:test", [tournament.pk, hook.pk]),
            ("webhooks:delete", [tournament.pk, hook.pk]),
        ):
            answer = client.post(reverse(name, args=args), {"url": "https://x.example.org/"})
            assert answer.status_code == 403, name
        assert Webhook.objects.count() == 1 and not WebhookDelivery.objects.exists()

    def test_a_bad_url_is_a_message(self, tournament: Any) -> None:
        client = self.login(organiser_of(tournament))
        answer = client.post(
            reverse("webhooks:create", args=[tournament.pk]),
            {"url": "ftp://s.example.org/", "events": ["match.decided"]},
            follow=True,
        )
        assert not Webhook.objects.exists()
        assert "This URL cannot receive webhooks: only http and https URLs." in (
            answer.content.decode()
        )


def test_the_admin_lists_hooks_without_their_secret(tournament: Any) -> None:
    hook = Webhook.objects.create(
        tournament=tournament, url="https://s.example.org/", secret="s3cr3t" * 10
    )
    client = Client()
    client.force_login(UserFactory.create(is_superuser=True, is_staff=True))
    listing = client.get("/admin/webhooks/webhook/")
    detail = client.get(f"/admin/webhooks/webhook/{hook.pk}/change/")
    assert listing.status_code == 200 and detail.status_code == 200
    assert hook.url in listing.content.decode()
    assert hook.secret not in listing.content.decode() + detail.content.decode()
    assert client.get("/admin/webhooks/webhookdelivery/").status_code == 200
