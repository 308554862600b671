"""A championship at several venues: a round's matches shared out among the venues in
pairing order with tables numbered 1.. per venue, the organiser moving matches and
sharing a round again, referees scoped to their venue (refused elsewhere, an unscoped
referee and the organisers keeping every match), and a tournament without venues as
before."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.permissions import is_match_referee
from matches.models import EventKind, Match, MatchEvent, MatchState
from matches.results import game_result_correct, game_result_enter
from matches.selectors import game_version
from matches.tables import match_table_set
from matches.venues import match_venue_set, round_venues_split
from matches.walkovers import match_walkover
from tests.factories import (
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.results import won
from tournaments.models import Tournament, Venue
from tournaments.stage_draws import tournament_draw
from tournaments.venues import (
    venue_create,
    venue_delete,
    venue_referee_set,
    venue_shares,
    venue_update,
)

pytestmark = pytest.mark.django_db


class Split:
    def __init__(self, tournament: Tournament, organiser: Any, venues: list[Venue]) -> None:
        self.tournament, self.organiser, self.venues = tournament, organiser, venues
        self.referee = UserFactory.create()
        tournament.referees.add(self.referee)


def split(
    n: int, venues: list[tuple[str, int | None]], *, format: str = "knockout", **fields: Any
) -> Split:
    """``n`` players, ``venues`` (name, tables) made before the draw, then drawn."""
    organiser = OrganiserFactory.create()
    tournament = TournamentFactory.create(organisers=[organiser], format=format, **fields)
    made = [
        venue_create(tournament=tournament, name=name, tables=tables, by=organiser)
        for name, tables in venues
    ]
    for i in range(n):
        EntryFactory.create(
            tournament=tournament, player=PlayerFactory.create(name=f"P{i + 1:02d}"), seed=i + 1
        )
    tournament_draw(tournament=tournament, by=organiser, draw_seed=7)
    tournament.refresh_from_db()
    return Split(tournament, organiser, made)


def first_round(t: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(tournament=t, round__number=1)
        .select_related("venue", "tournament")
        .order_by("slot")
    )


def places(matches: list[Match]) -> list[tuple[str | None, int | None]]:
    return [(m.venue.name if m.venue else None, m.table) for m in matches]


def test_venue_shares_fill_numbered_venues_in_order_and_share_the_rest_evenly() -> None:
    assert venue_shares(12, [None, None]) == [6, 6]
    assert venue_shares(7, [None, None]) == [4, 3]
    assert venue_shares(12, [8, None]) == [8, 4]
    assert venue_shares(5, [8, None]) == [5, 0]
    assert venue_shares(12, [4, 5]) == [4, 8]  # more matches than tables: the last
    assert venue_shares(10, [None, 3, None]) == [4, 3, 3]
    assert venue_shares(3, []) == []


def test_a_knockout_split_between_two_venues_numbers_each_venues_tables_from_one() -> None:
    s = split(16, [("Stockholm", None), ("Göteborg", None)])
    assert places(first_round(s.tournament)) == [
        ("Stockholm", 1),
        ("Stockholm", 2),
        ("Stockholm", 3),
        ("Stockholm", 4),
        ("Göteborg", 1),
        ("Göteborg", 2),
        ("Göteborg", 3),
        ("Göteborg", 4),
    ]


def test_a_venue_with_tables_takes_the_top_matches_and_byes_are_at_no_venue() -> None:
    s = split(12, [("Stockholm", 3), ("Göteborg", None)])  # sixteen lines, four byes
    rows = first_round(s.tournament)
    byes = [m for m in rows if m.state == MatchState.BYE]
    assert len(byes) == 4
    assert all(m.venue is None and m.table is None for m in byes)
    played = [m for m in rows if m.state != MatchState.BYE]
    assert places(played) == [
        ("Stockholm", 1),
        ("Stockholm", 2),
        ("Stockholm", 3),
        ("Göteborg", 1),
    ]


def test_a_round_robin_shares_every_round() -> None:
    s = split(8, [("A", None), ("B", None)], format="round_robin")
    rounds = Match.objects.filter(tournament=s.tournament).values_list("round_id", flat=True)
    for round_id in set(rounds):
        rows = list(Match.objects.filter(round_id=round_id).select_related("venue"))
        assert sorted(places(rows), key=str) == [("A", 1), ("A", 2), ("B", 1), ("B", 2)]


def test_without_venues_a_round_is_numbered_as_before() -> None:
    s = split(8, [])
    assert places(first_round(s.tournament)) == [(None, 1), (None, 2), (None, 3), (None, 4)]


def test_a_table_taken_at_the_venue_is_refused_and_free_at_another() -> None:
    s = split(16, [("Stockholm", None), ("Göteborg", None)])
    rows = first_round(s.tournament)
    with pytest.raises(ConflictError) as err:
        match_table_set(match=rows[4], table=2, by=s.organiser)  # Göteborg's table 2
    assert err.value.code == "table_taken"
    match_table_set(match=rows[4], table=9, by=s.organiser)
    match_table_set(match=rows[0], table=9, by=s.organiser)  # Stockholm's own 9
    assert places([Match.objects.get(pk=rows[i].pk) for i in (0, 4)]) == [
        ("Stockholm", 9),
        ("Göteborg", 9),
    ]


def test_the_organiser_moves_a_match_to_the_first_free_table_of_another_venue() -> None:
    s = split(16, [("Stockholm", None), ("Göteborg", None)])
    rows = first_round(s.tournament)
    stockholm, goteborg = s.venues
    moved = match_venue_set(match=rows[0], venue=goteborg, by=s.organiser)
    assert (moved.venue_id, moved.table) == (goteborg.pk, 5)
    back = match_venue_set(match=rows[1], venue=stockholm, by=s.organiser)  # already there
    assert (back.venue_id, back.table) == (stockholm.pk, 2)
    again = match_venue_set(match=rows[5], venue=stockholm, by=s.organiser)
    assert (again.venue_id, again.table) == (stockholm.pk, 1)  # table 1 was freed
    event = MatchEvent.objects.get(match=rows[0], kind=EventKind.VENUE_SET)
    assert event.data == {
        "before": stockholm.pk,
        "after": goteborg.pk,
        "table_before": 1,
        "table": 5,
    }
    with pytest.raises(PermissionDeniedError):
        match_venue_set(match=rows[2], venue=goteborg, by=s.referee)
    other = split(4, [("Elsewhere", None)])
    with pytest.raises(ValidationError):
        match_venue_set(match=rows[2], venue=other.venues[0], by=s.organiser)


def test_a_round_is_shared_out_again_after_venues_are_added_until_it_has_begun() -> None:
    s = split(16, [])
    rows = first_round(s.tournament)
    round = rows[0].round
    venue_create(tournament=s.tournament, name="Malmö", tables=6, by=s.organiser)
    venue_create(tournament=s.tournament, name="Lund", tables=None, by=s.organiser)
    round_venues_split(round=round, by=s.organiser)
    assert places(first_round(s.tournament)) == [
        ("Malmö", 1),
        ("Malmö", 2),
        ("Malmö", 3),
        ("Malmö", 4),
        ("Malmö", 5),
        ("Malmö", 6),
        ("Lund", 1),
        ("Lund", 2),
    ]
    game_result_enter(match=rows[7], number=1, result=won("W", "hemspel"), by=s.organiser)
    with pytest.raises(ConflictError) as err:
        round_venues_split(round=round, by=s.organiser)
    assert err.value.code == "round_begun"


def test_a_venue_with_matches_is_not_deleted_and_names_are_its_own() -> None:
    s = split(8, [("Stockholm", None), ("Göteborg", None)])
    with pytest.raises(ConflictError) as err:
        venue_delete(venue=s.venues[0], by=s.organiser)
    assert err.value.code == "venue_in_use"
    with pytest.raises(ConflictError):
        venue_create(tournament=s.tournament, name="stockholm", tables=None, by=s.organiser)
    with pytest.raises(ValidationError):
        venue_create(tournament=s.tournament, name="  ", tables=None, by=s.organiser)
    with pytest.raises(PermissionDeniedError):
        venue_create(tournament=s.tournament, name="Lund", tables=None, by=s.referee)
    lund = venue_create(tournament=s.tournament, name="Lund", tables=4, by=s.organiser)
    assert lund.ordering == 2
    venue_update(venue=lund, name="Lund C", tables=None, by=s.organiser)
    venue_delete(venue=lund, by=s.organiser)
    assert list(Venue.objects.filter(tournament=s.tournament).values_list("name", flat=True)) == [
        "Stockholm",
        "Göteborg",
    ]


# --- referees scoped to a venue -------------------------------------------------------


def test_a_referee_scoped_to_a_venue_enters_results_there_only() -> None:
    s = split(16, [("Stockholm", None), ("Göteborg", None)])
    rows = first_round(s.tournament)
    stockholm, goteborg = rows[0], rows[4]
    venue_referee_set(tournament=s.tournament, user=s.referee, venue=s.venues[1], by=s.organiser)
    with pytest.raises(PermissionDeniedError) as err:
        game_result_enter(match=stockholm, number=1, result=won("W", "hemspel"), by=s.referee)
    assert err.value.code == "other_venue"
    assert stockholm.player1 is not None
    with pytest.raises(PermissionDeniedError):
        match_walkover(match=stockholm, winner=stockholm.player1, by=s.referee, reason="late")
    game = game_result_enter(match=goteborg, number=1, result=won("W", "hemspel"), by=s.referee)
    game_result_correct(
        game=game,
        result=won("B", "hemspel"),
        by=s.referee,
        expected_version=game_version(game=game),
    )
    assert not is_match_referee(s.referee, stockholm)
    assert is_match_referee(s.referee, goteborg)


def test_a_scoped_referee_does_not_correct_another_venues_result() -> None:
    s = split(16, [("Stockholm", None), ("Göteborg", None)])
    stockholm = first_round(s.tournament)[0]
    game = game_result_enter(match=stockholm, number=1, result=won("W", "hemspel"), by=s.referee)
    venue_referee_set(tournament=s.tournament, user=s.referee, venue=s.venues[1], by=s.organiser)
    with pytest.raises(PermissionDeniedError):
        game_result_correct(
            game=game,
            result=won("B", "hemspel"),
            by=s.referee,
            expected_version=game_version(game=game),
        )


def test_an_unscoped_referee_and_the_organisers_keep_every_match() -> None:
    s = split(16, [("Stockholm", None), ("Göteborg", None)])
    rows = first_round(s.tournament)
    scoped = UserFactory.create()
    s.tournament.referees.add(scoped)
    venue_referee_set(tournament=s.tournament, user=scoped, venue=s.venues[0], by=s.organiser)
    s.venues[0].referees.add(s.organiser)  # an organiser is never scoped
    for m in (rows[0], rows[4]):
        game_result_enter(match=m, number=1, result=won("W", "hemspel"), by=s.referee)
        game_result_enter(match=m, number=2, result=won("W", "hemspel"), by=s.organiser)
    # Scoped back to no venue: every match again.
    venue_referee_set(tournament=s.tournament, user=scoped, venue=None, by=s.organiser)
    game_result_enter(match=rows[5], number=1, result=won("W", "hemspel"), by=scoped)


def test_only_a_referee_of_the_tournament_is_scoped_and_only_by_an_organiser() -> None:
    s = split(8, [("Stockholm", None)])
    stranger = UserFactory.create()
    with pytest.raises(ValidationError) as err:
        venue_referee_set(tournament=s.tournament, user=stranger, venue=s.venues[0], by=s.organiser)
    assert err.value.code == "not_a_referee"
    with pytest.raises(PermissionDeniedError):
        venue_referee_set(tournament=s.tournament, user=s.referee, venue=s.venues[0], by=s.referee)
