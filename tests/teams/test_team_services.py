"""Teams (``teams.team_services``): created, renamed and deleted by the season keepers,
named once per club and season in any case and spacing, with their captains."""

from __future__ import annotations

import pytest

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from teams.models import Team, TeamMember
from teams.permissions import can_edit_roster
from teams.rosters import roster_player_add
from teams.team_services import team_captains_set, team_create, team_delete, team_rename
from tests.factories import ClubFactory, UserFactory
from tests.teams.helpers import squad

pytestmark = pytest.mark.django_db


def test_a_team_is_the_seasons_clubs_unless_another_is_named() -> None:
    s = squad()
    assert (s.team.club, s.team.season, s.team.game) == (s.club, s.season, "brade")
    assert s.team.boards_by_rating and s.team.created_by == s.keeper
    south = ClubFactory.create(name="Södra BK")
    guests = team_create(season=s.season, club=south, name="Lag 1", by=s.keeper)
    assert guests.club == south  # the same name, another club: allowed


@pytest.mark.parametrize("name", ["Lag 1", "LAG 1", "  lag   1 "])
def test_a_name_is_once_per_club_and_season_in_any_case_and_spacing(name: str) -> None:
    s = squad()
    with pytest.raises(ConflictError) as err:
        team_create(season=s.season, name=name, by=s.keeper)
    assert err.value.code == "team_name_taken"
    typed = " ".join(name.split())
    assert err.value.message == (
        f"Brädklubben Norr already has a team called “{typed}” in Säsong 2027."
    )
    assert Team.objects.count() == 1


def test_a_name_is_stored_with_its_spaces_made_one() -> None:
    s = squad()
    team = team_create(season=s.season, name="  Lag   Öst ", by=s.keeper)
    assert (team.name, team.name_key) == ("Lag Öst", "lag öst")


@pytest.mark.parametrize(
    ("name", "game", "code"),
    [
        ("   ", "brade", "team_name_missing"),
        ("x" * 121, "brade", "team_name_too_long"),
        ("Lag 2", "chess", "unknown_game"),
    ],
)
def test_a_name_and_a_known_game_are_needed(name: str, game: str, code: str) -> None:
    s = squad()
    with pytest.raises(ValidationError) as err:
        team_create(season=s.season, name=name, game=game, by=s.keeper)
    assert err.value.code == code


def test_renaming_is_checked_as_creating() -> None:
    s = squad()
    other = team_create(season=s.season, name="Lag 2", by=s.keeper)
    with pytest.raises(ConflictError) as err:
        team_rename(team=other, name="lag 1", by=s.keeper)
    assert err.value.code == "team_name_taken"
    team_rename(team=other, name="Lag Två", by=s.keeper)
    other.refresh_from_db()
    assert (other.name, other.name_key) == ("Lag Två", "lag två")


def test_deleting_a_team_deletes_its_roster() -> None:
    s = squad()
    roster_player_add(team=s.team, player=s.players[0], by=s.captain)
    team_delete(team=s.team, by=s.keeper)
    assert not Team.objects.exists() and not TeamMember.objects.exists()


def test_captains_are_replaced_by_the_list_given_and_keep_the_roster() -> None:
    s = squad()
    first, second = UserFactory.create(), UserFactory.create()
    team_captains_set(team=s.team, captains=[first, second, first], by=s.keeper)
    assert set(s.team.captains.all()) == {first, second}
    assert can_edit_roster(first, s.team) and not can_edit_roster(s.captain, s.team)
    team_captains_set(team=s.team, captains=[], by=s.keeper)
    assert not s.team.captains.exists()


@pytest.mark.parametrize("who", ["captain", "outsider", "anonymous"])
def test_only_season_keepers_create_rename_delete_and_name_captains(who: str) -> None:
    s = squad()
    by = {"captain": s.captain, "outsider": UserFactory.create(), "anonymous": None}[who]
    calls = [
        lambda: team_create(season=s.season, name="Lag 9", by=by),
        lambda: team_rename(team=s.team, name="Lag 9", by=by),
        lambda: team_delete(team=s.team, by=by),
        lambda: team_captains_set(team=s.team, captains=[], by=by),
    ]
    for call in calls:
        with pytest.raises(PermissionDeniedError) as err:
            call()
        assert err.value.code == "teams_keepers_only"
    assert list(Team.objects.values_list("name", flat=True)) == ["Lag 1"]
    assert list(s.team.captains.all()) == [s.captain]
