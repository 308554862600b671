"""The range of a whole number the database stores: one definition for every input.

Ratings, seeds, season points, game numbers, ids and the like are PostgreSQL ``integer``
columns (Django's ``IntegerField`` and ``PositiveIntegerField``): a value of 2³¹ or more
overflows them, and on SQLite a value past 2⁶³ cannot even be looked up. Every number a
request, a form or a CSV import gives is checked against this range first, so it is a
400 (or a form or import error) that says the range instead of a server error.
``DbIntegerField`` (API) and ``DbIntegerFormField`` (pages) are the fields to use; an id
in a query (``?club=``) is read with ``parse_db_id``, one in a path with ``<id:…>``
(core/path_converters.py).
"""

from __future__ import annotations

from typing import Any

from django import forms
from rest_framework import serializers

DB_INT_MIN = -(2**31)
DB_INT_MAX = 2**31 - 1
# Ids are ``bigint`` (``BigAutoField``).
DB_ID_MAX = 2**63 - 1


def db_int_in_range(value: int) -> bool:
    """Whether ``value`` fits the database's ``integer`` column."""
    return DB_INT_MIN <= value <= DB_INT_MAX


def parse_db_id(text: str | None) -> int | None:
    """The id ``text`` names: ASCII digits, 1 to ``DB_ID_MAX``; else ``None`` (the
    caller refuses it as it refuses an id that is not a number: the API's 400, a page's
    404). ``"²"`` and ``"١"`` are digits to ``str.isdigit`` but not ids."""
    if not text or not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    value = int(text)
    return value if 1 <= value <= DB_ID_MAX else None


class DbIntegerField(serializers.IntegerField):
    """An API integer no larger than the database stores (``min_value``/``max_value``
    narrow it further; the schema shows the range)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["max_value"] = min(kwargs.get("max_value", DB_INT_MAX), DB_INT_MAX)
        kwargs["min_value"] = max(kwargs.get("min_value", DB_INT_MIN), DB_INT_MIN)
        super().__init__(**kwargs)


class DbIdField(serializers.IntegerField):
    """An API id of an object: 1 to the largest ``bigint`` (an id past it names nothing,
    and some lookups would overflow)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", DB_ID_MAX)
        super().__init__(**kwargs)


class DbIntegerFormField(forms.IntegerField):
    """A form's integer no larger than the database stores."""

    def __init__(self, **kwargs: Any) -> None:
        max_value = kwargs.get("max_value")
        min_value = kwargs.get("min_value")
        kwargs["max_value"] = DB_INT_MAX if max_value is None else min(max_value, DB_INT_MAX)
        kwargs["min_value"] = DB_INT_MIN if min_value is None else max(min_value, DB_INT_MIN)
        super().__init__(**kwargs)
