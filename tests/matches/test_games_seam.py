"""The games seam wired into tournaments and matches: a tournament's game chooses
its family, and result entry, scoring, advancing and records go through it.

Backgammon: matches to a number of points (even lengths too), per game the winner, how it
ended (single, gammon, backgammon, drop, resignation), the cube; the Crawford game; the
match ends as soon as a player reaches the length; ``.mat`` records verified, illegal moves
that stand kept as warnings with their lines. Kungabräde: the best of an odd number of
games, each with a winner, a game type and how it was won; no records.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from core.errors import ConflictError, ValidationError
from matches.models import Game, GameRecordSubmission, Match, MatchState, RecordState
from matches.records import game_record_submit
from matches.results import game_result_correct, game_result_enter
from tests.backgammon.test_mat import XG, replace_line
from tests.factories import EntryFactory, OrganiserFactory, PlayerFactory, UserFactory
from tests.results import won
from tests.tournaments.helpers import drawn, match_of
from tournaments.models import Tournament
from tournaments.round_lengths import round_length_set
from tournaments.stage_draws import tournament_draw
from tournaments.tournament_setup import tournament_create, tournament_update

pytestmark = pytest.mark.django_db


def enter(
    match: Match,
    by: Any,
    number: int,
    winner: str,
    outcome: str,
    *,
    starter: str | None = None,
    **fields: Any,
) -> Game:
    return game_result_enter(
        match=Match.objects.get(pk=match.pk),
        number=number,
        result=won(winner, outcome, **fields),
        starter=starter,
        by=by,
    )


def fresh(match: Match) -> Match:
    return Match.objects.select_related("tournament", "round").get(pk=match.pk)


class TestTournamentGame:
    def test_bräde_by_default_and_the_game_is_stored(self) -> None:
        organiser = OrganiserFactory.create()
        old = tournament_create(by=organiser, name="KM", start_date=_day())
        assert old.game == "brade"
        new = tournament_create(by=organiser, name="BG", start_date=_day(), game="backgammon")
        assert Tournament.objects.get(pk=new.pk).game == "backgammon"

    def test_an_unknown_game_is_refused(self) -> None:
        with pytest.raises(ValidationError, match="Unknown game 'chess'"):
            tournament_create(
                by=OrganiserFactory.create(), name="X", start_date=_day(), game="chess"
            )

    def test_options_the_game_does_not_read_keep_their_defaults(self) -> None:
        organiser = OrganiserFactory.create()
        t = tournament_create(
            by=organiser,
            name="BG",
            start_date=_day(),
            game="backgammon",
            rules="board",
            addons=["one-die"],
            scale="ny1",
            resignation_policy="forbidden",
        )
        assert (t.rules, t.addons, t.scale, t.resignation_policy) == (
            "talisman",
            [],
            "ww",
            "capped",
        )
        tournament_update(tournament=t, by=organiser, game="brade", scale="ny2")
        t.refresh_from_db()
        assert (t.game, t.scale) == ("brade", "ny2")

    def test_the_game_is_fixed_once_drawn(self) -> None:
        s = drawn(2, lengths=[3])
        with pytest.raises(ConflictError):
            tournament_update(tournament=s.tournament, by=s.organiser, game="backgammon")


def _day() -> datetime.date:
    return datetime.date(2027, 5, 1)


class TestBackgammonMatches:
    def test_lengths_are_points_and_may_be_even(self) -> None:
        s = drawn(4, lengths=[4, 8], game="backgammon")
        rounds = list(s.tournament.rounds.order_by("number"))
        assert [(r.match_length, r.length_unit) for r in rounds] == [(4, "points"), (8, "points")]
        match = match_of(s.tournament, 1, 0)
        assert (match.length, match.length_unit) == (4, "points")
        round_length_set(round=rounds[1], length=6, by=s.organiser)
        assert match_of(s.tournament, 2, 0).length == 6
        with pytest.raises(ValidationError, match="1 to 25 points"):
            round_length_set(round=rounds[1], length=26, by=s.organiser)

    def test_bräde_lengths_stay_odd(self) -> None:
        with pytest.raises(ValidationError, match="odd number of games"):
            drawn(2, lengths=[4])

    def test_points_cube_crawford_and_the_end_at_the_length(self) -> None:
        s = drawn(2, lengths=[5], game="backgammon")
        match = match_of(s.tournament, 1, 0)
        enter(match, s.referee, 1, "W", "gammon", cube=2)  # 4 points: match point
        m = fresh(match)
        assert (m.points1, m.points2, m.state) == (4, 0, MatchState.PLAYING)
        # Game 2 is the Crawford game: no double, so no cube above 1 and no drop.
        # The message names its game once ("game 2 is the Crawford game"), not "Game 2:
        # game 2 is …".
        with pytest.raises(ValidationError, match=r"^game 2 is the Crawford game"):
            enter(match, s.referee, 2, "B", "single", cube=2)
        with pytest.raises(ValidationError, match="Crawford"):
            enter(match, s.referee, 2, "W", "drop")
        enter(match, s.referee, 2, "B", "backgammon")  # 3 points in the Crawford game
        m = fresh(match)
        assert (m.points1, m.points2, m.crawford_game) == (4, 3, 2)
        enter(match, s.referee, 3, "B", "drop", cube=2)  # doubling again after it
        m = fresh(match)
        assert (m.points1, m.points2, m.state) == (4, 5, MatchState.DECIDED)
        assert m.winner == m.player2 and m.decided_after_game == 3 and not m.decided_early
        with pytest.raises(ConflictError) as info:
            enter(match, s.referee, 4, "W", "single")
        assert info.value.code == "match_decided"

    def test_the_winner_advances(self) -> None:
        s = drawn(4, lengths=[1, 3], game="backgammon")
        first = match_of(s.tournament, 1, 0)
        enter(first, s.referee, 1, "W", "single")
        final = match_of(s.tournament, 2, 0)
        assert final.player1 == fresh(first).winner

    def test_resignation_concedes_one_two_or_three_times_the_cube(self) -> None:
        s = drawn(2, lengths=[25], game="backgammon")
        match = match_of(s.tournament, 1, 0)
        with pytest.raises(ValidationError, match="Not a possible result"):
            enter(match, s.referee, 1, "W", "resign", cube=2)  # conceding nothing
        enter(match, s.referee, 1, "W", "resign", cube=2, conceded="gammon")
        assert fresh(match).points1 == 4
        game = Game.objects.get(match=match, number=1)
        assert (game.outcome, game.cube, game.conceded, game.starter) == ("resign", 2, "gammon", "")

    def test_a_field_of_another_game_is_refused(self) -> None:
        s = drawn(2, lengths=[5], game="backgammon")
        match = match_of(s.tournament, 1, 0)
        with pytest.raises(ValidationError, match="Not a possible result"):
            enter(match, s.referee, 1, "W", "single", pattern="trappspel")
        with pytest.raises(ValidationError, match="Not a possible result"):
            enter(match, s.referee, 1, "W", "jan")
        with pytest.raises(ValidationError, match="Not a possible result"):
            enter(match, s.referee, 1, "W", "single", cube=3)

    def test_a_correction_rescores_the_points(self) -> None:
        s = drawn(2, lengths=[7], game="backgammon")
        match = match_of(s.tournament, 1, 0)
        game = enter(match, s.referee, 1, "W", "single", cube=4)
        assert fresh(match).points1 == 4
        game_result_correct(
            game=game, result=won("B", "gammon", cube=2), expected_version=1, by=s.referee
        )
        m = fresh(match)
        assert (m.points1, m.points2) == (0, 4)


class TestKungabrade:
    def test_best_of_three_with_game_types(self) -> None:
        s = drawn(2, lengths=[3], game="kungabrade")
        match = match_of(s.tournament, 1, 0)
        with pytest.raises(ValidationError, match="game type"):
            enter(match, s.referee, 1, "W", "castle")
        with pytest.raises(ValidationError, match="Slagfält"):
            enter(match, s.referee, 1, "W", "driven_back", game_type="erovring")
        enter(match, s.referee, 1, "W", "castle", game_type="slagfalt", starter="B")
        enter(match, s.referee, 2, "W", "destroyed", game_type="other")
        m = fresh(match)
        assert (m.points1, m.points2, m.state, m.winner) == (2, 0, "decided", m.player1)
        assert [g.starter for g in Game.objects.filter(match=match)] == ["", ""]

    def test_lengths_stay_odd(self) -> None:
        with pytest.raises(ValidationError, match="odd number of games"):
            drawn(2, lengths=[2], game="kungabrade")

    def test_no_records(self) -> None:
        s = drawn(2, lengths=[3], game="kungabrade")
        match = match_of(s.tournament, 1, 0)
        with pytest.raises(ValidationError, match="Kungabräde keeps results only") as info:
            game_record_submit(match=match, text="Game 1\n", by=s.referee)
        assert info.value.code == "no_records"
        assert not GameRecordSubmission.objects.exists()


def _alice_and_bob(length: int = 3) -> tuple[Tournament, Match, Any]:
    organiser = OrganiserFactory.create()
    referee = UserFactory.create()
    tournament = tournament_create(by=organiser, name="BG", start_date=_day(), game="backgammon")
    tournament.referees.add(referee)
    EntryFactory.create(tournament=tournament, player=PlayerFactory.create(name="Alice"), seed=1)
    EntryFactory.create(tournament=tournament, player=PlayerFactory.create(name="Bob"), seed=2)
    tournament_draw(tournament=tournament, by=organiser, lengths=[length])
    return tournament, match_of(tournament, 1, 0), referee


def _verdict(match: Match, text: str, by: Any) -> GameRecordSubmission:
    sub = game_record_submit(match=match, text=text, by=by)
    return GameRecordSubmission.objects.get(pk=sub.pk)


class TestMatRecords:
    """``.mat`` records verified through the backgammon family (tasks run eagerly)."""

    def test_a_referees_record_enters_the_games(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        _t, match, referee = _alice_and_bob()
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=match, text=XG, by=referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.ENTERED, sub.message
        m = fresh(match)
        assert (m.points1, m.points2, m.state, m.crawford_game) == (3, 2, "decided", 2)
        games = list(Game.objects.filter(match=match).order_by("number"))
        assert [(g.winner, g.outcome, g.cube, g.conceded) for g in games] == [
            ("W", "drop", 2, ""),
            ("B", "resign", 1, "single"),
            ("B", "drop", 1, ""),
            ("W", "resign", 1, "single"),
        ]
        assert all(g.verified for g in games)

    def test_the_entered_results_are_checked(self, django_capture_on_commit_callbacks: Any) -> None:
        _t, match, referee = _alice_and_bob()
        enter(match, referee, 1, "W", "drop", cube=2)
        enter(match, referee, 2, "B", "single")  # the record says a resignation
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=match, text=XG, by=referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.MISMATCH
        assert "Game 2: the record gives “Bob, resign (single), cube 1”" in sub.message
        assert fresh(match).flag

    def test_an_illegal_move_that_stands_is_a_warning_with_its_line(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        _t, match, referee = _alice_and_bob()
        text = replace_line(
            XG,
            "  1) 31: 8/5 6/5                      Doubles",
            "  1) 31: 8/4 6/5                      Doubles",
        )
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=match, text=text, by=referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.ENTERED
        assert (
            sub.report["warnings"][0]["line"]
            == text.splitlines().index("  1) 31: 8/4 6/5                      Doubles => 2") + 1
        )
        assert "1 illegal move stands as played" in sub.message

    def test_errors_have_their_line(self, django_capture_on_commit_callbacks: Any) -> None:
        _t, match, referee = _alice_and_bob()
        text = replace_line(
            XG,
            "  2) 31: 8/5 6/5\n",
            "  2) 31: 8/5 6/5                      Doubles => 2\n",
        )
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=match, text=text, by=referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.INVALID
        line = text.splitlines().index("  2) 31: 8/5 6/5                      Doubles => 2") + 1
        assert sub.report["error"]["kind"] == "cube"
        assert sub.report["error"]["line"] == line
        assert sub.message.startswith(f"game 2, line {line}:")

    def test_another_length_or_other_players_flag_the_match(
        self, django_capture_on_commit_callbacks: Any
    ) -> None:
        _t, match, referee = _alice_and_bob(length=5)
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=match, text=XG, by=referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.MISMATCH and "to 5 points" in sub.message
        _t, other, referee = _alice_and_bob()
        text = XG.replace("Bob", "Carl")
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=other, text=text, by=referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.MISMATCH and "“Carl”" in sub.message
