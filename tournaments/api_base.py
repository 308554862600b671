"""Shared REST plumbing: authentication, pagination, and JSON errors people can act on.

Every API view here sets its own authentication (session and token), pagination
and exception handler, so the API behaves the same whatever ``REST_FRAMEWORK``
settings the project has. Errors always look like::

    {"error": {"code": "conflict", "message": "Game 3 was entered already …", …}}

with ``fields`` for per-field validation messages and, for conflicts, the current
state (``match``) so the client can show it.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.validators import ProhibitNullCharactersValidator
from django.db import models
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.contrib.django_filters import DjangoFilterExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import get_doc
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import BaseParser, FormParser, MultiPartParser
from rest_framework.permissions import BasePermission, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from core.bounds import DB_ID_MAX
from core.errors import DomainError
from core.parsers import JSONObjectParser


class Pagination(LimitOffsetPagination):
    """``limit`` (1 to 500, default 50) and ``offset`` (from 0). A value that is not a
    whole number in range is a 400 naming it, not silently the default: a client that
    asks for 1,000 rows and gets 500 would take them for all."""

    default_limit = 50
    max_limit = 500

    def _whole(self, request: Request, name: str, low: int, high: int, default: int) -> int:
        text = request.query_params.get(name)
        if text is None:
            return default
        if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
            raise serializers.ValidationError(
                {
                    name: [
                        _("A whole number from %(low)s to %(high)s, not “%(text)s”.")
                        % {"low": low, "high": high, "text": text[:40]}
                    ]
                }
            )
        return int(text)

    def get_limit(self, request: Request) -> int:
        return self._whole(request, self.limit_query_param, 1, self.max_limit, self.default_limit)

    def get_offset(self, request: Request) -> int:
        return self._whole(request, self.offset_query_param, 0, DB_ID_MAX, 0)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        bounds = {
            self.limit_query_param: {"minimum": 1, "maximum": self.max_limit},
            self.offset_query_param: {"minimum": 0, "maximum": DB_ID_MAX},
        }
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters

    def get_paginated_response_schema(self, schema: Any) -> dict[str, Any]:
        """The page's shape, its example values those of any list of the site (DRF's
        own point at ``api.example.org/accounts/``): everything on one page."""
        paged: dict[str, Any] = super().get_paginated_response_schema(schema)
        examples = {"count": 1, "next": None, "previous": None}
        for name, value in examples.items():
            paged["properties"][name]["example"] = value
        return paged


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            text = _first_message(value)
            if text:
                return text if key in ("non_field_errors", "detail") else f"{key}: {text}"
        return ""
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else ""
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Domain errors → their status; DRF errors → the same JSON shape."""
    if isinstance(exc, DomainError):
        return Response({"error": exc.to_dict()}, status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(_("Not found, or not visible to you."))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    code = getattr(exc, "default_code", "error")
    if isinstance(exc, exceptions.ValidationError):
        body: dict[str, Any] = {
            "code": "invalid",
            "message": _first_message(data) or _("The request is not valid."),
            "fields": data,
        }
    else:
        message = data.get("detail") if isinstance(data, dict) else _first_message(data)
        if response.status_code == status.HTTP_401_UNAUTHORIZED or (
            response.status_code == status.HTTP_403_FORBIDDEN and code == "not_authenticated"
        ):
            message = _("Log in (session) or send an 'Authorization: Token …' header.")
        body = {"code": str(code), "message": str(message)}
    response.data = {"error": body}
    return response


# A web address every ``URLField`` takes: http(s), a host name with a top-level domain,
# an optional path (a subset of what Django's ``URLValidator`` accepts, so a request the
# schema allows is one the field takes).
URL_PATTERN = (
    r"^https?://[A-Za-z0-9]([A-Za-z0-9-]{0,30}[A-Za-z0-9])?(\.[A-Za-z0-9]{1,30}){0,4}"
    r"\.[A-Za-z]{2,20}(/[A-Za-z0-9._~/-]{0,200})?$"
)


class ApiSchema(AutoSchema):
    """An operation's OpenAPI summary and description come from its method's docstring.

    The docstring's first line is the summary (shown beside the path in the docs
    page); the rest of it (or, for a one-line docstring, that line), then the view
    class's own docstring if it has one, is the description. A class docstring is
    never inherited, so no operation is described by ``ApiView``'s.
    ``extend_schema(summary=…, description=…)`` still overrides both.
    tests/api/test_schema_docs.py keeps every operation described.
    """

    def _method_doc(self) -> str:
        return get_doc(getattr(self.view, self.method.lower(), None))

    def get_summary(self) -> str | None:
        summary = super().get_summary()
        if summary:
            return summary
        first = self._method_doc().split("\n", 1)[0].strip()
        return first.rstrip(".") or None

    def _map_serializer_field(
        self, field: Any, direction: str, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        """A text field's schema says what its serializer refuses: blank text (after
        trimming, where the field trims) and the NUL character (where it refuses it), so
        a request the schema allows is one the API takes."""
        schema: dict[str, Any] = super()._map_serializer_field(field, direction, bypass_extensions)
        if getattr(field, "help_text", None) is None and "$ref" not in schema:
            # A related field takes its model field's help text (Django's own, for a
            # user name): the API describes its fields itself or not at all.
            schema.pop("description", None)
        if direction == "request" and isinstance(field, serializers.URLField):
            # "format: uri" allows any scheme ("web:home"); the field takes a web address
            # with a host name (Django's ``URLValidator``): the pattern is a part of those.
            schema["pattern"] = URL_PATTERN
            return schema
        if (
            direction != "request"
            or not isinstance(field, serializers.CharField)
            or schema.get("type") != "string"
            or "format" in schema
            or "enum" in schema
            or "pattern" in schema
        ):
            return schema
        no_nul = any(isinstance(v, ProhibitNullCharactersValidator) for v in field.validators)
        char = r"[^\x00]" if no_nul else "."
        if field.allow_blank:
            if no_nul:
                schema["pattern"] = rf"^{char}*$"
            return schema
        schema["minLength"] = max(schema.get("minLength", 0), 1)
        if field.trim_whitespace:
            visible = r"[^\x00\s]" if no_nul else r"\S"
            schema["pattern"] = rf"^{char}*{visible}{char}*$"
        elif no_nul:
            schema["pattern"] = rf"^{char}+$"
        return schema

    def map_parsers(self) -> list[Any]:
        """JSON only, unless the view names its own parsers (a file upload): the other
        media types the API parses (forms) cannot say ``null``, so a client generated
        from the schema would send what the serializers read differently."""
        if "parser_classes" in self.view.__class__.__dict__:
            return super().map_parsers()  # type: ignore[no-any-return]
        return ["application/json"]

    def _get_request_body(self, direction: str = "request") -> dict[str, Any] | None:
        """A body declared per media type (``request={"application/json": …, "text/csv":
        OpenApiTypes.STR}``) is required when its JSON form has required fields: the text
        form is then the same content sent as a file, and no body at all is refused."""
        body: dict[str, Any] | None = super()._get_request_body(direction)
        if body is None or body.get("required") or len(body["content"]) < 2:
            return body
        declared = self.get_request_serializer()
        if not isinstance(declared, dict):
            return body
        json_form = declared.get("application/json")
        if json_form is not None and self._get_request_for_media_type(json_form, direction)[1]:
            body["required"] = True
        return body

    def _get_paginator(self) -> Any:
        """``pagination_class`` on an ``ApiView`` says its list is paged by ``paginate``."""
        pagination_class = getattr(self.view, "pagination_class", None)
        return pagination_class() if pagination_class else None

    def _get_filter_parameters(self) -> list[dict[str, Any]]:
        """The query parameters of the view's ``filterset_class`` (``filtered``)."""
        filterset_class = getattr(self.view, "filterset_class", None)
        if filterset_class is None or not self._is_list_view():
            return []
        extension = DjangoFilterExtension(DjangoFilterBackend())
        model = filterset_class._meta.model
        parameters: list[dict[str, Any]] = []
        for name, field in filterset_class.base_filters.items():
            parameters += extension.resolve_filter_field(self, model, filterset_class, name, field)
        return parameters

    def get_description(self) -> str:  # type: ignore[override]  # as drf-spectacular's
        doc = self._method_doc()
        # The text after the summary line, else the summary itself (a one-line docstring).
        body = doc.split("\n", 1)[1].strip() if "\n" in doc else doc
        own = self.view.__class__.__dict__.get("__doc__")
        parts = [body, get_doc(self.view.__class__) if own else ""]
        return "\n\n".join(part for part in parts if part)


class ApiView(APIView):
    """Base of every API view of the tournaments and matches apps.

    Each operation is described by its method's docstring (``ApiSchema``)."""

    schema = ApiSchema()

    # Token first, so an anonymous write gets 401 with a WWW-Authenticate header.
    authentication_classes = (TokenAuthentication, SessionAuthentication)
    # A JSON body is an object of bounded depth and valid text, else 400 (core.parsers).
    parser_classes: tuple[type[BaseParser], ...] = (
        JSONObjectParser,
        FormParser,
        MultiPartParser,
    )
    permission_classes: tuple[type[BasePermission], ...] = (IsAuthenticatedOrReadOnly,)

    # A list view that pages with ``paginate`` says so here (``Pagination``), and one that
    # filters with ``filtered`` names its FilterSet: the schema declares both from these.
    pagination_class: type[Pagination] | None = None
    filterset_class: Any = None

    def get_exception_handler(self) -> Any:
        return exception_handler


class _IdFormField(forms.IntegerField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", DB_ID_MAX)
        super().__init__(**kwargs)


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": DB_ID_MAX})
class IdFilter(django_filters.NumberFilter):
    """A filter by an id (or a round's number): a whole number from 1 to the largest id.
    Not a choice of objects: that would answer 400 for ids that do not exist and 200 for
    private ones, which reveals which ids exist; an unknown id filters to nothing."""

    field_class = _IdFormField


class _StrictBooleanFormField(forms.NullBooleanField):
    """``true``/``false`` (or ``1``/``0``); anything else is refused, not ignored (the
    plain text widget hands the field the value as sent)."""

    widget = forms.TextInput

    def to_python(self, value: Any) -> bool | None:  # type: ignore[override]  # as Null…
        if value in (None, ""):
            return None
        if value in (True, "true", "True", "1", 1):
            return True
        if value in (False, "false", "False", "0", 0):
            return False
        raise forms.ValidationError(_("Give true or false."), code="invalid")

    def validate(self, value: Any) -> None:
        pass


class BooleanFilter(django_filters.BooleanFilter):
    """A yes/no filter that refuses (400) a value that is neither, rather than dropping
    the filter and listing everything."""

    field_class = _StrictBooleanFormField


class Ordering(django_filters.OrderingFilter):
    """``ordering``: field names separated by commas, ``-`` before one for descending
    (``-start_date,name``); ties are broken by id, so pages never overlap. Left out, the
    list's own order."""

    def filter(self, qs: Any, value: Any) -> Any:
        qs = super().filter(qs, value)
        if value:
            qs = qs.order_by(*qs.query.order_by, "pk")
        return qs


# ``Meta.filter_overrides`` of a FilterSet whose model has yes/no fields.
STRICT_BOOLEANS = {models.BooleanField: {"filter_class": BooleanFilter}}


def filtered(filterset_class: Any, request: Request, queryset: QuerySet[Any]) -> QuerySet[Any]:
    """Apply a django-filter FilterSet; invalid filters are a 400 with field messages."""
    filterset = filterset_class(request.query_params, queryset=queryset, request=request)
    if not filterset.is_valid():
        raise serializers.ValidationError(filterset.errors)
    return filterset.qs  # type: ignore[no-any-return]


def paginate(
    view: APIView, queryset: Any, serializer_class: Any, *, context: dict[str, Any] | None = None
) -> Response:
    """Page a queryset with ``Pagination`` and serialize the page (``context`` added to the
    serializer's, e.g. ``serializers.staff_context``)."""
    paginator = Pagination()
    page: list[Any] | None = paginator.paginate_queryset(queryset, view.request, view=view)
    data = serializer_class(
        page, many=True, context={"request": view.request, **(context or {})}
    ).data
    return paginator.get_paginated_response(data)
