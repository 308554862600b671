"""A player's rating history as an SVG chart (``ratings.chart``) with the page's words.

The chart's texts come translated from here (``ratings.chart`` has no words of its own):
its title, the caption of the x axis and a tooltip per point. The first point is where
the player started (1500 or an imported start), then one point per rated match.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.utils.formats import date_format, number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from clubs.models import RatingEntry
from ratings.chart import ChartPoint, rating_chart_svg


def signed(value: Decimal | float | str) -> str:
    """A rating change with its sign, in the active language's number format: +17.32,
    −17.32 (a real minus sign), 0.00."""
    text = number_format(value, decimal_pos=2)
    if text.startswith("-"):
        return "\u2212" + text[1:]
    return text if text.strip("0.,") == "" else "+" + text


def history_chart(*, game_name: str, entries: Sequence[RatingEntry]) -> SafeString:
    """The chart of ``entries`` (oldest first): the start, then the rating after each."""
    points: list[ChartPoint] = []
    if entries:
        first = entries[0]
        points.append(
            ChartPoint(
                first.before,
                _("Start: %(rating)s") % {"rating": number_format(first.before, decimal_pos=2)},
            )
        )
    for entry in entries:
        tooltip = _("%(date)s, %(result)s against %(opponent)s: %(change)s, now %(rating)s") % {
            # Words, not 2026-12-01: a tooltip cannot hold a <time> that keeps it whole.
            "date": date_format(localtime(entry.ended_at), "DATE_FORMAT"),
            "result": _("won") if entry.won else _("lost"),
            "opponent": entry.opponent.name,
            "change": signed(entry.change),
            "rating": number_format(entry.after, decimal_pos=2),
        }
        points.append(ChartPoint(entry.after, tooltip))
    svg = rating_chart_svg(
        points,
        # Short, to fit the chart on a phone: the page's heading names the player.
        title=_("%(game)s rating") % {"game": game_name},
        x_caption=_("The start, then each rated match"),
        empty_text=_("No rated matches yet."),
    )
    # ratings.chart escapes every text it is given and adds no markup of the caller's.
    return mark_safe(svg)
