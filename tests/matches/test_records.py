"""The game-record pipeline: stored first, verified by a task enqueued on commit."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import translation
from kombu.exceptions import OperationalError

from core.errors import PermissionDeniedError, ValidationError
from engine.errors import IllegalPlayError
from matches import records, services
from matches.engine_text import submission_text
from matches.models import (
    RECORD_DONE_STATES,
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
    monkeypatch.setattr(records, "_real_replay", lambda text, *, match: replay(text))
    return replay


@pytest.fixture
def setup() -> Setup:
    return drawn(2, lengths=[3])


def player_user(setup: Setup, index: int) -> Any:
    user = UserFactory.create()
    setup.players[index].user = user
    setup.players[index].save()
    return user


def _kill_verification(sub: GameRecordSubmission) -> None:
    """An attempt at ``sub`` whose worker is killed mid-verification (``SystemExit`` is no
    ``Exception``: like a killed process, it skips the verifier's own guard): the record
    is left verifying under a lease nobody renews."""

    def killed(text: str) -> Any:
        raise SystemExit("worker killed")

    with pytest.raises(SystemExit):
        game_record_verify(submission_id=sub.pk, replay=killed)


def _killed_mid_verification(setup: Setup, capture: Any) -> GameRecordSubmission:
    """A record submitted by the referee (its on-commit message held back), then an
    attempt at it killed mid-verification (``_kill_verification``)."""
    m = match_of(setup.tournament, 1, 0)
    with capture(execute=False):
        sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
    _kill_verification(sub)
    return sub


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
        assert fake.calls == []
        for callback in callbacks:  # the verification's, and the pages' change published
            callback()
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


class TestControlCharacters:
    """NUL cannot be stored in PostgreSQL text (it was an HTTP 500); it and the other C0
    controls but tab, LF and CR, and DEL, are refused, naming line and column.
    Runs on both databases (CI runs the suite on SQLite and PostgreSQL)."""

    @pytest.mark.parametrize(
        ("char", "named"),
        [
            ("\x00", "U+0000 (NUL)"),
            ("\x01", "U+0001 (SOH)"),
            ("\x0b", "U+000B (VT)"),
            ("\x0c", "U+000C (FF)"),
            ("\x1a", "U+001A (SUB)"),
            ("\x1b", "U+001B (ESC)"),
            ("\x1f", "U+001F (US)"),
            ("\x7f", "U+007F (DEL)"),
        ],
    )
    @pytest.mark.parametrize("as_bytes", [False, True])
    def test_refused_with_line_and_column(
        self, setup: Setup, char: str, named: str, as_bytes: bool
    ) -> None:
        m = match_of(setup.tournament, 1, 0)
        text = TEXT.replace("Tek: 2-5", f"Tek{char} 2-5")  # line 4, column 4
        with pytest.raises(ValidationError) as info:
            game_record_submit(match=m, text=text.encode() if as_bytes else text, by=setup.referee)
        assert info.value.code == "control_character"
        assert f"control character {named} at line 4, column 4." in info.value.message
        assert not GameRecordSubmission.objects.exists()

    def test_nul_first_is_refused_not_stored(self, setup: Setup) -> None:
        # a record's text after it (a NUL alone is no record at all: games.unread)
        m = match_of(setup.tournament, 1, 0)
        with pytest.raises(ValidationError, match="U\\+0000 \\(NUL\\) at line 1, column 1"):
            game_record_submit(match=m, text=b"\x00" + TEXT.encode(), by=setup.referee)
        assert not GameRecordSubmission.objects.exists()

    def test_tab_and_line_breaks_are_text(self, setup: Setup, fake: FakeReplay) -> None:
        m = match_of(setup.tournament, 1, 0)
        text = TEXT.replace("\n", "\r\n").replace("Tek: 2-5", "Tek:\t2-5")
        sub = game_record_submit(match=m, text=text, by=setup.referee)
        sub.refresh_from_db()
        assert sub.text == text

    def test_lone_surrogates_are_not_utf8(self, setup: Setup) -> None:
        # JSON can carry "\ud800"; it cannot be encoded, so it is not text to store.
        m = match_of(setup.tournament, 1, 0)
        with pytest.raises(ValidationError, match="not UTF-8"):
            game_record_submit(match=m, text=TEXT + "\ud800", by=setup.referee)
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
        """A record whose verification keeps dying (its lease runs out) ends as failed."""
        settings.GAME_RECORD_LEASE_SECONDS = 0
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
        the record is pending again with a new message sent at once, and failed after the
        last attempt. Its message quotes the configured limit and promises a retry only
        when one comes."""
        from celery.exceptions import SoftTimeLimitExceeded

        from matches import tasks
        from matches.tasks import verify_game_record

        def too_slow(text: str, *, match: Any) -> Any:
            raise SoftTimeLimitExceeded()

        settings.CELERY_TASK_SOFT_TIME_LIMIT = 7
        monkeypatch.setattr(records, "_real_replay", too_slow)
        m = match_of(setup.tournament, 1, 0)
        with django_capture_on_commit_callbacks(execute=False):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        sent: list[Any] = []
        monkeypatch.setattr(
            tasks.verify_game_record, "apply_async", lambda args, **kw: sent.append(args)
        )
        for attempt in range(1, RECORD_MAX_ATTEMPTS + 1):
            sent.clear()
            last = attempt == RECORD_MAX_ATTEMPTS
            with django_capture_on_commit_callbacks(execute=True):
                state = verify_game_record.apply(args=[sub.pk]).get()
            sub.refresh_from_db()
            assert state == sub.state == (RecordState.FAILED if last else RecordState.PENDING)
            assert sub.attempts == attempt and "longer than the limit of 7 seconds" in sub.message
            with translation.override("sv"):
                swedish = submission_text(sub)
            if last:
                assert "retried" not in sub.message and "administrator" in sub.message
                assert swedish == (
                    "Verifieringen tog längre tid än gränsen på 7 sekunder vid vart och ett "
                    "av dess 3 försök; verifieringen har avbrutits. En administratör måste "
                    "titta på protokollet."
                )
                assert sent == []
            else:
                assert "it will be retried" in sub.message
                assert swedish == (
                    f"Verifieringen tog längre tid än gränsen på 7 sekunder (försök {attempt} "
                    "av 3); det görs ett nytt försök."
                )
                assert sent == [[sub.pk]]  # the retry's message, without waiting for beat
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
        with translation.override("sv"):
            assert submission_text(sub) == (
                "Verifieraren kraschade (RuntimeError); en administratör måste titta på "
                "protokollet."
            )

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
        monkeypatch.setattr(tasks.verify_game_record, "apply_async", down)
        with django_capture_on_commit_callbacks(execute=True):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        sub.refresh_from_db()
        assert sub.state == RecordState.PENDING and fake.calls == []
        monkeypatch.undo()
        monkeypatch.setattr(records, "_real_replay", lambda text, *, match: fake(text))
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
            patch.setattr(tasks.verify_game_record, "apply_async", _broker_down)
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
            patch.setattr(tasks.verify_game_record, "apply_async", down)
            with django_capture_on_commit_callbacks(execute=True):
                left = game_record_submit(match=m, text=TEXT, by=setup.referee)
        settings.GAME_RECORD_PENDING_GRACE = 0
        with django_capture_on_commit_callbacks(execute=True):
            game_record_submit(match=m, text=TEXT, by=setup.referee)
        left.refresh_from_db()
        assert left.state in (RecordState.ENTERED, RecordState.VERIFIED)
        assert len(fake.calls) == 2


class TestLeaseAndMessages:
    """A dead attempt is taken over once its lease runs out (no staleness wait, no beat);
    a live one keeps its record; a record never has more than one live message."""

    def test_dead_attempt_is_taken_over_when_its_lease_runs_out(
        self, setup: Setup, django_capture_on_commit_callbacks: Any, settings: Any
    ) -> None:
        """What a redelivered message finds after its worker was killed: the record
        'verifying' under a lease nobody renews. It waits the lease out and verifies."""
        settings.GAME_RECORD_LEASE_SECONDS = 0.5
        sub = _killed_mid_verification(setup, django_capture_on_commit_callbacks)
        sub.refresh_from_db()
        assert sub.state == RecordState.VERIFYING and sub.lease_until is not None
        done = game_record_verify(submission_id=sub.pk, replay=FakeReplay(results=["W hemspel"]))
        assert done is not None and done.state == RecordState.ENTERED and done.attempts == 2
        assert Game.objects.filter(match_id=sub.match_id).count() == 1

    def test_lease_is_capped_by_the_hard_time_limit(
        self, setup: Setup, django_capture_on_commit_callbacks: Any, settings: Any
    ) -> None:
        settings.GAME_RECORD_LEASE_SECONDS = 600
        settings.CELERY_TASK_TIME_LIMIT = 9
        m = match_of(setup.tournament, 1, 0)
        with django_capture_on_commit_callbacks(execute=False):
            sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
        seen: list[Any] = []

        def look(text: str) -> Any:
            seen.append(GameRecordSubmission.objects.get(pk=sub.pk))
            return FakeReplay(results=["W hemspel"])(text)

        game_record_verify(submission_id=sub.pk, replay=look)
        (during,) = seen
        assert during.lease_until - during.started_at == timedelta(seconds=9)

    def test_submissions_send_one_message_per_record(
        self,
        setup: Setup,
        django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch,
        settings: Any,
    ) -> None:
        """No worker runs; every record is past the grace. Each submission used to send a
        message for every pending record again (n submissions: n(n+1)/2 messages)."""
        from matches import tasks

        sent: list[tuple[int, Any]] = []

        def publish(args: list[int], **options: Any) -> None:
            sent.append((args[0], options.get("expires")))

        monkeypatch.setattr(tasks.verify_game_record, "apply_async", publish)
        settings.GAME_RECORD_PENDING_GRACE = 0
        m = match_of(setup.tournament, 1, 0)
        subs = []
        for _ in range(6):
            with django_capture_on_commit_callbacks(execute=True):
                subs.append(game_record_submit(match=m, text=TEXT, by=setup.referee))
        assert sorted(pk for pk, _ in sent) == sorted(s.pk for s in subs)
        assert game_records_requeue() == []  # beat too: every record has its message
        # Each message expires when its record's slot does; after that the sweep sends
        # one new message per record (the old one is discarded by whichever worker gets it).
        later = max(expires for _, expires in sent) + timedelta(seconds=1)
        for s in subs:
            s.refresh_from_db()
            assert (s.pk, s.message_until) in sent
        assert sorted(game_records_requeue(now=later)) == sorted(s.pk for s in subs)
        assert len(sent) == 2 * len(subs)

    def test_sweep_takes_a_dead_attempt_over_once_its_lease_ran_out(
        self, setup: Setup, django_capture_on_commit_callbacks: Any, settings: Any
    ) -> None:
        """A verifying record whose lease ran out is sent a new message by the next sweep,
        although the dead worker's message could still come back from the broker (its
        redelivery window is 116 s here): the record waits for its lease, not for Redis.
        Once sent, no second sweep sends it another; the new attempt verifies it."""
        settings.GAME_RECORD_LEASE_SECONDS = 0
        settings.CELERY_BROKER_TRANSPORT_OPTIONS = {
            "visibility_timeout": 100,
            "unacked_restore_interval": 5,
            "unacked_restore_throttle": 1,
        }
        sub = _killed_mid_verification(setup, django_capture_on_commit_callbacks)
        sub.refresh_from_db()
        assert sub.started_at is not None and sub.state == RecordState.VERIFYING
        settings.GAME_RECORD_LEASE_SECONDS = 15
        assert game_records_requeue(now=sub.started_at + timedelta(seconds=1)) == [sub.pk]
        sub.refresh_from_db()  # the new message ran (tasks are eager here): attempt 2
        assert sub.attempts == 2 and sub.state in RECORD_DONE_STATES
        assert game_records_requeue(now=sub.started_at + timedelta(seconds=2)) == []

    def test_a_replacement_is_sent_once_not_at_every_sweep(
        self,
        setup: Setup,
        django_capture_on_commit_callbacks: Any,
        settings: Any,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """The replacement clears the dead lease: until the new attempt claims the record,
        later sweeps see a live message and send nothing more."""
        from matches import tasks

        settings.GAME_RECORD_LEASE_SECONDS = 0
        sub = _killed_mid_verification(setup, django_capture_on_commit_callbacks)
        sent: list[Any] = []
        monkeypatch.setattr(
            tasks.verify_game_record, "apply_async", lambda *a, **k: sent.append(k["args"])
        )
        sub.refresh_from_db()
        assert sub.started_at is not None
        for seconds in (1, 2, 30):
            game_records_requeue(now=sub.started_at + timedelta(seconds=seconds))
        assert sent == [[sub.pk]]
        sub.refresh_from_db()
        assert sub.lease_until is None and sub.state == RecordState.VERIFYING

    def test_a_live_attempt_is_not_taken_over(
        self, setup: Setup, django_capture_on_commit_callbacks: Any, settings: Any
    ) -> None:
        """Within its lease an attempt keeps its record: the sweep sends nothing."""
        sub = _killed_mid_verification(setup, django_capture_on_commit_callbacks)
        sub.refresh_from_db()
        assert sub.lease_until is not None
        assert game_records_requeue(now=sub.lease_until - timedelta(seconds=1)) == []


class TestLostMessages:
    """Redis restarted empty (it keeps nothing on disk) while records waited: the database
    still holds their messages as live until ``message_until``. Beat's sweep compares them
    with what the broker holds (``matches.record_broker.held_records``, replaced here by
    the test's own view of the broker) and sends the lost ones a new message."""

    @pytest.fixture
    def published(self, monkeypatch: pytest.MonkeyPatch, settings: Any) -> list[int]:
        """No worker runs: every message stays in the 'broker', listed here."""
        from matches import tasks

        sent: list[int] = []
        monkeypatch.setattr(
            tasks.verify_game_record, "apply_async", lambda args, **options: sent.append(args[0])
        )
        settings.GAME_RECORD_BROKER_RECHECK = 0
        return sent

    def _submitted(self, setup: Setup, count: int, capture: Any) -> list[GameRecordSubmission]:
        m = match_of(setup.tournament, 1, 0)
        subs = []
        for _ in range(count):
            with capture(execute=True):
                subs.append(game_record_submit(match=m, text=TEXT, by=setup.referee))
        return subs

    def test_beat_sends_a_lost_message_again_at_once(
        self,
        setup: Setup,
        published: list[int],
        django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """Five records queued, the broker restarted holding none of their messages: beat's
        next run sends each one new message (it used to wait for the 900 s slot to run
        out), and the run after that sends nothing."""
        from matches import record_broker, tasks

        subs = self._submitted(setup, 5, django_capture_on_commit_callbacks)
        assert sorted(published) == sorted(s.pk for s in subs)
        for sub in subs:
            sub.refresh_from_db()
        monkeypatch.setattr(record_broker, "held_records", lambda now: set())
        assert sorted(tasks.requeue_game_records.apply().get()) == sorted(s.pk for s in subs)
        assert sorted(published) == sorted([s.pk for s in subs] * 2)
        # The broker now holds the new messages: nothing is sent twice.
        monkeypatch.setattr(record_broker, "held_records", lambda now: set(published))
        assert tasks.requeue_game_records.apply().get() == []
        assert len(published) == 10
        for sub in subs:
            before = sub.message_until
            assert before is not None
            sub.refresh_from_db()
            assert sub.state == RecordState.PENDING
            assert sub.message_until is not None and sub.message_until > before

    def test_a_message_the_broker_holds_is_not_sent_again(
        self,
        setup: Setup,
        published: list[int],
        django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """Only the lost message is replaced; a broker that cannot be read (None) changes
        nothing, the slot's expiry stays the safety net."""
        from matches import record_broker, tasks

        kept, lost = self._submitted(setup, 2, django_capture_on_commit_callbacks)
        monkeypatch.setattr(record_broker, "held_records", lambda now: None)
        assert tasks.requeue_game_records.apply().get() == []
        monkeypatch.setattr(record_broker, "held_records", lambda now: {kept.pk})
        assert tasks.requeue_game_records.apply().get() == [lost.pk]
        assert sorted(published) == sorted([kept.pk, lost.pk, lost.pk])

    def test_a_message_seen_on_the_second_look_is_not_lost(
        self,
        setup: Setup,
        published: list[int],
        django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """A worker taking the message from the queue, or a publish on its way, is missing
        from one read only: the sweep reads twice and believes only a message missing
        both times lost."""
        from matches import record_broker, tasks

        (sub,) = self._submitted(setup, 1, django_capture_on_commit_callbacks)
        reads = iter([set(), {sub.pk}])
        monkeypatch.setattr(record_broker, "held_records", lambda now: next(reads))
        assert tasks.requeue_game_records.apply().get() == []
        assert published == [sub.pk]

    def test_a_record_claimed_between_the_reads_keeps_its_message(
        self,
        setup: Setup,
        published: list[int],
        django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        """The record was claimed by a worker after the database was read (its slot moved,
        its message acknowledged once it is done): no new message for it."""
        from matches import record_broker, tasks

        (sub,) = self._submitted(setup, 1, django_capture_on_commit_callbacks)
        fake = FakeReplay(results=["W hemspel"])
        reads: list[int] = []

        def held(now: Any) -> set[int]:
            reads.append(1)
            if len(reads) == 2:  # between the reads: a worker verified it
                game_record_verify(submission_id=sub.pk, replay=fake)
            return set()

        monkeypatch.setattr(record_broker, "held_records", held)
        assert tasks.requeue_game_records.apply().get() == []
        sub.refresh_from_db()
        assert sub.state == RecordState.ENTERED and published == [sub.pk]

    def test_a_dead_attempt_whose_message_was_lost_is_sent_a_new_one(
        self,
        setup: Setup,
        published: list[int],
        django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch,
        settings: Any,
    ) -> None:
        """The worker died mid-verification and Redis lost the unacknowledged message with
        it: the record is taken over at once instead of after the redelivery window."""
        from matches import record_broker, tasks

        settings.GAME_RECORD_LEASE_SECONDS = 0
        (sub,) = self._submitted(setup, 1, django_capture_on_commit_callbacks)
        _kill_verification(sub)
        monkeypatch.setattr(record_broker, "held_records", lambda now: set())
        assert tasks.requeue_game_records.apply().get() == [sub.pk]
        assert published == [sub.pk, sub.pk]


def test_a_broker_message_is_read_as_celery_writes_it() -> None:
    """Celery's message protocol 2 as kombu keeps it in Redis: waiting in the queue, or
    wrapped as ``[message, exchange, routing key]`` while a worker holds it unacknowledged.
    An expired message (its worker will discard it) or another task's is held for none."""
    import base64
    import json
    from datetime import UTC, datetime

    from matches.record_broker import _record_of

    now = datetime(2026, 11, 25, 21, 0, tzinfo=UTC)

    def message(task: str, pk: int, expires: str | None) -> dict[str, Any]:
        body = json.dumps([[pk], {}, {"callbacks": None}]).encode()
        return {
            "body": base64.b64encode(body).decode(),
            "content-type": "application/json",
            "headers": {"task": task, "id": "x", "expires": expires, "argsrepr": f"[{pk}]"},
            "properties": {"body_encoding": "base64", "delivery_tag": "t"},
        }

    task = "matches.verify_game_record"
    live = message(task, 7, "2026-11-25T22:14:00+01:00")  # 21:14 UTC
    assert _record_of(json.dumps(live).encode(), task, now, wrapped=False) == 7
    taken = json.dumps([live, "celery", "celery"]).encode()
    assert _record_of(taken, task, now, wrapped=True) == 7
    assert _record_of(json.dumps(message(task, 8, None)).encode(), task, now, wrapped=False) == 8
    expired = message(task, 9, "2026-11-25T21:59:00+01:00")  # 20:59 UTC
    assert _record_of(json.dumps(expired).encode(), task, now, wrapped=False) is None
    other = message("matches.requeue_game_records", 10, None)
    assert _record_of(json.dumps(other).encode(), task, now, wrapped=False) is None
    assert _record_of(b"not json", task, now, wrapped=False) is None


def test_the_broker_cannot_be_read_with_tasks_in_process() -> None:
    """Eager tasks (the embedded default): no broker to lose a message, nothing to read."""
    from django.utils import timezone

    from matches.record_broker import held_records

    assert held_records(timezone.now()) is None


@pytest.mark.postgres
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="two threads writing at once: needs PostgreSQL"
)
@pytest.mark.django_db(transaction=True)
def test_live_attempt_keeps_its_record_while_it_renews_its_lease(settings: Any) -> None:
    """An attempt slower than its lease keeps the record: its worker renews the lease,
    so a second message (a copy) stands back instead of verifying a second time."""
    settings.GAME_RECORD_LEASE_SECONDS = 0.6
    s = drawn(2, lengths=[3])
    m = match_of(s.tournament, 1, 0)
    sub = GameRecordSubmission.objects.create(match=m, submitted_by=s.referee, text=TEXT)
    started = threading.Event()

    def slow(text: str) -> Any:
        started.set()
        time.sleep(2.5)  # four leases
        return FakeReplay(results=["W hemspel"])(text)

    results: list[Any] = []

    def first() -> None:
        try:
            results.append(game_record_verify(submission_id=sub.pk, replay=slow))
        finally:
            connection.close()

    thread = threading.Thread(target=first)
    thread.start()
    assert started.wait(30)
    assert (
        game_record_verify(submission_id=sub.pk, replay=FakeReplay(results=["W hemspel"])) is None
    )
    thread.join(30)
    sub.refresh_from_db()
    assert results and results[0] is not None
    assert sub.state == RecordState.ENTERED and sub.attempts == 1
    assert Game.objects.filter(match=m).count() == 1


def _broker_down(*args: Any, **kwargs: Any) -> None:
    raise OperationalError("Error 111 connecting to redis")


def test_unreachable_redis_leaves_the_record_pending(tmp_path: Any) -> None:
    """The real Celery/Redis client against a closed port: enqueue reports False quickly
    (the record stays pending, its message slot given back for the sweep) instead of
    raising into the request."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent.parent
    script = (
        "import django; django.setup()\n"
        "from django.core.management import call_command\n"
        "call_command('migrate', verbosity=0)\n"
        "from matches.models import GameRecordSubmission\n"
        "from matches.services import game_record_enqueue\n"
        "from tests.tournaments.helpers import drawn, match_of\n"
        "s = drawn(2)\n"
        "sub = GameRecordSubmission.objects.create(match=match_of(s.tournament, 1, 0), text='x')\n"
        "sent = game_record_enqueue(submission_id=sub.pk)\n"
        "sub.refresh_from_db()\n"
        "print(sub.state, sub.message_until)\n"
        "print(sent)\n"
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
    assert done.stdout.strip().splitlines()[-2:] == ["pending None", "False"], done.stderr[-2000:]
    assert "stays pending" in done.stderr


def test_a_starting_worker_sends_the_sweep_for_after_the_dead_leases() -> None:
    """A (re)started worker queues beat's sweep to run once every lease a killed worker
    held has run out: its records are taken over then, with beat or without it."""
    from celery.signals import worker_ready

    from matches import tasks

    sent: list[dict[str, Any]] = []
    original = tasks.requeue_game_records.apply_async
    try:
        tasks.requeue_game_records.apply_async = lambda *a, **k: sent.append(k)  # type: ignore[method-assign]
        worker_ready.send(sender=None)
    finally:
        tasks.requeue_game_records.apply_async = original  # type: ignore[method-assign]
    assert sent == [{"countdown": 15.0 + 2}]
