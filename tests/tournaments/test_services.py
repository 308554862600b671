"""Tournament, entry and round services: validation, roles and states."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from matches.errors import ConflictError, PermissionDeniedError, ValidationError
from matches.models import Match
from matches.services import game_result_enter
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.tournaments.helpers import drawn, match_of
from tournaments import services
from tournaments.models import Entry, Round, TournamentStatus

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)


class TestTournament:
    def test_create_makes_the_creator_organiser(self) -> None:
        user = OrganiserFactory.create()
        t = services.tournament_create(by=user, name=" KM ", start_date=DAY)
        assert t.name == "KM" and t.end_date == DAY and list(t.organisers.all()) == [user]
        assert t.status == TournamentStatus.DRAFT

    def test_create_needs_the_permission(self) -> None:
        with pytest.raises(PermissionDeniedError, match="organiser rights"):
            services.tournament_create(by=UserFactory.create(), name="KM", start_date=DAY)

    @pytest.mark.parametrize(
        ("fields", "message"),
        [
            ({"rules": "chess"}, "Unknown rule set"),
            ({"scale": "x"}, "ww, ny1 or ny2"),
            ({"resignation_policy": "sometimes"}, "capped or forbidden"),
            ({"addons": ["one-die"]}, "only with the board"),
            ({"rules": "board", "addons": ["two-dice"]}, "Unknown add-on"),
            ({"rules": "board", "addons": ["one-die", "one-die"]}, "only once"),
            ({"end_date": DAY - datetime.timedelta(days=1)}, "end before"),
        ],
    )
    def test_create_validation(self, fields: dict[str, Any], message: str) -> None:
        with pytest.raises(ValidationError, match=message):
            services.tournament_create(
                by=OrganiserFactory.create(), name="KM", start_date=DAY, **fields
            )

    def test_board_addons_accepted(self) -> None:
        t = services.tournament_create(
            by=OrganiserFactory.create(),
            name="B",
            start_date=DAY,
            rules="board",
            addons=["easy-reentry", "double-six"],
        )
        assert t.addons == ["easy-reentry", "double-six"]

    def test_update_play_fields_only_before_draw(self) -> None:
        s = drawn(4)
        services.tournament_update(tournament=s.tournament, by=s.organiser, venue="Aula")
        with pytest.raises(ConflictError, match="before the bracket"):
            services.tournament_update(tournament=s.tournament, by=s.organiser, scale="ny2")
        with pytest.raises(PermissionDeniedError):
            services.tournament_update(tournament=s.tournament, by=s.referee, venue="X")
        with pytest.raises(ValidationError, match="cannot be changed"):
            services.tournament_update(tournament=s.tournament, by=s.organiser, status="draft")

    def test_staff(self) -> None:
        s = drawn(2)
        new = UserFactory.create()
        services.tournament_staff_set(tournament=s.tournament, by=s.organiser, referees=[new])
        assert list(s.tournament.referees.all()) == [new]
        with pytest.raises(ValidationError, match="at least one organiser"):
            services.tournament_staff_set(tournament=s.tournament, by=s.organiser, organisers=[])


class TestEntries:
    def test_add_seed_and_conflicts(self) -> None:
        organiser = OrganiserFactory.create()
        t = TournamentFactory.create(organisers=[organiser])
        a, b = PlayerFactory.create(), PlayerFactory.create()
        services.entry_add(tournament=t, player=a, seed=1, by=organiser)
        with pytest.raises(ConflictError, match="entered already"):
            services.entry_add(tournament=t, player=a, by=organiser)
        with pytest.raises(ConflictError, match="Seed 1 is taken"):
            services.entry_add(tournament=t, player=b, seed=1, by=organiser)
        entry = services.entry_add(tournament=t, player=b, by=organiser)
        services.entry_seed_set(entry=entry, seed=2, by=organiser)
        with pytest.raises(PermissionDeniedError):
            services.entry_add(tournament=t, player=PlayerFactory.create(), by=UserFactory.create())

    def test_no_entries_after_draw(self) -> None:
        s = drawn(2)
        with pytest.raises(ConflictError, match="before the bracket"):
            services.entry_add(
                tournament=s.tournament, player=PlayerFactory.create(), by=s.organiser
            )

    def test_withdraw_before_draw_leaves_the_draw(self) -> None:
        organiser = OrganiserFactory.create()
        t = TournamentFactory.create(organisers=[organiser])
        entries = [EntryFactory.create(tournament=t) for _ in range(3)]
        services.entry_withdraw(entry=entries[0], by=organiser)
        services.tournament_bracket_generate(tournament=t, by=organiser, draw_seed=1)
        placed = Match.objects.filter(tournament=t, round__number=1).values_list(
            "player1_id", "player2_id"
        )
        ids = {p for pair in placed for p in pair if p}
        assert ids == {entries[1].player_id, entries[2].player_id}
        with pytest.raises(ConflictError, match="withdrawn already"):
            services.entry_withdraw(entry=Entry.objects.get(pk=entries[0].pk), by=organiser)


class TestDrawAndRounds:
    def test_draw_needs_two_players_and_right_lengths(self) -> None:
        organiser = OrganiserFactory.create()
        t = TournamentFactory.create(organisers=[organiser])
        EntryFactory.create(tournament=t)
        with pytest.raises(ValidationError, match="at least 2 players"):
            services.tournament_bracket_generate(tournament=t, by=organiser)
        EntryFactory.create(tournament=t)
        EntryFactory.create(tournament=t)
        with pytest.raises(ValidationError, match="give 2 match lengths"):
            services.tournament_bracket_generate(tournament=t, by=organiser, lengths=[3])
        with pytest.raises(ValidationError, match="odd number"):
            services.tournament_bracket_generate(tournament=t, by=organiser, lengths=[3, 4])
        services.tournament_bracket_generate(tournament=t, by=organiser)
        t.refresh_from_db()
        assert t.draw_seed is not None
        with pytest.raises(ConflictError):
            services.tournament_bracket_generate(tournament=t, by=organiser)

    def test_round_length(self) -> None:
        s = drawn(4)
        final = Round.objects.get(tournament=s.tournament, number=2)
        services.round_length_set(round=final, length=9, by=s.organiser)
        assert match_of(s.tournament, 2, 0).length == 9
        with pytest.raises(ValidationError, match="odd"):
            services.round_length_set(round=final, length=4, by=s.organiser)
        first = Round.objects.get(tournament=s.tournament, number=1)
        game_result_enter(
            match=match_of(s.tournament, 1, 0), number=1, winner="W", outcome="jan", by=s.referee
        )
        with pytest.raises(ConflictError, match="can no longer change"):
            services.round_length_set(round=first, length=5, by=s.organiser)


class TestPlayers:
    def test_create_and_update(self) -> None:
        organiser = OrganiserFactory.create()
        TournamentFactory.create(organisers=[organiser])
        club = services.club_create(name="Vasa", by=organiser)
        with pytest.raises(ConflictError):
            services.club_create(name="vasa", by=organiser)
        player = services.player_create(name="Anna", club=club, rating=1500, by=organiser)
        services.player_update(player=player, rating=1600, by=organiser)
        assert player.rating == 1600
        with pytest.raises(PermissionDeniedError):
            services.player_create(name="Bo", by=UserFactory.create())
        with pytest.raises(ValidationError):
            services.player_create(name=" ", by=organiser)
        assert ClubFactory.create().name
