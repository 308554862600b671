"""Result entry, corrections, walkovers, resets, withdrawals and placings (services)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from core.errors import (
    ConflictError,
    PermissionDeniedError,
    PreconditionRequiredError,
    ValidationError,
)
from matches.models import EventKind, Game, GameResult, MatchEvent, MatchState
from matches.round_selectors import tournament_placings
from matches.selectors import game_version
from matches.services import (
    game_result_correct,
    game_result_enter,
    match_reset,
    match_walkover,
)
from tests.factories import UserFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of, players_of
from tournaments.entries import entry_withdraw
from tournaments.models import Entry, TournamentStatus

pytestmark = pytest.mark.django_db


def enter(match, number, text, by, **kw):  # type: ignore[no-untyped-def]
    """Enter ``text`` like ``W hemspel munk`` as game ``number``."""
    words = text.split()
    winner, outcome = words[0], words[1]
    pattern = next((w for w in words[2:] if w != "munk"), None)
    return game_result_enter(
        match=match,
        number=number,
        result=won(winner, outcome, pattern=pattern, munk="munk" in words),
        by=by,
        **kw,
    )


class TestEntry:
    def test_game_by_game_until_decided_then_advance(self) -> None:
        s = drawn(4, lengths=[3, 3])
        m = match_of(s.tournament, 1, 0)
        g1 = enter(m, 1, "W hemspel", s.referee, starter="B")
        assert g1.starter == "B"
        m.refresh_from_db()
        assert m.state == MatchState.PLAYING and (m.points1, m.points2) == (1, 0)
        g2 = enter(m, 2, "W jan", s.referee)
        assert g2.starter == "B"  # S5: the loser of game 1 starts game 2
        m.refresh_from_db()
        assert m.state == MatchState.DECIDED
        assert m.winner_id == m.player1_id and m.decided_after_game == 2
        final = match_of(s.tournament, 2, 0)
        assert final.player1_id == m.player1_id and final.state == MatchState.WAITING
        kinds = list(MatchEvent.objects.filter(match=m).values_list("kind", flat=True))
        assert kinds == ["result_entered", "result_entered", "match_decided"]

    def test_s4_helmfrid_example_decided_after_game_4(self) -> None:
        s = drawn(2, lengths=[5], rules="helmfrid")
        m = match_of(s.tournament, 1, 0)
        enter(m, 1, "W jan", s.referee, starter="W")
        enter(m, 2, "W hemspel", s.referee)
        enter(m, 3, "W hemspel", s.referee)
        enter(m, 4, "B vackert_spel trappspel munk", s.referee)
        m.refresh_from_db()
        assert (m.points1, m.points2, m.tiebreak1, m.tiebreak2) == (4, 2, 2, 0)
        assert m.state == MatchState.DECIDED and m.decided_after_game == 4 and m.decided_early
        s.tournament.refresh_from_db()
        assert s.tournament.status == TournamentStatus.FINISHED
        with pytest.raises(ConflictError, match="decided after game 4"):
            enter(m, 5, "B jan", s.referee)

    def test_same_game_twice_is_a_conflict_with_state(self) -> None:
        s = drawn(2, lengths=[3])
        m = match_of(s.tournament, 1, 0)
        enter(m, 1, "W hemspel", s.referee)
        other = UserFactory.create()
        s.tournament.referees.add(other)
        with pytest.raises(ConflictError) as info:
            enter(m, 1, "B jan", other)
        assert info.value.code == "game_exists"
        assert info.value.extra["match"]["games"][0]["outcome"] == "hemspel"
        assert Game.objects.filter(match=m).count() == 1
        assert GameResult.objects.filter(game__match=m, confirmed=True).count() == 1

    def test_games_in_order(self) -> None:
        s = drawn(2, lengths=[3])
        with pytest.raises(ValidationError, match="Enter game 1 first"):
            enter(match_of(s.tournament, 1, 0), 2, "W hemspel", s.referee)

    def test_wrong_starter_refused(self) -> None:
        s = drawn(2, lengths=[3])
        m = match_of(s.tournament, 1, 0)
        enter(m, 1, "W hemspel", s.referee)
        with pytest.raises(ValidationError, match="loser of game 1"):
            enter(m, 2, "W hemspel", s.referee, starter="W")

    def test_impossible_result_refused(self) -> None:
        s = drawn(2, lengths=[3])
        with pytest.raises(ValidationError, match="munk"):
            enter(match_of(s.tournament, 1, 0), 1, "W jan munk", s.referee)

    def test_resignation_forbidden_policy(self) -> None:
        s = drawn(2, lengths=[3], resignation_policy="forbidden")
        with pytest.raises(ValidationError, match="S1"):
            enter(match_of(s.tournament, 1, 0), 1, "W uppgivet", s.referee)
        assert not Game.objects.exists()

    def test_waiting_match_refused(self) -> None:
        s = drawn(4, lengths=[1, 1])
        with pytest.raises(ValidationError, match="not known yet"):
            enter(match_of(s.tournament, 2, 0), 1, "W hemspel", s.referee)

    def test_permissions(self) -> None:
        s = drawn(2, lengths=[3])
        m = match_of(s.tournament, 1, 0)
        outsider_referee = UserFactory.create()
        drawn(2).tournament.referees.add(outsider_referee)
        for user in (UserFactory.create(), outsider_referee):
            with pytest.raises(PermissionDeniedError):
                enter(m, 1, "W hemspel", user)
        enter(m, 1, "W hemspel", s.organiser)  # organisers may act as referees

    def test_one_confirmed_version_is_a_database_constraint(self) -> None:
        s = drawn(2, lengths=[3])
        g = enter(match_of(s.tournament, 1, 0), 1, "W hemspel", s.referee)
        with pytest.raises(IntegrityError), transaction.atomic():
            GameResult.objects.create(game=g, version=2, winner="B", outcome="jan", confirmed=True)


class TestCorrection:
    def test_new_version_and_recompute(self) -> None:
        s = drawn(2, lengths=[3])
        m = match_of(s.tournament, 1, 0)
        g = enter(m, 1, "W hemspel", s.referee)
        game_result_correct(
            game=g, result=won("W", "jan"), by=s.referee, expected_version=1, note="typo"
        )
        versions = list(GameResult.objects.filter(game=g).order_by("version"))
        assert [(v.version, v.outcome, v.confirmed) for v in versions] == [
            (1, "hemspel", False),
            (2, "jan", True),
        ]
        m.refresh_from_db()
        assert (m.points1, m.tiebreak1) == (2, 1)
        event = MatchEvent.objects.get(match=m, kind=EventKind.RESULT_CORRECTED)
        assert event.by == s.referee and event.data["before"] == "White hemspel"

    def test_flip_winner_moves_the_advanced_player(self) -> None:
        s = drawn(4, lengths=[1, 1])
        m = match_of(s.tournament, 1, 0)
        g = enter(m, 1, "W hemspel", s.referee, starter="W")
        assert match_of(s.tournament, 2, 0).player1_id == m.player1_id
        game_result_correct(game=g, result=won("B", "hemspel"), by=s.referee, expected_version=1)
        assert match_of(s.tournament, 2, 0).player1_id == m.player2_id

    def test_refused_after_next_round_started_until_reset(self) -> None:
        s = drawn(4, lengths=[1, 1])
        top, bottom = match_of(s.tournament, 1, 0), match_of(s.tournament, 1, 1)
        g = enter(top, 1, "W hemspel", s.referee, starter="W")
        enter(bottom, 1, "W hemspel", s.referee, starter="W")
        final = match_of(s.tournament, 2, 0)
        enter(final, 1, "W hemspel", s.referee, starter="B")
        with pytest.raises(ConflictError, match="must reset") as info:
            game_result_correct(
                game=g, result=won("B", "hemspel"), by=s.referee, expected_version=1
            )
        assert info.value.extra["blocking_match"] == final.pk
        with pytest.raises(PermissionDeniedError):
            match_reset(match=final, by=s.referee, reason="wrong semifinal winner")
        match_reset(match=final, by=s.organiser, reason="wrong semifinal winner")
        game_result_correct(game=g, result=won("B", "hemspel"), by=s.referee, expected_version=1)
        final = match_of(s.tournament, 2, 0)
        assert final.player1_id == top.player2_id and final.state == MatchState.READY
        assert not final.games.filter(voided_at__isnull=True).exists()
        assert final.games.filter(voided_at__isnull=False).count() == 1  # kept, voided
        reset = MatchEvent.objects.get(match=final, kind=EventKind.RESET)
        assert reset.by == s.organiser and reset.data["before"]["games"][0]["number"] == 1
        s.tournament.refresh_from_db()
        assert s.tournament.status == TournamentStatus.RUNNING

    def test_correction_that_decides_earlier_is_refused(self) -> None:
        s = drawn(2, lengths=[5])
        m = match_of(s.tournament, 1, 0)
        enter(m, 1, "W jan", s.referee, starter="W")
        enter(m, 2, "W jan", s.referee)
        g3 = enter(m, 3, "B hemspel", s.referee)
        enter(m, 4, "B hemspel", s.referee)
        m.refresh_from_db()
        assert m.decided_after_game == 4
        # W jan in game 3 would have decided the match after game 3 (6–0, S4).
        with pytest.raises(ValidationError, match="game 4 must not be played"):
            game_result_correct(game=g3, result=won("W", "jan"), by=s.referee, expected_version=1)
        m.refresh_from_db()
        assert m.decided_after_game == 4 and (m.points1, m.points2) == (4, 2)
        assert GameResult.objects.filter(game=g3).count() == 1


class TestCorrectionVersion:
    """No lost update: a correction names the version it corrects."""

    def test_a_stale_version_is_a_conflict_with_the_current_result(self) -> None:
        s = drawn(2, lengths=[5])
        m = match_of(s.tournament, 1, 0)
        other = UserFactory.create(username="kerstin")
        s.tournament.referees.add(other)
        g = enter(m, 1, "W jan", s.referee, starter="W")
        assert game_version(game=g) == 1
        game_result_correct(game=g, result=won("W", "sprangjan"), by=other, expected_version=1)
        assert game_version(game=g) == 2
        # The first referee still has version 1 on the screen.
        with pytest.raises(ConflictError, match="changed by kerstin") as info:
            game_result_correct(
                game=g, result=won("B", "hemspel"), by=s.referee, expected_version=1
            )
        err = info.value
        assert err.code == "stale_version"
        assert err.extra["game"]["version"] == 2
        assert (err.extra["game"]["winner"], err.extra["game"]["outcome"]) == ("W", "sprangjan")
        assert err.extra["match"]["games"][0]["outcome"] == "sprangjan"
        assert "it is now P001 wins by sprängjan (version 2)" in err.message
        # Nothing changed: still two versions, the second confirmed.
        versions = GameResult.objects.filter(game=g).order_by("version")
        assert [(v.outcome, v.confirmed) for v in versions] == [
            ("jan", False),
            ("sprangjan", True),
        ]
        m.refresh_from_db()
        assert m.points1 == 4
        # Naming the current version works.
        game_result_correct(game=g, result=won("B", "hemspel"), by=s.referee, expected_version=2)
        assert game_version(game=g) == 3

    def test_the_stale_check_comes_before_the_same_result_check(self) -> None:
        # Two referees fixing the same typo: the second is told someone was first.
        s = drawn(2, lengths=[5])
        g = enter(match_of(s.tournament, 1, 0), 1, "W jan", s.referee, starter="W")
        game_result_correct(game=g, result=won("B", "jan"), by=s.referee, expected_version=1)
        with pytest.raises(ConflictError) as info:
            game_result_correct(game=g, result=won("B", "jan"), by=s.referee, expected_version=1)
        assert info.value.code == "stale_version"

    def test_no_version_is_refused_after_the_permission_check(self) -> None:
        s = drawn(2, lengths=[5])
        g = enter(match_of(s.tournament, 1, 0), 1, "W jan", s.referee, starter="W")
        with pytest.raises(PreconditionRequiredError, match="must name the version"):
            game_result_correct(game=g, result=won("B", "jan"), by=s.referee, expected_version=None)
        with pytest.raises(PermissionDeniedError):
            game_result_correct(
                game=g, result=won("B", "jan"), by=UserFactory.create(), expected_version=None
            )
        assert GameResult.objects.filter(game=g).count() == 1


class TestWalkoverAndWithdrawal:
    def test_walkover_advances(self) -> None:
        s = drawn(4, lengths=[3, 3])
        m = match_of(s.tournament, 1, 1)
        match_walkover(match=m, winner=players_of(m)[1], by=s.referee, reason="no show")
        m.refresh_from_db()
        assert m.state == MatchState.WALKOVER and m.walkover and m.winner_id == m.player2_id
        assert match_of(s.tournament, 2, 0).player2_id == m.player2_id
        with pytest.raises(ConflictError):
            match_walkover(match=m, winner=players_of(m)[0], by=s.referee)

    def test_withdrawal_after_draw_gives_walkover(self) -> None:
        s = drawn(4, lengths=[1, 1])
        m = match_of(s.tournament, 1, 0)
        entry = Entry.objects.get(tournament=s.tournament, player=players_of(m)[0])
        entry_withdraw(entry=entry, by=s.organiser, reason="ill")
        m.refresh_from_db()
        assert m.state == MatchState.WALKOVER and m.winner_id == m.player2_id

    def test_withdrawal_while_waiting(self) -> None:
        s = drawn(3, lengths=[1, 1])  # seed 1 has a bye and waits in the final
        bye = match_of(s.tournament, 1, 0)
        assert bye.state == MatchState.BYE
        entry = Entry.objects.get(tournament=s.tournament, player=s.players[0])
        entry_withdraw(entry=entry, by=s.organiser)
        final = match_of(s.tournament, 2, 0)
        assert final.state == MatchState.WAITING
        semi = match_of(s.tournament, 1, 1)
        enter(semi, 1, "B hemspel", s.referee, starter="W")
        final = match_of(s.tournament, 2, 0)
        assert final.state == MatchState.WALKOVER and final.winner_id == semi.player2_id
        s.tournament.refresh_from_db()
        assert s.tournament.status == TournamentStatus.FINISHED

    def test_withdrawing_an_eliminated_player_is_refused(self) -> None:
        s = drawn(4, lengths=[1, 1])
        m = match_of(s.tournament, 1, 0)
        enter(m, 1, "W hemspel", s.referee, starter="W")
        entry = Entry.objects.get(tournament=s.tournament, player=players_of(m)[1])
        with pytest.raises(ValidationError, match="no match left"):
            entry_withdraw(entry=entry, by=s.organiser)
        entry.refresh_from_db()
        assert entry.withdrawn_at is None


def play_out(s, winner_side: str = "W") -> None:  # type: ignore[no-untyped-def]
    """Play every match of the tournament with one-game wins for ``winner_side``."""
    from matches.models import Match

    while True:
        ready = Match.objects.filter(
            tournament=s.tournament, state=MatchState.READY
        ).select_related("tournament", "round")
        if not ready:
            return
        for m in ready:
            enter(m, 1, f"{winner_side} hemspel", s.referee, starter="W")


class TestPlacings:
    def test_eight_without_third_place(self) -> None:
        s = drawn(8, lengths=[1, 1, 1])
        play_out(s)
        placings = tournament_placings(tournament=s.tournament)
        labels = [(p.player.name, p.label) for p in placings]
        assert labels[0] == ("P001", "1")
        assert [lab for _, lab in labels] == ["1", "2", "3–4", "3–4", "5–8", "5–8", "5–8", "5–8"]
        assert {name for name, _ in labels} == {p.name for p in s.players}

    def test_four_with_third_place(self) -> None:
        s = drawn(4, lengths=[1, 1], third_place=True)
        play_out(s, "B")
        placings = tournament_placings(tournament=s.tournament)
        assert [p.label for p in placings] == ["1", "2", "3", "4"]
        s.tournament.refresh_from_db()
        assert s.tournament.status == TournamentStatus.FINISHED

    def test_walkover_shown_as_walkover_not_points(self) -> None:
        """S6: the loser by walkover is placed by the round, marked as a walkover; the
        match has no games and no points."""
        s = drawn(4, lengths=[1, 1])
        top, bottom = match_of(s.tournament, 1, 0), match_of(s.tournament, 1, 1)
        enter(top, 1, "W hemspel", s.referee, starter="W")
        absent = players_of(bottom)[0]
        match_walkover(match=bottom, winner=players_of(bottom)[1], by=s.referee, reason="ill")
        bottom.refresh_from_db()
        assert (bottom.points1, bottom.points2, bottom.decided_after_game) == (0, 0, None)
        assert not bottom.games.exists()
        final = match_of(s.tournament, 2, 0)
        enter(final, 1, "B hemspel", s.referee, starter="W")
        placings = {p.player.pk: p for p in tournament_placings(tournament=s.tournament)}
        assert placings[absent.pk].label == "3–4" and placings[absent.pk].walkover
        beaten, champion = players_of(top)[1], players_of(bottom)[1]
        assert placings[beaten.pk].label == "3–4" and not placings[beaten.pk].walkover
        assert placings[champion.pk].label == "1"
        assert [p.walkover for p in placings.values()].count(True) == 1

    def test_partial(self) -> None:
        s = drawn(4, lengths=[1, 1], third_place=True)
        enter(match_of(s.tournament, 1, 0), 1, "W hemspel", s.referee, starter="W")
        assert tournament_placings(tournament=s.tournament) == []
