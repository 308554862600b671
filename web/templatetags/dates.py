"""Dates on pages: ``{{ value|time_tag:"Y-m-d" }}`` gives ``<time datetime="…">…</time>``.

A date such as 2026-12-01 must never break across lines on a phone ("2026-" on one line,
"12-01" on the next); site.css keeps every ``<time>`` on one line, and the ``datetime``
attribute gives the machine-readable value. The result is safe HTML, so it can also be
passed into ``{% blocktranslate with when=…|time_tag %}``.
"""

from __future__ import annotations

import datetime

from django import template
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.filter(expects_localtime=True)
def time_tag(value: datetime.date | None, fmt: str = "Y-m-d") -> SafeString | str:
    """``value`` formatted as the ``date`` filter would, inside a ``<time>`` element."""
    if not isinstance(value, datetime.date):
        return ""
    if isinstance(value, datetime.datetime):
        machine = value.replace(microsecond=0).isoformat()
    else:
        machine = value.isoformat()
    return format_html('<time datetime="{}">{}</time>', machine, date_format(value, fmt))
