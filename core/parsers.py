"""The API's JSON parser: a request body is a JSON object of bounded depth and text.

Every request body the API takes is an object (``{"name": …}``), so the parser refuses,
with 400, what no operation could use and what would otherwise fail deep inside:

- a top-level value that is not an object (``null``, ``12``, ``[…]``, ``"…"``): a
  serializer, a throttle or a view would read keys from it;
- nesting deeper than ``MAX_DEPTH`` (the deepest body the API takes is a list of
  objects inside an object; 3,000 ``[`` would exhaust Python's recursion limit);
- text that is not Unicode: a lone surrogate (``"\\ud800"``) decodes in Python but
  cannot be written as UTF-8, to the database or back in an error message;
- numbers Python's ``json`` takes but JSON does not (``NaN``, ``Infinity``).

Used project-wide (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``) and by every view that
names its own parsers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser

# Objects and lists inside one another: the API's deepest body needs 3.
MAX_DEPTH = 8


def _too_deep(depth: int) -> str:
    return _("The JSON body is nested more than %(n)s levels deep.") % {"n": depth}


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def check_json_value(value: Any, *, max_depth: int = MAX_DEPTH) -> None:
    """``ParseError`` unless ``value`` nests at most ``max_depth`` deep and every string
    in it (keys too) is Unicode text. Iterative: no recursion on hostile input."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ParseError(
                    _("The body holds text that is not valid Unicode (a lone surrogate).")
                ) from None
            continue
        if isinstance(item, Mapping | list):
            if depth > max_depth:
                raise ParseError(_too_deep(max_depth))
            if isinstance(item, Mapping):
                stack.extend((key, depth) for key in item)
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)


class JSONObjectParser(JSONParser):
    """DRF's JSON parser, refusing (400) what ``check_json_value`` refuses and any body
    that is not a JSON object."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding)
            data = json.loads(text, parse_constant=_refuse_constant)
        except RecursionError:
            raise ParseError(_too_deep(MAX_DEPTH)) from None
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError included
            raise ParseError(_("JSON parse error - %(detail)s") % {"detail": exc}) from None
        if not isinstance(data, dict):
            raise ParseError(_("The body must be a JSON object: {…}."))
        check_json_value(data)
        return data


class CSVTextParser(BaseParser):
    """A ``text/csv`` body, as bytes under the key ``csv``: the view's CSV reader decodes
    it and says by row what is wrong (text that is not UTF-8 included), as an uploaded
    file's is."""

    media_type = "text/csv"

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        return {"csv": stream.read()}
