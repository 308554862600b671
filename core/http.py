"""What every app's pages share at the HTTP edge, below the apps that show pages (``web``,
``clubs``, ``webhooks``): a selector's ``NotFoundError`` as a 404, and the request's
language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.http import Http404, HttpRequest
from django.utils.translation import get_language

from core.errors import NotFoundError

__all__ = ["found", "lang"]

T = TypeVar("T")


def found(select: Callable[..., T], **kwargs: Any) -> T:
    """Call a selector; its ``NotFoundError`` (also for private data) becomes a 404."""
    try:
        return select(**kwargs)
    except NotFoundError as err:
        raise Http404(str(err)) from None


def lang(request: HttpRequest) -> str:
    """``sv`` or ``en``: the language of this request (scoring's explanations take it)."""
    code = (getattr(request, "LANGUAGE_CODE", None) or get_language() or "sv")[:2]
    return "en" if code == "en" else "sv"
