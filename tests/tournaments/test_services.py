"""Tournament, entry and round services: validation, roles and states."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
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
from tests.results import won
from tests.tournaments.helpers import drawn, match_of
from tournaments.csv_import import ImportRow
from tournaments.entries import (
    entries_import,
    entries_seeds_set,
    entry_add,
    entry_player_add,
    entry_seed_set,
    entry_withdraw,
)
from tournaments.models import Club, Entry, Player, Round, Tournament, TournamentStatus
from tournaments.players import club_create, player_create, player_update
from tournaments.round_lengths import round_length_set
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create, tournament_staff_set, tournament_update

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)


class TestTournament:
    def test_create_makes_the_creator_organiser(self) -> None:
        user = OrganiserFactory.create()
        t = tournament_create(by=user, name=" KM ", start_date=DAY)
        assert t.name == "KM" and t.end_date == DAY and list(t.organisers.all()) == [user]
        assert t.status == TournamentStatus.DRAFT

    def test_create_needs_the_permission(self) -> None:
        with pytest.raises(PermissionDeniedError, match="organiser rights"):
            tournament_create(by=UserFactory.create(), name="KM", start_date=DAY)

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
            tournament_create(by=OrganiserFactory.create(), name="KM", start_date=DAY, **fields)

    def test_board_addons_accepted(self) -> None:
        t = tournament_create(
            by=OrganiserFactory.create(),
            name="B",
            start_date=DAY,
            rules="board",
            addons=["easy-reentry", "double-six"],
        )
        assert t.addons == ["easy-reentry", "double-six"]

    def test_update_play_fields_only_before_draw(self) -> None:
        s = drawn(4)
        tournament_update(tournament=s.tournament, by=s.organiser, venue="Aula")
        with pytest.raises(ConflictError, match="before the bracket"):
            tournament_update(tournament=s.tournament, by=s.organiser, scale="ny2")
        with pytest.raises(PermissionDeniedError):
            tournament_update(tournament=s.tournament, by=s.referee, venue="X")
        with pytest.raises(ValidationError, match="cannot be changed"):
            tournament_update(tournament=s.tournament, by=s.organiser, status="draft")

    def test_staff(self) -> None:
        s = drawn(2)
        new = UserFactory.create()
        tournament_staff_set(tournament=s.tournament, by=s.organiser, referees=[new])
        assert list(s.tournament.referees.all()) == [new]
        with pytest.raises(ValidationError, match="at least one organiser"):
            tournament_staff_set(tournament=s.tournament, by=s.organiser, organisers=[])


class TestEntries:
    def test_add_seed_and_conflicts(self) -> None:
        organiser = OrganiserFactory.create()
        t = TournamentFactory.create(organisers=[organiser])
        a, b = PlayerFactory.create(), PlayerFactory.create()
        entry_add(tournament=t, player=a, seed=1, by=organiser)
        with pytest.raises(ConflictError, match="entered already"):
            entry_add(tournament=t, player=a, by=organiser)
        with pytest.raises(ConflictError, match="Seed 1 is taken"):
            entry_add(tournament=t, player=b, seed=1, by=organiser)
        entry = entry_add(tournament=t, player=b, by=organiser)
        entry_seed_set(entry=entry, seed=2, by=organiser)
        with pytest.raises(PermissionDeniedError):
            entry_add(tournament=t, player=PlayerFactory.create(), by=UserFactory.create())

    def test_no_entries_after_draw(self) -> None:
        s = drawn(2)
        with pytest.raises(ConflictError, match="before the bracket"):
            entry_add(tournament=s.tournament, player=PlayerFactory.create(), by=s.organiser)

    def test_withdraw_before_draw_leaves_the_draw(self) -> None:
        organiser = OrganiserFactory.create()
        t = TournamentFactory.create(organisers=[organiser])
        entries = [EntryFactory.create(tournament=t) for _ in range(3)]
        entry_withdraw(entry=entries[0], by=organiser)
        tournament_draw(tournament=t, by=organiser, draw_seed=1)
        placed = Match.objects.filter(tournament=t, round__number=1).values_list(
            "player1_id", "player2_id"
        )
        ids = {p for pair in placed for p in pair if p}
        assert ids == {entries[1].player_id, entries[2].player_id}
        with pytest.raises(ConflictError, match="withdrawn already"):
            entry_withdraw(entry=Entry.objects.get(pk=entries[0].pk), by=organiser)


class TestDrawAndRounds:
    def test_draw_needs_two_players_and_right_lengths(self) -> None:
        organiser = OrganiserFactory.create()
        t = TournamentFactory.create(organisers=[organiser])
        EntryFactory.create(tournament=t)
        with pytest.raises(ValidationError, match="at least 2 players"):
            tournament_draw(tournament=t, by=organiser)
        EntryFactory.create(tournament=t)
        EntryFactory.create(tournament=t)
        with pytest.raises(ValidationError, match="3 players make 2 rounds: give 2 lengths, not 1"):
            tournament_draw(tournament=t, by=organiser, lengths=[3])
        with pytest.raises(ValidationError, match="odd number"):
            tournament_draw(tournament=t, by=organiser, lengths=[3, 4])
        tournament_draw(tournament=t, by=organiser)
        t.refresh_from_db()
        assert t.draw_seed is not None
        with pytest.raises(ConflictError):
            tournament_draw(tournament=t, by=organiser)

    def test_round_length(self) -> None:
        s = drawn(4)
        final = Round.objects.get(tournament=s.tournament, number=2)
        round_length_set(round=final, length=9, by=s.organiser)
        assert match_of(s.tournament, 2, 0).length == 9
        with pytest.raises(ValidationError, match="odd"):
            round_length_set(round=final, length=4, by=s.organiser)
        first = Round.objects.get(tournament=s.tournament, number=1)
        game_result_enter(
            match=match_of(s.tournament, 1, 0), number=1, result=won("W", "jan"), by=s.referee
        )
        with pytest.raises(ConflictError, match="can no longer change"):
            round_length_set(round=first, length=5, by=s.organiser)


def _draft() -> tuple[Tournament, Any]:
    organiser = OrganiserFactory.create()
    return TournamentFactory.create(organisers=[organiser]), organiser


class TestEntryPlayerAdd:
    def test_new_player_with_a_new_club_then_the_known_one_again(self) -> None:
        t, organiser = _draft()
        entry, created = entry_player_add(
            tournament=t, name=" Anna Berg ", new_club="Lunds BK", rating=1620, seed=1, by=organiser
        )
        assert created and entry.seed == 1 and entry.player.name == "Anna Berg"
        assert entry.player.club is not None and entry.player.club.name == "Lunds BK"
        # Another tournament: the same player (any case), the same club, the rating updated.
        t2 = TournamentFactory.create(organisers=[organiser])
        again, created = entry_player_add(
            tournament=t2, name="anna berg", new_club="LUNDS bk", rating=1700, by=organiser
        )
        assert not created and again.player == entry.player and again.player.rating == 1700
        assert Player.objects.count() == 1 and Club.objects.count() == 1

    def test_same_name_in_another_club_is_another_player(self) -> None:
        t, organiser = _draft()
        known = PlayerFactory.create(name="Erik", club=ClubFactory.create(name="A"))
        entry, created = entry_player_add(
            tournament=t, name="Erik", club=ClubFactory.create(name="B"), by=organiser
        )
        assert created and entry.player != known

    def test_refused_entry_leaves_no_player_or_club(self) -> None:
        t, organiser = _draft()
        EntryFactory.create(tournament=t, seed=1)
        players, clubs = Player.objects.count(), Club.objects.count()
        with pytest.raises(ConflictError, match="Seed 1 is taken"):
            entry_player_add(tournament=t, name="Nils", new_club="Ny klubb", seed=1, by=organiser)
        assert (Player.objects.count(), Club.objects.count()) == (players, clubs)

    def test_club_or_new_club_not_both(self) -> None:
        t, organiser = _draft()
        with pytest.raises(ValidationError, match="not both"):
            entry_player_add(
                tournament=t, name="X", club=ClubFactory.create(), new_club="Y", by=organiser
            )

    def test_permission_and_draft(self) -> None:
        t, _organiser = _draft()
        for user in (UserFactory.create(), OrganiserFactory.create()):
            with pytest.raises(PermissionDeniedError, match="Only an organiser"):
                entry_player_add(tournament=t, name="X", new_club="K", by=user)
        s = drawn(2)
        with pytest.raises(ConflictError, match="before the bracket"):
            entry_player_add(tournament=s.tournament, name="Late", by=s.organiser)
        assert not Player.objects.filter(name__in=["X", "Late"]).exists()
        assert not Club.objects.filter(name="K").exists()


def _rows(*rows: tuple[str, str, int | None, int | None]) -> list[ImportRow]:
    return [ImportRow(i + 2, *row) for i, row in enumerate(rows)]


class TestEntriesImport:
    def test_imports_every_row_reusing_players_and_clubs(self) -> None:
        t, organiser = _draft()
        known = PlayerFactory.create(name="Anna Berg", club=ClubFactory.create(name="Lunds BK"))
        entries = entries_import(
            tournament=t,
            rows=_rows(
                ("anna berg", "lunds bk", 1620, 1),
                ("Erik Holm", "", None, None),
                ("Sara Lind", "Nya klubben", None, 2),
                ("Lars Ek", "nya KLUBBEN", 1400, None),
            ),
            by=organiser,
        )
        assert [e.player.name for e in entries] == [
            "Anna Berg",
            "Erik Holm",
            "Sara Lind",
            "Lars Ek",
        ]
        assert entries[0].player == known and entries[0].seed == 1
        assert entries[1].player.club is None
        assert entries[2].player.club == entries[3].player.club
        assert Club.objects.count() == 2 and Entry.objects.filter(tournament=t).count() == 4

    def test_a_refused_row_imports_nothing_and_every_refusal_is_listed(self) -> None:
        t, organiser = _draft()
        EntryFactory.create(tournament=t, seed=2, player=PlayerFactory.create(name="Old"))
        with pytest.raises(ValidationError, match="Nothing was imported") as err:
            entries_import(
                tournament=t,
                rows=_rows(
                    ("Anna", "Ny klubb", None, 1),
                    ("Erik", "", None, 2),  # the seed is taken
                    ("Sara", "", None, 3),
                    ("anna", "ny klubb", None, None),  # Anna twice
                ),
                by=organiser,
            )
        assert [(e["row"], e["code"]) for e in err.value.extra["errors"]] == [
            (3, "conflict"),
            (5, "conflict"),
        ]
        assert "Seed 2 is taken" in err.value.extra["errors"][0]["message"]
        assert "entered already" in err.value.extra["errors"][1]["message"]
        assert err.value.to_dict()["errors"] == err.value.extra["errors"]
        assert Entry.objects.filter(tournament=t).count() == 1
        assert not Player.objects.exclude(name="Old").exists()
        assert not Club.objects.filter(name="Ny klubb").exists()

    def test_permission_draft_and_no_rows(self) -> None:
        t, organiser = _draft()
        rows = _rows(("Anna", "", None, None))
        with pytest.raises(PermissionDeniedError):
            entries_import(tournament=t, rows=rows, by=OrganiserFactory.create())
        with pytest.raises(ValidationError, match="no players"):
            entries_import(tournament=t, rows=[], by=organiser)
        s = drawn(2)
        with pytest.raises(ConflictError, match="before the bracket"):
            entries_import(tournament=s.tournament, rows=rows, by=s.organiser)
        assert not Player.objects.filter(name="Anna").exists()


class TestEntriesSeedsSet:
    def _entries(self, n: int) -> tuple[Tournament, Any, list[Entry]]:
        t, organiser = _draft()
        return t, organiser, [EntryFactory.create(tournament=t) for _ in range(n)]

    @staticmethod
    def _seeds(t: Tournament) -> dict[int, int | None]:
        return dict(Entry.objects.filter(tournament=t).values_list("pk", "seed"))

    def test_set_then_swap_in_one_call(self) -> None:
        t, organiser, (a, b, c) = self._entries(3)
        entries_seeds_set(tournament=t, seeds={a.pk: 1, b.pk: 2}, by=organiser)
        result = entries_seeds_set(tournament=t, seeds={a.pk: 2, b.pk: 1, c.pk: None}, by=organiser)
        assert {e.pk: e.seed for e in result} == {a.pk: 2, b.pk: 1, c.pk: None}
        assert self._seeds(t) == {a.pk: 2, b.pk: 1, c.pk: None}
        entries_seeds_set(tournament=t, seeds={a.pk: None, c.pk: 2}, by=organiser)
        assert self._seeds(t) == {a.pk: None, b.pk: 1, c.pk: 2}

    def test_a_withdrawn_players_seed_is_freed(self) -> None:
        t, organiser, (a, b) = self._entries(2)
        entries_seeds_set(tournament=t, seeds={a.pk: 1}, by=organiser)
        entry_withdraw(entry=a, by=organiser)
        entries_seeds_set(tournament=t, seeds={b.pk: 1}, by=organiser)
        assert self._seeds(t) == {a.pk: None, b.pk: 1}
        with pytest.raises(ValidationError, match="has withdrawn"):
            entries_seeds_set(tournament=t, seeds={a.pk: 2}, by=organiser)

    @pytest.mark.parametrize(
        ("wanted", "error", "message"),
        [
            ({0: 1, 1: 1}, ValidationError, "Seed 1 is given to"),
            ({0: 0}, ValidationError, "count from 1"),
            ({1: 3}, ConflictError, "Seed 3 is held by"),  # entry 2 holds it and is left out
        ],
    )
    def test_refusals_change_nothing(
        self, wanted: dict[int, int | None], error: type[Exception], message: str
    ) -> None:
        t, organiser, entries = self._entries(3)
        entries_seeds_set(tournament=t, seeds={entries[2].pk: 3}, by=organiser)
        before = self._seeds(t)
        seeds = {entries[i].pk: s for i, s in wanted.items()}
        with pytest.raises(error, match=message):
            entries_seeds_set(tournament=t, seeds=seeds, by=organiser)
        assert self._seeds(t) == before

    def test_entries_of_another_tournament_permission_and_draft(self) -> None:
        t, organiser, (a,) = self._entries(1)
        other = EntryFactory.create()
        with pytest.raises(NotFoundError):
            entries_seeds_set(tournament=t, seeds={other.pk: 1}, by=organiser)
        with pytest.raises(PermissionDeniedError):
            entries_seeds_set(tournament=t, seeds={a.pk: 1}, by=UserFactory.create())
        s = drawn(2)
        first = Entry.objects.filter(tournament=s.tournament).first()
        assert first is not None
        with pytest.raises(ConflictError, match="before the bracket"):
            entries_seeds_set(tournament=s.tournament, seeds={first.pk: None}, by=s.organiser)
        assert self._seeds(t) == {a.pk: None} and other.seed is None


class TestPlayers:
    def test_create_and_update(self) -> None:
        organiser = OrganiserFactory.create()
        TournamentFactory.create(organisers=[organiser])
        club = club_create(name="Vasa", by=organiser)
        with pytest.raises(ConflictError):
            club_create(name="vasa", by=organiser)
        player = player_create(name="Anna", club=club, rating=1500, by=organiser)
        # An organiser changes only players entered in their tournaments.
        with pytest.raises(PermissionDeniedError):
            player_update(player=player, rating=1600, by=organiser)
        EntryFactory.create(tournament=Tournament.objects.get(organisers=organiser), player=player)
        player_update(player=player, rating=1600, by=organiser)
        assert player.rating == 1600
        with pytest.raises(PermissionDeniedError):
            player_create(name="Bo", by=UserFactory.create())
        with pytest.raises(ValidationError):
            player_create(name=" ", by=organiser)
        assert ClubFactory.create().name
