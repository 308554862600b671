"""Table numbers: given in pairing order when a round's matches are created (knockout,
round robin, Swiss, consolation and double elimination), none for a bye or a walkover;
changed by an organiser only, a table taken in the round refused; shown on the pages and
in the API."""

from __future__ import annotations

from collections import defaultdict

import pytest
from django.test import Client
from django.urls import reverse

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from matches.models import EventKind, Match, MatchEvent, MatchState
from matches.services import match_walkover
from matches.swiss_progression import swiss_pairing_swap, swiss_round_pair, swiss_round_publish
from matches.tables import match_table_set
from tests.tournaments.helpers import drawn as knockout
from tests.tournaments.test_elimination_formats import drawn as elimination
from tests.tournaments.test_round_robin import group
from tests.tournaments.test_swiss import swiss

pytestmark = pytest.mark.django_db


def tables_by_round(matches: list[Match]) -> dict[int, list[int | None]]:
    out: dict[int, list[int | None]] = defaultdict(list)
    for m in sorted(matches, key=lambda m: (m.round_id, m.is_third_place, m.slot)):
        out[m.round_id].append(m.board)
    return out


def test_knockout_tables_in_bracket_order_byes_none_third_place_after_the_final() -> None:
    s = knockout(6, third_place=True)  # eight lines: two byes
    matches = list(Match.objects.filter(tournament=s.tournament))
    first = sorted((m for m in matches if m.round.number == 1), key=lambda m: m.slot)
    assert [m.state == MatchState.BYE for m in first].count(True) == 2
    assert all(m.board is None and m.table is None for m in first if m.state == MatchState.BYE)
    played = [m.table for m in first if m.state != MatchState.BYE]
    assert played == [1, 2]
    second = sorted((m for m in matches if m.round.number == 2), key=lambda m: m.slot)
    assert [m.table for m in second] == [1, 2]  # given at the draw, before the players
    final = [m for m in matches if m.round.number == 3]
    assert sorted((m.is_third_place, m.table) for m in final) == [(False, 1), (True, 2)]


def test_round_robin_each_round_numbers_from_one_and_the_bye_has_none() -> None:
    t, _referee, _players = group(5)
    for tables in tables_by_round(list(Match.objects.filter(tournament=t))).values():
        assert tables == [1, 2, None]  # five players: two matches and the bye, last


@pytest.mark.parametrize("fmt", ["double_elimination", "consolation"])
def test_elimination_rounds_have_tables_one_to_n_without_the_byes(fmt: str) -> None:
    t, _referee, _players = elimination(6, fmt)
    for tables in tables_by_round(list(Match.objects.filter(tournament=t))).values():
        given = [n for n in tables if n is not None]
        assert given == list(range(1, len(given) + 1))
    assert all(m.table is None for m in Match.objects.filter(tournament=t, state=MatchState.BYE))


def test_swiss_pairing_numbers_in_pairing_order_and_a_swap_keeps_the_tables() -> None:
    t, organiser, _players = swiss(5)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    matches = list(Match.objects.filter(round=rnd).order_by("slot"))
    assert [m.board for m in matches] == [1, 2, None]  # the bye last, no table
    top = matches[0]
    assert top.player1 is not None and matches[1].player1 is not None
    moved = matches[1].player1
    swiss_pairing_swap(round=rnd, first=top.player1, second=moved, by=organiser, confirm=True)
    top.refresh_from_db()
    assert top.table == 1 and moved.pk in (top.player1_id, top.player2_id)
    swiss_round_publish(round=rnd, by=organiser)
    assert [m.board for m in Match.objects.filter(round=rnd).order_by("slot")] == [1, 2, None]


def test_the_organiser_changes_a_table_and_a_taken_one_is_refused() -> None:
    s = knockout(8)
    first = list(Match.objects.filter(tournament=s.tournament, round__number=1).order_by("slot"))
    with pytest.raises(ConflictError) as taken:
        match_table_set(match=first[0], table=2, by=s.organiser)
    assert taken.value.code == "table_taken"
    first[0].refresh_from_db()
    assert first[0].table == 1
    match_table_set(match=first[0], table=7, by=s.organiser)
    match_table_set(match=first[1], table=1, by=s.organiser)  # 1 is free now
    first[0].refresh_from_db()
    first[1].refresh_from_db()
    assert (first[0].table, first[1].table) == (7, 1)
    event = MatchEvent.objects.get(match=first[0], kind=EventKind.TABLE_SET, data__after=7)
    assert event.data["before"] == 1
    match_table_set(match=first[2], table=None, by=s.organiser)  # cleared
    first[2].refresh_from_db()
    assert first[2].table is None
    # The same number in another round is no conflict.
    second = Match.objects.filter(tournament=s.tournament, round__number=2).first()
    assert second is not None
    match_table_set(match=second, table=7, by=s.organiser)


