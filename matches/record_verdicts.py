"""What a verified record does to its match, whatever its game: the verdict's sentences
(``matches.engine_text``), a flag when the record disagrees with the entered results, and
otherwise the agreeing games marked verified and — from a referee's record — the games
not yet entered entered from it (``record_settle``). Each record form compares itself with
the match first: bräde's in ``matches.records``, backgammon's ``.mat`` in
``matches.record_mat``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.errors import DomainError
from core.permissions import is_referee
from engine.messages import Msg
from engine.types import Side
from games.results import ResultValue
from matches.common import event_add
from matches.engine_text import verdict, verdict_text
from matches.models import (
    EventKind,
    Game,
    GameRecordSubmission,
    Match,
    RecordState,
    ResultSource,
    SiteNote,
)
from matches.results import locked_game_add

__all__ = ["PlayedGame", "flag", "invalid", "record_settle", "record_sides"]


@dataclass(frozen=True)
class PlayedGame:
    """A game as a verified record shows it, in the match's sides: its number, its result
    (None: the record stops before the game ended) and, where the game records it, who
    started it."""

    number: int
    result: ResultValue | None
    starter: Side | None = None


def flag(match: Match, sub: GameRecordSubmission, sentence: Msg) -> tuple[str, list[Msg]]:
    """The record disagrees with the match: the match is flagged with the sentence."""
    message = verdict_text([sentence])
    match.flag = message
    match.save(update_fields=["flag", "updated_at"])
    event_add(match, EventKind.RECORD_MISMATCH, None, submission=sub.pk, message=message)
    return RecordState.MISMATCH, [sentence]


def invalid(err: Any) -> Msg:
    """The verdict on a record the engine rejected: its error, where it is."""
    if err is None:
        return verdict("verdict.not_valid")
    text = err.msg if isinstance(getattr(err, "msg", None), Msg) else Msg.plain(err.message)
    if err.game and err.line:
        return verdict("verdict.error_game_line", game=err.game, line=err.line, error=text)
    if err.game:
        return verdict("verdict.error_game", game=err.game, error=text)
    if err.line:
        return verdict("verdict.error_line", line=err.line, error=text)
    return verdict("verdict.error", error=text)


def record_settle(
    sub: GameRecordSubmission,
    match: Match,
    games: Sequence[Game],
    record_games: Sequence[PlayedGame],
) -> tuple[str, list[Msg]]:
    """The record agrees with the entered ``games`` it covers: mark them verified, resolve
    an earlier flag, and enter the record's further games when a referee submitted it.
    Returns the record's state and its verdict."""
    common = games[: len(record_games)]
    Game.objects.filter(pk__in=[g.pk for g in common]).update(verified=True, verified_by=sub)
    if match.flag:
        # This record agrees with the results as they stand: an earlier flag is resolved.
        match.flag = ""
        match.save(update_fields=["flag", "updated_at"])
    extra = record_games[len(games) :]
    submitter = sub.submitted_by
    if extra and is_referee(submitter, match.tournament):
        for played in extra:
            if played.result is None:
                break
            try:
                locked_game_add(
                    match,
                    number=played.number,
                    result=played.result,
                    starter=played.starter,
                    by=submitter,
                    source=ResultSource.RECORD,
                    submission=sub,
                    site_note=SiteNote.FROM_RECORD,
                )
            except DomainError as err:
                return flag(
                    match,
                    sub,
                    verdict("verdict.entry_refused", game=played.number, message=err.message),
                )
            match.refresh_from_db()
        event_add(match, EventKind.RECORD_VERIFIED, None, submission=sub.pk, entered=len(extra))
        entered = verdict("verdict.were_entered", count=len(extra))
        if not common:
            # "Verified; 3 games were entered", not "0 games agree and 3 games were …".
            return RecordState.ENTERED, [verdict("verdict.entered_only", entered=entered)]
        return RecordState.ENTERED, [
            verdict(
                "verdict.entered",
                agree=verdict("verdict.agree_short", count=len(common)),
                entered=entered,
            )
        ]
    event_add(match, EventKind.RECORD_VERIFIED, None, submission=sub.pk, entered=0)
    sentences = [verdict("verdict.verified", agree=verdict("verdict.agree", count=len(common)))]
    if len(extra) == 1:
        sentences.append(verdict("verdict.extra_one", first=extra[0].number))
    elif extra:
        sentences.append(
            verdict("verdict.extra_many", first=extra[0].number, last=extra[-1].number)
        )
    return RecordState.VERIFIED, sentences


def record_sides(match: Match, tags: dict[str, str]) -> dict[Side, Side] | None:
    """Record side → match side, from the record's White/Black tags (a ``.mat`` record's
    two players count as White and Black), or None when they name other players (the
    verification says so in the reader's language: ``verdict.players``).
    The names are matched to the match's players with case and outer spaces ignored;
    without them the record's White is ``player1``. Pages use it to show a record from
    the right player's seat."""
    white = (tags.get("White") or "").strip().casefold()
    black = (tags.get("Black") or "").strip().casefold()
    one = (match.player1.name if match.player1 else "").strip().casefold()
    two = (match.player2.name if match.player2 else "").strip().casefold()
    straight = {Side.WHITE: Side.WHITE, Side.BLACK: Side.BLACK}
    swapped = {Side.WHITE: Side.BLACK, Side.BLACK: Side.WHITE}
    if not white and not black:
        return straight
    if white in ("", one) and black in ("", two):
        return straight
    if white in ("", two) and black in ("", one):
        return swapped
    return None
