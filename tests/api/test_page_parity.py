"""What the pages can do, the API can do: the format before the draw, entries from CSV,
entries' group and presence, the rounds in a tournament's detail, a match's bracket
code and where its players go, and the onboarding answer for a new organiser."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from matches.models import Match
from tests.api.conftest import client_for
from tests.factories import (
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.tournaments.helpers import drawn
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@dataclass
class Draft:
    tournament: Tournament
    users: dict[str, Any]


@pytest.fixture
def draft() -> Draft:
    """A public draft with an organiser, a referee and an entered player with an account,
    and an organiser of another tournament."""
    organiser, referee = OrganiserFactory.create(), UserFactory.create()
    player_user = UserFactory.create()
    t = TournamentFactory.create(organisers=[organiser], referees=[referee])
    EntryFactory.create(tournament=t, player=PlayerFactory.create(user=player_user))
    other = OrganiserFactory.create()
    TournamentFactory.create(organisers=[other])
    users = {
        "anon": None,
        "player": player_user,
        "referee": referee,
        "organiser_elsewhere": other,
        "organiser": organiser,
    }
    return Draft(t, users)


REFUSED = {"anon": 401, "player": 403, "referee": 403, "organiser_elsewhere": 403}


# --- the format, tiebreak chain and options before the draw -----------------------------


@pytest.mark.parametrize(("role", "expected"), [*REFUSED.items(), ("organiser", 200)])
def test_format_change_rights(draft: Draft, role: str, expected: int) -> None:
    api = client_for(draft.users[role])
    r = api.patch(
        f"/api/tournaments/{draft.tournament.pk}/", {"format": "round_robin"}, format="json"
    )
    assert r.status_code == expected, r.json()
    draft.tournament.refresh_from_db()
    assert (draft.tournament.format == "round_robin") == (expected == 200)


def test_format_change_sets_the_chain_and_options(draft: Draft) -> None:
    api = client_for(draft.users["organiser"])
    url = f"/api/tournaments/{draft.tournament.pk}/"
    r = api.patch(
        url,
        {"format": "round_robin", "tiebreaks": ["wins"], "groups": 2, "venue": "Hall"},
        format="json",
    )
    assert r.status_code == 200, r.json()
    body = r.json()
    assert (body["format"], body["tiebreaks"], body["groups"], body["venue"]) == (
        "round_robin",
        ["wins"],
        2,
        "Hall",
    )
    # A new format without a chain gets its usual one.
    r = api.patch(url, {"format": "swiss"}, format="json")
    assert r.status_code == 400  # two groups are a round robin's only
    r = api.patch(url, {"format": "swiss", "groups": 1, "swiss_rounds": 3}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["swiss_rounds"] == 3 and r.json()["tiebreaks"]


def test_format_change_refused_is_all_or_nothing(draft: Draft) -> None:
    api = client_for(draft.users["organiser"])
    url = f"/api/tournaments/{draft.tournament.pk}/"
    r = api.patch(url, {"venue": "Elsewhere", "format": "knockout", "groups": 3}, format="json")
    assert r.status_code == 400, r.json()
    assert r.json()["error"]["code"] == "groups_not_round_robin"
    draft.tournament.refresh_from_db()
    assert draft.tournament.venue != "Elsewhere"
    r = api.patch(url, {"tiebreaks": ["no-such"]}, format="json")
    assert r.status_code == 400 and "tiebreaks" in r.json()["error"]["fields"]
    r = api.patch(url, {"groups": 0}, format="json")
    assert r.status_code == 400 and "groups" in r.json()["error"]["fields"]


def test_format_change_after_the_draw_is_409() -> None:
    s = drawn(4)
    api = client_for(s.organiser)
    url = f"/api/tournaments/{s.tournament.pk}/"
    r = api.patch(url, {"format": "round_robin", "venue": "Hall"}, format="json")
    assert r.status_code == 409, r.json()
    s.tournament.refresh_from_db()
    assert s.tournament.format == "knockout" and s.tournament.venue != "Hall"
    # The details alone still change after the draw.
    assert api.patch(url, {"venue": "Hall"}, format="json").status_code == 200


# --- entries from CSV -----------------------------------------------------------------

CSV = "name;club;rating;seed\nAnna Ek;Vasa BK;1500;1\nBo Lind;;;\n"


@pytest.mark.parametrize(("role", "expected"), [*REFUSED.items(), ("organiser", 201)])
def test_import_rights(draft: Draft, role: str, expected: int) -> None:
    api = client_for(draft.users[role])
    url = f"/api/tournaments/{draft.tournament.pk}/entries/import/"
    r = api.post(url, {"csv": CSV}, format="json")
    assert r.status_code == expected, r.json()
    assert draft.tournament.entries.count() == (3 if expected == 201 else 1)


def test_import_as_text_csv(draft: Draft) -> None:
    api = client_for(draft.users["organiser"])
    url = f"/api/tournaments/{draft.tournament.pk}/entries/import/"
    r = api.post(url, data=CSV.encode("utf-8"), content_type="text/csv")
    assert r.status_code == 201, r.json()
    entries = r.json()["entries"]
    assert [(e["player"]["name"], e["seed"]) for e in entries] == [
        ("Anna Ek", 1),
        ("Bo Lind", None),
    ]
    assert entries[0]["player"]["club"]["name"] == "Vasa BK"


def test_import_problems_by_row(draft: Draft) -> None:
    api = client_for(draft.users["organiser"])
    url = f"/api/tournaments/{draft.tournament.pk}/entries/import/"
    bad = "name;rating;seed\nAnna;many;1\n;;\n\nBo;;1\n"
    r = api.post(url, data=bad.encode("utf-8"), content_type="text/csv")
    assert r.status_code == 400, r.json()
    error = r.json()["error"]
    assert error["code"] == "import_invalid"
    assert [(p["row"], p["code"]) for p in error["problems"]] == [
        (2, "not_a_number"),
        (2, "seed_twice"),
    ]
    assert "row 2" in error["problems"][0]["message"]
    # Not UTF-8: said as the page says it.
    r = api.post(url, data=b"name\n\xff\n", content_type="text/csv")
    assert r.status_code == 400 and r.json()["error"]["problems"][0]["code"] == "not_utf8"
    # A row the services refuse (a seed taken already): its row, nothing kept.
    first = api.post(url, {"csv": "name;seed\nCarl;1\n"}, format="json")
    assert first.status_code == 201
    r = api.post(url, {"csv": "name;seed\nDan;\nEva;1\n"}, format="json")
    assert r.status_code == 400, r.json()
    assert [p["row"] for p in r.json()["error"]["problems"]] == [3]
    assert not draft.tournament.entries.filter(player__name="Dan").exists()
    # The JSON body's field itself.
    r = api.post(url, {"csv": ""}, format="json")
    assert r.status_code == 400 and "csv" in r.json()["error"]["fields"]


def test_import_after_the_draw_is_409() -> None:
    s = drawn(4)
    api = client_for(s.organiser)
    r = api.post(f"/api/tournaments/{s.tournament.pk}/entries/import/", {"csv": CSV}, format="json")
    assert r.status_code == 409, r.json()


# --- entries' group and presence ----------------------------------------------------


def test_entries_show_group_and_presence() -> None:
    s = drawn(4, format="round_robin", groups=2, tiebreaks=[])
    api = client_for(None)
    entries = api.get(f"/api/tournaments/{s.tournament.pk}/entries/").json()["results"]
    assert sorted(e["group"] for e in entries) == ["A", "A", "B", "B"]
    assert all(e["present"] for e in entries)
    knockout = drawn(2)
    entry = knockout.tournament.entries.first()
    assert entry is not None
    assert client_for(None).get(f"/api/entries/{entry.pk}/").json()["group"] == ""


def test_presence_reads_what_the_check_out_set() -> None:
    s = drawn(4, format="swiss", tiebreaks=[])
    entry = s.tournament.entries.order_by("pk").first()
    assert entry is not None
    organiser = client_for(s.organiser)
    r = organiser.post(f"/api/entries/{entry.pk}/presence/", {"present": False}, format="json")
    assert r.status_code == 200, r.json()
    assert client_for(None).get(f"/api/entries/{entry.pk}/").json()["present"] is False


# --- the rounds in a tournament's detail; a match's code and links ------------------


def test_detail_lists_the_rounds() -> None:
    s = drawn(4, lengths=[3, 5])
    r = client_for(None).get(f"/api/tournaments/{s.tournament.pk}/")
    rounds = r.json()["rounds"]
    assert [(x["number"], x["match_length"], x["published"]) for x in rounds] == [
        (1, 3, True),
        (2, 5, True),
    ]


def test_detail_hides_unpublished_rounds_from_players() -> None:
    s = drawn(4, format="swiss", tiebreaks=[])
    Round = s.tournament.rounds.model
    Round.objects.filter(tournament=s.tournament).update(published=False)
    url = f"/api/tournaments/{s.tournament.pk}/"
    assert client_for(None).get(url).json()["rounds"] == []
    staff = client_for(s.referee).get(url).json()["rounds"]
    assert staff and not any(x["published"] for x in staff)


def test_match_shows_its_code_and_where_its_players_go() -> None:
    s = drawn(4, format="double_elimination")
    api = client_for(None)
    first = Match.objects.filter(tournament=s.tournament, code="W1.1").get()
    body = api.get(f"/api/matches/{first.pk}/").json()["match"]
    assert body["code"] == "W1.1"
    assert body["winner_to"] == first.winner_to_id is not None
    assert body["loser_to"] == first.loser_to_id is not None
    assert body["winner_to_upper"] is first.winner_to_upper
    listed = api.get(f"/api/matches/?tournament={s.tournament.pk}").json()["results"]
    assert {m["code"] for m in listed} >= {"W1.1", "GF"}
    knockout = drawn(2)
    plain = Match.objects.get(tournament=knockout.tournament)
    body = api.get(f"/api/matches/{plain.pk}/").json()["match"]
    assert (body["code"], body["winner_to"], body["loser_to"]) == ("", None, None)


# --- a new organiser's first steps --------------------------------------------------


@pytest.mark.parametrize(
    ("url", "body"), [("/api/clubs/", {"name": "BK"}), ("/api/players/", {"name": "Ny"})]
)
def test_new_organiser_is_told_to_create_a_tournament_first(url: str, body: dict[str, Any]) -> None:
    new = OrganiserFactory.create()
    api = client_for(new)
    r = api.post(url, body, format="json")
    assert r.status_code == 403
    error = r.json()["error"]
    assert error["code"] == "organise_first"
    assert "tournament" in error["message"]
    # Someone without organiser rights is refused as before.
    r = client_for(UserFactory.create()).post(url, body, format="json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "permission_denied"
    # Once they organise a tournament, they may.
    assert (
        api.post(
            "/api/tournaments/", {"name": "Cup", "start_date": "2026-12-01"}, format="json"
        ).status_code
        == 201
    )
    assert api.post(url, body, format="json").status_code == 201


def test_a_url_field_schema_says_it_takes_a_web_address() -> None:
    """A schema-valid address is one the field takes: "format: uri" alone allows any
    scheme (``web:home``), which the webhooks' URL field refuses."""
    schema = client_for(None).get("/api/schema/?format=json").json()
    url = schema["components"]["schemas"]["WebhookInput"]["properties"]["url"]
    assert re.fullmatch(url["pattern"], "https://klubben.example.org/hook")
    assert not re.search(url["pattern"], "web:home")
