"""Players report their own results: one player reports a game, the
opponent confirms or disputes it; nothing counts before the confirmation; the referees
and organisers decide disputes and may always override. The second person is enforced
by the services and by database constraints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from matches.models import (
    EventKind,
    Game,
    GameReport,
    GameResult,
    Match,
    MatchEvent,
    MatchState,
    ReportState,
    ResultSource,
)
from matches.reports import (
    game_report_confirm,
    game_report_dispute,
    game_report_submit,
    game_report_withdraw,
)
from matches.services import game_result_correct, game_result_enter, match_reset, match_walkover
from tests.factories import UserFactory
from tests.results import won
from tests.tournaments.helpers import Setup, drawn, match_of, players_of
from tournaments.models import ResultsBy, Tournament
from tournaments.tournament_setup import tournament_update

pytestmark = pytest.mark.django_db


@dataclass
class Table:
    """A match of a tournament whose players report, both players signed up."""

    setup: Setup
    match: Match
    white: Any  # the user of player1 (White)
    black: Any  # the user of player2 (Black)


def table(n: int = 2, lengths: list[int] | None = None, slot: int = 0, **fields: Any) -> Table:
    setup = drawn(n, lengths=lengths or [3] * (n.bit_length() - 1), results_by="players", **fields)
    match = match_of(setup.tournament, 1, slot)
    one, two = players_of(match)
    one.user = UserFactory.create()
    one.save()
    two.user = UserFactory.create()
    two.save()
    return Table(setup, match, one.user, two.user)


def report(t: Table, number: int, text: str, by: Any, **kw: Any) -> GameReport:
    """Report ``text`` like ``W hemspel munk`` as game ``number``."""
    words = text.split()
    pattern = next((w for w in words[2:] if w != "munk"), None)
    return game_report_submit(
        match=t.match,
        number=number,
        result=won(words[0], words[1], pattern=pattern, munk="munk" in words),
        by=by,
        **kw,
    )


def kinds(match: Match) -> list[str]:
    return list(MatchEvent.objects.filter(match=match).values_list("kind", flat=True))


class TestReportAndConfirm:
    def test_nothing_counts_until_the_opponent_confirms(self) -> None:
        t = table()
        r = report(t, 1, "W jan", t.white, starter="B", note="quick game")
        t.match.refresh_from_db()
        assert r.state == ReportState.PENDING and r.reporter_side == "W" and r.starter == "B"
        assert not Game.objects.filter(match=t.match).exists()
        assert not GameResult.objects.exists()
        assert t.match.state == MatchState.READY and (t.match.points1, t.match.points2) == (0, 0)

        game = game_report_confirm(report=r, by=t.black)
        t.match.refresh_from_db()
        r.refresh_from_db()
        assert (game.number, game.winner, game.outcome, game.starter) == (1, "W", "jan", "B")
        assert game.source == ResultSource.PLAYERS
        assert t.match.state == MatchState.PLAYING and (t.match.points1, t.match.points2) == (2, 0)
        (result,) = GameResult.objects.filter(game=game)
        assert (result.version, result.confirmed, result.source) == (1, True, "players")
        assert result.entered_by == t.white and result.confirmed_by == t.black
        assert result.report == r and result.note == "quick game"
        assert r.state == ReportState.CONFIRMED and r.answered_by == t.black
        assert r.answerer == t.match.player2 and r.answerer_side == "B"
        assert kinds(t.match) == ["report_submitted", "report_confirmed", "result_entered"]
        entered = MatchEvent.objects.get(match=t.match, kind=EventKind.RESULT_ENTERED)
        assert entered.by == t.black and entered.data["report"] == r.pk
        assert entered.data["source"] == "players"

    def test_either_player_reports_and_the_other_confirms(self) -> None:
        t = table()
        game_report_confirm(report=report(t, 1, "B hemspel", t.black), by=t.white)
        r2 = report(t, 2, "W hemspel", t.black)  # the loser of game 1 reports a loss
        game_report_confirm(report=r2, by=t.white)
        games = list(Game.objects.filter(match=t.match).order_by("number"))
        assert [(g.number, g.winner, g.starter) for g in games] == [(1, "B", ""), (2, "W", "W")]

    def test_a_confirmation_decides_the_match_and_the_winner_advances(self) -> None:
        t = table(4, lengths=[1, 1])
        final = match_of(t.setup.tournament, 2, 0)
        r = report(t, 1, "B jan", t.white)
        final.refresh_from_db()
        assert final.player1_id is None and final.player2_id is None  # not before
        game_report_confirm(report=r, by=t.black)
        t.match.refresh_from_db()
        final.refresh_from_db()
        assert t.match.state == MatchState.DECIDED and t.match.winner == t.match.player2
        assert final.player1 == t.match.player2
        assert kinds(t.match) == [
            "report_submitted",
            "report_confirmed",
            "result_entered",
            "match_decided",
        ]
        assert MatchEvent.objects.filter(match=final, kind=EventKind.ADVANCED).exists()

    def test_the_tournament_version_moves_with_every_report(self) -> None:
        t = table()
        tournament = t.setup.tournament

        def version() -> int:
            return Tournament.objects.get(pk=tournament.pk).version

        before = version()
        r = report(t, 1, "W jan", t.white)
        assert version() > before
        before = version()
        game_report_dispute(report=r, by=t.black, note="it was hemspel")
        assert version() > before


class TestTheSecondPerson:
    def test_the_reporter_cannot_confirm_their_own_report(self) -> None:
        t = table()
        r = report(t, 1, "W jan", t.white)
        with pytest.raises(PermissionDeniedError) as info:
            game_report_confirm(report=r, by=t.white)
        assert info.value.code == "own_report"
        with pytest.raises(PermissionDeniedError):
            game_report_dispute(report=r, by=t.white)
        r.refresh_from_db()
        assert r.state == ReportState.PENDING and not Game.objects.exists()

    @pytest.mark.parametrize("who", ["referee", "organiser", "stranger", "anonymous"])
    def test_only_the_opponent_confirms(self, who: str) -> None:
        from django.contrib.auth.models import AnonymousUser

        t = table()
        r = report(t, 1, "W jan", t.white)
        by = {
            "referee": t.setup.referee,
            "organiser": t.setup.organiser,
            "stranger": UserFactory.create(),
            "anonymous": AnonymousUser(),
        }[who]
        with pytest.raises(PermissionDeniedError) as info:
            game_report_confirm(report=r, by=by)
        assert info.value.code == "not_the_opponent"
        assert not Game.objects.exists()

    def test_a_player_of_another_match_cannot_confirm(self) -> None:
        t = table(4, lengths=[3, 3])
        other = match_of(t.setup.tournament, 1, 1)
        stranger = other.player1
        assert stranger is not None
        stranger.user = UserFactory.create()
        stranger.save()
        r = report(t, 1, "W jan", t.white)
        with pytest.raises(PermissionDeniedError, match="Only"):
            game_report_confirm(report=r, by=stranger.user)

    def test_only_players_of_the_match_report_and_only_in_the_players_mode(self) -> None:
        t = table()
        for by in (t.setup.referee, UserFactory.create()):
            with pytest.raises(PermissionDeniedError) as info:
                report(t, 1, "W jan", by)
            assert info.value.code == "not_a_player"
        Tournament.objects.filter(pk=t.setup.tournament.pk).update(results_by="referees")
        t.match = match_of(t.setup.tournament, 1, 0)
        with pytest.raises(PermissionDeniedError) as info:
            report(t, 1, "W jan", t.white)
        assert info.value.code == "results_by_referees"
        assert not GameReport.objects.exists()

    def test_the_database_refuses_a_report_answered_by_its_reporter(self) -> None:
        t = table()
        r = report(t, 1, "W jan", t.white)
        white_player = t.match.player1
        cases: list[dict[str, Any]] = [
            # the reporter's own player, on the other side's seat
            {"answerer": white_player, "answerer_side": "B", "answered_by": t.black},
            # the other player, but said to sit on the reporter's side
            {"answerer": t.match.player2, "answerer_side": "W", "answered_by": t.black},
            # nobody
            {"answerer": None, "answerer_side": "", "answered_by": None},
            # the reporter's user
            {"answerer": t.match.player2, "answerer_side": "B", "answered_by": t.white},
        ]
        for fields in cases:
            for state in (ReportState.CONFIRMED, ReportState.DISPUTED):
                with pytest.raises(IntegrityError), transaction.atomic():
                    GameReport.objects.filter(pk=r.pk).update(state=state, **fields)
        r.refresh_from_db()
        assert r.state == ReportState.PENDING

    def test_the_database_refuses_a_players_result_without_a_second_person(self) -> None:
        t = table()
        r = report(t, 1, "W jan", t.white)
        game = game_result_enter(
            match=t.match, number=1, result=won("W", "jan"), by=t.setup.referee
        )
        result = GameResult.objects.get(game=game)
        with pytest.raises(IntegrityError), transaction.atomic():
            # from the players, but no report
            GameResult.objects.filter(pk=result.pk).update(source=ResultSource.PLAYERS)
        with pytest.raises(IntegrityError), transaction.atomic():
            # confirmed by its own reporter
            GameResult.objects.filter(pk=result.pk).update(
                source=ResultSource.PLAYERS, report=r, entered_by=t.white, confirmed_by=t.white
            )
        GameResult.objects.filter(pk=result.pk).update(
            source=ResultSource.PLAYERS, report=r, entered_by=t.white, confirmed_by=t.black
        )

    def test_one_open_report_per_game(self) -> None:
        t = table()
        first = report(t, 1, "W jan", t.white)
        with pytest.raises(ConflictError) as info:
            report(t, 1, "B hemspel", t.black)
        assert info.value.code == "report_open" and info.value.extra["report"]["id"] == first.pk
        _white, black = players_of(t.match)
        with pytest.raises(IntegrityError), transaction.atomic():
            GameReport.objects.create(
                match=t.match,
                number=1,
                winner="B",
                outcome="hemspel",
                reported_by=t.black,
                reporter=black,
                reporter_side="B",
            )
        assert GameReport.objects.count() == 1


class TestChecks:
    def test_a_report_is_checked_like_an_entry(self) -> None:
        t = table(resignation_policy="forbidden")
        with pytest.raises(ValidationError, match="S1"):
            report(t, 1, "W uppgivet", t.white)
        with pytest.raises(ValidationError, match="munk"):
            report(t, 1, "W jan munk", t.white)
        with pytest.raises(ValidationError, match="Enter game 1 first"):
            report(t, 2, "W jan", t.white)
        assert not GameReport.objects.exists()

    def test_the_starter_is_game_1s_tek_and_later_ones_follow_from_the_games(self) -> None:
        t = table()
        game_report_confirm(report=report(t, 1, "W hemspel", t.white, starter="W"), by=t.black)
        with pytest.raises(ValidationError, match="loser of game 1"):
            report(t, 2, "W hemspel", t.white, starter="W")
        r2 = report(t, 2, "W hemspel", t.white, starter="B")
        assert r2.starter == ""  # derived on confirmation (S5)
        game = game_report_confirm(report=r2, by=t.black)
        assert game.starter == "B"

    def test_a_game_entered_already_or_a_decided_match_is_a_conflict(self) -> None:
        t = table(lengths=[1])
        game_result_enter(match=t.match, number=1, result=won("W", "jan"), by=t.setup.referee)
        with pytest.raises(ConflictError) as info:
            report(t, 1, "B jan", t.black)
        assert info.value.code == "game_exists"
        with pytest.raises(ConflictError) as info:
            report(t, 2, "B jan", t.black)
        assert info.value.code == "match_decided"

    def test_a_long_note_is_refused(self) -> None:
        t = table()
        with pytest.raises(ValidationError, match="500"):
            report(t, 1, "W jan", t.white, note="x" * 501)


class TestDisputesAndOverrides:
    def test_a_dispute_goes_to_the_referees_who_decide(self) -> None:
        t = table()
        r = report(t, 1, "W jan", t.white)
        game_report_dispute(report=r, by=t.black, note="It was hemspel, not jan.")
        r.refresh_from_db()
        assert r.state == ReportState.DISPUTED and r.dispute_note == "It was hemspel, not jan."
        assert r.answered_by == t.black and r.answerer_side == "B"
        assert not Game.objects.exists()
        # The opponent cannot change their mind into a confirmation: the referees decide.
        with pytest.raises(ConflictError) as info:
            game_report_confirm(report=r, by=t.black)
        assert info.value.code == "report_disputed"
        # Nor can a second report of the game be made meanwhile.
        with pytest.raises(ConflictError, match="reported already"):
            report(t, 1, "W hemspel", t.black)
        game = game_result_enter(
            match=t.match, number=1, result=won("W", "hemspel"), by=t.setup.referee
        )
        r.refresh_from_db()
        assert r.state == ReportState.OVERRIDDEN and r.closed_by == t.setup.referee
        assert game.source == ResultSource.REFEREE and game.outcome == "hemspel"
        assert kinds(t.match) == [
            "report_submitted",
            "report_disputed",
            "result_entered",
            "report_overridden",
        ]

    def test_referees_override_a_pending_report_too(self) -> None:
        t = table()
        r = report(t, 1, "W jan", t.white)
        game_result_enter(match=t.match, number=1, result=won("B", "jan"), by=t.setup.organiser)
        r.refresh_from_db()
        assert r.state == ReportState.OVERRIDDEN
        with pytest.raises(ConflictError) as info:
            game_report_confirm(report=r, by=t.black)
        assert info.value.code == "report_closed"
        assert Game.objects.get(match=t.match).winner == "B"

    def test_a_confirmed_result_is_corrected_by_a_referee_as_a_new_version(self) -> None:
        t = table()
        game = game_report_confirm(report=report(t, 1, "W jan", t.white), by=t.black)
        game_result_correct(
            game=game, result=won("W", "hemspel"), by=t.setup.referee, expected_version=1
        )
        versions = list(GameResult.objects.filter(game=game).order_by("version"))
        assert [(v.version, v.source, v.confirmed) for v in versions] == [
            (1, "players", False),
            (2, "referee", True),
        ]
        assert versions[0].confirmed_by == t.black and versions[1].entered_by == t.setup.referee

    def test_withdraw_by_the_reporter_then_report_again(self) -> None:
        t = table()
        r = report(t, 1, "W jan", t.white)
        with pytest.raises(PermissionDeniedError):
            game_report_withdraw(report=r, by=t.black)
        game_report_withdraw(report=r, by=t.white, note="wrong winner")
        r.refresh_from_db()
        assert r.state == ReportState.WITHDRAWN and r.close_note == "wrong winner"
        with pytest.raises(ConflictError):
            game_report_confirm(report=r, by=t.black)
        again = report(t, 1, "B jan", t.white)
        game_report_confirm(report=again, by=t.black)
        assert Game.objects.get(match=t.match).winner == "B"

    def test_a_referee_closes_a_disputed_report_without_a_result(self) -> None:
        t = table()
        r = report(t, 1, "W jan", t.white)
        game_report_dispute(report=r, by=t.black)
        game_report_withdraw(report=r, by=t.setup.referee, note="play the game again")
        r.refresh_from_db()
        assert r.state == ReportState.OVERRIDDEN and r.closed_by == t.setup.referee
        assert kinds(t.match)[-1] == "report_overridden"
        assert not Game.objects.exists()

    def test_a_walkover_or_a_reset_settles_the_open_reports(self) -> None:
        t = table()
        r = report(t, 1, "W jan", t.white)
        assert t.match.player1 is not None
        match_walkover(match=t.match, winner=t.match.player1, by=t.setup.organiser)
        r.refresh_from_db()
        assert r.state == ReportState.OVERRIDDEN
        match_reset(match=t.match, by=t.setup.organiser, reason="the walkover was a mistake")
        t.match.refresh_from_db()
        r2 = report(t, 1, "W jan", t.white)
        match_reset(match=t.match, by=t.setup.organiser, reason="start again")
        r2.refresh_from_db()
        assert r2.state == ReportState.OVERRIDDEN

    def test_a_correction_that_decides_the_match_settles_the_next_games_report(self) -> None:
        t = table(lengths=[3])
        game_report_confirm(report=report(t, 1, "W hemspel", t.white), by=t.black)
        g2 = game_report_confirm(report=report(t, 2, "B hemspel", t.white), by=t.black)
        r3 = report(t, 3, "B hemspel", t.black)
        # W hemspel, W jan: 3–0 with one game left in a best of 3 is decided (S4).
        game_result_correct(game=g2, result=won("W", "jan"), by=t.setup.referee, expected_version=1)
        t.match.refresh_from_db()
        assert t.match.state == MatchState.DECIDED and t.match.decided_after_game == 2
        r3.refresh_from_db()
        assert r3.state == ReportState.OVERRIDDEN


class TestLeavingThePlayersMode:
    def test_refused_while_a_report_is_open(self) -> None:
        t = table()
        r = report(t, 1, "W jan", t.white)
        tournament = t.setup.tournament
        with pytest.raises(ValidationError) as info:
            tournament_update(tournament=tournament, by=t.setup.organiser, results_by="referees")
        assert info.value.code == "reports_open"
        game_report_withdraw(report=r, by=t.white)
        tournament_update(tournament=tournament, by=t.setup.organiser, results_by="referees")
        tournament.refresh_from_db()
        assert tournament.results_by == ResultsBy.REFEREES

    def test_an_unknown_mode_is_refused(self) -> None:
        t = table()
        with pytest.raises(ValidationError, match="referees or from the players"):
            tournament_update(
                tournament=t.setup.tournament, by=t.setup.organiser, results_by="anyone"
            )
