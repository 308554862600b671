"""Game records: a record submitted for a match, verified by the engine, and what the
verdict does to the match (its games marked verified, results entered from a referee's
record, or the match flagged when the record disagrees).

A game record's ``White``/``Black`` tags name the players when present and are matched to
the match's players by name (case and outer spaces ignored); without them the record's
White is ``player1``.

Verification runs as a Celery task (``matches.tasks``) in three phases: claim the record
(``record_queue.claim_or_wait``, one live attempt at a time, its lease renewed by a
``Heartbeat``), replay it with the engine, apply the verdict (``_record_apply``) under the
match's lock, exactly once.

Decisions where the docs are silent:
- A record from a player for a match with no results is verified but does not enter
  results (only a referee's record does); a record that covers fewer games than were
  entered verifies those games.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.db import transaction
from django.utils import timezone, translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.permissions import User, is_match_player, is_match_referee, signed_in
from engine.messages import Msg
from engine.record import MAX_RECORD_BYTES
from engine.types import Outcome, Side
from games.brade import result_of
from games.registry import detect
from games.unread import encoding_refused, not_a_record
from matches import record_mat
from matches.common import active_games, event_add, lock_match, referee_require, setting
from matches.engine_text import render, verdict, verdict_text
from matches.match_changes import NEWS_RECORD_REJECTED, NEWS_RECORD_VERIFIED, news_tell
from matches.models import (
    EventKind,
    GameRecordSubmission,
    Match,
    RecordState,
)
from matches.record_queue import (
    Heartbeat,
    claim_or_wait,
    english,
    game_record_enqueue,
    game_record_release,
    game_records_requeue,
    hard_limit,
    record_touch,
)
from matches.record_verdicts import PlayedGame, flag, invalid, record_settle, record_sides
from matches.standing import family_of
from matches.stored_report import StoredReport, VerifiedReport
from tournaments.models import PrivateLink
from tournaments.page_versions import tournament_touch

__all__ = [
    "RECORD_CONTROL_CHARACTERS",
    "RECORD_MAX_BYTES",
    "game_record_checked",
    "game_record_submit",
    "game_record_verify",
    "match_flag_clear",
    "no_records_message",
    "record_sides",
]

log = logging.getLogger(__name__)

# "At most 1 MB": the engine's own limit (1,000,000 bytes of UTF-8), so a record that is
# accepted here is never refused by the engine for its size.
RECORD_MAX_BYTES = MAX_RECORD_BYTES

Replay = Callable[[str], Any]


def _real_replay(text: str, *, match: Match) -> VerifiedReport:
    """The replay of the record form of the match's game (bräde's text or JSON,
    backgammon's ``.mat``): what the verification task runs."""
    return _form(match).replay(text, match=match)


def _record_apply(
    sub: GameRecordSubmission, match: Match, report: VerifiedReport
) -> tuple[str, list[Msg]]:
    """Phase 3: compare the verified record with the match and act on it (its game's
    record form). Returns the record's state and its verdict as coded sentences."""
    return _form(match).apply(sub, match, report)


def _brade_replay(text: str, *, match: Match) -> Any:
    """The engine's replay, with this match's length, scale and resignation policy as
    the match scorer (so games after the decision or resignations over the cap are
    reported by the engine as ``match`` errors)."""
    from engine.replay import replay_text
    from scoring.match import match_state
    from scoring.report import max_games

    tournament = match.tournament

    def scorer(
        *, tags: Any, rules: str, outcomes: Sequence[Outcome], games_in_record: int
    ) -> dict[str, Any] | None:
        state = match_state(
            length=match.length,
            scale=tournament.scale,
            policy=tournament.resignation_policy,
            outcomes=list(outcomes),
        )
        return dict(state.to_report())

    # S1: games past the most this match can take are a ``match`` error, found while
    # reading, so a record padded with them costs nothing to refuse
    limit = max_games(length=match.length, policy=tournament.resignation_policy)
    return replay_text(text, match_scorer=scorer, max_games=limit)


