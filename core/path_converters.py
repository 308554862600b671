"""Whole numbers in a URL's path, bounded as ``core.bounds`` bounds those of a body.

Django's ``<int:…>`` takes any run of digits, and a number past what the column holds
reaches a query: on SQLite past 2⁶³ an ``OverflowError``, on PostgreSQL an ``integer``
column past 2³¹ an out-of-range error, unless every lookup happens to guard it. Every
route of the site names its numbers with these converters instead:

- ``<id:pk>``: an object's id, 0 to ``DB_ID_MAX`` (the ``bigint`` of ``BigAutoField``);
- ``<num:number>``: a round's or a game's number, 0 to ``DB_INT_MAX`` (an ``integer``).

A path whose number is larger matches no route: it names nothing, so it is a 404 (the
API's JSON error under ``/api/``), never a query. Registered when this module is
imported: ``config/urls.py`` and ``config/api_urls.py`` import it before they include the
apps' routes (tests/test_huge_numbers.py checks that no route uses ``<int:…>``).
"""

from __future__ import annotations

from django.urls import register_converter
from django.urls.converters import get_converters

from core.bounds import DB_ID_MAX, DB_INT_MAX

__all__ = ["ID", "NUM", "IdConverter", "NumberConverter"]

ID = "id"
NUM = "num"


class IdConverter:
    """An id: digits, at most ``DB_ID_MAX``; a larger one does not match."""

    regex = "[0-9]+"
    maximum = DB_ID_MAX

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > self.maximum:
            raise ValueError(f"{value} is past {self.maximum}")  # no match: a 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class NumberConverter(IdConverter):
    """A number stored in an ``integer`` column: at most ``DB_INT_MAX``."""

    maximum = DB_INT_MAX


for _name, _converter in ((ID, IdConverter), (NUM, NumberConverter)):
    if _name not in get_converters():
        register_converter(_converter, _name)
