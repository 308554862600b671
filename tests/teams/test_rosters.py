"""The roster's rules (``teams.rosters`` T1–T8), one class per rule, through the services;
the database's share of them in ``test_constraints``, their races in ``test_races``."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest

from clubs.models import ClubRatingList, RatingStart
from clubs.season_services import season_create
from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from teams import rosters
from teams.models import TeamMember
from teams.rosters import (
    roster_order_set,
    roster_player_add,
    roster_player_move,
    roster_player_remove,
    roster_reserve_set,
    roster_sort_by_rating,
)
from teams.team_services import team_captains_set, team_create
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.teams.helpers import Squad, boards, rate, squad

pytestmark = pytest.mark.django_db


def add_all(s: Squad, *, by: Any = None) -> None:
    for player in s.players:
        roster_player_add(team=s.team, player=player, by=by or s.captain)


class TestT1OneTeamPerSeason:
    def test_a_player_of_another_team_of_the_season_is_refused(self) -> None:
        s = squad()
        other = team_create(season=s.season, name="Lag 2", by=s.keeper)
        roster_player_add(team=other, player=s.players[0], by=s.keeper)
        with pytest.raises(ConflictError) as err:
            roster_player_add(team=s.team, player=s.players[0], by=s.captain)
        assert err.value.code == "player_in_a_team"
        assert err.value.extra == {"team": {"id": other.pk}}
        assert "plays for Lag 2 this season" in err.value.message
        assert boards(s.team) == []

    def test_a_player_already_on_the_roster_is_told_so(self) -> None:
        s = squad()
        roster_player_add(team=s.team, player=s.players[0], by=s.captain)
        with pytest.raises(ConflictError) as err:
            roster_player_add(team=s.team, player=s.players[0], by=s.captain)
        assert err.value.code == "player_in_a_team"
        assert "on the roster already" in err.value.message
        assert len(boards(s.team)) == 1

    def test_in_another_season_the_player_may_play_for_another_team(self) -> None:
        s = squad()
        roster_player_add(team=s.team, player=s.players[0], by=s.captain)
        next_season = season_create(
            club=s.club,
            name="Säsong 2028",
            start_date=datetime.date(2028, 1, 1),
            end_date=datetime.date(2028, 12, 31),
            by=s.keeper,
        )
        later = team_create(season=next_season, name="Lag 1", by=s.keeper)
        roster_player_add(team=later, player=s.players[0], by=s.keeper)
        assert boards(later) == [(1, "Spelare A", False)]

    def test_after_a_team_is_deleted_its_players_may_join_another(self) -> None:
        from teams.team_services import team_delete

        s = squad()
        roster_player_add(team=s.team, player=s.players[0], by=s.captain)
        other = team_create(season=s.season, name="Lag 2", by=s.keeper)
        team_delete(team=s.team, by=s.keeper)
        roster_player_add(team=other, player=s.players[0], by=s.keeper)
        assert boards(other) == [(1, "Spelare A", False)]


class TestT2TheTeamsClub:
    def test_a_player_of_another_club_is_refused(self) -> None:
        s = squad()
        guest = PlayerFactory.create(name="Gäst", club=ClubFactory.create(name="Södra BK"))
        with pytest.raises(ValidationError) as err:
            roster_player_add(team=s.team, player=guest, by=s.captain)
        assert err.value.code == "player_of_another_club"
        assert "Gäst is not a player of Brädklubben Norr" in err.value.message

    def test_a_player_of_no_club_is_refused(self) -> None:
        s = squad()
        with pytest.raises(ValidationError) as err:
            roster_player_add(team=s.team, player=PlayerFactory.create(), by=s.captain)
        assert err.value.code == "player_of_another_club"

    def test_a_team_of_another_club_in_the_season_plays_that_clubs_players(self) -> None:
        s = squad()
        south = ClubFactory.create(name="Södra BK")
        guests = team_create(season=s.season, club=south, name="Södra 1", by=s.keeper)
        theirs = PlayerFactory.create(name="Sydlänning", club=south)
        roster_player_add(team=guests, player=theirs, by=s.keeper)
        with pytest.raises(ValidationError):
            roster_player_add(team=guests, player=s.players[0], by=s.keeper)
        assert boards(guests) == [(1, "Sydlänning", False)]

    def test_a_player_who_changes_club_later_stays_on_the_roster(self) -> None:
        s = squad()
        roster_player_add(team=s.team, player=s.players[0], by=s.captain)
        s.players[0].club = ClubFactory.create()
        s.players[0].save()
        roster_player_add(team=s.team, player=s.players[1], by=s.captain)
        assert [name for _b, name, _r in boards(s.team)] == ["Spelare B", "Spelare A"]


class TestT3BoardsOneToN:
    def test_boards_close_up_when_a_player_leaves(self) -> None:
        s = squad()
        add_all(s)
        roster_order_set(team=s.team, order=[p.pk for p in s.players], by=s.captain)
        roster_player_remove(team=s.team, player=s.players[1], by=s.captain)
        assert boards(s.team) == [
            (1, "Spelare A", False),
            (2, "Spelare C", False),
            (3, "Spelare D", False),
        ]

    def test_removing_a_player_not_on_the_roster_is_refused(self) -> None:
        s = squad()
        with pytest.raises(NotFoundError) as err:
            roster_player_remove(team=s.team, player=s.players[0], by=s.captain)
        assert err.value.code == "not_on_roster"


class TestT4ReservesLast:
    def test_an_order_with_a_reserve_before_a_regular_player_is_refused(self) -> None:
        s = squad()
        add_all(s)
        a, b, c, d = (p.pk for p in s.players)
        with pytest.raises(ValidationError) as err:
            roster_order_set(team=s.team, order=[a, b, c, d], reserves=[b], by=s.captain)
        assert err.value.code == "reserve_before_regular"
        roster_order_set(team=s.team, order=[a, c, d, b], reserves=[b], by=s.captain)
        assert boards(s.team)[-1] == (4, "Spelare B", True)

    def test_in_the_captains_order_a_new_player_goes_after_the_last_regular_board(self) -> None:
        s = squad()
        a, b, c, d = s.players
        for p in (a, b):
            roster_player_add(team=s.team, player=p, by=s.captain)
        roster_player_add(team=s.team, player=c, reserve=True, by=s.captain)
        roster_order_set(team=s.team, order=[a.pk, b.pk, c.pk], by=s.captain)
        roster_player_add(team=s.team, player=d, by=s.captain)
        assert boards(s.team) == [
            (1, "Spelare A", False),
            (2, "Spelare B", False),
            (3, "Spelare D", False),
            (4, "Spelare C", True),
        ]
        e = PlayerFactory.create(name="Spelare E", club=s.club)
        roster_player_add(team=s.team, player=e, reserve=True, by=s.captain)
        assert boards(s.team)[-1] == (5, "Spelare E", True)


class TestT5ByRating:
    def test_the_boards_follow_the_ratings_highest_first(self) -> None:
        s = squad(("1510", "1620", None, "1700"))  # C has none: counted as 1500
        add_all(s)
        assert [name for _b, name, _r in boards(s.team)] == [
            "Spelare D",
            "Spelare B",
            "Spelare A",
            "Spelare C",
        ]
        assert s.team.__class__.objects.get(pk=s.team.pk).boards_by_rating

    def test_reserves_are_sorted_by_rating_after_the_regular_boards(self) -> None:
        s = squad()
        a, b, c, d = s.players  # 1510, 1620, 1480, 1700
        roster_player_add(team=s.team, player=c, by=s.captain)
        roster_player_add(team=s.team, player=a, reserve=True, by=s.captain)
        roster_player_add(team=s.team, player=d, reserve=True, by=s.captain)
        roster_player_add(team=s.team, player=b, by=s.captain)
        assert boards(s.team) == [
            (1, "Spelare B", False),
            (2, "Spelare C", False),
            (3, "Spelare D", True),
            (4, "Spelare A", True),
        ]

    def test_the_imported_start_then_the_given_rating_count_where_there_is_none(self) -> None:
        s = squad(("1510", None, None))
        _a, b, c = s.players
        RatingStart.objects.create(game="brade", player=b, rating=Decimal("1600"))
        c.rating = 1550  # given with the player
        c.save()
        add_all(s)
        assert [name for _b, name, _r in boards(s.team)] == ["Spelare B", "Spelare C", "Spelare A"]

    def test_the_clubs_list_formula_orders_them(self) -> None:
        s = squad(("1600", "1500"))
        a, b = s.players
        rate(a, "1400", formula="danish")
        rate(b, "1700", formula="danish")
        ClubRatingList.objects.create(club=s.club, formula="danish")
        add_all(s)
        assert [name for _b, name, _r in boards(s.team)] == ["Spelare B", "Spelare A"]

    def test_a_backgammon_team_is_ordered_by_backgammon_ratings(self) -> None:
        s = squad(("1600", "1500"))
        a, b = s.players
        rate(a, "1400", game="backgammon")
        rate(b, "1800", game="backgammon")
        team = team_create(season=s.season, name="Lag BG", game="backgammon", by=s.keeper)
        for p in (a, b):
            roster_player_add(team=team, player=p, by=s.keeper)
        assert [name for _b, name, _r in boards(team)] == ["Spelare B", "Spelare A"]

    def test_players_on_the_same_rating_keep_one_order_drawn_from_the_team(self) -> None:
        s = squad(("1500",) * 6)
        add_all(s)
        first = boards(s.team)
        roster_sort_by_rating(team=s.team, by=s.captain)
        roster_player_remove(team=s.team, player=s.players[0], by=s.captain)
        roster_player_add(team=s.team, player=s.players[0], by=s.captain)
        assert boards(s.team) == first

    def test_a_rating_that_moves_later_moves_no_board_until_the_roster_changes(self) -> None:
        s = squad(("1600", "1500", "1400"))
        a, b, c = s.players
        roster_player_add(team=s.team, player=a, by=s.captain)
        roster_player_add(team=s.team, player=b, by=s.captain)
        b.ratings.update(rating=Decimal("1650"))
        assert [name for _b, name, _r in boards(s.team)] == ["Spelare A", "Spelare B"]
        roster_player_add(team=s.team, player=c, by=s.captain)
        assert [name for _b, name, _r in boards(s.team)] == ["Spelare B", "Spelare A", "Spelare C"]


class TestT6TheCaptainsOrder:
    def test_a_whole_order_sets_the_boards_and_stops_following_the_ratings(self) -> None:
        s = squad()
        add_all(s)
        a, b, c, d = (p.pk for p in s.players)
        roster_order_set(team=s.team, order=[c, a, d, b], by=s.captain)
        assert [name for _b, name, _r in boards(s.team)] == [
            "Spelare C",
            "Spelare A",
            "Spelare D",
            "Spelare B",
        ]
        s.team.refresh_from_db()
        assert not s.team.boards_by_rating

    @pytest.mark.parametrize(
        ("order", "missing", "unknown", "repeated"),
        [
            ("abc", "d", "", ""),
            ("abcdx", "", "x", ""),
            ("abcda", "", "", "a"),
            ("abca", "d", "", "a"),
        ],
    )
    def test_an_order_that_is_not_the_roster_is_refused(
        self, order: str, missing: str, unknown: str, repeated: str
    ) -> None:
        s = squad()
        add_all(s)
        outsider = PlayerFactory.create(club=s.club)
        ids = {"abcd"[i]: p.pk for i, p in enumerate(s.players)} | {"x": outsider.pk}
        before = boards(s.team)
        with pytest.raises(ValidationError) as err:
            roster_order_set(team=s.team, order=[ids[k] for k in order], by=s.captain)
        assert err.value.code == "order_not_the_roster"
        assert err.value.extra == {
            "missing": [ids[k] for k in missing],
            "unknown": [ids[k] for k in unknown],
            "repeated": [ids[k] for k in repeated],
        }
        assert boards(s.team) == before
        s.team.refresh_from_db()
        assert s.team.boards_by_rating

    def test_reserves_named_with_the_order_must_be_on_the_roster(self) -> None:
        s = squad()
        add_all(s)
        outsider = PlayerFactory.create(club=s.club)
        with pytest.raises(ValidationError) as err:
            roster_order_set(
                team=s.team,
                order=[p.pk for p in s.players],
                reserves=[outsider.pk],
                by=s.captain,
            )
        assert err.value.code == "order_not_the_roster"

    def test_a_player_moves_one_board_within_their_group(self) -> None:
        s = squad()
        add_all(s)
        a, b, c, d = s.players
        roster_order_set(team=s.team, order=[a.pk, b.pk, c.pk, d.pk], reserves=[d.pk], by=s.captain)
        roster_player_move(team=s.team, player=c, step=-1, by=s.captain)
        assert [name for _b, name, _r in boards(s.team)] == [
            "Spelare A",
            "Spelare C",
            "Spelare B",
            "Spelare D",
        ]
        roster_player_move(team=s.team, player=c, step=1, by=s.captain)
        assert [name for _b, name, _r in boards(s.team)][:3] == [
            "Spelare A",
            "Spelare B",
            "Spelare C",
        ]

    @pytest.mark.parametrize(("who", "step"), [(0, -1), (2, 1), (3, -1), (3, 1), (1, 2)])
    def test_no_move_past_the_top_the_end_or_the_reserves_edge(self, who: int, step: int) -> None:
        s = squad()
        add_all(s)
        a, b, c, d = s.players
        roster_order_set(team=s.team, order=[a.pk, b.pk, c.pk, d.pk], reserves=[d.pk], by=s.captain)
        before = boards(s.team)
        with pytest.raises(ValidationError) as err:
            roster_player_move(team=s.team, player=s.players[who], step=step, by=s.captain)
        assert err.value.code == "cannot_move"
        assert boards(s.team) == before

    def test_moving_stops_following_the_ratings_and_sorting_follows_them_again(self) -> None:
        s = squad()
        add_all(s)  # D B A C by rating
        roster_player_move(team=s.team, player=s.players[0], step=-1, by=s.captain)
        s.team.refresh_from_db()
        assert not s.team.boards_by_rating
        assert [name for _b, name, _r in boards(s.team)][1:3] == ["Spelare A", "Spelare B"]
        roster_sort_by_rating(team=s.team, by=s.captain)
        s.team.refresh_from_db()
        assert s.team.boards_by_rating
        assert [name for _b, name, _r in boards(s.team)] == [
            "Spelare D",
            "Spelare B",
            "Spelare A",
            "Spelare C",
        ]


class TestT7MarkingReserves:
    def test_a_new_reserve_is_the_first_reserve_and_a_new_regular_the_last_board(self) -> None:
        s = squad()
        add_all(s)
        a, b, c, d = s.players
        roster_order_set(team=s.team, order=[a.pk, b.pk, c.pk, d.pk], reserves=[d.pk], by=s.captain)
        roster_reserve_set(team=s.team, player=a, reserve=True, by=s.captain)
        assert boards(s.team) == [
            (1, "Spelare B", False),
            (2, "Spelare C", False),
            (3, "Spelare A", True),
            (4, "Spelare D", True),
        ]
        roster_reserve_set(team=s.team, player=d, reserve=False, by=s.captain)
        assert boards(s.team) == [
            (1, "Spelare B", False),
            (2, "Spelare C", False),
            (3, "Spelare D", False),
            (4, "Spelare A", True),
        ]

    def test_while_following_the_ratings_a_reserve_is_sorted_among_the_reserves(self) -> None:
        s = squad()
        add_all(s)  # D 1700, B 1620, A 1510, C 1480
        roster_reserve_set(team=s.team, player=s.players[2], reserve=True, by=s.captain)
        roster_reserve_set(team=s.team, player=s.players[3], reserve=True, by=s.captain)
        assert boards(s.team) == [
            (1, "Spelare B", False),
            (2, "Spelare A", False),
            (3, "Spelare D", True),
            (4, "Spelare C", True),
        ]

    def test_a_player_not_on_the_roster_cannot_be_marked(self) -> None:
        s = squad()
        with pytest.raises(NotFoundError):
            roster_reserve_set(team=s.team, player=s.players[0], reserve=True, by=s.captain)


class TestT8AFullRoster:
    def test_a_full_roster_takes_nobody_more(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(rosters, "ROSTER_MAX", 3)
        s = squad()
        for player in s.players[:3]:
            roster_player_add(team=s.team, player=player, by=s.captain)
        with pytest.raises(ValidationError) as err:
            roster_player_add(team=s.team, player=s.players[3], by=s.captain)
        assert err.value.code == "roster_full"
        assert len(boards(s.team)) == 3


class TestWhoMay:
    @pytest.mark.parametrize("who", ["outsider", "other_captain", "anonymous"])
    def test_only_the_captains_and_the_keepers_change_a_roster(self, who: str) -> None:
        s = squad()
        other = team_create(season=s.season, name="Lag 2", by=s.keeper)
        other_captain = UserFactory.create()
        team_captains_set(team=other, captains=[other_captain], by=s.keeper)
        by = {"outsider": UserFactory.create(), "other_captain": other_captain, "anonymous": None}[
            who
        ]
        calls = [
            lambda: roster_player_add(team=s.team, player=s.players[0], by=by),
            lambda: roster_player_remove(team=s.team, player=s.players[0], by=by),
            lambda: roster_reserve_set(team=s.team, player=s.players[0], reserve=True, by=by),
            lambda: roster_order_set(team=s.team, order=[], by=by),
            lambda: roster_player_move(team=s.team, player=s.players[0], step=1, by=by),
            lambda: roster_sort_by_rating(team=s.team, by=by),
        ]
        for call in calls:
            with pytest.raises(PermissionDeniedError) as err:
                call()
            assert err.value.code == "roster_keepers_only"

    def test_a_keeper_changes_any_roster(self) -> None:
        s = squad()
        add_all(s, by=s.keeper)
        assert len(boards(s.team)) == 4
        assert TeamMember.objects.filter(added_by=s.keeper).count() == 4

    def test_a_player_the_captain_may_not_see_is_no_player(self) -> None:
        s = squad()
        hidden = s.players[0]
        EntryFactory.create(tournament=TournamentFactory.create(is_public=False), player=hidden)
        with pytest.raises(NotFoundError) as err:
            roster_player_add(team=s.team, player=hidden, by=s.captain)
        assert err.value.code == "player_not_found"
