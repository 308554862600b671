"""The wall sheet: a round's pairings on A4, read back with pypdf: by table (bye and
walkover without a table), then every player alphabetically in the order of the sheet's
language (Swedish; Danish on a Danish sheet) with their table and opponent; the staff see
an unpublished round's, everyone a published one's."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from clubs.wall_sheets import alphabetical_key
from matches.models import Match, MatchState
from matches.swiss_progression import swiss_round_pair, swiss_round_publish
from matches.tables import match_table_set
from matches.walkovers import match_walkover
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, TournamentFactory
from tests.tournaments.test_swiss import swiss
from tournaments.stage_draws import tournament_draw

pytestmark = pytest.mark.django_db

NAMES = ["Örjan Ek", "Anna Berg", "Åsa Lind", "Zäta Holm", "Ärla Nord", "Bo Ström"]


def pages(content: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(content)).pages]


def wall(client: Client, tournament: Any, number: int, status: int = 200) -> list[str]:
    url = reverse("clubs:round_wall_sheet", args=[tournament.pk, number])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="sv")
    assert response.status_code == status
    if status != 200:
        return []
    assert response["Content-Type"] == "application/pdf"
    return pages(bytes(response.content))


def row_of(name: str, matches: list[Match], bye: str = "frirond") -> str:
    """The start of ``name``'s row in the alphabetical list: name, table, opponent."""
    m = next(
        m for m in matches if name in (getattr(m.player1, "name", ""), m.player2 and m.player2.name)
    )
    if m.player2 is None:
        return f"{name} {bye}"
    opponent = m.player2.name if m.player1 and m.player1.name == name else m.player1.name  # type: ignore[union-attr]
    return f"{name} {m.board} {opponent}"


@pytest.fixture
def cup() -> dict[str, Any]:
    """Six players in an eight-line knockout: two byes in round 1, two matches."""
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(name="Vinterbrädet", organisers=[organiser])
    players = [PlayerFactory.create(name=n) for n in NAMES]
    for seed, p in enumerate(players, start=1):
        EntryFactory.create(tournament=tournament, player=p, seed=seed)
    tournament_draw(tournament=tournament, by=organiser, lengths=[3, 3, 3])
    return {"t": tournament, "organiser": organiser}


def test_swedish_alphabetical_order() -> None:
    assert sorted(NAMES, key=alphabetical_key) == [
        "Anna Berg",
        "Bo Ström",
        "Zäta Holm",
        "Åsa Lind",
        "Ärla Nord",
        "Örjan Ek",
    ]
    assert alphabetical_key("émile") < alphabetical_key("erik") < alphabetical_key("zorro")


def test_danish_alphabetical_order() -> None:
    """Danish puts æ, ø, å after z, and reads a double a as å (Aagaard under Å)."""
    names = ["Åse Holm", "Øster Bo", "Aagaard Jens", "Zeta Lund", "Ærø Kim", "Anders Ek"]
    assert sorted(names, key=lambda n: alphabetical_key(n, "da")) == [
        "Anders Ek",
        "Zeta Lund",
        "Ærø Kim",
        "Øster Bo",
        "Aagaard Jens",
        "Åse Holm",
    ]
    # Swedish reads Aa as A, and å before ä (æ) and ö (ø).
    assert sorted(names, key=alphabetical_key)[:2] == ["Aagaard Jens", "Anders Ek"]


def test_a_danish_sheet_is_in_danish_and_in_danish_order(
    client: Client, cup: dict[str, Any]
) -> None:
    client.cookies["django_language"] = "da"
    by_table, alphabetical = wall(client, cup["t"], 1)
    assert "Parringer efter bord" in by_table and by_table.count("fri runde") == 2
    assert "Spillerne i alfabetisk rækkefølge" in alphabetical
    first = list(
        Match.objects.filter(tournament=cup["t"], round__number=1).select_related(
            "player1", "player2"
        )
    )
    rows = {n: alphabetical.index(row_of(n, first, bye="fri runde")) for n in NAMES}
    danish = sorted(NAMES, key=lambda n: alphabetical_key(n, "da"))
    assert danish[-3:] == ["Ärla Nord", "Örjan Ek", "Åsa Lind"]  # ä as æ, ö as ø, å last
    assert sorted(rows, key=lambda n: rows[n]) == danish


