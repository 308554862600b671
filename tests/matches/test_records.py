"""The game-record pipeline: stored first, verified by a task enqueued on commit."""

from __future__ import annotations

from typing import Any

import pytest
from kombu.exceptions import OperationalError

from engine.errors import IllegalPlayError
from matches import services
from matches.errors import PermissionDeniedError, ValidationError
from matches.models import (
    EventKind,
    Game,
    GameRecordSubmission,
    MatchEvent,
    MatchState,
    RecordState,
    ResultSource,
)
from matches.services import (
    RECORD_MAX_ATTEMPTS,
    game_record_submit,
    game_record_verify,
    game_records_requeue,
)
from tests.factories import UserFactory
from tests.matches.fakes import FakeReplay
from tests.matches.test_results import enter
from tests.tournaments.helpers import Setup, drawn, match_of, players_of

pytestmark = pytest.mark.django_db

TEXT = '[White "P001"]\n[Black "P002"]\nGame 1\nTek: 2-5\n'


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeReplay:
    """Route the service's real replay through a fake whose verdict the test sets."""
    replay = FakeReplay()
    monkeypatch.setattr(services, "_real_replay", lambda text, *, match: replay(text))
    return replay


@pytest.fixture
def setup() -> Setup:
    return drawn(2, lengths=[3])


def player_user(setup: Setup, index: int) -> Any:
    user = UserFactory.create()
    setup.players[index].user = user
    setup.players[index].save()
    return user


class TestSubmit:
    def test_stored_then_verified_on_commit(
        self, setup: Setup, fake: FakeReplay, django_capture_on_commit_callbacks: Any
    ) -> None:
        m = match_of(setup.tournament, 1, 0)
        enter(m, 1, "W hemspel", setup.referee, starter="W")
        enter(m, 2, "W hemspel", setup.referee)
        fake.results = ["W hemspel", "W hemspel"]
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            sub = game_record_submit(match=m, text=TEXT, by=player_user(setup, 0))
        sub.refresh_from_db()
        assert sub.state == RecordState.PENDING and sub.text == TEXT
        assert fake.calls == [] and len(callbacks) == 1
        callbacks[0]()
        sub.refresh_from_db()
        assert sub.state == RecordState.VERIFIED and sub.attempts == 1
        assert fake.calls == [TEXT]
        assert list(Game.objects.filter(match=m).values_list("verified", flat=True)) == [
            True,
            True,
        ]
        assert sub.report is not None and sub.report["valid"] is True

    def test_referee_record_enters_results(
        self, setup: Setup, fake: FakeReplay, django_capture_on_commit_callbacks: Any
    ) -> None:
        m = match_of(setup.tournament, 1, 0)
        fake.results = ["B hemspel", "W jan", "W hemspel"]
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.ENTERED, sub.message
        games = list(Game.objects.filter(match=m).order_by("number"))
        assert [(g.winner, g.outcome, g.source, g.verified) for g in games] == [
            ("B", "hemspel", ResultSource.RECORD, True),
            ("W", "jan", ResultSource.RECORD, True),
            ("W", "hemspel", ResultSource.RECORD, True),
        ]
        m.refresh_from_db()
        assert m.state == MatchState.DECIDED and m.winner_id == m.player1_id

    def test_player_record_does_not_enter_results(
        self, setup: Setup, fake: FakeReplay, django_capture_on_commit_callbacks: Any
    ) -> None:
        m = match_of(setup.tournament, 1, 0)
        fake.results = ["W hemspel"]
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=m, text=TEXT, by=player_user(setup, 1))
        sub.refresh_from_db()
        assert sub.state == RecordState.VERIFIED and "not entered" in sub.message
        assert not Game.objects.filter(match=m).exists()

    def test_disagreement_flags_and_changes_nothing(
        self, setup: Setup, fake: FakeReplay, django_capture_on_commit_callbacks: Any
    ) -> None:
        m = match_of(setup.tournament, 1, 0)
        enter(m, 1, "W hemspel", setup.referee, starter="W")
        fake.results = ["W jan"]
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        sub.refresh_from_db()
        m.refresh_from_db()
        assert sub.state == RecordState.MISMATCH
        assert "Game 1" in m.flag and "jan" in m.flag and m.flag == sub.message
        game = Game.objects.get(match=m)
        assert (game.outcome, game.verified) == ("hemspel", False)
        assert MatchEvent.objects.filter(match=m, kind=EventKind.RECORD_MISMATCH).count() == 1

    def test_flag_cleared_by_an_agreeing_record_or_a_referee(
        self, setup: Setup, fake: FakeReplay, django_capture_on_commit_callbacks: Any
    ) -> None:
        m = match_of(setup.tournament, 1, 0)
        enter(m, 1, "W hemspel", setup.referee, starter="W")
        fake.results = ["W jan"]
        with django_capture_on_commit_callbacks(execute=True):
            game_record_submit(match=m, text=TEXT, by=setup.referee)
        m.refresh_from_db()
        assert m.flag
        fake.results = ["W hemspel"]
        with django_capture_on_commit_callbacks(execute=True):
            game_record_submit(match=m, text=TEXT, by=setup.referee)
        m.refresh_from_db()
        assert m.flag == ""
        m.flag = "checked by hand"
        m.save()
        with pytest.raises(PermissionDeniedError):
            services.match_flag_clear(match=m, by=UserFactory.create())
        services.match_flag_clear(match=m, by=setup.referee, note="looked at the board")
        m.refresh_from_db()
        assert m.flag == ""
        assert MatchEvent.objects.filter(match=m, kind=EventKind.FLAG_CLEARED).count() == 1

    def test_swapped_colours_by_name(
        self, setup: Setup, fake: FakeReplay, django_capture_on_commit_callbacks: Any
    ) -> None:
        m = match_of(setup.tournament, 1, 0)
        enter(m, 1, "B hemspel", setup.referee, starter="W")  # player2 won
        one, two = players_of(m)
        fake.tags = {"White": two.name, "Black": one.name}
        fake.results = ["W hemspel"]  # White of the record is player2
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.VERIFIED, sub.message

    def test_unknown_names_are_a_disagreement(
        self, setup: Setup, fake: FakeReplay, django_capture_on_commit_callbacks: Any
    ) -> None:
        m = match_of(setup.tournament, 1, 0)
        fake.tags = {"White": "Somebody", "Black": "Else"}
        fake.results = ["W hemspel"]
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.MISMATCH and "Somebody" in sub.message

    def test_rules_must_be_the_tournaments(
        self, setup: Setup, fake: FakeReplay, django_capture_on_commit_callbacks: Any
    ) -> None:
        m = match_of(setup.tournament, 1, 0)
        fake.rules = "vasa"
        fake.results = ["W hemspel"]
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.MISMATCH and "vasa" in sub.message
        assert not Game.objects.exists()

    def test_invalid_record(
        self, setup: Setup, fake: FakeReplay, django_capture_on_commit_callbacks: Any
    ) -> None:
        m = match_of(setup.tournament, 1, 0)
        fake.error = IllegalPlayError("R5.3: White may not make a band on point 7", game=1, line=9)
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.INVALID
        assert sub.message == "game 1, line 9: R5.3: White may not make a band on point 7"
        m.refresh_from_db()
        assert m.flag == "" and not Game.objects.exists()

    def test_permissions_and_limits(self, setup: Setup) -> None:
        m = match_of(setup.tournament, 1, 0)
        with pytest.raises(PermissionDeniedError):
            game_record_submit(match=m, text=TEXT, by=UserFactory.create())
        other = drawn(2)
        outsider = UserFactory.create()
        other.players[0].user = outsider
        other.players[0].save()
        with pytest.raises(PermissionDeniedError):
            game_record_submit(match=m, text=TEXT, by=outsider)
        with pytest.raises(ValidationError, match="limit is 1 MB"):
            game_record_submit(match=m, text="x" * (1_000_000 + 1), by=setup.referee)
        with pytest.raises(ValidationError, match="UTF-8"):
            game_record_submit(match=m, text=b"\xff\xfe", by=setup.referee)
        assert not GameRecordSubmission.objects.exists()