# Control characters a record may not hold: every C0 control but tab, line feed and
# carriage return (so form feed and vertical tab too), and DEL. A record is plain text
# (game-record.md); these come from binary files, word processors or broken copying,
# and NUL cannot be stored in PostgreSQL text at all. C1 controls (U+0080–U+009F) are
# ordinary characters to the database and are left to the engine's parser.
RECORD_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The C0 controls' names (ECMA-48), U+0000 to U+001F, for the message.
_CONTROL_NAMES = (  # noqa: SIM905 (one string reads better than 32 items)
    "NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI "
    "DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US"
).split()


def _refuse_control_characters(text: str) -> None:
    """``ValidationError`` naming the line and column of the first control character
    (lines counted as the engine counts them: ``\\n`` ends a line; columns in characters)."""
    found = RECORD_CONTROL_CHARACTERS.search(text)
    if found is None:
        return
    at = found.start()
    code = ord(text[at])
    name = "DEL" if code == 0x7F else _CONTROL_NAMES[code]
    raise ValidationError(
        _(
            "The record holds the control character %(char)s at line %(line)s, column "
            "%(column)s. A record is plain text: besides printable characters only tabs and "
            "line breaks may appear. Remove it (or save the record as plain text) and retry."
        )
        % {
            "line": text.count("\n", 0, at) + 1,
            "column": at - (text.rfind("\n", 0, at) + 1) + 1,
            "char": f"U+{code:04X} ({name})",
        },
        code="control_character",
    )


def _capital(sentence: str) -> str:
    """A message of ``games.unread`` as a sentence of its own."""
    return sentence[:1].upper() + sentence[1:] + "."


def _record_accepted(*, match: Match, text: str | bytes, by: User, link: PrivateLink | None) -> str:
    """The record's text as it is stored, once the submitter may submit it and it may be
    a record at all (``game_record_submit``'s refusals)."""
    if link is not None:
        allowed = (
            link.revoked_at is None
            and link.tournament_id == match.tournament_id
            and match.side_of(link.player) is not None
        )
    else:
        allowed = is_match_referee(by, match) or is_match_player(by, match)
    if not allowed:
        raise PermissionDeniedError(
            _("Only the players of this match and the tournament's referees may submit its record.")
        )
    family = family_of(match.tournament)
    if family.replay is None:
        raise ValidationError(no_records_message(family.name), code="no_records")
    try:
        raw = text if isinstance(text, bytes) else text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError(
            _("The record is not UTF-8 text; save it as UTF-8 and retry.")
        ) from None
    if len(raw) > RECORD_MAX_BYTES:
        raise ValidationError(
            _(
                "The record is %(size)s bytes; the limit is 1 MB (%(limit)s bytes). "
                "Submit one match per file."
            )
            % {
                "size": number_format(len(raw), force_grouping=True),
                "limit": number_format(RECORD_MAX_BYTES, force_grouping=True),
            }
        )
    refused = encoding_refused(raw) if isinstance(text, bytes) else None
    if refused is not None:
        raise ValidationError(_capital(render(refused)), code="encoding")
    try:
        decoded = family.replay.decode(raw) if isinstance(text, bytes) else text
    except UnicodeDecodeError as exc:
        raise ValidationError(
            _(
                "The file is not UTF-8 text (byte %(byte)d is not valid UTF-8). "
                "Save it as UTF-8 in your editor and choose it again."
            )
            % {"byte": exc.start + 1},
            code="encoding",
        ) from None
    if not decoded.strip():
        raise ValidationError(_("The record is empty."))
    if detect(decoded) is None:
        raise ValidationError(_capital(render(not_a_record())), code="not_a_record")
    _refuse_control_characters(decoded)
    if match.player1_id is None or match.player2_id is None:
        raise ValidationError(_("The players of this match are not known yet."))
    return decoded