def test_by_table_then_alphabetically_with_tables(client: Client, cup: dict[str, Any]) -> None:
    t = cup["t"]
    first = list(Match.objects.filter(tournament=t, round__number=1).order_by("slot"))
    played = [m for m in first if m.state == MatchState.READY]
    # The organiser moves the second match to table 1 and the first to table 5.
    match_table_set(match=played[0], table=5, by=cup["organiser"])
    match_table_set(match=played[1], table=1, by=cup["organiser"])
    by_table, alphabetical = wall(client, t, 1)
    first = list(
        Match.objects.filter(tournament=t, round__number=1).select_related("player1", "player2")
    )
    assert "Vinterbrädet" in by_table and "Lottning efter bord" in by_table
    a, b = played[1], played[0]  # table 1 before table 5
    assert a.player1 is not None and a.player2 is not None
    assert b.player1 is not None and b.player2 is not None
    assert f"1 {a.player1.name} {a.player2.name}" in by_table
    assert f"5 {b.player1.name} {b.player2.name}" in by_table
    assert by_table.index(a.player1.name) < by_table.index(b.player1.name)
    assert by_table.count("frirond") == 2  # the byes, with no table
    assert "Spelarna i bokstavsordning" in alphabetical
    # Each player's own row (the name, then a table or none, then the opponent), in order.
    rows = {n: alphabetical.index(row_of(n, first)) for n in NAMES}
    assert sorted(rows, key=lambda n: rows[n]) == sorted(NAMES, key=alphabetical_key)
    assert f"{a.player1.name} 1 {a.player2.name}" in alphabetical
    assert f"{b.player2.name} 5 {b.player1.name}" in alphabetical


def test_a_walkover_shows_no_table(client: Client, cup: dict[str, Any]) -> None:
    t = cup["t"]
    ready = list(Match.objects.filter(tournament=t, round__number=1, state=MatchState.READY))
    m = ready[0]
    assert m.player1 is not None and m.player2 is not None
    match_walkover(match=m, winner=m.player1, by=cup["organiser"])
    by_table, alphabetical = wall(client, t, 1)
    assert f"{m.player1.name} {m.player2.name} (walkover)" in by_table
    assert f"{m.player1.name} {m.player2.name} (walkover)" in alphabetical


def test_unpublished_for_the_staff_only_then_everyone(client: Client) -> None:
    t, organiser, _players = swiss(5)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    wall(client, t, rnd.number, status=404)  # anonymous: no such round yet
    client.force_login(organiser)
    by_table, _alpha = wall(client, t, rnd.number)
    assert "Ännu inte publicerad" in by_table
    swiss_round_publish(round=rnd, by=organiser)
    client.logout()
    by_table, alphabetical = wall(client, t, rnd.number)
    assert "Ännu inte publicerad" not in by_table
    assert "frirond" in by_table and "frirond" in alphabetical


def test_linked_from_the_round_page_and_the_manage_page(client: Client) -> None:
    t, organiser, _players = swiss(4)
    rnd = swiss_round_pair(tournament=t, by=organiser)
    url = reverse("clubs:round_wall_sheet", args=[t.pk, rnd.number])
    client.force_login(organiser)
    manage = client.get(reverse("web:tournament_manage", args=[t.pk])).content.decode()
    assert url in manage
    page = client.get(reverse("web:tournament_round", args=[t.pk, rnd.number]))
    assert url in page.content.decode()
    client.logout()
    public = client.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert url not in public  # not published yet
    swiss_round_publish(round=rnd, by=organiser)
    public = client.get(reverse("web:tournament_detail", args=[t.pk])).content.decode()
    assert url in public


def test_a_long_name_is_kept_whole_in_its_box(client: Client) -> None:
    long = (
        "Karl-Åke Gustaf Adolf Fredrik Wilhelm Öhrström-Lindqvist af Ängelholm och Östra Sallerup"
    )
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(name="Långa namn", organisers=[organiser])
    for seed, name in enumerate([long, "Bo Ek"], start=1):
        EntryFactory.create(
            tournament=tournament, player=PlayerFactory.create(name=name), seed=seed
        )
    tournament_draw(tournament=tournament, by=organiser, lengths=[3])
    by_table, alphabetical = wall(client, tournament, 1)
    assert long in by_table and long in alphabetical


def test_a_half_point_bye_is_on_the_wall_too(client: Client) -> None:
    """A player sitting the round out for ½ finds their name on the wall: after the
    matches by table, and in the alphabetical list, with "½ frirond" for an opponent."""
    from matches.swiss_byes import half_point_bye_ask, half_point_bye_rules_set
    from tournaments.models import Entry

    t, organiser, players = swiss(6, swiss_rounds=3)
    half_point_bye_rules_set(tournament=t, allowed=1, until=2, by=organiser)
    resting = players[2]
    half_point_bye_ask(
        entry=Entry.objects.get(tournament=t, player=resting), round_number=1, by=organiser
    )
    rnd = swiss_round_pair(tournament=t, by=organiser)
    swiss_round_publish(round=rnd, by=organiser)
    by_table, alphabetical = wall(client, t, rnd.number)
    for p in players:
        assert p.name in by_table and p.name in alphabetical, p.name
    assert f"{resting.name} ½ frirond" in by_table
    assert f"{resting.name} ½ frirond" in alphabetical