class TestTask:
    def test_idempotent(self, setup: Setup, django_capture_on_commit_callbacks: Any) -> None:
        m = match_of(setup.tournament, 1, 0)
        fake = FakeReplay(results=["W hemspel"])
        with django_capture_on_commit_callbacks(execute=False):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        assert game_record_verify(submission_id=sub.pk, replay=fake) is not None
        assert game_record_verify(submission_id=sub.pk, replay=fake) is None
        sub.refresh_from_db()
        assert sub.attempts == 1 and len(fake.calls) == 1
        assert Game.objects.filter(match=m).count() == 1
        assert MatchEvent.objects.filter(match=m, kind=EventKind.RECORD_VERIFIED).count() == 1

    def test_attempt_counter_ends_as_failed(
        self, setup: Setup, django_capture_on_commit_callbacks: Any, settings: Any
    ) -> None:
        """A record whose verification keeps dying (stale 'verifying') ends as failed."""
        settings.GAME_RECORD_STALE_SECONDS = 0
        m = match_of(setup.tournament, 1, 0)
        with django_capture_on_commit_callbacks(execute=False):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)

        def dies(text: str) -> Any:
            raise SystemExit("worker killed")  # not an Exception: like a killed process

        for _ in range(RECORD_MAX_ATTEMPTS):
            with pytest.raises(SystemExit):
                game_record_verify(submission_id=sub.pk, replay=dies)
        sub.refresh_from_db()
        assert sub.state == RecordState.VERIFYING and sub.attempts == RECORD_MAX_ATTEMPTS
        assert game_record_verify(submission_id=sub.pk, replay=FakeReplay()) is None
        sub.refresh_from_db()
        assert sub.state == RecordState.FAILED and "after 3 attempts" in sub.message

    def test_soft_time_limit_releases_the_record_until_the_last_attempt(
        self,
        setup: Setup,
        django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch,
        settings: Any,
    ) -> None:
        """The task's soft time limit during the replay is not a crash: the attempt ends,
        the record is pending again (to be requeued), and failed after the last attempt."""
        from celery.exceptions import SoftTimeLimitExceeded

        from matches.tasks import verify_game_record

        def too_slow(text: str, *, match: Any) -> Any:
            raise SoftTimeLimitExceeded()

        monkeypatch.setattr(services, "_real_replay", too_slow)
        m = match_of(setup.tournament, 1, 0)
        with django_capture_on_commit_callbacks(execute=False):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        for attempt in range(1, RECORD_MAX_ATTEMPTS + 1):
            assert verify_game_record.apply(args=[sub.pk]).get() == "timeout"
            sub.refresh_from_db()
            assert sub.attempts == attempt and "longer than" in sub.message
            last = attempt == RECORD_MAX_ATTEMPTS
            assert sub.state == (RecordState.FAILED if last else RecordState.PENDING)
        assert not Game.objects.filter(match=m).exists()

    def test_crashing_verifier_fails_at_once(
        self, setup: Setup, django_capture_on_commit_callbacks: Any
    ) -> None:
        m = match_of(setup.tournament, 1, 0)
        with django_capture_on_commit_callbacks(execute=False):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)

        def crashes(text: str) -> Any:
            raise RuntimeError("bug")

        game_record_verify(submission_id=sub.pk, replay=crashes)
        sub.refresh_from_db()
        assert sub.state == RecordState.FAILED and "crashed" in sub.message

    def test_broker_down_keeps_pending_and_requeue_picks_it_up(
        self,
        setup: Setup,
        fake: FakeReplay,
        django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch,
        settings: Any,
    ) -> None:
        from matches import tasks

        def down(*args: Any, **kwargs: Any) -> None:
            raise OperationalError("Error 111 connecting to redis")

        m = match_of(setup.tournament, 1, 0)
        fake.results = ["W hemspel"]
        monkeypatch.setattr(tasks.verify_game_record, "delay", down)
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.PENDING and fake.calls == []
        monkeypatch.undo()
        monkeypatch.setattr(services, "_real_replay", lambda text, *, match: fake(text))
        settings.GAME_RECORD_PENDING_GRACE = 0
        assert game_records_requeue() == [sub.pk]
        sub.refresh_from_db()
        assert sub.state == RecordState.ENTERED

    def test_beat_runs_the_requeue_task(
        self,
        setup: Setup,
        fake: FakeReplay,
        django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch,
        settings: Any,
    ) -> None:
        """Redis down at submit: the record waits as pending until Celery beat's
        ``requeue-game-records`` entry runs, even if nobody submits again."""
        from config.celery import app
        from matches import tasks

        entry = app.conf.beat_schedule["requeue-game-records"]
        assert entry["task"] in app.tasks and entry["schedule"] <= 300
        m = match_of(setup.tournament, 1, 0)
        fake.results = ["W hemspel"]
        with monkeypatch.context() as patch:
            patch.setattr(tasks.verify_game_record, "delay", _broker_down)
            with django_capture_on_commit_callbacks(execute=True):
                sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.PENDING
        settings.GAME_RECORD_PENDING_GRACE = 0
        assert app.tasks[entry["task"]].apply().get() == [sub.pk]
        sub.refresh_from_db()
        assert sub.state == RecordState.ENTERED and fake.calls == [TEXT]

    def test_next_submission_picks_up_records_left_pending(
        self,
        setup: Setup,
        fake: FakeReplay,
        django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch,
        settings: Any,
    ) -> None:
        from matches import tasks

        def down(*args: Any, **kwargs: Any) -> None:
            raise OperationalError("Error 111 connecting to redis")

        m = match_of(setup.tournament, 1, 0)
        fake.results = ["W hemspel"]
        with monkeypatch.context() as patch:
            patch.setattr(tasks.verify_game_record, "delay", down)
            with django_capture_on_commit_callbacks(execute=True):
                left = game_record_submit(match=m, text=TEXT, by=setup.referee)
        settings.GAME_RECORD_PENDING_GRACE = 0
        with django_capture_on_commit_callbacks(execute=True):
            game_record_submit(match=m, text=TEXT, by=setup.referee)
        left.refresh_from_db()
        assert left.state in (RecordState.ENTERED, RecordState.VERIFIED)
        assert len(fake.calls) == 2


def _broker_down(*args: Any, **kwargs: Any) -> None:
    raise OperationalError("Error 111 connecting to redis")


def test_unreachable_redis_leaves_the_record_pending(tmp_path: Any) -> None:
    """The real Celery/Redis client against a closed port: enqueue reports False quickly
    (the record stays pending) instead of raising into the request."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent.parent
    script = (
        "import django; django.setup()\n"
        "from matches.services import game_record_enqueue\n"
        "print(game_record_enqueue(submission_id=1))\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "REDIS_URL": "redis://127.0.0.1:1/0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "PYTHONPATH": str(root),
    }
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.stdout.strip().splitlines()[-1] == "False", done.stderr[-2000:]
    assert "stays pending" in done.stderr
