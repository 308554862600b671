"""Notifications: made from what happened (``notifications.events`` finds it), each once,
shown on the person's home and mailed once by a Celery task.

Who is told what (decisions where the docs are silent):
- **your match is ready**: both players of a match that has both players and is ready or
  being played in a published round (a Swiss round once published), with its table; once
  per match and player (a player placed in the match again after a reset is not told
  twice);
- **a report waits for your confirmation**: the reporter's opponent;
- **your report was disputed**: the player who reported it;
- **a dispute waits for a referee**: every referee and organiser of the tournament;
- **a record was rejected** (invalid, or disagreeing with the entered results): who
  submitted it, and the tournament's referees and organisers (their home lists it too).
- Only users are told: a player without an account has no address here (``Player`` has
  no e-mail field; their private link shows the same on its page).
- A user who turned both off is not told at all; one who turned the home off still gets
  the mail (and the other way round). A user without an e-mail address gets no mail.
- Mails are written in the site's language (``LANGUAGE_CODE``): the site keeps no
  language per user. So a Danish player's mail is Swedish too: the language a reader
  chose (English, Danish) lives in their browser's cookie, which the task that mails
  never sees; the page a mail links to is in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from core.permissions import User, authenticated, signed_in
from core.site_address import site_root
from games.seats import other, seat_of
from matches.models import (
    FINISHED_STATES,
    GameRecordSubmission,
    GameReport,
    Match,
    MatchState,
    ReportState,
)
from notifications.enqueue import later
from notifications.models import Notification, NotificationChoice, NotificationKind
from notifications.task_names import MAIL
from tournaments.models import Player, Tournament

__all__ = [
    "HOME_LIMIT",
    "Told",
    "notification_choice",
    "notification_choice_set",
    "notification_handled",
    "notification_send",
    "notification_text",
    "notifications_for_dispute",
    "notifications_for_ready_matches",
    "notifications_for_record",
    "notifications_for_report",
    "notifications_home",
    "notifications_read",
]

HOME_LIMIT = 10


@dataclass(frozen=True)
class Told:
    """A notification to make: to whom, what, and its unique key."""

    user_id: int
    kind: str
    key: str
    tournament_id: int | None
    match_id: int | None
    data: dict[str, Any]


def _wanted(user_ids: Iterable[int]) -> dict[int, tuple[bool, bool]]:
    """(on the home, by e-mail) per user: both on unless the user chose otherwise."""
    ids = set(user_ids)
    chosen = {
        c.user_id: (c.on_home, c.by_email)
        for c in NotificationChoice.objects.filter(user_id__in=ids)
    }
    return {uid: chosen.get(uid, (True, True)) for uid in ids}


def _make(told: list[Told]) -> list[Notification]:
    """Make the notifications not made before (by key), and enqueue each new one's mail.
    Returns the new ones."""
    if not told:
        return []
    wanted = _wanted(t.user_id for t in told)
    made: list[Notification] = []
    existing = set(
        Notification.objects.filter(key__in=[t.key for t in told]).values_list("key", flat=True)
    )
    for t in told:
        home, mail = wanted[t.user_id]  # a home turned off lists none (notifications_home)
        if t.key in existing or not (home or mail):
            continue
        notification, created = Notification.objects.get_or_create(
            key=t.key,
            defaults={
                "user_id": t.user_id,
                "kind": t.kind,
                "tournament_id": t.tournament_id,
                "match_id": t.match_id,
                "data": t.data,
            },
        )
        existing.add(t.key)
        if created:
            made.append(notification)
            if mail:
                later(MAIL, notification.pk)
    return made


def _staff_ids(tournament: Tournament) -> set[int]:
    return set(tournament.organisers.values_list("pk", flat=True)) | set(
        tournament.referees.values_list("pk", flat=True)
    )


# --- what happened → who is told ---------------------------------------------------------


def notifications_for_report(*, report_id: int) -> list[Notification]:
    """A player reported a game: the opponent is asked to confirm it."""
    report = (
        GameReport.objects.select_related("match__player1__user", "match__player2__user")
        .filter(pk=report_id)
        .first()
    )
    if report is None:
        return []
    match = report.match
    opponent = match.player_for(other(seat_of(report.reporter_side)))
    if opponent is None or opponent.user_id is None:
        return []
    return _make(
        [
            Told(
                opponent.user_id,
                NotificationKind.REPORT_WAITING,
                f"report-{report.pk}-waiting-{opponent.user_id}",
                match.tournament_id,
                match.pk,
                {"report": report.pk, "game": report.number},
            )
        ]
    )


def notifications_for_dispute(*, report_id: int) -> list[Notification]:
    """The opponent disputed a report: its reporter is told, and the referees asked."""
    report = (
        GameReport.objects.select_related("match__tournament", "reporter")
        .filter(pk=report_id)
        .first()
    )
    if report is None:
        return []
    match = report.match
    data = {"report": report.pk, "game": report.number}
    told: list[Told] = []
    reporter_user = report.reported_by_id or report.reporter.user_id
    if reporter_user is not None:
        told.append(
            Told(
                reporter_user,
                NotificationKind.REPORT_DISPUTED,
                f"report-{report.pk}-disputed-{reporter_user}",
                match.tournament_id,
                match.pk,
                data,
            )
        )
    for uid in sorted(_staff_ids(match.tournament)):
        told.append(
            Told(
                uid,
                NotificationKind.DISPUTE_WAITING,
                f"report-{report.pk}-dispute-{uid}",
                match.tournament_id,
                match.pk,
                data,
            )
        )
    return _make(told)


def notifications_for_record(*, submission_id: int) -> list[Notification]:
    """A record was rejected: its submitter and the tournament's staff are told."""
    sub = (
        GameRecordSubmission.objects.select_related("match__tournament")
        .filter(pk=submission_id)
        .first()
    )
    if sub is None:
        return []
    match = sub.match
    users = _staff_ids(match.tournament)
    if sub.submitted_by_id is not None:
        users.add(sub.submitted_by_id)
    return _make(
        [
            Told(
                uid,
                NotificationKind.RECORD_REJECTED,
                f"record-{sub.pk}-{sub.state}-{uid}",
                match.tournament_id,
                match.pk,
                {"record": sub.pk},
            )
            for uid in sorted(users)
        ]
    )


