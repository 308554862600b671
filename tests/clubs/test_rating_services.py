"""Ratings per game, stored: updated after every match through the match
services' commit, rebuilt to the same figures, private tournaments and walkovers left out,
imported starts, seeding a draw by rating."""

from __future__ import annotations

import datetime
import io
import random
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command

from clubs.models import PlayerRating, RatingBook, RatingEntry, RatingStart
from clubs.rating_selectors import finished_matches, match_rating_change
from clubs.rating_services import (
    SyncResult,
    entries_seed_by_rating,
    match_ratings_sync,
    rating_starts_set,
    ratings_rebuild,
)
from matches import services as match_services
from matches.errors import PermissionDeniedError, ValidationError
from matches.models import Match, MatchState
from ratings.fibs import match_change
from ratings.ledger import rebuild
from tests.clubs.helpers import win, win_by
from tests.factories import (
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of
from tournaments.models import Entry, Player, Tournament
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_update

pytestmark = pytest.mark.django_db


def snapshot() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every stored rating and history row, in a fixed order."""
    ratings = list(
        PlayerRating.objects.order_by("game", "player_id").values_list(
            "game", "player_id", "rating", "experience", "matches"
        )
    )
    entries = list(
        RatingEntry.objects.order_by("game", "match_id", "player_id").values_list(
            "game",
            "match_id",
            "player_id",
            "opponent_id",
            "won",
            "before",
            "after",
            "change",
            "experience",
            "length",
            "ended_at",
        )
    )
    return ratings, entries


def stored(player: Player, game: str = "brade") -> PlayerRating:
    return PlayerRating.objects.get(game=game, player=player)


class TestIncremental:
    def test_a_decided_match_moves_both_ratings_by_the_fibs_formula(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        s = drawn(2, lengths=[3])
        final = match_of(s.tournament, 1, 0)
        one, two = players_of(final)
        win(django_capture_on_commit_callbacks, final, "W", s.referee)
        # 1500 v 1500, n = 3, both new (K = 5): 4·5·√3·½ = 17.3205… → 17.32.
        assert stored(one).rating == Decimal("1517.32")
        assert stored(two).rating == Decimal("1482.68")
        assert (stored(one).experience, stored(one).matches) == (3, 1)
        change = match_rating_change(match=final)
        assert change is not None
        assert (change.first.change, change.second.change) == (Decimal("17.32"), Decimal("-17.32"))
        assert change.first.won and not change.second.won
        book = RatingBook.objects.get(game="brade")
        assert book.last_match_id == final.pk

    def test_games_before_the_decision_rate_nothing(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        s = drawn(2, lengths=[3])
        final = match_of(s.tournament, 1, 0)
        with django_capture_on_commit_callbacks(execute=True):
            match_services.game_result_enter(
                match=final, number=1, result=won("W", "hemspel"), by=s.referee
            )
        assert not RatingEntry.objects.exists() and not PlayerRating.objects.exists()
        assert match_ratings_sync(match_id=final.pk) is SyncResult.NOT_RATED

    def test_a_second_sync_changes_nothing(self, django_capture_on_commit_callbacks: Any) -> None:
        s = drawn(2, lengths=[3])
        final = win(
            django_capture_on_commit_callbacks, match_of(s.tournament, 1, 0), "B", s.referee
        )
        before = snapshot()
        assert match_ratings_sync(match_id=final.pk) is SyncResult.UNCHANGED
        assert snapshot() == before

    def test_the_rated_length_is_the_scheduled_one(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        # Best of 7 won 4–0 (decided before all 7 games): rated as n = 7, not 4.
        s = drawn(2, lengths=[7])
        final = win(
            django_capture_on_commit_callbacks, match_of(s.tournament, 1, 0), "W", s.referee
        )
        assert final.games.count() < 7
        assert final.player1 is not None
        entry = RatingEntry.objects.get(match=final, player=final.player1)
        assert entry.length == 7 and stored(final.player1).experience == 7
        assert entry.change == Decimal("26.46")  # 4·5·√7·½ = 26.457…

    def test_a_walkover_is_not_rated(self, django_capture_on_commit_callbacks: Any) -> None:
        s = drawn(2, lengths=[3])
        final = match_of(s.tournament, 1, 0)
        with django_capture_on_commit_callbacks(execute=True):
            match_services.match_walkover(
                match=final, winner=players_of(final)[0], by=s.organiser, reason="absent"
            )
        assert final.__class__.objects.get(pk=final.pk).state == MatchState.WALKOVER
        assert not RatingEntry.objects.exists() and not PlayerRating.objects.exists()

    def test_matches_of_a_private_tournament_are_not_rated_until_it_is_public(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        s = drawn(2, lengths=[3], is_public=False)
        final = win(
            django_capture_on_commit_callbacks, match_of(s.tournament, 1, 0), "W", s.referee
        )
        assert not RatingEntry.objects.exists()
        with django_capture_on_commit_callbacks(execute=True):
            tournament_update(tournament=s.tournament, by=s.organiser, is_public=True)
        assert RatingEntry.objects.filter(match=final).count() == 2
        with django_capture_on_commit_callbacks(execute=True):
            tournament_update(tournament=s.tournament, by=s.organiser, is_public=False)
        assert not RatingEntry.objects.exists() and not PlayerRating.objects.exists()

    def test_a_correction_that_changes_the_winner_rebuilds(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        s = drawn(2, lengths=[3])
        final = win(
            django_capture_on_commit_callbacks, match_of(s.tournament, 1, 0), "W", s.referee
        )
        one, two = players_of(final)
        assert final.games.count() == 3  # 2–0 after two hemspel is not decided (S4)
        assert stored(one).rating > stored(two).rating
        # Game 3 was Black's jan, not White's hemspel: 2–2, skiljepoäng to Black (S4's
        # third example), so Black wins the match.
        with django_capture_on_commit_callbacks(execute=True):
            match_services.game_result_correct(
                game=final.games.get(number=3),
                result=won("B", "jan"),
                by=s.referee,
                expected_version=1,
            )
        final.refresh_from_db()
        assert final.winner == two
        assert stored(two).rating == Decimal("1517.32")
        assert stored(one).rating == Decimal("1482.68")
        assert RatingEntry.objects.count() == 2
        before = snapshot()
        assert match_ratings_sync(match_id=final.pk) is SyncResult.UNCHANGED
        assert snapshot() == before

    def test_a_reset_takes_the_match_out(self, django_capture_on_commit_callbacks: Any) -> None:
        s = drawn(2, lengths=[3])
        final = win(
            django_capture_on_commit_callbacks, match_of(s.tournament, 1, 0), "W", s.referee
        )
        with django_capture_on_commit_callbacks(execute=True):
            match_services.match_reset(match=final, by=s.organiser, reason="wrong table")
        assert not RatingEntry.objects.exists() and not PlayerRating.objects.exists()

    def test_a_match_that_ended_before_the_last_rated_one_rebuilds(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        first, second = drawn(2, lengths=[1]), drawn(2, lengths=[1])
        a, b = match_of(first.tournament, 1, 0), match_of(second.tournament, 1, 0)
        # Both decided (a first), but their rating updates run in the other order, as when
        # a's transaction commits last.
        with django_capture_on_commit_callbacks(execute=False):
            match_services.game_result_enter(
                match=a, number=1, result=won("W", "hemspel"), by=first.referee
            )
        with django_capture_on_commit_callbacks(execute=False) as of_b:
            match_services.game_result_enter(
                match=b, number=1, result=won("W", "hemspel"), by=second.referee
            )
        for callback in of_b:
            callback()
        assert match_ratings_sync(match_id=a.pk) is SyncResult.REBUILT
        assert RatingBook.objects.get(game="brade").last_match_id == b.pk
        ledger = rebuild(finished_matches("brade"))
        assert snapshot()[0] == [
            ("brade", p, s.rating, s.experience, 1)
            for p, s in sorted(ledger.book("brade").states.items())
        ]


def _tournament(
    players: list[Player], organiser: Any, referee: Any, *, lengths: list[int]
) -> Tournament:
    tournament = TournamentFactory.create(organisers=[organiser], referees=[referee])
    for player in players:
        EntryFactory.create(tournament=tournament, player=player)
    tournament_draw(tournament=tournament, by=organiser, lengths=lengths, draw_seed=len(players))
    return tournament


def test_rebuild_gives_what_the_incremental_updates_gave(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Five tournaments of a club's twelve players played out with random winners, one
    walkover, one private tournament and one correction that changes a winner; then
    ``manage.py ratings rebuild`` writes nothing, and the stored figures are the pure
    ledger's."""
    rng = random.Random(15)
    organiser, referee = OrganiserFactory.create(), UserFactory.create()
    pool = [PlayerFactory.create(name=f"Club player {i}") for i in range(12)]
    walkover_done = corrected = False
    for number in range(5):
        lengths = [rng.choice([1, 3, 5]), rng.choice([3, 5]), 7]
        tournament = _tournament(rng.sample(pool, 8), organiser, referee, lengths=lengths)
        if number == 3:
            tournament_update(tournament=tournament, by=organiser, is_public=False)
        for round_number in (1, 2, 3):
            for match in Match.objects.filter(tournament=tournament, round__number=round_number):
                match.refresh_from_db()
                if match.state in (MatchState.BYE, MatchState.WALKOVER):
                    continue
                if not walkover_done and round_number == 2:
                    with django_capture_on_commit_callbacks(execute=True):
                        match_services.match_walkover(
                            match=match, winner=players_of(match)[0], by=organiser, reason="ill"
                        )
                    walkover_done = True
                    continue
                win(django_capture_on_commit_callbacks, match, rng.choice("WB"), referee)
                if not corrected and round_number == 3 and match.length >= 3:
                    # The final's last game corrected to the other player: undecided again,
                    # then decided for the other player.
                    last = match.games.order_by("-number").first()
                    assert last is not None
                    other = "B" if last.winner == "W" else "W"
                    with django_capture_on_commit_callbacks(execute=True):
                        match_services.game_result_correct(
                            game=last,
                            result=won(other, "hemspel"),
                            by=referee,
                            expected_version=1,
                        )
                    win(django_capture_on_commit_callbacks, match, other, referee)
                    corrected = True
    assert walkover_done and corrected
    incremental = snapshot()
    assert len(incremental[1]) == 2 * len(finished_matches("brade")) > 40
    out = io.StringIO()
    call_command("ratings", "rebuild", "--game", "brade", stdout=out)
    assert "0 history rows written, 0 removed, 0 ratings written" in out.getvalue()
    assert snapshot() == incremental
    ledger = rebuild(finished_matches("brade"))
    assert incremental[0] == [
        ("brade", p, state.rating, state.experience, len(ledger.history("brade", p)))
        for p, state in sorted(ledger.book("brade").states.items())
    ]
    # The command's list is the stored list, best first.
    out = io.StringIO()
    call_command("ratings", "list", "--game", "brade", "--limit", "3", stdout=out)
    lines = out.getvalue().splitlines()
    best = PlayerRating.objects.order_by("-rating", "player__name").first()
    assert best is not None and len(lines) == 3
    assert lines[0].split("\t")[:2] == ["1", str(best.rating)]


def test_rebuild_repairs_what_an_update_missed(django_capture_on_commit_callbacks: Any) -> None:
    s = drawn(2, lengths=[3])
    final = win(django_capture_on_commit_callbacks, match_of(s.tournament, 1, 0), "W", s.referee)
    expected = snapshot()
    RatingEntry.objects.all().delete()
    PlayerRating.objects.filter(player=final.player1).update(rating=Decimal("1000.00"))
    summary = ratings_rebuild(game="brade")
    assert (summary.matches, summary.entries_written, summary.ratings_written) == (1, 2, 1)
    assert snapshot() == expected


def test_rebuild_of_an_unknown_game_is_refused() -> None:
    with pytest.raises(ValidationError, match="no ratings"):
        ratings_rebuild(game="kungabrade")


class TestStarts:
    def test_an_imported_start_is_where_the_rating_starts(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        s = drawn(2, lengths=[3])
        final = match_of(s.tournament, 1, 0)
        one, two = players_of(final)
        admin = UserFactory.create(is_superuser=True)
        rating_starts_set(game="brade", starts={one.pk: ("1700", 400)}, by=admin, note="SBF")
        assert not PlayerRating.objects.exists()  # a start alone is not a rating
        win_by(django_capture_on_commit_callbacks, final, two, s.referee)
        change = match_change(
            winner_rating=Decimal("1500.00"),
            loser_rating=Decimal("1700.00"),
            length=3,
            winner_experience=0,
            loser_experience=400,
        )
        assert stored(two).rating == Decimal("1500.00") + change.gain
        assert stored(one).rating == Decimal("1700.00") - change.loss
        assert stored(one).experience == 403
        before = snapshot()
        assert ratings_rebuild(game="brade").entries_written == 0
        assert snapshot() == before
        # Changing the start rebuilds at once.
        rating_starts_set(game="brade", starts={one.pk: None}, by=admin)
        assert stored(two).rating == Decimal("1517.32")

    def test_only_registry_staff_set_starts(self) -> None:
        player = PlayerFactory.create()
        with pytest.raises(PermissionDeniedError):
            rating_starts_set(
                game="brade", starts={player.pk: ("1600", 0)}, by=OrganiserFactory.create()
            )

    def test_a_bad_start_is_refused_whole(self) -> None:
        admin = UserFactory.create(is_superuser=True)
        good, bad = PlayerFactory.create(), PlayerFactory.create()
        with pytest.raises(ValidationError, match="two decimals"):
            rating_starts_set(
                game="brade", starts={good.pk: ("1600", 0), bad.pk: ("1600.125", 0)}, by=admin
            )
        assert not RatingStart.objects.exists()

    def test_the_command_copies_player_ratings_once(self) -> None:
        UserFactory.create(is_superuser=True)
        rated = PlayerFactory.create(rating=1650)
        PlayerFactory.create(rating=None)
        out = io.StringIO()
        call_command("ratings", "starts", "--from-player-rating", stdout=out)
        assert "1 starting ratings" in out.getvalue()
        start = RatingStart.objects.get()
        assert (start.player, start.rating, start.experience) == (rated, Decimal("1650.00"), 0)
        rated.rating = 1400
        rated.save()
        call_command("ratings", "starts", "--from-player-rating", stdout=out)
        assert RatingStart.objects.get().rating == Decimal("1650.00")  # kept: set once


class TestSeeding:
    def _draft(self) -> tuple[Tournament, Any, list[Player]]:
        organiser = OrganiserFactory.create()
        tournament = TournamentFactory.create(organisers=[organiser])
        players = [PlayerFactory.create(name=f"S{i}") for i in range(5)]
        for player in players:
            EntryFactory.create(tournament=tournament, player=player)
        admin = UserFactory.create(is_superuser=True)
        rating_starts_set(
            game="brade",
            starts={
                players[0].pk: ("1600", 0),
                players[1].pk: ("1700", 0),
                players[3].pk: ("1400", 0),
            },
            by=admin,
        )
        return tournament, organiser, players

    def test_entries_are_seeded_by_rating(self) -> None:
        tournament, organiser, p = self._draft()
        entries_seed_by_rating(tournament=tournament, by=organiser)
        seeds = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "seed"))
        assert seeds[p[1].pk] == 1 and seeds[p[0].pk] == 2 and seeds[p[3].pk] == 5
        assert {seeds[p[2].pk], seeds[p[4].pk]} == {3, 4}  # both 1500: drawn
        again = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "seed"))
        entries_seed_by_rating(tournament=tournament, by=organiser)
        assert (
            dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "seed"))
            == again
        )

    def test_only_the_best_are_seeded_when_asked(self) -> None:
        tournament, organiser, p = self._draft()
        entries_seed_by_rating(tournament=tournament, by=organiser, count=2)
        seeds = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "seed"))
        assert seeds == {p[1].pk: 1, p[0].pk: 2, p[2].pk: None, p[3].pk: None, p[4].pk: None}

    def test_a_player_without_a_computed_rating_is_seeded_by_the_given_one(self) -> None:
        """The rating computed here first; without one, the rating given with the entry
        (``Player.rating``); with neither, 1500."""
        tournament, organiser, p = self._draft()
        Player.objects.filter(pk=p[4].pk).update(rating=1650)  # given, no computed one
        Player.objects.filter(pk=p[1].pk).update(rating=1000)  # the computed 1700 wins
        entries_seed_by_rating(tournament=tournament, by=organiser)
        seeds = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "seed"))
        assert [seeds[x.pk] for x in (p[1], p[4], p[0], p[2], p[3])] == [1, 2, 3, 4, 5]

    def test_only_organisers_seed(self) -> None:
        tournament, _organiser, _p = self._draft()
        with pytest.raises(PermissionDeniedError):
            entries_seed_by_rating(tournament=tournament, by=UserFactory.create())