def game_record_submit(
    *, match: Match, text: str | bytes, by: User, link: PrivateLink | None = None
) -> GameRecordSubmission:
    """Store a record as submitted; verification is enqueued when the transaction commits.

    ``link``: a player of the match submits through their private link
    (``tournaments.private_links``; ``by`` is then None), named in the audit row.

    A file's bytes are decoded as the game's replay (and ``manage.py replay``) decodes
    them (``Replayer.decode``): bräde's records are UTF-8, backgammon's ``.mat`` files
    UTF-8 or else Windows-1252. The text is stored as it was decoded.

    Refused before anything is stored (``ValidationError``, so a 400 or a form error on
    every entry point and on every database): over 1 MB, bytes the game's records cannot
    be (code ``encoding``, naming the byte; a UTF-16 or UTF-32 file naming its encoding)
    or text with lone surrogates (which JSON can carry), empty, a file that is no game
    record the site reads (code ``not_a_record``, ``games.unread``: no game's reader
    claims it — binary, JSON or SGF of something else, any other text — named with the
    formats the site reads, as ``manage.py replay`` says it), control characters
    (``RECORD_CONTROL_CHARACTERS``, named with their line and column).
    """
    decoded = _record_accepted(match=match, text=text, by=by, link=link)
    with transaction.atomic():
        tournament_touch(tournament_id=match.tournament_id)
        submission = GameRecordSubmission.objects.create(
            match=match, submitted_by=signed_in(by), text=decoded, state=RecordState.PENDING
        )
        via = {} if link is None else {"private_link": link.pk}
        event_add(match, EventKind.RECORD_SUBMITTED, by, submission=submission.pk, **via)
        pk = submission.pk
        transaction.on_commit(lambda: _after_submit(pk))
    return submission


def game_record_checked(
    *,
    match: Match,
    text: str,
    report: dict[str, Any],
    entered: bool,
    by: User,
    link: PrivateLink | None = None,
) -> GameRecordSubmission:
    """Store the record of games recorded live, verified already: each of its turns was
    checked by the game's engine as it was played (``scoresheets``), so it is not queued
    and replayed a second time. ``report`` is the report its family's replay would give
    (``LiveRecorder.checked_report``); ``entered``: its last game is entered from it at
    once (a referee's recording, or a tournament whose referees enter the results), else
    it is a player's report's evidence. The same refusals as ``game_record_submit``; the
    record is ``entered`` or ``verified`` from the start, its verdict saying how (and how
    many illegal moves the opponent accepted as played, the report's warnings), and the
    news of a verified record is told as for any other."""
    decoded = _record_accepted(match=match, text=text, by=by, link=link)
    games = len(report.get("games") or [])
    sentences = [verdict("verdict.recorded_live", count=games)]
    accepted = len(report.get("warnings") or [])
    if accepted:  # illegal moves the opponent accepted as played (backgammon)
        sentences.append(verdict("verdict.accepted_live", count=accepted))
    with transaction.atomic():
        tournament_touch(tournament_id=match.tournament_id)
        now = timezone.now()
        with translation.override("en"):
            message = verdict_text(sentences)
        submission = GameRecordSubmission.objects.create(
            match=match,
            submitted_by=signed_in(by),
            text=decoded,
            state=RecordState.ENTERED if entered else RecordState.VERIFIED,
            message=message,
            report=cast(StoredReport, {**report, "verdict": [s.to_dict() for s in sentences]}),
            finished_at=now,
        )
        via = {} if link is None else {"private_link": link.pk}
        event_add(match, EventKind.RECORD_SUBMITTED, by, submission=submission.pk, **via)
        news_tell(
            kind=NEWS_RECORD_VERIFIED,
            tournament_id=match.tournament_id,
            match=match.pk,
            submission=submission.pk,
            state=submission.state,
        )
    return submission


def _after_submit(pk: int) -> None:
    """Enqueue the new record; when the broker is back, also the ones it left behind.

    The sweep sends nothing for a record whose message is still live, so a burst of
    submissions leaves one message per record in the broker, not one per submission.
    """
    if game_record_enqueue(submission_id=pk):
        game_records_requeue(exclude=pk)


# A verdict told to the apps that pass it on (``matches.match_changes``, webhooks): a
# record that agrees (or whose games were entered from it) is verified; an invalid one or
# one that disagrees with the entered results is rejected as the match's evidence. A
# verifier that crashed (``FAILED``) is no verdict on the record and is not told.
RECORD_NEWS: dict[str, str] = {
    RecordState.VERIFIED: NEWS_RECORD_VERIFIED,
    RecordState.ENTERED: NEWS_RECORD_VERIFIED,
    RecordState.INVALID: NEWS_RECORD_REJECTED,
    RecordState.MISMATCH: NEWS_RECORD_REJECTED,
}


