"""Notifications: each event tells each person concerned exactly once, on their home and
by one mail (``django.core.mail.outbox``), after the commit; a rolled-back change tells
nobody; a person's choice stops them; a task delivered again makes and sends nothing
twice."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from django.core import mail
from django.db import transaction
from django.test import Client
from django.urls import reverse

from engine.errors import IllegalPlayError
from matches import records
from matches.models import Match, MatchState
from matches.reports import game_report_dispute, game_report_submit
from matches.services import game_record_submit
from notifications.models import Notification, NotificationChoice, NotificationKind
from notifications.services import notification_choice_set
from notifications.tasks import notification_mail, notifications_collect, notifications_ready
from tests.factories import (
    EntryFactory,
    OrganiserFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tests.matches.fakes import FakeReplay
from tests.results import won
from tournaments.stage_draws import tournament_draw

pytestmark = pytest.mark.django_db


class Evening:
    def __init__(self, capture: Any, **fields: Any) -> None:
        self.organiser = OrganiserFactory.create(email="org@example.org")
        self.referee = UserFactory.create(email="ref@example.org")
        self.tournament = TournamentFactory.create(
            organisers=[self.organiser], referees=[self.referee], **fields
        )
        self.users = [UserFactory.create(email=f"p{i}@example.org") for i in range(4)]
        self.players = [
            PlayerFactory.create(name=f"Spelare {i + 1}", user=u) for i, u in enumerate(self.users)
        ]
        for i, p in enumerate(self.players):
            EntryFactory.create(tournament=self.tournament, player=p, seed=i + 1)
        with capture(execute=True):
            tournament_draw(tournament=self.tournament, by=self.organiser)

    def match(self) -> Match:
        found = (
            Match.objects.filter(tournament=self.tournament, round__number=1)
            .select_related("player1__user", "player2__user", "tournament")
            .order_by("slot")
            .first()
        )
        assert found is not None
        return found


def users_of(match: Match) -> tuple[Any, Any]:
    """The users of the match's two players (every player of an ``Evening`` has one)."""
    assert match.player1 is not None and match.player2 is not None
    assert match.player1.user is not None and match.player2.user is not None
    return match.player1.user, match.player2.user


def _kinds(user: Any) -> Counter[str]:
    return Counter(Notification.objects.filter(user=user).values_list("kind", flat=True))


def _mails_to(address: str) -> list[Any]:
    return [m for m in mail.outbox if address in m.to]


def test_the_draw_tells_each_player_their_match_is_ready_with_its_table(
    django_capture_on_commit_callbacks: Any,
) -> None:
    e = Evening(django_capture_on_commit_callbacks)
    for user in e.users:
        assert _kinds(user) == {NotificationKind.MATCH_READY: 1}
        (sent,) = _mails_to(user.email)
        assert "Bord" in sent.body and "Din match är klar" in sent.subject
    assert len(mail.outbox) == 4
    # Nobody else was told, and the draw made nothing for the staff.
    assert not Notification.objects.filter(user__in=[e.organiser, e.referee]).exists()


def test_a_report_tells_the_opponent_once_and_a_dispute_the_reporter_and_the_staff(
    django_capture_on_commit_callbacks: Any,
) -> None:
    e = Evening(django_capture_on_commit_callbacks, results_by="players")
    m = e.match()
    white, black = users_of(m)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        report = game_report_submit(
            match=m, number=1, result=won("W", "jan"), starter="W", by=white
        )
    assert _kinds(black) == {NotificationKind.MATCH_READY: 1, NotificationKind.REPORT_WAITING: 1}
    assert _kinds(white) == {NotificationKind.MATCH_READY: 1}
    assert [x.to for x in mail.outbox] == [[black.email]]

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        game_report_dispute(report=report, by=black, note="Det var ett hemspel")
    assert _kinds(white)[NotificationKind.REPORT_DISPUTED] == 1
    assert _kinds(e.referee) == {NotificationKind.DISPUTE_WAITING: 1}
    assert _kinds(e.organiser) == {NotificationKind.DISPUTE_WAITING: 1}
    assert sorted(x.to[0] for x in mail.outbox) == sorted(
        [white.email, e.referee.email, e.organiser.email]
    )


