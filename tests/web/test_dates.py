"""Dates on pages sit in ``<time>`` elements (the ``time_tag`` filter), which site.css keeps
on one line: a phone never shows "2026-" on one line and "12-01" on the next."""

from __future__ import annotations

import datetime

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory


def _render(text: str, **context: object) -> str:
    return Template("{% load dates %}" + text).render(Context(context))


def test_a_date_is_a_time_element() -> None:
    day = datetime.date(2026, 12, 1)
    assert _render("{{ d|time_tag }}", d=day) == '<time datetime="2026-12-01">2026-12-01</time>'


def test_a_moment_is_shown_in_local_time_and_named_exactly() -> None:
    moment = datetime.datetime(2026, 12, 1, 9, 30, 15, 123456, tzinfo=datetime.UTC)
    assert _render('{{ m|time_tag:"Y-m-d H:i" }}', m=moment) == (
        '<time datetime="2026-12-01T10:30:15+01:00">2026-12-01 10:30</time>'
    )


def test_nothing_for_no_date() -> None:
    assert _render("[{{ d|time_tag }}]", d=None) == "[]"


@pytest.mark.django_db
def test_the_tournament_list_keeps_its_dates_whole(client: Client) -> None:
    TournamentFactory.create(
        start_date=datetime.date(2026, 12, 1), end_date=datetime.date(2026, 12, 2)
    )
    page = client.get(reverse("web:tournament_list")).content.decode()
    assert '<time datetime="2026-12-01">2026-12-01</time> – ' in page
    assert '<time datetime="2026-12-02">2026-12-02</time>' in page