def notifications_for_ready_matches(*, tournament_id: int) -> list[Notification]:
    """Every player (with an account) of a match ready to play in a published round who
    was not told yet (see the module text)."""
    matches = Match.objects.filter(
        tournament_id=tournament_id,
        state__in=(MatchState.READY, MatchState.PLAYING),
        round__published=True,
        player1__isnull=False,
        player2__isnull=False,
    ).select_related("player1", "player2")
    told: list[Told] = []
    for m in matches:
        for player in (m.player1, m.player2):
            assert player is not None
            if player.user_id is None:
                continue
            told.append(
                Told(
                    player.user_id,
                    NotificationKind.MATCH_READY,
                    f"match-{m.pk}-ready-{player.pk}",
                    tournament_id,
                    m.pk,
                    {"player": player.pk},
                )
            )
    return _make(told)


# --- reading, in the reader's language ----------------------------------------------------


@dataclass(frozen=True)
class Text:
    subject: str
    body: str
    url: str


def _names(match: Match | None) -> str:
    if match is None:
        return ""
    return f"{match.player1 or '?'} – {match.player2 or '?'}"


def _opponent_of(match: Match, player_id: int | None) -> Player | None:
    return match.player2 if match.player1_id == player_id else match.player1


def notification_text(notification: Notification) -> Text:
    """What the notification says and where it is handled, in the active language."""
    n, match = notification, notification.match
    data = n.data or {}
    tournament = n.tournament.name if n.tournament is not None else ""
    match_url = reverse("web:match_detail", args=[n.match_id]) if n.match_id else "/"
    if n.kind == NotificationKind.MATCH_READY and match is not None:
        opponent = _opponent_of(match, data.get("player"))
        body = _("Against %(opponent)s, %(round)s.") % {
            "opponent": opponent or "?",
            "round": match.round.name,
        }
        if match.board is not None:
            body += " " + _("Table %(n)s.") % {"n": match.board}
        return Text(_("Your match is ready"), body, match_url)
    if n.kind == NotificationKind.REPORT_WAITING:
        return Text(
            _("A report waits for your confirmation"),
            _("Game %(n)s of %(match)s was reported; confirm or dispute it.")
            % {"n": data.get("game"), "match": _names(match)},
            reverse("web:report_detail", args=[data["report"]]),
        )
    if n.kind == NotificationKind.REPORT_DISPUTED:
        return Text(
            _("Your report was disputed"),
            _("Your report of game %(n)s of %(match)s was disputed; a referee decides it.")
            % {"n": data.get("game"), "match": _names(match)},
            reverse("web:report_detail", args=[data["report"]]),
        )
    if n.kind == NotificationKind.DISPUTE_WAITING:
        return Text(
            _("A dispute waits for a referee"),
            _("Game %(n)s of %(match)s is disputed (%(tournament)s); decide it.")
            % {"n": data.get("game"), "match": _names(match), "tournament": tournament},
            reverse("web:match_enter", args=[n.match_id]) if n.match_id else match_url,
        )
    return Text(
        _("A game record was rejected"),
        _("A game record of %(match)s was rejected (%(tournament)s).")
        % {"match": _names(match), "tournament": tournament},
        reverse("web:record_detail", args=[data["record"]]) if "record" in data else match_url,
    )