def game_record_verify(
    *, submission_id: int, replay: Replay | None = None
) -> GameRecordSubmission | None:
    """Verify a submitted record with the engine and apply the verdict, exactly once.

    Idempotent: a record already done is left alone; a record a live attempt is verifying
    is left to it, one whose attempt died is taken over within one lease
    (``claim_or_wait``); the verdict is applied only by the attempt that claimed the
    record last. Out of time (the task's soft limit, ``CELERY_TASK_SOFT_TIME_LIMIT``) the
    record is released (``game_record_release``). Returns the submission (None when
    nothing was done).
    """
    from celery.exceptions import SoftTimeLimitExceeded

    claimed = claim_or_wait(submission_id)
    if claimed is None:
        return None
    sub, attempt = claimed
    assert sub.started_at is not None
    try:
        with Heartbeat(submission_id=sub.pk, attempt=attempt, cap=sub.started_at + hard_limit()):
            delay = setting("GAME_RECORD_VERIFY_DELAY", 0)
            if delay:  # test hook: lets a test or bench/ kill a worker mid-verification
                time.sleep(delay)
            if replay is None:
                match = sub.match
                report = _real_replay(sub.text, match=match)
            else:
                report = replay(sub.text)
    except SoftTimeLimitExceeded:
        # Out of time, not a crash (it is an ``Exception``: it must come first).
        soft = int(setting("CELERY_TASK_SOFT_TIME_LIMIT", 120))
        return game_record_release(
            submission_id=sub.pk,
            attempt=attempt,
            reason=verdict("verdict.too_slow", seconds=soft),
        )
    except Exception as err:  # the engine promises not to raise; if it does, stop here
        log.exception("verifier crashed on game record %s", submission_id)
        crashed = verdict("verdict.crashed", error=type(err).__name__)
        with transaction.atomic():
            GameRecordSubmission.objects.filter(
                pk=sub.pk, attempts=attempt, state=RecordState.VERIFYING
            ).update(
                state=RecordState.FAILED,
                finished_at=timezone.now(),
                lease_until=None,
                message=english(crashed),
                report={"verdict": [crashed.to_dict()]},
            )
            record_touch(sub)  # after the record's row, as _claim and release lock them
        return GameRecordSubmission.objects.get(pk=sub.pk)
    with transaction.atomic():
        sub = GameRecordSubmission.objects.select_for_update().get(pk=submission_id)
        if sub.state != RecordState.VERIFYING or sub.attempts != attempt:
            return None  # someone else finished or took over: apply nothing twice
        match = lock_match(sub.match)
        # The verdict is stored (the record's message, the match's flag) and is English
        # like the engine's messages, whatever language the request that queued it used.
        with translation.override("en"):
            state, sentences = _record_apply(sub, match, report)
            message = verdict_text(sentences)
        sub.state = state
        sub.message = message
        sub.report = _stored_report(report, sentences)
        sub.finished_at = timezone.now()
        sub.lease_until = None
        sub.save()
        news = RECORD_NEWS.get(sub.state)
        if news is not None:
            news_tell(
                kind=news,
                tournament_id=match.tournament_id,
                match=match.pk,
                submission=sub.pk,
                state=sub.state,
            )
    return sub


def _mapped(outcome: Outcome, sides: dict[Side, Side]) -> Outcome:
    return Outcome(sides[outcome.winner], outcome.kind, outcome.pattern, outcome.munk)


def _stored_report(report: VerifiedReport, sentences: list[Msg]) -> StoredReport:
    """The report as stored: as the CLI's ``--json`` writes it, plus the error's message
    code and parameters and the verdict's sentences (``matches.engine_text``), so pages
    and the API show both in their reader's language."""
    data = cast(StoredReport, report.to_dict())
    own = getattr(report.error, "msg", None)
    error = data.get("error")
    if isinstance(error, dict) and isinstance(own, Msg):
        data["error"] = {**error, **own.to_dict()}
    data["verdict"] = [s.to_dict() for s in sentences]
    return data


