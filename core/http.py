"""What every app's pages share at the HTTP edge, below the apps that show pages (``web``,
``clubs``, ``teams``, ``webhooks``): a selector's ``NotFoundError`` as a 404, the request's
language, and the one way a posted form is answered (``form_answered``), and a posted button
(``action_answered``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import get_language

from core.errors import DomainError, NotFoundError

__all__ = ["action_answered", "form_answered", "found", "lang"]

T = TypeVar("T")


def found(select: Callable[..., T], **kwargs: Any) -> T:
    """Call a selector; its ``NotFoundError`` (also for private data) becomes a 404."""
    try:
        return select(**kwargs)
    except NotFoundError as err:
        raise Http404(str(err)) from None


def lang(request: HttpRequest | object) -> str:
    """The language of ``request`` (Django's, or DRF's ``Request`` around one): a code of
    ``settings.LANGUAGES`` (``sv``, ``en``, ``da``), which scoring's explanations, the
    exports' decimal comma and a file's words take.

    Decisions where the docs are silent: any language of the site is passed on as it is
    (Danish as Danish, not folded into Swedish or English), since each has a whole
    catalogue; a code the site does not have (a region such as ``sv-SE`` is cut to ``sv``
    first) falls back to ``settings.LANGUAGE_CODE``, the site's Swedish."""
    code = (getattr(request, "LANGUAGE_CODE", None) or get_language() or "")[:2]
    return code if code in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def form_answered(
    request: HttpRequest,
    form: Any,
    done: Callable[[dict[str, Any]], str],
    *,
    success: Callable[[], HttpResponse],
    again: Callable[[], HttpResponse],
    field: str | None = None,
    refused: Callable[[DomainError], Any] | None = None,
) -> HttpResponse:
    """A posted form, answered the one way every page answers it: a valid ``form`` runs its
    service (``done``, given the cleaned data, returns what to say); success says it and
    answers ``success()`` (a redirect: post/redirect/get); the form's errors, or the
    service's refusal (a ``DomainError``, its message — or what ``refused`` makes of it —
    at ``field``; None: the whole form), answer ``again()``, the page with the form."""
    if form.is_valid():
        try:
            text = done(form.cleaned_data)
        except DomainError as err:
            form.add_error(field, refused(err) if refused is not None else err.message)
        else:
            messages.success(request, text)
            return success()
    return again()


def action_answered(
    request: HttpRequest,
    do: Callable[[], str],
    *,
    success: Callable[[], HttpResponse],
    refused: Callable[[], HttpResponse],
) -> HttpResponse:
    """A posted button (no form to show again): ``do`` runs its service and returns what
    to say, said as a success before ``success()``; the service's refusal (a
    ``DomainError``) is said as an error before ``refused()``. Both answers redirect
    (post/redirect/get)."""
    try:
        text = do()
    except DomainError as err:
        messages.error(request, err.message)
        return refused()
    messages.success(request, text)
    return success()
