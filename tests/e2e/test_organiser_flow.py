"""An organiser creates a tournament, imports the players from a CSV file, names a
referee and draws the bracket; the public page then shows all the players in round 1.
A CSV file with a bad row says which row is wrong and imports nobody.

Elements are found by id, name, class and data attributes, never by English text: the
site is Swedish by default and its wording is being translated.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login, shoot
from tests.factories import OrganiserFactory, TournamentFactory, UserFactory
from tournaments.models import Entry, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)

# Semicolons, as a Swedish spreadsheet writes them; three players seeded.
PLAYERS = [
    ("Anna Berg", "Lunds BK", "1620", "1"),
    ("Erik Holm", "", "1480", ""),
    ("Sara Lind", "Bräde Malmö", "", "2"),
    ("Åsa Ek", "Lunds BK", "1555", ""),
    ("Nils Ström", "", "", "3"),
    ("Karin Öst", "Bräde Malmö", "1500", ""),
    ("Olle Dahl", "", "1410", ""),
    ("Maja Sund", "Lunds BK", "", ""),
]
NAMES = [row[0] for row in PLAYERS]


def _csv(rows: list[tuple[str, str, str, str]]) -> bytes:
    lines = ["name;club;rating;seed", *(";".join(row) for row in rows)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _file(data: bytes) -> dict[str, Any]:
    return {"name": "players.csv", "mimeType": "text/csv", "buffer": data}


def _create_tournament(page: Any, base: str, name: str) -> Tournament:
    page.goto(f"{base}/tournaments/new/")
    page.fill("#id_name", name)
    page.fill("#id_start_date", "2027-03-06")
    page.fill("#id_end_date", "2027-03-07")
    page.fill("#id_venue", "Lund")
    page.select_option("#id_rules", "talisman")
    page.select_option("#id_scale", "ny1")
    page.check("input[name=resignation_policy][value=capped]")
    expect(page.locator("#id_is_public")).to_be_checked()
    shoot(page, "organiser-create")
    page.locator("main form.form button[type=submit].primary").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/manage/"))
    tournament = Tournament.objects.get(name=name)
    assert page.url.endswith(f"/tournaments/{tournament.pk}/manage/")
    return tournament


def test_organiser_creates_imports_and_draws(live_server: Any, new_page: Any) -> None:
    organiser = OrganiserFactory.create(username="arrangor")
    UserFactory.create(username="domare")
    page = new_page()
    login(page, live_server.url, "arrangor")

    tournament = _create_tournament(page, live_server.url, "Vårcupen i Lund")
    assert list(tournament.organisers.all()) == [organiser]
    assert tournament.rules == "talisman" and tournament.scale == "ny1"
    assert tournament.status == TournamentStatus.DRAFT
    expect(page.locator("main h1")).to_contain_text("Vårcupen i Lund")
    expect(page.locator(".messages li.success")).to_have_count(1)

    # Import the players from a CSV file.
    page.locator("form#import input[type=file][name=file]").set_input_files(_file(_csv(PLAYERS)))
    page.locator("form#import button[type=submit]").click()
    rows = page.locator("#entries table.list tbody tr")
    expect(rows).to_have_count(len(PLAYERS))
    expect(page.locator(".messages li.success")).to_have_count(1)
    listed = rows.locator("td:nth-child(2) a").all_inner_texts()
    assert sorted(listed) == sorted(NAMES)
    # Seeded players come first, in seed order, with their seed in the seed field.
    assert listed[:3] == ["Anna Berg", "Sara Lind", "Nils Ström"]
    for i in range(3):
        expect(rows.nth(i).locator("input.seed")).to_have_value(str(i + 1))
    expect(rows.nth(3).locator("input.seed")).to_have_value("")
    entries = Entry.objects.filter(tournament=tournament).select_related("player")
    assert {e.player.name: e.seed for e in entries} == {
        name: int(seed) if seed else None for name, _club, _rating, seed in PLAYERS
    }

    # Name a referee.
    page.fill("#id_usernames", "domare")
    page.locator("#referees form button[type=submit]").click()
    expect(page.locator("#referees p strong")).to_have_text(["domare"])
    assert [u.get_username() for u in tournament.referees.all()] == ["domare"]
    shoot(page, "organiser-manage")

    # Draw: 8 players make 3 rounds, and the lengths are filled in already.
    lengths = page.locator("#id_lengths")
    assert len(re.findall(r"\d+", lengths.input_value())) == 3
    lengths.fill("3, 5, 7")
    page.fill("#id_draw_seed", "2027")
    page.locator("#draw form button[type=submit]").click()
    expect(page.locator("#drawn")).to_be_visible()
    # The draw asked first, naming how many players it draws (the page said yes).
    assert page.asked and page.asked[-1].startswith("Lotta nu, med"), page.asked
    expect(page.locator("#drawn")).to_contain_text("2027")
    expect(page.locator("form#import")).to_have_count(0)
    expect(page.locator("#walkovers")).to_be_visible()
    tournament.refresh_from_db()
    assert tournament.status != TournamentStatus.DRAFT and tournament.draw_seed == 2027
    shoot(page, "organiser-manage-drawn")

    # The public page: the bracket, with every player in round 1.
    page.locator("#drawn a.button.primary").click()
    page.wait_for_url(re.compile(rf"/tournaments/{tournament.pk}/(#.*)?$"))
    rounds = page.locator(".bracket section.round")
    expect(rounds).to_have_count(3)
    first = rounds.nth(0)
    expect(first.locator("li.match")).to_have_count(4)
    names = first.locator(".match .name").all_inner_texts()
    assert sorted(names) == sorted(NAMES)
    shoot(page, "bracket")


def test_csv_with_a_bad_row_imports_nothing(live_server: Any, new_page: Any) -> None:
    organiser = OrganiserFactory.create(username="arrangor")
    tournament = TournamentFactory.create(name="Höstcupen", organisers=[organiser])
    page = new_page()
    login(page, live_server.url, "arrangor")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/manage/")
    expect(page.locator("#entries table")).to_have_count(0)

    bad = list(PLAYERS[:5])
    bad[2] = ("Sara Lind", "Bräde Malmö", "abc", "")  # row 4 of the file (header is row 1)
    page.locator("form#import input[type=file][name=file]").set_input_files(_file(_csv(bad)))
    page.locator("form#import button[type=submit]").click()

    error = page.locator("form#import #id_file_error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("abc")
    expect(error).to_contain_text(re.compile(r"\b4\b"))
    expect(page.locator(".errors.problem[role=alert] a[href='#import']")).to_be_visible()
    expect(page.locator("#id_file")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#entries table")).to_have_count(0)
    assert not Entry.objects.filter(tournament=tournament).exists()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.DRAFT
    shoot(page, "organiser-import-error")
