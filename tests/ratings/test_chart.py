"""The rating chart (ratings.chart): well-formed SVG, points placed by rating, text escaped."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from ratings.chart import HEIGHT, WIDTH, ChartPoint, nice_ticks, rating_chart_svg

NS = {"svg": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def points_of(root: ET.Element) -> list[tuple[float, float, str]]:
    return [
        (float(c.attrib["cx"]), float(c.attrib["cy"]), c.findtext("svg:title", namespaces=NS) or "")
        for c in root.iterfind(".//svg:circle", NS)
    ]


def chart(ratings: list[str], name: str = "Åsa") -> ET.Element:
    pts = [ChartPoint(Decimal(r), f"{name}: {r}") for r in ratings]
    return parse(rating_chart_svg(pts, title=f"Rating: {name}", x_caption="Matches"))


def test_phone_and_print_attributes() -> None:
    root = chart(["1500", "1510", "1490.5"])
    assert root.attrib["viewBox"] == f"0 0 {WIDTH} {HEIGHT}"
    assert root.attrib["width"] == "100%"
    svg = rating_chart_svg([ChartPoint(Decimal("1500"), "x")], title="t")
    assert "<script" not in svg and "style=" not in svg
    strokes = set(re.findall(r'stroke="([^"]+)"', svg))
    assert strokes == {"#000"}


def test_points_and_tooltips() -> None:
    root = chart(["1500.00", "1510.00", "1490.50"])
    pts = points_of(root)
    assert [t for _, _, t in pts] == ["Åsa: 1500.00", "Åsa: 1510.00", "Åsa: 1490.50"]
    assert pts[1][1] < pts[0][1] < pts[2][1]  # higher rating, higher on the page
    xs = [x for x, _, _ in pts]
    assert xs == sorted(xs) and len(set(xs)) == 3
    polyline = root.find(".//svg:polyline", NS)
    assert polyline is not None
    line = [tuple(map(float, p.split(","))) for p in polyline.attrib["points"].split()]
    assert line == [(x, y) for x, y, _ in pts]


def test_ticks_are_labelled_and_cover_the_ratings() -> None:
    root = chart(["1483.20", "1522.36", "1530"])
    labels = [t.text for t in root.iterfind(".//svg:g[@class='y-ticks']/svg:text", NS)]
    assert labels == ["1480", "1490", "1500", "1510", "1520", "1530"]
    x_labels = [t.text for t in root.iterfind(".//svg:g[@class='x-ticks']/svg:text", NS)]
    assert x_labels == ["1", "2", "3"]


def test_many_points_few_x_ticks() -> None:
    root = chart([str(1500 + i % 7) for i in range(200)])
    x_labels = [t.text for t in root.iterfind(".//svg:g[@class='x-ticks']/svg:text", NS)]
    assert 2 <= len(x_labels) <= 6 and x_labels[0] == "1" and x_labels[-1] == "200"


def test_names_escaped() -> None:
    name = "<b>Ö&\"'\x07</b>"
    svg = rating_chart_svg(
        [ChartPoint(Decimal("1500"), name)], title=name, x_caption=name, empty_text=name
    )
    root = parse(svg)  # well-formed despite <&"' and a control character
    assert root.findtext("svg:title", namespaces=NS) == "<b>Ö&\"'\ufffd</b>"
    assert points_of(root)[0][2] == "<b>Ö&\"'\ufffd</b>"
    assert root.attrib["aria-label"] == "<b>Ö&\"'\ufffd</b>"
    assert "<b>" not in svg


def test_empty_and_single() -> None:
    empty = parse(rating_chart_svg([], title="t", empty_text="No rated matches yet"))
    assert points_of(empty) == []
    assert "No rated matches yet" in [t.text for t in empty.iterfind("svg:text", NS)]
    single = points_of(chart(["1500"]))
    assert len(single) == 1 and 0 < single[0][1] < HEIGHT


def test_nice_ticks() -> None:
    flat = nice_ticks(Decimal("1500"), Decimal("1500"))
    assert flat == [Decimal(t) for t in ("1490", "1495", "1500", "1505", "1510")]
    ticks = nice_ticks(Decimal("1234.56"), Decimal("1987.65"))
    assert ticks[0] <= Decimal("1234.56") and ticks[-1] >= Decimal("1987.65") and len(ticks) <= 6
    steps = {b - a for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1


@given(st.lists(st.decimals(min_value=-100, max_value=3500, places=2), min_size=1, max_size=60))
def test_coordinates_follow_the_ratings(ratings: list[Decimal]) -> None:
    root = parse(rating_chart_svg([ChartPoint(r, str(r)) for r in ratings], title="t"))
    pts = points_of(root)
    assert len(pts) == len(ratings)
    xs = [x for x, _, _ in pts]
    assert xs == sorted(set(xs))  # left to right, one match per x
    for (_, y1, _), r1 in zip(pts, ratings, strict=True):
        assert 0 <= y1 <= HEIGHT
        for (_, y2, _), r2 in zip(pts, ratings, strict=True):
            if r1 < r2:
                assert y1 >= y2  # coordinates are rounded to 0.01: never the wrong way
            if r1 == r2:
                assert y1 == y2
    lowest, highest = ratings.index(min(ratings)), ratings.index(max(ratings))
    if min(ratings) != max(ratings):
        assert pts[lowest][1] > pts[highest][1]
