"""The API's front door: the root listing (``GET /api/``) and the token endpoint
(``/api/token/``). The token logic lives in ``tournaments.api_token`` (services)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ValidationError
from tournaments import api_token
from tournaments.api_base import ApiView
from tournaments.api_examples import TOKEN_EXAMPLES

# The main collections and pages of the API, as the root lists them (name → route).
ROOT_LINKS = (
    ("tournaments", "api:tournament-list"),
    ("matches", "api:match-list"),
    ("players", "api:player-list"),
    ("clubs", "api:club-list"),
    ("token", "api:token"),
    ("schema", "api:schema"),
    ("docs", "api:docs"),
)


class ApiRootApi(ApiView):
    class ApiRootOutput(serializers.Serializer[Any]):
        name = serializers.CharField()
        version = serializers.CharField()
        authentication = serializers.CharField()
        links = serializers.DictField(child=serializers.URLField())

    @extend_schema(responses=ApiRootOutput)
    def get(self, request: Request) -> Response:
        """The API's root: links to the main collections, the token and the docs.

        Start here: ``links`` holds absolute URLs of the tournaments, matches, players
        and clubs, of ``/api/token/`` (get a token to write), and of the schema and its
        docs page. Reading public data needs no sign-in.
        """
        links = {name: request.build_absolute_uri(reverse(route)) for name, route in ROOT_LINKS}
        return Response(
            {
                "name": settings.SPECTACULAR_SETTINGS["TITLE"],
                "version": settings.SPECTACULAR_SETTINGS["VERSION"],
                "authentication": (
                    "Reading public data needs none. To write, send 'Authorization: Token <key>' "
                    "(POST username and password to the token link) or use a signed-in session."
                ),
                "links": links,
            }
        )


class ApiTokenApi(ApiView):
    # No DRF throttle: its count lives in the cache (Redis), so it failed with Redis and
    # was dodged by a varied X-Forwarded-For. Password attempts fall under the one
    # sign-in limit of the site (accounts.signin_limit), counted in the database.
    throttle_classes = ()

    class ApiTokenInput(serializers.Serializer[Any]):
        username = serializers.CharField(required=False, help_text="with password")
        password = serializers.CharField(
            required=False, trim_whitespace=False, style={"input_type": "password"}
        )

    class ApiTokenOutput(serializers.Serializer[Any]):
        token = serializers.CharField(help_text="send as 'Authorization: Token <token>'")
        username = serializers.CharField()
        created = serializers.BooleanField(help_text="false: the token existed already")

    @extend_schema(
        request=ApiTokenInput,
        examples=TOKEN_EXAMPLES,
        responses={
            200: ApiTokenOutput,
            201: ApiTokenOutput,
            400: OpenApiResponse(
                description="Wrong user name or password (code 'invalid_credentials'; the "
                "same message whichever was wrong), or neither credentials nor a sign-in."
            ),
            429: OpenApiResponse(
                description="Too many failed sign-ins for this user name or from this "
                "address (code 'too_many_attempts'); wait the 'Retry-After' seconds."
            ),
        },
    )
    def post(self, request: Request) -> Response:
        """Get your API token (created if you have none).

        Send ``username`` and ``password`` (JSON or form), or call it signed in (a
        session, with its CSRF token) or with your token. The answer holds the token:
        201 when it was created now, 200 when you had one (the same key again, so
        several scripts can share it). Wrong credentials get one message whatever was
        wrong. Failed sign-ins are limited per user name and per address, the same limit
        as the sign-in pages' (429 with ``Retry-After`` when reached). Example::

            curl -X POST https://brade.example.org/api/token/ \\
                 -d username=anna -d password='…'
        """
        data = self.ApiTokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        username = data.validated_data.get("username")
        password = data.validated_data.get("password")
        if username is not None or password is not None:
            if not username or password is None:
                raise ValidationError(
                    _("Send both 'username' and 'password'."), code="credentials_half"
                )
            user = api_token.user_from_credentials(
                request=request._request, username=username, password=password
            )
        elif request.user.is_authenticated:
            user = request.user
        else:
            raise ValidationError(
                _("Send 'username' and 'password', or sign in first."), code="no_credentials"
            )
        token, created = api_token.api_token_create(user=user)
        return Response(
            {"token": token.key, "username": user.get_username(), "created": created},
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
            headers={"Cache-Control": "no-store"},
        )

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        """Revoke your API token.

        Authenticated by the token itself (``Authorization: Token …``) or a signed-in
        session. The token stops working at once; every script using it gets 401 until
        it gets a new one. 204 also when you had no token.
        """
        api_token.api_token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def get_permissions(self) -> list[BasePermission]:
        # Anyone may ask for a token (with a user name and password; the services
        # decide); revoking needs the caller signed in (token or session).
        if self.request is not None and self.request.method == "DELETE":
            return [IsAuthenticated()]
        return [AllowAny()]