def test_history_follows_the_order_matches_ended(django_capture_on_commit_callbacks: Any) -> None:
    s = drawn(4, lengths=[1, 1])
    first = win(django_capture_on_commit_callbacks, match_of(s.tournament, 1, 0), "W", s.referee)
    win(django_capture_on_commit_callbacks, match_of(s.tournament, 1, 1), "W", s.referee)
    final = win(django_capture_on_commit_callbacks, match_of(s.tournament, 2, 0), "W", s.referee)
    champion = final.player1
    assert champion is not None and champion.pk == first.player1_id
    history = list(RatingEntry.objects.filter(player=champion).order_by("ended_at", "match_id"))
    assert [e.match_id for e in history] == [first.pk, final.pk]
    assert history[1].before == history[0].after
    assert stored(champion).rating == history[1].after
    assert datetime.UTC  # ended_at carries a time zone
    assert all(e.ended_at.utcoffset() is not None for e in history)


def test_a_start_set_in_the_admin_rebuilds(
    client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    s = drawn(2, lengths=[3])
    final = win(django_capture_on_commit_callbacks, match_of(s.tournament, 1, 0), "W", s.referee)
    one, two = players_of(final)
    client.force_login(UserFactory.create(is_superuser=True, is_staff=True))
    response = client.post(
        "/admin/clubs/ratingstart/add/",
        {"player": one.pk, "game": "brade", "rating": "1600.00", "experience": 0, "note": "SBF"},
    )
    assert response.status_code == 302, response.content[:500]
    assert RatingStart.objects.get(player=one).rating == Decimal("1600.00")
    # The rebuild started the winner at 1600: a favourite's win gains less than 17.32.
    assert Decimal("1600.00") < stored(one).rating < Decimal("1617.32")
    assert stored(two).rating > Decimal("1482.68")


def test_a_backgammon_match_moves_only_backgammon_ratings(
    django_capture_on_commit_callbacks: Any,
) -> None:
    s = drawn(2, lengths=[3], game="backgammon")
    final = win(
        django_capture_on_commit_callbacks,
        match_of(s.tournament, 1, 0),
        "W",
        s.referee,
        outcome="single",
    )
    one, two = players_of(final)
    # A 3-point match between newcomers: 4·5·√3·½ = 17.32, as for bräde best of 3.
    assert stored(one, "backgammon").rating == Decimal("1517.32")
    assert stored(two, "backgammon").rating == Decimal("1482.68")
    assert not PlayerRating.objects.filter(game="brade").exists()
    assert ratings_rebuild(game="backgammon").entries_written == 0
