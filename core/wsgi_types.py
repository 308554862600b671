"""The types of a WSGI application, for the wrappers around Django's
(``core.kept_responses``, ``core.heap_freeze``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["StartResponse", "Wsgi"]

StartResponse = Callable[..., Any]
Wsgi = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