def test_a_walkover_frees_its_table_and_a_bye_cannot_get_one() -> None:
    s = knockout(6)
    first = list(Match.objects.filter(tournament=s.tournament, round__number=1).order_by("slot"))
    playing = [m for m in first if m.state == MatchState.READY]
    bye = next(m for m in first if m.state == MatchState.BYE)
    with pytest.raises(ValidationError):
        match_table_set(match=bye, table=5, by=s.organiser)
    assert playing[0].player1 is not None
    match_walkover(match=playing[0], winner=playing[0].player1, by=s.referee)
    playing[0].refresh_from_db()
    assert playing[0].board is None
    match_table_set(match=playing[1], table=playing[0].table, by=s.organiser)


def test_only_an_organiser_sets_a_table_and_the_number_is_bounded() -> None:
    s = knockout(4)
    match = Match.objects.filter(tournament=s.tournament, round__number=1).first()
    assert match is not None
    with pytest.raises(PermissionDeniedError):
        match_table_set(match=match, table=3, by=s.referee)
    with pytest.raises(ValidationError):
        match_table_set(match=match, table=0, by=s.organiser)


def test_api_shows_and_sets_the_table(client: Client) -> None:
    s = knockout(4)
    first = list(Match.objects.filter(tournament=s.tournament, round__number=1).order_by("slot"))
    client.force_login(s.organiser)
    got = client.get(f"/api/matches/{first[1].pk}/")
    assert got.status_code == 200
    assert got.json()["match"]["table"] == 2
    url = f"/api/matches/{first[1].pk}/table/"
    refused = client.post(url, {"table": 1}, content_type="application/json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "table_taken"
    ok = client.post(url, {"table": 4}, content_type="application/json")
    assert ok.status_code == 200 and ok.json()["table"] == 4
    client.force_login(s.referee)
    assert client.post(url, {"table": 5}, content_type="application/json").status_code == 403


def test_pages_show_the_table_and_the_manage_page_edits_it(client: Client) -> None:
    s = knockout(4)
    first = list(Match.objects.filter(tournament=s.tournament, round__number=1).order_by("slot"))
    page = client.get(reverse("web:match_detail", args=[first[1].pk]), HTTP_ACCEPT_LANGUAGE="sv")
    assert "Bord 2" in page.content.decode()
    bracket = client.get(reverse("web:tournament_detail", args=[s.tournament.pk]))
    assert "Bord 1" in bracket.content.decode()
    client.force_login(s.referee)
    enter = client.get(reverse("web:match_enter", args=[first[1].pk]), HTTP_ACCEPT_LANGUAGE="sv")
    assert "Bord 2" in enter.content.decode()
    client.force_login(s.organiser)
    manage = client.get(reverse("web:tournament_manage", args=[s.tournament.pk]))
    assert reverse("web:match_table", args=[first[0].pk]) in manage.content.decode()
    url = reverse("web:match_table", args=[first[0].pk])
    response = client.post(url, {"table": "2"}, follow=True)
    html = response.content.decode()
    assert "Bord 2 är upptaget" in html
    # The refusal is shown in the Tables list, where the page opens (#tables), not at
    # the page's top, out of sight.
    assert html.index("Bord 2 är upptaget") > html.index('id="tables"')
    assert html.count("Bord 2 är upptaget") == 1
    first[0].refresh_from_db()
    assert first[0].table == 1
    client.post(url, {"table": "9"})
    first[0].refresh_from_db()
    assert first[0].table == 9


def test_matches_drawn_before_tables_get_what_a_draw_gives() -> None:
    from importlib import import_module

    from django.apps import apps

    migration = import_module("matches.migrations.0009_match_table")
    t, _referee, _players = group(5)
    s = knockout(6, third_place=True)
    given = {m.pk: m.table for m in Match.objects.all()}
    Match.objects.update(table=None)
    migration.number_existing(apps, None)
    assert {m.pk: m.table for m in Match.objects.all()} == given
    assert Match.objects.filter(tournament__in=[t, s.tournament], table__isnull=False).exists()


def test_the_score_sheet_prints_the_table(client: Client) -> None:
    import io

    from pypdf import PdfReader

    s = knockout(4)
    first = list(Match.objects.filter(tournament=s.tournament, round__number=1).order_by("slot"))
    match_table_set(match=first[0], table=12, by=s.organiser)
    client.force_login(s.referee)
    url = reverse("clubs:round_score_sheets", args=[s.tournament.pk, 1])
    content = client.get(url, HTTP_ACCEPT_LANGUAGE="sv").content
    texts = [p.extract_text() for p in PdfReader(io.BytesIO(content)).pages]
    # In table order: table 2 first, then table 12.
    assert "Bord 2" in texts[0] and "Bord 12" in texts[1]
