"""A player's rating history as a server-rendered SVG chart.

:func:`rating_chart_svg` returns one ``<svg>`` element as text: a y axis of ratings with a
few round-numbered ticks, an x axis numbered by match (1 = the first point), the ratings
joined by a polyline and each point a circle whose ``<title>`` is its tooltip.

- **Phone**: ``viewBox`` with ``width="100%"``, so it scales to its column; the drawing is
  :data:`WIDTH` units wide with :data:`FONT_SIZE` text, readable at 360 px.
- **Print**: black strokes and text on no fill, light grid lines; no script, no CSS, no
  inline ``style`` (so a strict Content-Security-Policy is no obstacle).
- **Text**: every caller-given text (title, tooltips, axis caption) is escaped, and
  characters XML cannot carry (control characters) are replaced by U+FFFD, so any player
  name gives a well-formed document. The texts come translated from the caller: this
  module has no words of its own.

Pure: imports nothing from Django.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

__all__ = ["FONT_SIZE", "HEIGHT", "WIDTH", "ChartPoint", "nice_ticks", "rating_chart_svg"]

WIDTH = 400
HEIGHT = 240
FONT_SIZE = 13
# The plot area inside the viewBox: room on the left for rating labels, below for match
# numbers and the caption, above for the title.
LEFT, RIGHT, TOP, BOTTOM = 52, WIDTH - 12, 30, HEIGHT - 44
MAX_X_TICKS = 6

# XML 1.0 allows tab, newline, carriage return and U+0020 upwards except surrogates and
# U+FFFE/U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """One point: the rating after a match (or the starting rating) and its tooltip."""

    rating: Decimal
    tooltip: str


def _text(value: str) -> str:
    """``value`` as XML character data or attribute text (double-quoted)."""
    value = _NOT_XML.sub("\ufffd", value)
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def _num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def nice_ticks(low: Decimal, high: Decimal, *, most: int = 6) -> list[Decimal]:
    """Round tick values covering [low, high]: steps of 1, 2 or 5 times a power of ten,
    at most ``most`` ticks, from the last multiple of the step at or below ``low`` to
    the first at or above ``high`` (ten either side of a single value)."""
    if high < low:
        low, high = high, low
    if high == low:  # a flat line: show ten points either side
        low, high = low - 10, high + 10
    raw = (high - low) / (most - 1)
    exponent = math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        step = Decimal(factor).scaleb(exponent)
        first = (low / step).to_integral_value(rounding=ROUND_FLOOR) * step
        last = (high / step).to_integral_value(rounding=ROUND_CEILING) * step
        if (last - first) / step + 1 <= most:
            break
    return [first + step * i for i in range(int((last - first) / step) + 1)]


def rating_chart_svg(
    points: Sequence[ChartPoint],
    *,
    title: str,
    x_caption: str = "",
    empty_text: str = "",
) -> str:
    """The SVG chart of ``points`` in order (first = left). ``title`` labels the chart
    (and is its accessible name), ``x_caption`` names the x axis (e.g. "Matches"),
    ``empty_text`` is shown when there are no points."""
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="100%" role="img" aria-label="{_text(title)}" class="rating-chart" '
        f'font-family="sans-serif" font-size="{FONT_SIZE}">',
        f"<title>{_text(title)}</title>",
        f'<text x="{LEFT}" y="{FONT_SIZE + 4}" font-weight="bold">{_text(title)}</text>',
    ]
    if not points:
        out.append(
            f'<text x="{WIDTH // 2}" y="{HEIGHT // 2}" text-anchor="middle">'
            f"{_text(empty_text)}</text>"
        )
        out.append("</svg>")
        return "\n".join(out)

    ratings = [p.rating for p in points]
    ticks = nice_ticks(min(ratings), max(ratings))
    low, high = ticks[0], ticks[-1]

    def y_of(rating: Decimal) -> float:
        return BOTTOM - float((rating - low) / (high - low)) * (BOTTOM - TOP)

    def x_of(index: int) -> float:
        if len(points) == 1:
            return (LEFT + RIGHT) / 2
        return LEFT + index * (RIGHT - LEFT) / (len(points) - 1)

    # Axes, grid lines and y ticks.
    out.append(
        f'<g stroke="#000" fill="none">'
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{BOTTOM}"/>'
        f'<line x1="{LEFT}" y1="{BOTTOM}" x2="{RIGHT}" y2="{BOTTOM}"/></g>'
    )
    out.append('<g class="y-ticks" text-anchor="end">')
    for tick in ticks:
        y = _num(y_of(tick))
        out.append(
            f'<line x1="{LEFT}" y1="{y}" x2="{RIGHT}" y2="{y}" stroke="#000" '
            f'stroke-opacity="0.15"/>'
            f'<line x1="{LEFT - 4}" y1="{y}" x2="{LEFT}" y2="{y}" stroke="#000"/>'
            f'<text x="{LEFT - 6}" y="{y}" dy="0.35em">{tick.normalize():f}</text>'
        )
    out.append("</g>")

    # x ticks: match numbers 1…N, at most MAX_X_TICKS of them, always the first and last.
    count = len(points)
    step = max(1, math.ceil((count - 1) / (MAX_X_TICKS - 1))) if count > 1 else 1
    indexes = sorted({*range(0, count, step), count - 1})
    if len(indexes) > 1 and indexes[-1] - indexes[-2] < step / 2:
        del indexes[-2]  # keep the last label clear of its neighbour
    out.append('<g class="x-ticks" text-anchor="middle">')
    for index in indexes:
        x = _num(x_of(index))
        out.append(
            f'<line x1="{x}" y1="{BOTTOM}" x2="{x}" y2="{BOTTOM + 4}" stroke="#000"/>'
            f'<text x="{x}" y="{BOTTOM + 6 + FONT_SIZE}">{index + 1}</text>'
        )
    out.append("</g>")
    if x_caption:
        out.append(
            f'<text x="{(LEFT + RIGHT) // 2}" y="{HEIGHT - 6}" text-anchor="middle">'
            f"{_text(x_caption)}</text>"
        )

    coords = [(_num(x_of(i)), _num(y_of(p.rating))) for i, p in enumerate(points)]
    out.append(
        '<polyline fill="none" stroke="#000" stroke-width="1.5" stroke-linejoin="round" '
        f'points="{" ".join(f"{x},{y}" for x, y in coords)}"/>'
    )
    out.append('<g class="points" fill="#000">')
    for (x, y), point in zip(coords, points, strict=True):
        out.append(
            f'<circle cx="{x}" cy="{y}" r="3"><title>{_text(point.tooltip)}</title></circle>'
        )
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
