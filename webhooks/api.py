"""The webhooks' REST API, under ``/api/tournaments/N/webhooks/`` (``config.api_urls``).

Thin views: reads through ``webhooks.selectors``, writes through ``webhooks.services``;
only the tournament's organisers (and superusers): 403 for others who can see the
tournament, 404 for those who cannot.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api_base import ApiView
from webhooks import selectors, services
from webhooks.models import SUBSCRIBABLE, Webhook

# The errors every operation here may answer (the shared body ``{"error": {...}}``).
ERRORS: dict[int, OpenApiResponse] = {
    401: OpenApiResponse(description="Not signed in (send a token)."),
    403: OpenApiResponse(description="Not an organiser of this tournament."),
    404: OpenApiResponse(description="No such tournament you can see, or no such webhook."),
}
INVALID = {400: OpenApiResponse(description="The URL or the event kinds are not valid.")}


class WebhookOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=SUBSCRIBABLE))
    secret_start = serializers.SerializerMethodField(
        help_text="the secret's first 6 characters (the whole secret is shown only once)"
    )
    created_at = serializers.DateTimeField()

    def get_secret_start(self, hook: Webhook) -> str:
        return hook.secret[:6]


class WebhookCreatedOut(WebhookOut):
    secret = serializers.CharField(
        help_text="the key of every delivery's X-Brade-Signature (HMAC-SHA256 over the raw"
        " body); shown only now: keep it"
    )


class DeliveryOut(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    event = serializers.UUIDField(source="event_id", help_text="the id every delivery carries")
    kind = serializers.CharField(source="event.kind")
    state = serializers.CharField(help_text="pending, retrying, delivered or failed")
    attempts = serializers.IntegerField()
    last_status = serializers.IntegerField(allow_null=True, help_text="HTTP status, if any")
    last_error = serializers.CharField()
    last_response = serializers.CharField(help_text="the answer's first characters")
    last_attempt_at = serializers.DateTimeField(allow_null=True)
    last_duration_ms = serializers.IntegerField(allow_null=True)
    delivered_at = serializers.DateTimeField(allow_null=True)


class WebhookInput(serializers.Serializer[Any]):
    url = serializers.URLField(max_length=500)  # declared http(s) (api_base.URL_PATTERN)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=SUBSCRIBABLE),
        required=False,
        help_text="the kinds to send (default: all)",
    )


class WebhookListApi(ApiView):
    @extend_schema(responses={200: WebhookOut(many=True), **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        """List the tournament's webhooks (organisers only)."""
        tournament = selectors.managed_tournament_get(pk=pk, by=request.user)
        hooks = selectors.hooks_of(tournament=tournament)
        return Response(WebhookOut(hooks, many=True).data)

    @extend_schema(request=WebhookInput, responses={201: WebhookCreatedOut, **INVALID, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        """Register a webhook.

        The URL gets a JSON POST for each event of this tournament it asks for
        (``events``: match.decided, game.entered, game.corrected, round.published,
        record.verified, record.rejected, tournament.finished, team_match.decided; default
        all). The answer
        holds the ``secret`` that signs every delivery, shown only this once. Private,
        loopback and link-local addresses are refused at delivery unless the site allows
        them (``WEBHOOKS_ALLOW_PRIVATE``).
        """
        tournament = selectors.managed_tournament_get(pk=pk, by=request.user)
        data = WebhookInput(data=request.data)
        data.is_valid(raise_exception=True)
        hook = services.hook_create(
            tournament=tournament,
            url=data.validated_data["url"],
            events=data.validated_data.get("events"),
            by=request.user,
        )
        out = dict(WebhookOut(hook).data, secret=hook.secret)
        return Response(out, status=status.HTTP_201_CREATED, headers={"Cache-Control": "no-store"})


class WebhookDetailApi(ApiView):
    @extend_schema(responses={200: WebhookOut, **ERRORS})
    def get(self, request: Request, pk: int, hook_pk: int) -> Response:
        """Show a webhook (its secret's first characters only)."""
        tournament = selectors.managed_tournament_get(pk=pk, by=request.user)
        return Response(WebhookOut(selectors.hook_get(tournament=tournament, pk=hook_pk)).data)

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request: Request, pk: int, hook_pk: int) -> Response:
        """Delete a webhook and its delivery log; retries waiting are dropped."""
        tournament = selectors.managed_tournament_get(pk=pk, by=request.user)
        hook = selectors.hook_get(tournament=tournament, pk=hook_pk)
        services.hook_delete(hook=hook, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveryListApi(ApiView):
    @extend_schema(responses={200: DeliveryOut(many=True), **ERRORS})
    def get(self, request: Request, pk: int, hook_pk: int) -> Response:
        """List a webhook's latest deliveries (newest first, the last 20)."""
        tournament = selectors.managed_tournament_get(pk=pk, by=request.user)
        hook = selectors.hook_get(tournament=tournament, pk=hook_pk)
        return Response(DeliveryOut(selectors.delivery_log(hook=hook), many=True).data)


class WebhookTestApi(ApiView):
    class TestOut(serializers.Serializer[Any]):
        event = serializers.UUIDField(help_text="the test event's id")

    @extend_schema(
        request=None,
        responses={202: TestOut, **ERRORS},
    )
    def post(self, request: Request, pk: int, hook_pk: int) -> Response:
        """Send a test event (``ping``) to this webhook; its delivery shows in the log."""
        tournament = selectors.managed_tournament_get(pk=pk, by=request.user)
        hook = selectors.hook_get(tournament=tournament, pk=hook_pk)
        event = services.hook_test_send(hook=hook, by=request.user)
        return Response({"event": str(event.id)}, status=status.HTTP_202_ACCEPTED)