def _brade_apply(sub: GameRecordSubmission, match: Match, report: Any) -> tuple[str, list[Msg]]:
    """A bräde record (game-record.md) against the match: its tags (rules, scale, length,
    players), then every game's outcome."""
    if not report.valid:
        return RecordState.INVALID, [invalid(report.error)]
    tournament = match.tournament
    tags: dict[str, str] = dict(report.tags or {})
    if report.rules and report.rules != tournament.rules:
        return flag(
            match,
            sub,
            verdict(
                "verdict.rules" if "Rules" in tags else "verdict.rules_no_tag",
                record=report.rules,
                rules=tournament.rules,
            ),
        )
    scale = (tags.get("Scale") or "").strip().lower()
    if scale and scale != tournament.scale:
        return flag(match, sub, verdict("verdict.scale", scale=scale, ours=tournament.scale))
    length = (tags.get("Length") or "").strip()
    if length and length != str(match.length):
        return flag(match, sub, verdict("verdict.length", record=length, length=match.length))
    sides = record_sides(match, tags)
    if sides is None:
        return flag(
            match,
            sub,
            verdict(
                "verdict.players",
                white=tags.get("White", ""),
                black=tags.get("Black", ""),
                one=str(match.player1),
                two=str(match.player2),
            ),
        )
    games = active_games(match)
    record_games = list(report.games)
    for entered, played in zip(games, record_games, strict=False):
        if played.outcome is None:
            continue
        claimed = _mapped(played.outcome, sides)
        if claimed != entered.outcome_value():
            entered_outcome = entered.outcome_value()
            return flag(
                match,
                sub,
                verdict(
                    "verdict.outcome",
                    game=entered.number,
                    claimed_player=str(match.player_for(claimed.winner)),
                    claimed_side=claimed.winner.word,
                    claimed=claimed.text().split(" ", 1)[1],
                    entered_player=str(match.player_for(entered_outcome.winner)),
                    entered_side=entered_outcome.winner.word,
                    entered=entered_outcome.text().split(" ", 1)[1],
                ),
            )
    played = [
        PlayedGame(
            number=game.number,
            result=None if game.outcome is None else result_of(_mapped(game.outcome, sides)),
            starter=sides[Side(game.starter)] if game.starter else None,
        )
        for game in record_games
    ]
    return record_settle(sub, match, games, played)


@dataclass(frozen=True)
class RecordForm:
    """How records of one form are replayed and compared with a match."""

    replay: Callable[..., VerifiedReport]
    apply: Callable[[GameRecordSubmission, Match, Any], tuple[str, list[Msg]]]


# By the game family's record format (``games.family.RecordFormat.name``): a game's records
# are verified by the form of its first format.
RECORD_FORMS: dict[str, RecordForm] = {
    "text": RecordForm(_brade_replay, _brade_apply),
    "mat": RecordForm(record_mat.mat_replay, record_mat.mat_apply),
}


def _form(match: Match) -> RecordForm:
    family = family_of(match.tournament)
    if not family.records or family.records[0].name not in RECORD_FORMS:
        raise ValidationError(no_records_message(family.name), code="no_records")
    return RECORD_FORMS[family.records[0].name]


def no_records_message(game: str) -> str:
    """Why a game without records refuses one (Kungabräde: results only)."""
    return _(
        "%(game)s keeps results only: it has no game records to verify. Enter the results instead."
    ) % {"game": game}


def match_flag_clear(*, match: Match, by: User, note: str = "") -> Match:
    """A referee has checked a flagged match (record vs results) and clears the flag."""
    referee_require(by, match)
    with transaction.atomic():
        match = lock_match(match)
        if not match.flag:
            raise ConflictError(_("The match is not flagged."), code="not_flagged")
        event_add(match, EventKind.FLAG_CLEARED, by, cleared=match.flag, note=note)
        match.flag = ""
        match.save(update_fields=["flag", "updated_at"])
    return match