def test_a_rejected_record_tells_its_submitter_and_the_staff(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    e = Evening(django_capture_on_commit_callbacks)
    fake = FakeReplay()
    monkeypatch.setattr(records, "_real_replay", lambda text, *, match: fake(text))
    fake.error = IllegalPlayError("R5.3: White may not make a band on point 7", game=1, line=9)
    m = e.match()
    submitter, _black = users_of(m)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        game_record_submit(match=m, text='[White "a"]\nGame 1\n', by=submitter)
    for user in (submitter, e.referee, e.organiser):
        assert _kinds(user)[NotificationKind.RECORD_REJECTED] == 1
    assert len(mail.outbox) == 3


def test_a_change_rolled_back_tells_nobody(django_capture_on_commit_callbacks: Any) -> None:
    e = Evening(django_capture_on_commit_callbacks, results_by="players")
    m = e.match()
    before = Notification.objects.count()
    white, _black = users_of(m)
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        game_report_submit(match=m, number=1, result=won("W", "jan"), starter="W", by=white)
        raise RuntimeError("rolled back")
    assert Notification.objects.count() == before


def test_the_choice_stops_them(django_capture_on_commit_callbacks: Any) -> None:
    e = Evening(django_capture_on_commit_callbacks, results_by="players")
    m = e.match()
    white, black = users_of(m)
    notification_choice_set(user=black, on_home=False, by_email=False)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        report = game_report_submit(
            match=m, number=1, result=won("W", "jan"), starter="W", by=white
        )
    assert NotificationKind.REPORT_WAITING not in _kinds(black) and mail.outbox == []

    # The home off, mail on: the mail comes, the home lists nothing.
    notification_choice_set(user=white, on_home=False, by_email=True)
    with django_capture_on_commit_callbacks(execute=True):
        game_report_dispute(report=report, by=black)
    assert [x for x in mail.outbox if x.to == [white.email]]
    client = Client()
    client.force_login(white)
    assert 'id="notifications"' not in client.get(reverse("web:home")).content.decode()


def test_a_task_delivered_again_makes_and_sends_nothing_twice(
    django_capture_on_commit_callbacks: Any,
) -> None:
    e = Evening(django_capture_on_commit_callbacks, results_by="players")
    m = e.match()
    white, _black = users_of(m)
    with django_capture_on_commit_callbacks(execute=True):
        game_report_submit(match=m, number=1, result=won("W", "jan"), starter="W", by=white)
    made, sent = Notification.objects.count(), len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        assert notifications_collect(e.tournament.pk, 0) == 0
        assert notifications_ready(e.tournament.pk) == 0
        for n in Notification.objects.all():
            assert notification_mail(n.pk) is False
    assert Notification.objects.count() == made and len(mail.outbox) == sent


def test_the_home_lists_them_marks_them_read_and_saves_the_choice(
    django_capture_on_commit_callbacks: Any,
) -> None:
    e = Evening(django_capture_on_commit_callbacks)
    user = e.users[0]
    client = Client()
    client.cookies["django_language"] = "sv"
    client.force_login(user)
    page = client.get(reverse("web:home")).content.decode()
    assert 'id="notifications"' in page and "Din match är klar" in page and "ny" in page
    client.post(reverse("web:notifications_read"))
    assert not Notification.objects.filter(user=user, read_at__isnull=True).exists()
    client.post(reverse("web:notification_choice"), {"on_home": "on"})
    choice = NotificationChoice.objects.get(user=user)
    assert choice.on_home and not choice.by_email
    assert Match.objects.filter(tournament=e.tournament, state=MatchState.READY).exists()


def test_a_swiss_pairing_is_told_once_published_not_before(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from matches.swiss_progression import swiss_round_pair, swiss_round_publish
    from tests.tournaments.test_swiss import swiss

    t, organiser, players = swiss(4)
    users = [UserFactory.create(email=f"s{i}@example.org") for i in range(4)]
    for player, user in zip(players, users, strict=True):
        player.user = user
        player.save()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rnd = swiss_round_pair(tournament=t, by=organiser)
    assert not Notification.objects.exists() and mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        swiss_round_publish(round=rnd, by=organiser)
    for user in users:
        assert _kinds(user) == {NotificationKind.MATCH_READY: 1}
    assert sorted(x.to[0] for x in mail.outbox) == sorted(u.email for u in users)


def test_a_notification_is_no_longer_new_once_what_it_announces_is_dealt_with(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Unread, but no longer news: the report waiting for a confirmation was confirmed,
    the match that was ready is over. The home says "ny" only for what still waits."""
    from matches.reports import game_report_confirm

    e = Evening(django_capture_on_commit_callbacks, results_by="players")
    m = e.match()
    white, black = users_of(m)
    with django_capture_on_commit_callbacks(execute=True):
        report = game_report_submit(
            match=m, number=1, result=won("W", "jan"), starter="W", by=white
        )
    client = Client()
    client.cookies["django_language"] = "sv"
    client.force_login(black)

    def new_ones() -> set[str]:
        page = client.get(reverse("web:home")).content.decode()
        rows = re.findall(
            r'<li id="notification-\d+" class="unread"><p>.*?<strong>(.*?)</strong>', page, re.S
        )
        return set(rows)

    assert len(new_ones()) == 2  # the match is ready; a report waits for black
    with django_capture_on_commit_callbacks(execute=True):
        game_report_confirm(report=report, by=black)
    waiting = Notification.objects.get(user=black, kind=NotificationKind.REPORT_WAITING)
    assert waiting.read_at is None  # not read: dealt with
    assert len(new_ones()) == 1  # the match is still being played
    for number in range(2, 20):
        m.refresh_from_db()
        if m.state == MatchState.DECIDED:
            break
        with django_capture_on_commit_callbacks(execute=True):
            report = game_report_submit(match=m, number=number, result=won("W", "jan"), by=white)
            game_report_confirm(report=report, by=black)
    m.refresh_from_db()
    assert m.state == MatchState.DECIDED
    assert new_ones() == set()
    page = client.get(reverse("web:home")).content.decode()
    assert "Markera alla som lästa" not in page
