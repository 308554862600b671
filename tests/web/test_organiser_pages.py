"""Organiser pages: create a tournament, enter players (one by one and from CSV), seeds,
referees, the draw, withdrawals and walkovers, and who may use them."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from matches.models import Match, MatchState
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.tournaments.helpers import drawn, match_of, players_of
from tournaments.csv_import import CsvImportError, parse_entries_csv
from tournaments.models import Club, Entry, Player, Tournament, TournamentStatus
from web.forms.organiser import csv_error_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client: Client) -> None:
    """These tests read the English texts; the site is Swedish unless the visitor chooses."""
    client.cookies["django_language"] = "en"


@pytest.fixture
def organiser() -> Any:
    return OrganiserFactory.create(username="ordf")


@pytest.fixture
def tournament(organiser: Any) -> Tournament:
    return TournamentFactory.create(name="Höstcupen", organisers=[organiser])


@pytest.fixture
def org_client(client: Client, organiser: Any) -> Client:
    client.force_login(organiser)
    return client


def _url(name: str, tournament: Tournament) -> str:
    if name == "tournament_entry_withdraw":  # of an entry that need not exist
        return reverse(f"web:{name}", args=[tournament.pk, 1])
    return reverse(f"web:{name}", args=[tournament.pk])


def _enter(tournament: Tournament, n: int) -> list[Entry]:
    return [
        EntryFactory.create(tournament=tournament, player=PlayerFactory.create(name=f"P{i + 1}"))
        for i in range(n)
    ]


def _csv(text: str, *, bom: bool = False, name: str = "players.csv") -> SimpleUploadedFile:
    data = text.encode("utf-8")
    return SimpleUploadedFile(name, (b"\xef\xbb\xbf" if bom else b"") + data, "text/csv")


# --- create ---------------------------------------------------------------------------------


def test_create_tournament_via_the_page(org_client: Client, organiser: Any) -> None:
    page = org_client.get(reverse("web:tournament_create"))
    assert page.status_code == 200
    assert 'for="id_name"' in page.content.decode()
    response = org_client.post(
        reverse("web:tournament_create"),
        {
            "name": "Vårcupen",
            "start_date": "2027-03-06",
            "end_date": "2027-03-07",
            "venue": "Lund",
            "rules": "board",
            "addons": ["one-die", "double-six"],
            "scale": "ny1",
            "resignation_policy": "forbidden",
            "is_public": "",
            "third_place_match": "on",
        },
    )
    tournament = Tournament.objects.get(name="Vårcupen")
    assert response.status_code == 302
    assert response["Location"] == _url("tournament_manage", tournament)
    assert tournament.start_date == datetime.date(2027, 3, 6)
    assert tournament.rules == "board" and tournament.addons == ["one-die", "double-six"]
    assert tournament.scale == "ny1" and tournament.resignation_policy == "forbidden"
    assert not tournament.is_public and tournament.third_place_match
    assert list(tournament.organisers.all()) == [organiser]
    assert "is created" in org_client.get(response["Location"]).content.decode()


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"addons": ["one-die"]},
            "addons",
            "Add-on &#x27;one-die&#x27; exists only with the board rule set, not with talisman.",
        ),
        ({"end_date": "2027-03-05"}, "end_date", "The tournament cannot end before it starts."),
        (
            {"format": "round_robin", "groups": "17"},
            "groups",
            "A round robin is played in 1 to 16 groups, not 17.",
        ),
        (
            {"format": "round_robin", "groups": "0"},
            "groups",
            "A round robin is played in 1 to 16 groups, not 0.",
        ),
        ({"groups": "2"}, "groups", "Only a round robin is played in groups."),
        (
            {"format": "round_robin", "groups": "2", "group_advance": "5"},
            "group_advance",
            "At most 4 players of each group can go on to the knockout.",
        ),
        (
            {"format": "swiss", "group_advance": "33"},
            "group_advance",
            "From 2 to 32 players of the standings can go on to a knockout.",
        ),
        (
            {"format": "swiss", "swiss_rounds": "0"},
            "swiss_rounds",
            "Paired rounds are at least 1 round, not 0.",
        ),
        (
            {"format": "swiss", "swiss_rounds": "100"},
            "swiss_rounds",
            "Paired rounds are at most 99 rounds, not 100.",
        ),
    ],
)
def test_create_shows_the_services_refusal_at_its_field(
    org_client: Client, changes: dict[str, Any], field: str, message: str
) -> None:
    """The form repeats none of the service's checks: the service's error, in its own
    words, shows at the field its code names."""
    org_client.cookies["django_language"] = "en"
    response = org_client.post(
        reverse("web:tournament_create"),
        {
            "name": "Fel",
            "start_date": "2027-03-06",
            "end_date": "2027-03-06",
            "rules": "talisman",
            "scale": "ww",
            "resignation_policy": "capped",
            **changes,
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert message in page
    assert f'id="id_{field}_error"' in page
    assert 'aria-invalid="true"' in page
    assert not Tournament.objects.filter(name="Fel").exists()


def test_create_needs_organiser_rights(client: Client) -> None:
    client.force_login(UserFactory.create())
    assert client.get(reverse("web:tournament_create")).status_code == 403


# --- entries ----------------------------------------------------------------------------------


def test_add_player_with_a_new_club_and_an_existing_one(
    org_client: Client, tournament: Tournament
) -> None:
    url = _url("tournament_player_add", tournament)
    response = org_client.post(url, {"name": "Anna Berg", "new_club": "Lunds BK", "rating": 1620})
    assert response.status_code == 302
    entry = Entry.objects.get(tournament=tournament, player__name="Anna Berg")
    assert entry.player.club is not None and entry.player.club.name == "Lunds BK"
    assert entry.player.rating == 1620

    club = ClubFactory.create(name="Bräde Malmö")
    org_client.post(url, {"name": "Erik Holm", "club": club.pk, "seed": 1})
    entry = Entry.objects.get(tournament=tournament, player__name="Erik Holm")
    assert entry.player.club == club and entry.seed == 1

    page = org_client.get(_url("tournament_manage", tournament)).content.decode()
    assert "Anna Berg" in page and "Erik Holm" in page and "Lunds BK" in page


def test_add_player_errors_stay_on_the_page(org_client: Client, tournament: Tournament) -> None:
    club = ClubFactory.create()
    url = _url("tournament_player_add", tournament)
    response = org_client.post(url, {"name": "X", "club": club.pk, "new_club": "Other"})
    assert response.status_code == 200
    assert "not both" in response.content.decode()
    # A service error (the seed is taken) is a form error, and no player is left behind.
    EntryFactory.create(tournament=tournament, seed=1)
    response = org_client.post(url, {"name": "Nils", "seed": 1})
    assert response.status_code == 200
    assert "Seed 1 is taken" in response.content.decode()
    assert not Player.objects.filter(name="Nils").exists()


def test_add_known_player_enters_them_again(org_client: Client, tournament: Tournament) -> None:
    club = ClubFactory.create(name="Lunds BK")
    known = PlayerFactory.create(name="Anna Berg", club=club)
    org_client.post(
        _url("tournament_player_add", tournament), {"name": "anna berg", "new_club": "lunds bk"}
    )
    assert Entry.objects.get(tournament=tournament).player == known
    assert Player.objects.count() == 1 and Club.objects.count() == 1


def test_csv_import_with_commas_and_bom(org_client: Client, tournament: Tournament) -> None:
    ClubFactory.create(name="Lunds BK")
    text = "name,club,rating,seed\r\nAnna Berg,Lunds BK,1620,1\r\nErik Holm,,1480,\r\n\r\n"
    text += '"Berg, Sara",Nya klubben,,2\r\n'
    response = org_client.post(
        _url("tournament_players_import", tournament), {"file": _csv(text, bom=True)}
    )
    assert response.status_code == 302
    entries = {e.player.name: e for e in Entry.objects.filter(tournament=tournament)}
    assert set(entries) == {"Anna Berg", "Erik Holm", "Berg, Sara"}
    assert entries["Anna Berg"].seed == 1 and entries["Anna Berg"].player.rating == 1620
    assert entries["Erik Holm"].seed is None and entries["Erik Holm"].player.club is None
    assert entries["Berg, Sara"].seed == 2
    assert Club.objects.filter(name="Nya klubben").exists()
    assert Club.objects.filter(name="Lunds BK").count() == 1
    page = org_client.get(response["Location"]).content.decode()
    assert "3 players are entered" in page


def test_csv_import_with_semicolons(org_client: Client, tournament: Tournament) -> None:
    text = "Name;Club;Rating\nÅsa Öberg;Bräde Malmö;1 500\nLars Ek;Bräde Malmö;\n"
    response = org_client.post(_url("tournament_players_import", tournament), {"file": _csv(text)})
    assert response.status_code == 302
    players = Player.objects.filter(entries__tournament=tournament).order_by("name")
    assert [(p.name, p.rating) for p in players] == [("Lars Ek", None), ("Åsa Öberg", 1500)]
    assert {p.club.name for p in players if p.club} == {"Bräde Malmö"}


def test_csv_with_a_bad_row_imports_nothing(org_client: Client, tournament: Tournament) -> None:
    text = "name;club;rating;seed\nAnna;Lunds BK;1620;1\nErik;;1480;\nSara;Malmö;abc;\n"
    response = org_client.post(_url("tournament_players_import", tournament), {"file": _csv(text)})
    assert response.status_code == 200
    page = response.content.decode()
    assert "row 4: rating “abc” is not a number." in page
    assert 'id="id_file_error"' in page and "Nothing was imported" in page
    assert not Entry.objects.filter(tournament=tournament).exists()
    assert not Player.objects.exists() and not Club.objects.exists()


def test_csv_rows_the_services_refuse_import_nothing(
    org_client: Client, tournament: Tournament
) -> None:
    EntryFactory.create(tournament=tournament, seed=2, player=PlayerFactory.create(name="Old"))
    text = "name,seed\nAnna,1\nErik,2\nSara,\n"
    response = org_client.post(_url("tournament_players_import", tournament), {"file": _csv(text)})
    assert response.status_code == 200
    page = response.content.decode()
    assert "row 3: Seed 2 is taken" in page and "Nothing was imported" in page
    assert Entry.objects.filter(tournament=tournament).count() == 1
    assert not Player.objects.filter(name__in=["Anna", "Erik", "Sara"]).exists()


def test_csv_problems_are_worded_for_the_page() -> None:
    """The parser (tests/tournaments/test_csv_import.py) gives codes; the page words them."""

    def texts(data: bytes) -> list[str]:
        with pytest.raises(CsvImportError) as err:
            parse_entries_csv(data)
        return [csv_error_text(e) for e in err.value.errors]

    assert "unknown column “ratng”" in texts(b"name,ratng\nA,1\n")[0]
    assert texts(b"name,rating,seed\n,5,\nB,x,0\nC,-3,1\nD,,1\nE,a,b,c\n") == [
        "row 2: the name is empty.",
        "row 3: rating “x” is not a number.",
        "row 3: seed “0” is not a whole number from 1 up.",
        "row 4: a rating cannot be negative.",
        "row 6: 4 values, but the header names only 3 columns.",
        "rows 4, 5: seed 1 is given more than once.",
    ]
    assert "not UTF-8 text (byte 6)" in texts("name\nÅsa\n".encode("latin-1"))[0]
    assert texts(b"") == ["The file is empty."]
    assert texts(b"name\n\n") == ["The file has a header row but no players."]
    assert texts(b"club\nK\n") == ["row 1: the header row needs a column “name”."]
    assert texts(b"name,name\nA,B\n") == ["row 1: column “name” appears twice."]
    assert texts(("name,club\nA," + "k" * 121 + "\n").encode()) == [
        "row 2: the club is longer than 120 characters."
    ]


def test_csv_import_page_in_swedish(org_client: Client, tournament: Tournament) -> None:
    org_client.cookies["django_language"] = "sv"
    text = "name;rating\nAnna;abc\n"
    response = org_client.post(_url("tournament_players_import", tournament), {"file": _csv(text)})
    assert "rad 2: ratingen ”abc” är inte ett tal." in response.content.decode()


def test_withdraw_an_entry_before_the_draw(org_client: Client, tournament: Tournament) -> None:
    entry = _enter(tournament, 1)[0]
    page = org_client.get(_url("tournament_manage", tournament)).content.decode()
    url = reverse("web:tournament_entry_withdraw", args=[tournament.pk, entry.pk])
    assert f'formaction="{url}"' in page
    response = org_client.post(url)
    assert response.status_code == 302
    assert response["Location"] == _url("tournament_manage", tournament) + "#entries"
    entry.refresh_from_db()
    assert entry.withdrawn_at is not None
    page = org_client.get(_url("tournament_manage", tournament)).content.decode()
    assert "leaves the draw" in page and "withdrawn" in page
    # Again: the service refuses, and the page says why.
    response = org_client.post(url, follow=True)
    assert "has withdrawn already" in response.content.decode()
    # An entry of another tournament is not found here.
    other = EntryFactory.create()
    url = reverse("web:tournament_entry_withdraw", args=[tournament.pk, other.pk])
    assert org_client.post(url).status_code == 404
    assert org_client.post(_url("tournament_manage", tournament)).status_code == 405


# --- seeds -----------------------------------------------------------------------------------


def test_seeds_are_set_and_swapped_in_one_post(org_client: Client, tournament: Tournament) -> None:
    a, b, c = _enter(tournament, 3)
    url = _url("tournament_seeds", tournament)
    response = org_client.post(url, {f"seed_{a.pk}": "1", f"seed_{b.pk}": "2", f"seed_{c.pk}": ""})
    assert response.status_code == 302
    response = org_client.post(url, {f"seed_{a.pk}": "2", f"seed_{b.pk}": "1", f"seed_{c.pk}": ""})
    assert response.status_code == 302
    seeds = {e.pk: e.seed for e in Entry.objects.filter(tournament=tournament)}
    assert seeds == {a.pk: 2, b.pk: 1, c.pk: None}
    assert "The seeds are saved" in org_client.get(response["Location"]).content.decode()


def test_seeds_must_be_unique_and_positive(org_client: Client, tournament: Tournament) -> None:
    a, b, c = _enter(tournament, 3)
    url = _url("tournament_seeds", tournament)
    response = org_client.post(url, {f"seed_{a.pk}": "1", f"seed_{b.pk}": "1", f"seed_{c.pk}": "0"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Seed 1 is also given to P2." in page and "Seed 1 is also given to P1." in page
    assert "The seeds are not saved" in page
    assert f'id="id_seed_{c.pk}_error"' in page
    assert not Entry.objects.filter(tournament=tournament, seed__isnull=False).exists()


def test_a_rating_or_seed_past_what_the_database_stores_is_a_form_error(
    org_client: Client, tournament: Tournament
) -> None:
    too_big = str(2**31)
    url = _url("tournament_player_add", tournament)
    response = org_client.post(url, {"name": "Stor", "rating": too_big, "seed": too_big})
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="id_rating_error"' in page and 'id="id_seed_error"' in page
    assert not Entry.objects.filter(tournament=tournament, player__name="Stor").exists()
    (a,) = _enter(tournament, 1)
    response = org_client.post(_url("tournament_seeds", tournament), {f"seed_{a.pk}": too_big})
    assert response.status_code == 200 and f'id="id_seed_{a.pk}_error"' in response.content.decode()
    a.refresh_from_db()
    assert a.seed is None


# --- referees ---------------------------------------------------------------------------------


def test_referees_by_username(org_client: Client, tournament: Tournament) -> None:
    ref1 = UserFactory.create(username="domare1")
    ref2 = UserFactory.create(username="domare2")
    url = _url("tournament_referees", tournament)
    response = org_client.post(url, {"usernames": "domare1, domare2"})
    assert response.status_code == 302
    assert set(tournament.referees.all()) == {ref1, ref2}

    response = org_client.post(url, {"usernames": "domare1 nobody ghost"})
    assert response.status_code == 200
    assert "No users are called “nobody”, “ghost”" in response.content.decode()
    assert set(tournament.referees.all()) == {ref1, ref2}

    org_client.post(url, {"usernames": ""})
    assert not tournament.referees.exists()


# --- the draw ---------------------------------------------------------------------------------


def test_generate_the_bracket(org_client: Client, tournament: Tournament) -> None:
    _enter(tournament, 6)
    page = org_client.get(_url("tournament_manage", tournament)).content.decode()
    assert 'value="3, 5, 7"' in page  # 6 players: 3 rounds, default lengths
    url = _url("tournament_bracket_generate", tournament)
    response = org_client.post(url, {"lengths": "3,4,7"})
    assert response.status_code == 200
    assert "odd number of games (1, 3, 5, 7, …), not 4 (scoring.md S1)." in (
        response.content.decode()
    )
    response = org_client.post(url, {"lengths": "3,5"})
    assert "6 players make 3 rounds: give 3 lengths, not 2." in response.content.decode()
    assert not Match.objects.filter(tournament=tournament).exists()

    response = org_client.post(url, {"lengths": "1, 3, 5", "draw_seed": "4242"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING and tournament.draw_seed == 4242
    assert Match.objects.filter(tournament=tournament).count() == 4 + 2 + 1
    assert [r.match_length for r in tournament.rounds.order_by("number")] == [1, 3, 5]
    page = org_client.get(response["Location"]).content.decode()
    assert "4242" in page and _url("tournament_detail", tournament) in page
    assert "Record a walkover" in page


def test_draw_with_a_random_seed_stores_it(org_client: Client, tournament: Tournament) -> None:
    _enter(tournament, 2)
    org_client.post(_url("tournament_bracket_generate", tournament), {"lengths": "7"})
    tournament.refresh_from_db()
    assert tournament.draw_seed is not None
    assert (
        str(tournament.draw_seed)
        in org_client.get(_url("tournament_manage", tournament)).content.decode()
    )
    # Drawn: entries are closed, a second draw is refused with a message, not an error page.
    for name, data in [
        ("tournament_bracket_generate", {"lengths": "7"}),
        ("tournament_player_add", {"name": "Late"}),
    ]:
        response = org_client.post(_url(name, tournament), data, follow=True)
        assert "The bracket is drawn already" in response.content.decode()
    assert not Player.objects.filter(name="Late").exists()


# --- walkover ---------------------------------------------------------------------------------


def test_walkover_page(client: Client) -> None:
    setup = drawn(4, lengths=[3, 5])
    client.force_login(setup.organiser)
    match = match_of(setup.tournament, 1, 0)
    p1, p2 = players_of(match)
    url = reverse("web:match_walkover", args=[match.pk])
    page = client.get(url).content.decode()
    assert p1.name in page and p2.name in page and 'name="reason"' in page
    response = client.post(url, {"winner": p2.pk, "reason": ""})
    assert response.status_code == 200  # a reason is required
    response = client.post(url, {"winner": p2.pk, "reason": "did not appear"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.state == MatchState.WALKOVER and match.winner == p2
    final = match_of(setup.tournament, 2, 0)
    assert p2.pk in (final.player1_id, final.player2_id)
    assert "wins by walkover" in client.get(response["Location"]).content.decode()
    # Decided now: the page says so, and a second post is a form error.
    assert "already decided" in client.get(url).content.decode()
    response = client.post(url, {"winner": p1.pk, "reason": "again"})
    assert response.status_code == 200 and "already decided" in response.content.decode()


def test_withdraw_after_the_draw_gives_a_walkover(client: Client) -> None:
    setup = drawn(4, lengths=[3, 5])
    client.force_login(setup.organiser)
    match = match_of(setup.tournament, 1, 0)
    p1, p2 = players_of(match)
    entry = Entry.objects.get(tournament=setup.tournament, player=p1)
    client.post(
        reverse("web:tournament_entry_withdraw", args=[setup.tournament.pk, entry.pk]),
        {"reason": "ill"},
    )
    match.refresh_from_db()
    assert match.state == MatchState.WALKOVER and match.winner == p2


# --- who may use the pages -------------------------------------------------------------------


ROUTES = [
    ("tournament_manage", "get", {}),
    ("tournament_entry_withdraw", "post", {}),
    ("tournament_player_add", "post", {"name": "X"}),
    ("tournament_players_import", "post", {}),
    ("tournament_seeds", "post", {}),
    ("tournament_referees", "post", {"usernames": ""}),
    ("tournament_bracket_generate", "post", {"lengths": "3"}),
]


@pytest.mark.parametrize(("name", "method", "data"), ROUTES)
def test_others_get_403_and_anonymous_users_sign_in(
    client: Client, tournament: Tournament, name: str, method: str, data: dict[str, Any]
) -> None:
    url = _url(name, tournament)
    response = getattr(client, method)(url, data)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    client.force_login(UserFactory.create())  # no rights at all
    assert getattr(client, method)(url, data).status_code == 403
    client.force_login(OrganiserFactory.create())  # organises other tournaments
    assert getattr(client, method)(url, data).status_code == 403
    client.force_login(UserFactory.create(is_superuser=True))  # may manage any tournament
    response = getattr(client, method)(url, data)
    assert response.status_code in (200, 302, 404)  # 404: no entry 1 to withdraw
    assert not response.get("Location", "").startswith(reverse("login"))


def test_referees_may_not_use_the_organiser_pages(client: Client) -> None:
    setup = drawn(2, lengths=[3])
    client.force_login(setup.referee)
    match = match_of(setup.tournament, 1, 0)
    assert client.get(reverse("web:match_walkover", args=[match.pk])).status_code == 403
    assert client.get(_url("tournament_manage", setup.tournament)).status_code == 403
    client.logout()
    response = client.get(reverse("web:match_walkover", args=[match.pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_private_tournament_is_404_for_strangers(client: Client) -> None:
    tournament = TournamentFactory.create(is_public=False)
    client.force_login(UserFactory.create())
    assert client.get(_url("tournament_manage", tournament)).status_code == 404


def test_the_new_tournament_form_names_the_formats_each_option_belongs_to() -> None:
    """Each format's option carries the formats that read it (``data-formats``): the page's
    script shows only the chosen format's; the options of the game stay for every one."""
    import re as _re

    from tests.factories import OrganiserFactory

    client = Client()
    client.force_login(OrganiserFactory.create())
    page = client.get("/tournaments/new/").content.decode()
    wrappers = dict(
        (field, formats)
        for formats, field in _re.findall(
            r'data-formats="([^"]*)"[^>]*>(?:(?!data-formats).)*?name="(\w+)"', page, _re.S
        )
    )
    assert wrappers["grand_final_reset"] == "double_elimination"
    assert wrappers["third_place_match"] == "knockout"
    assert wrappers["progressive_consolation"] == "consolation"
    assert wrappers["swiss_rounds"] == "swiss monrad team_swiss"
    assert wrappers["tiebreak_1"] == "round_robin swiss monrad"
    assert "scale" not in wrappers and "game" not in wrappers
    assert "web/format-options.js" in page
