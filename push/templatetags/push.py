"""``{% push_stream "tournament" pk %}``: the attributes that give a live part its stream
(``data-push="/push/…/"``), or nothing while the site serves no streams
(``settings.PUSH_STREAMS``): the part then polls as it always did."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def push_stream(
    kind: str, pk: int, event: str = "part", body: str = "", version: int | None = None
) -> SafeString:
    """``body``: the shared parts the stream is to carry (``?body=``, ``push.shared``);
    the parts of one page name the same ones, so they share one stream. ``version``: the
    version of the part shown (``data-push-v``), which push.js names when it opens the
    stream (``?v=``), so its ``hello`` sends no body the page has already."""
    if not settings.PUSH_STREAMS:
        return SafeString("")
    url = reverse(f"push:{kind}", args=[pk]) + (f"?body={body}" if body else "")
    if version is None:
        return format_html(' data-push="{}" data-push-on="{}"', url, event)
    return format_html(
        ' data-push="{}" data-push-on="{}" data-push-v="{}"', url, event, int(version)
    )