def notification_handled(notification: Notification, report_states: dict[int, str]) -> bool:
    """Whether what ``notification`` announces has been dealt with since, so it is no
    longer news whether or not its reader opened it: a ready match that is over, a
    report no longer waiting for its confirmation, a dispute a referee has decided. A
    rejected record stays news until read (nothing else closes it). ``report_states``:
    the states of the reports the notifications name, by id."""
    kind = notification.kind
    if kind == NotificationKind.MATCH_READY:
        match = notification.match
        return match is not None and match.state in FINISHED_STATES
    report = (notification.data or {}).get("report")
    state = report_states.get(report) if isinstance(report, int) else None
    if kind == NotificationKind.REPORT_WAITING:
        return state is not None and state != ReportState.PENDING
    if kind in (NotificationKind.REPORT_DISPUTED, NotificationKind.DISPUTE_WAITING):
        return state is not None and state != ReportState.DISPUTED
    return False


def notifications_home(*, user: User) -> list[tuple[Notification, Text]]:
    """The user's newest notifications for their home (read ones too, marked), with
    their texts. Each carries ``is_new``: not read and not dealt with since
    (``notification_handled``); two queries."""
    if not authenticated(user) or not notification_choice(user=user).on_home:
        return []
    rows = list(
        Notification.objects.filter(user=user).select_related(
            "match__round", "match__player1", "match__player2", "tournament"
        )[:HOME_LIMIT]
    )
    reports = {r for n in rows if isinstance(r := (n.data or {}).get("report"), int)}
    states = dict(GameReport.objects.filter(pk__in=reports).values_list("pk", "state"))
    for n in rows:
        n.is_new = n.read_at is None and not notification_handled(n, states)  # type: ignore[attr-defined]
    return [(n, notification_text(n)) for n in rows]


def notifications_read(*, user: User) -> int:
    """Mark all the user's notifications read."""
    return Notification.objects.filter(user=signed_in(user), read_at__isnull=True).update(
        read_at=timezone.now()
    )


def notification_choice(*, user: User) -> NotificationChoice:
    found = NotificationChoice.objects.filter(user=signed_in(user)).first()
    return found if found is not None else NotificationChoice(user=signed_in(user))


def notification_choice_set(*, user: User, on_home: bool, by_email: bool) -> NotificationChoice:
    choice, _created = NotificationChoice.objects.update_or_create(
        user=signed_in(user), defaults={"on_home": on_home, "by_email": by_email}
    )
    return choice


# --- the mail ------------------------------------------------------------------------------


def notification_send(*, notification_id: int) -> bool:
    """Mail the notification unless it was mailed already (a task delivered again sends
    nothing twice): the row is locked, the mail sent and ``mailed_at`` set in one
    transaction, so a worker that dies before the commit leaves it to be sent again.
    Returns whether a mail was sent."""
    with transaction.atomic():
        n = (
            Notification.objects.select_for_update()
            .filter(pk=notification_id, mailed_at__isnull=True)
            .first()
        )
        if n is None:
            return False
        user = get_user_model().objects.filter(pk=n.user_id).first()
        address = getattr(user, "email", "") if user is not None else ""
        _home, wanted = _wanted([n.user_id])[n.user_id]
        if not address or not wanted:
            return False
        n = (
            Notification.objects.select_related(
                "match__round", "match__player1", "match__player2", "tournament"
            )
            .select_for_update(of=("self",))
            .get(pk=n.pk)
        )
        with translation.override(settings.LANGUAGE_CODE):
            text = notification_text(n)
            site = site_root()
            body = "\n\n".join(
                [
                    text.body,
                    f"{site}{text.url}",
                    _("Turn these messages off on your page: %(url)s")
                    % {"url": f"{site}{reverse('web:home')}"},
                ]
            )
            send_mail(
                f"Bräde Arena: {text.subject}",
                body,
                settings.DEFAULT_FROM_EMAIL,
                [address],
            )
        n.mailed_at = timezone.now()
        n.save(update_fields=["mailed_at"])
    return True
