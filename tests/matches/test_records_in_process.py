"""The embedded default: a record whose verification fails in-process is swept again.

Tasks run in the request's own process there (eager). A verification that fails before
its verdict (the database busy past its timeout) must not fail the request that stored
the record, and must leave the record to the in-process beat's sweep
(``config/embedded_beat.py``), which verifies it: nothing stays pending.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError

from config.embedded_beat import EmbeddedBeat
from core.registered_tasks import registered_task
from matches import records
from matches.models import GameRecordSubmission, RecordState
from matches.services import game_record_submit
from tests.matches.fakes import FakeReplay
from tests.tournaments.helpers import Setup, drawn, match_of

pytestmark = pytest.mark.django_db

TEXT = '[White "P001"]\n[Black "P002"]\nGame 1\nTek: 2-5\n'


@pytest.fixture
def setup() -> Setup:
    return drawn(2, lengths=[3])


class _BusyOnce:
    """The replay: the database busy the first time, then the fake's verdict."""

    def __init__(self, fake: FakeReplay) -> None:
        self.fake = fake
        self.calls = 0

    def __call__(self, text: str, *, match: Any) -> Any:
        self.calls += 1
        if self.calls == 1:
            raise OperationalError("database is locked")
        return self.fake(text)


def _busy_claim_once(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """``claim_or_wait`` raising "database is locked" once, before any attempt counts."""
    real = records.claim_or_wait
    calls: list[int] = []

    def claim(submission_id: int) -> Any:
        calls.append(submission_id)
        if len(calls) == 1:
            raise OperationalError("database is locked")
        return real(submission_id)

    monkeypatch.setattr(records, "claim_or_wait", claim)
    return calls


def test_a_failed_claim_leaves_the_record_to_the_sweep(
    setup: Setup,
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    fake = FakeReplay()
    fake.results = ["W hemspel"]
    monkeypatch.setattr(records, "_real_replay", lambda text, *, match: fake(text))
    claims = _busy_claim_once(monkeypatch)
    m = match_of(setup.tournament, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):  # must not raise
        sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
    sub.refresh_from_db()
    assert claims == [sub.pk]
    assert sub.state == RecordState.PENDING and sub.attempts == 0
    assert sub.message_until is None  # its slot given back for the sweep

    settings.GAME_RECORD_PENDING_GRACE = 0
    clock = [1000.0]
    beat = EmbeddedBeat(
        schedule={"requeue": {"task": "matches.requeue_game_records", "schedule": 30.0}},
        # As ``run_task_in_process`` runs it, less closing the test's own connection.
        runner=lambda name: registered_task(name).apply(throw=True).get(),
        clock=lambda: clock[0],
    )
    assert beat.run_due() == []  # its first run comes a few seconds after the start
    clock[0] += 5.0
    assert beat.run_due() == ["requeue"]
    sub = GameRecordSubmission.objects.get(pk=sub.pk)
    assert sub.state == RecordState.ENTERED and fake.calls == [TEXT]


def test_a_verification_that_failed_midway_is_taken_up_after_its_lease(
    setup: Setup,
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Failed after its claim: the attempt counted, its lease runs out, the sweep sends
    it again and the second attempt decides (not ``failed``: it was no crash of the
    verifier's own, the database refused to answer)."""
    from datetime import timedelta

    from django.utils import timezone

    from matches.record_queue import game_records_recover

    fake = FakeReplay()
    fake.results = ["W hemspel"]
    busy = _BusyOnce(fake)
    monkeypatch.setattr(records, "game_record_verify", _raising_after_claim(busy))
    m = match_of(setup.tournament, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        sub = game_record_submit(match=m, text=TEXT, by=setup.referee)
    sub.refresh_from_db()
    assert sub.state == RecordState.VERIFYING and sub.attempts == 1
    assert sub.message_until is None

    settings.GAME_RECORD_PENDING_GRACE = 0
    assert game_records_recover(now=timezone.now()) == []  # its lease is still live
    later = (sub.lease_until or timezone.now()) + timedelta(seconds=1)
    GameRecordSubmission.objects.filter(pk=sub.pk).update(lease_until=timezone.now())
    assert game_records_recover(now=later) == [sub.pk]
    sub.refresh_from_db()
    assert sub.state == RecordState.ENTERED and sub.attempts == 2


def _raising_after_claim(busy: _BusyOnce) -> Any:
    """``game_record_verify`` whose first attempt claims the record and then meets a busy
    database outside the verifier's own guard (where a locked write would raise)."""
    real = records.game_record_verify

    def verify(*, submission_id: int, replay: Any = None) -> Any:
        if busy.calls == 0:
            busy.calls += 1
            records.claim_or_wait(submission_id)
            raise OperationalError("database is locked")
        return real(submission_id=submission_id, replay=lambda text: busy.fake(text))

    return verify


def test_with_a_broker_a_failing_send_still_raises(
    setup: Setup, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """Only in-process is a task's failure kept from the request: with a broker the error
    is the sender's own, not the task's, and is not hidden."""
    from matches import tasks

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug in sending")

    monkeypatch.setitem(tasks.verify_game_record.app.conf, "task_always_eager", False)
    monkeypatch.setattr(tasks.verify_game_record, "apply_async", broken)
    m = match_of(setup.tournament, 1, 0)
    with pytest.raises(RuntimeError), django_capture_on_commit_callbacks(execute=True):
        game_record_submit(match=m, text=TEXT, by=setup.referee)
