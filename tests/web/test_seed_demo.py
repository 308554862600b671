"""``manage.py seed_demo``: the demo tournament, built through the real services."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import CommandError, call_command

from core.permissions import can_create_tournament, can_grant_organiser, is_organiser, is_referee
from games.demo_brade import simulate_match
from matches.models import Game, GameRecordSubmission, Match, MatchEvent, MatchState, RecordState
from matches.results import game_result_enter
from tests.results import won
from tournaments.models import Club, Entry, Player, Round, Tournament
from tournaments.staff_invitations import staff_invitation_list
from web.demo import DEMO_PASSWORD, SWISS_NAME, TOURNAMENT_NAME

pytestmark = pytest.mark.django_db

MODELS: tuple[Any, ...] = (
    Tournament,
    Club,
    Player,
    Entry,
    Round,
    Match,
    Game,
    GameRecordSubmission,
    MatchEvent,
)


def _seed(capture: Any, *args: str) -> str:
    """Run the command with on-commit callbacks (the verification tasks) executed."""
    out = io.StringIO()
    with capture(execute=True):
        call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def _counts() -> dict[str, int]:
    counts = {model.__name__: model.objects.count() for model in MODELS}
    counts["User"] = get_user_model().objects.count()
    return counts


@pytest.fixture
def demo(django_capture_on_commit_callbacks: Any) -> Tournament:
    _seed(django_capture_on_commit_callbacks)
    return Tournament.objects.get(name=TOURNAMENT_NAME)


def test_tournament_entries_seeds_and_bracket(demo: Tournament) -> None:
    assert (demo.rules, demo.scale, demo.status) == ("talisman", "ww", "running")
    assert demo.entries.count() == 16
    seeds = sorted(e.seed for e in demo.entries.all() if e.seed is not None)
    assert seeds == list(range(1, 9))
    players = Player.objects.filter(entries__tournament=demo)
    assert all(p.rating for p in players)
    assert 3 <= len({p.club_id for p in players}) <= 4
    rounds = list(demo.rounds.order_by("number").values_list("number", "match_length"))
    assert rounds == [(1, 3), (2, 3), (3, 5), (4, 7)]
    assert [demo.matches.filter(round__number=n).count() for n in (1, 2, 3, 4)] == [8, 4, 2, 1]


def test_round_one_is_played_with_early_decisions_and_a_walkover(demo: Tournament) -> None:
    first = Match.objects.filter(tournament=demo, round__number=1)
    assert set(first.values_list("state", flat=True)) <= {MatchState.DECIDED, MatchState.WALKOVER}
    assert Match.objects.filter(tournament=demo, walkover=True).count() == 1
    early = Match.objects.filter(tournament=demo, decided_early=True)
    assert early.exists()
    assert any(m.length - m.decided_after_game > 0 for m in early if m.decided_after_game)
    games = Game.objects.filter(match__tournament=demo, voided_at__isnull=True)
    assert games.filter(outcome="jan").exists()
    assert games.filter(munk=True).exists()
    # S4: a jan and a hemspel lead 3–0 in a best of 3; decided after game 2.
    jan_early = [m for m in early if m.games.filter(outcome="jan").exists()]
    assert jan_early and jan_early[0].decided_after_game == 2


def test_round_two_is_partly_played(demo: Tournament) -> None:
    second = Match.objects.filter(tournament=demo, round__number=2)
    states = sorted(second.values_list("state", flat=True))
    assert states == sorted(
        [MatchState.DECIDED, MatchState.DECIDED, MatchState.PLAYING, MatchState.READY]
    )
    playing = Match.objects.get(tournament=demo, state=MatchState.PLAYING)
    assert playing.winner is None and playing.games.exists()
    later = Match.objects.filter(tournament=demo, round__number__gte=3)
    assert set(later.values_list("state", flat=True)) == {MatchState.WAITING}


def test_game_records_are_verified_and_one_is_rejected(demo: Tournament) -> None:
    subs = GameRecordSubmission.objects.filter(match__tournament=demo)
    done = subs.filter(state__in=[RecordState.VERIFIED, RecordState.ENTERED])
    assert done.count() >= 3
    assert subs.filter(state=RecordState.ENTERED).exists()
    assert not subs.filter(
        state__in=[RecordState.PENDING, RecordState.VERIFYING, RecordState.MISMATCH]
    ).exists()
    invalid = subs.get(state=RecordState.INVALID)
    assert re.search(r"\bR\d+", invalid.message), invalid.message
    assert invalid.report is not None and invalid.report["error"]["kind"] == "illegal"
    for sub in done:
        assert sub.report is not None and sub.report["valid"] is True
        text = sub.text
        assert f'[White "{sub.match.player1}"]' in text
        assert f'[Black "{sub.match.player2}"]' in text
        assert f'[Length "{sub.match.length}"]' in text
        games = Game.objects.filter(match=sub.match, voided_at__isnull=True)
        assert games.exists() and all(g.verified for g in games)


def test_demo_accounts(demo: Tournament) -> None:
    users = {
        name: authenticate(username=name, password=DEMO_PASSWORD)
        for name in ("admin", "arrangor", "domare", "anna", "johan")
    }
    assert all(users.values()), users
    assert users["admin"].is_superuser  # type: ignore[union-attr]
    assert can_create_tournament(users["arrangor"]) and is_organiser(users["arrangor"], demo)
    assert is_referee(users["domare"], demo) and not is_organiser(users["domare"], demo)
    assert Player.objects.get(user=users["anna"]).entries.filter(tournament=demo).exists()
    assert Player.objects.get(user=users["johan"]).entries.filter(tournament=demo).exists()


def test_demo_shows_a_club_administrator_and_a_referees_invitation(demo: Tournament) -> None:
    """``kansli`` grants the organiser right (and is no organiser himself); ``johan`` has
    an open invitation from ``arrangor`` to referee the Swiss, not accepted yet."""
    kansli = authenticate(username="kansli", password=DEMO_PASSWORD)
    assert kansli is not None and not kansli.is_superuser
    assert can_grant_organiser(kansli) and not can_create_tournament(kansli)
    johan = get_user_model().objects.get(username="johan")
    [invitation] = staff_invitation_list(by=johan)
    assert invitation.tournament.name == SWISS_NAME and invitation.role == "referee"
    assert invitation.invited_by is not None and invitation.invited_by.username == "arrangor"
    assert not is_referee(johan, invitation.tournament)


def test_output_names_the_password_and_the_records(django_capture_on_commit_callbacks: Any) -> None:
    out = _seed(django_capture_on_commit_callbacks)
    assert "DEMO ONLY" in out and DEMO_PASSWORD in out
    for name in ("admin", "kansli", "arrangor", "domare", "anna", "johan"):
        assert name in out
    assert "invalid" in out and "entered" in out and "verified" in out


def test_running_again_changes_nothing(django_capture_on_commit_callbacks: Any) -> None:
    _seed(django_capture_on_commit_callbacks)
    before = _counts()
    out = _seed(django_capture_on_commit_callbacks)
    assert "exists already" in out
    assert _counts() == before


LOGIN_LINE = re.compile(r"^  (admin|kansli|arrangor|domare|anna|johan) +brade-demo  ", re.MULTILINE)


@pytest.mark.parametrize("run", [1, 2, 3])
def test_every_run_prints_the_logins_and_the_api_example(
    django_capture_on_commit_callbacks: Any, run: int
) -> None:
    for _earlier in range(run - 1):
        _seed(django_capture_on_commit_callbacks)
    out = _seed(django_capture_on_commit_callbacks)
    assert sorted(LOGIN_LINE.findall(out)) == [
        "admin",
        "anna",
        "arrangor",
        "domare",
        "johan",
        "kansli",
    ]
    example = _match_of(Tournament.objects.get(name=TOURNAMENT_NAME), 2, 2)
    assert example.state == MatchState.READY and not example.games.exists()
    assert f"API example (README): match {example.pk} (" in out
    assert f"is ready for game 1: POST /api/matches/{example.pk}/games/" in out


def test_a_changed_password_is_not_printed_as_the_demos(
    django_capture_on_commit_callbacks: Any,
) -> None:
    _seed(django_capture_on_commit_callbacks)
    user = get_user_model().objects.get(username="anna")
    user.set_password("annas-own")
    user.save()
    out = _seed(django_capture_on_commit_callbacks)
    assert sorted(LOGIN_LINE.findall(out)) == ["admin", "arrangor", "domare", "johan", "kansli"]
    assert re.search(r"^  anna +\(password changed since\)", out, re.MULTILINE)


def test_the_api_example_says_when_its_match_was_played(
    django_capture_on_commit_callbacks: Any,
) -> None:
    _seed(django_capture_on_commit_callbacks)
    example = _match_of(Tournament.objects.get(name=TOURNAMENT_NAME), 2, 2)
    referee = get_user_model().objects.get(username="domare")
    game_result_enter(match=example, number=1, result=won("W", "jan"), starter="W", by=referee)
    out = _seed(django_capture_on_commit_callbacks)
    assert f"match {example.pk} (" in out and "the next game is 2" in out
    assert "is ready for game 1" not in out


def _match_of(tournament: Tournament, round_number: int, slot: int) -> Match:
    return Match.objects.get(
        tournament=tournament, round__number=round_number, slot=slot, is_third_place=False
    )


def test_reset_rebuilds(django_capture_on_commit_callbacks: Any) -> None:
    _seed(django_capture_on_commit_callbacks)
    old = Tournament.objects.get(name=TOURNAMENT_NAME)
    before = _counts()
    states = sorted(Match.objects.filter(tournament=old).values_list("state", flat=True))
    out = _seed(django_capture_on_commit_callbacks, "--reset")
    # the bräde, backgammon and Kungabräde ones, the groups and the Swiss
    assert "Deleted: 5 tournaments" in out
    new = Tournament.objects.get(name=TOURNAMENT_NAME)
    assert new.pk != old.pk
    assert _counts() == before  # nothing duplicated, nothing left behind
    assert sorted(Match.objects.filter(tournament=new).values_list("state", flat=True)) == states


def test_reset_keeps_other_data(django_capture_on_commit_callbacks: Any) -> None:
    """Only demo objects go: a player of a demo name in a demo club stays if entered
    elsewhere (and the rebuild enters them), and an existing superuser ``admin`` keeps its
    password."""
    user_model = get_user_model()
    user_model.objects.create_superuser("admin", "admin@example.org", "secret")
    _seed(django_capture_on_commit_callbacks)
    other = Tournament.objects.create(
        name="Höstcupen", start_date="2026-09-01", end_date="2026-09-01"
    )
    anna = Player.objects.get(name="Anna Lindqvist")
    Entry.objects.create(tournament=other, player=anna)
    _seed(django_capture_on_commit_callbacks, "--reset")
    assert Player.objects.filter(pk=anna.pk).exists()
    # One name is one player of a club: the rebuild enters the Anna it kept, linked to
    # the demo's account again, rather than a second Anna Lindqvist of her club.
    kept = Player.objects.get(name="Anna Lindqvist")
    assert kept.pk == anna.pk and kept.user is not None and kept.user.username == "anna"
    assert Entry.objects.filter(player=kept, tournament__name=TOURNAMENT_NAME).exists()
    assert authenticate(username="admin", password="secret") is not None
    assert Tournament.objects.filter(name=TOURNAMENT_NAME).count() == 1


def test_a_foreign_user_with_a_demo_name_stops_the_build(
    django_capture_on_commit_callbacks: Any,
) -> None:
    get_user_model().objects.create_user("domare", "someone@example.org", "secret")
    with pytest.raises(CommandError, match="domare"):
        _seed(django_capture_on_commit_callbacks)
    assert not Tournament.objects.filter(name=TOURNAMENT_NAME).exists()
    assert authenticate(username="domare", password="secret") is not None


def test_simulated_matches_are_deterministic_and_decided() -> None:
    one = simulate_match(rules="talisman", length=3, scale="ww", policy="capped", seed=7)
    two = simulate_match(rules="talisman", length=3, scale="ww", policy="capped", seed=7)
    assert one == two and one.text({"Length": "3"}) == two.text({"Length": "3"})
    from scoring.match import match_state

    assert match_state(length=3, scale="ww", outcomes=one.outcomes).is_over


def test_the_other_games_have_a_tournament_each(demo: Tournament) -> None:
    """A new user sees all three games: a backgammon tournament with a cube, the Crawford
    game and a drop, and a Kungabräde tournament, both partly played."""
    from web.demo import BACKGAMMON_NAME, KUNGABRADE_NAME

    bg = Tournament.objects.get(name=BACKGAMMON_NAME)
    kb = Tournament.objects.get(name=KUNGABRADE_NAME)
    assert (bg.game, kb.game) == ("backgammon", "kungabrade")
    decided, playing = Match.objects.filter(tournament=bg, round__number=1).order_by("slot")
    assert decided.state == MatchState.DECIDED and (decided.points1, decided.points2) == (5, 2)
    assert decided.decided_after_game == 4
    games = list(decided.games.order_by("number"))
    assert [(g.outcome, g.cube) for g in games] == [
        ("gammon", 2),
        ("single", 1),
        ("drop", 1),
        ("single", 1),
    ]
    assert playing.state == MatchState.PLAYING and (playing.points1, playing.points2) == (3, 4)
    first, second = Match.objects.filter(tournament=kb, round__number=1).order_by("slot")
    assert first.state == MatchState.DECIDED and second.state == MatchState.PLAYING
    assert {g.game_type for g in first.games.all()} == {"maktkamp", "erovring", "slagfalt"}


def test_the_club_formats_have_a_tournament_each(demo: Tournament) -> None:
    """A new user sees the club formats: groups played to the point where the organiser
    draws the knockout, and a Swiss with a played round and a paired one to publish."""
    from matches.group_standings import group_tables
    from tournaments.group_stage import feeds_knockout, knockout_drawn
    from web.demo import GROUPS_NAME, SWISS_NAME

    groups = Tournament.objects.get(name=GROUPS_NAME)
    assert (groups.format, groups.groups, groups.group_advance) == ("round_robin", 2, 2)
    tables = group_tables(tournament=groups)
    assert [len(t.lines) for t in tables] == [4, 4]
    assert all(t.finished_rounds == t.rounds == 3 for t in tables)
    assert feeds_knockout(groups) and not knockout_drawn(groups.pk)
    assert groups.status == "running"
    swiss = Tournament.objects.get(name=SWISS_NAME)
    first, second, third = swiss.rounds.order_by("number")
    assert first.published and not second.published and not third.published
    assert {m.state for m in first.matches.all()} == {MatchState.DECIDED}
    assert second.matches.count() == 4 and not third.matches.exists()
