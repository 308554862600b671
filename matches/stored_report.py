"""A game record's stored verification report (``GameRecordSubmission.report``).

What the verification keeps of a replay, read by the record's pages, the API and the
archive: the replay's JSON report as ``manage.py replay --json`` writes it — bräde's of
game-record.md (``engine.replay.ReplayReport.to_dict``), backgammon's
(``backgammon.replay.MatchReport.to_dict``, coded, with the ``format`` read) — plus the
error's message code and parameters and the verdict's coded sentences
(``matches.engine_text`` renders both in the reader's language). A record still waiting
has none; one whose verification failed keeps only its ``verdict``.
"""

from __future__ import annotations

from typing import Any, Protocol, TypedDict, cast

__all__ = ["StoredReport", "VerifiedReport", "stored_report"]


class StoredReport(TypedDict, total=False):
    """The stored report's keys; every key is optional (see the module docstring)."""

    # both games
    valid: bool
    error: dict[str, Any] | None
    games: list[dict[str, Any]]
    verdict: list[dict[str, Any]]
    # bräde (game-record.md)
    rules: str
    match: dict[str, Any]
    # backgammon
    program: str | None
    format: str | None
    money: bool
    jacoby: bool
    length: int | None
    players: list[str]
    score: dict[str, int]
    winner: str | None
    crawford_game: int | None
    warnings: list[dict[str, Any]]
    errors: list[dict[str, Any]]


class VerifiedReport(Protocol):
    """A replay's result as a record form's verification gives it: valid or not, the
    first error (the form's own type) and its JSON report."""

    @property
    def valid(self) -> bool: ...

    @property
    def error(self) -> Any: ...

    def to_dict(self) -> dict[str, Any]: ...


def stored_report(sub: Any) -> StoredReport:
    """``sub``'s stored report; empty for a record that has none yet."""
    report = sub.report
    return cast(StoredReport, report) if isinstance(report, dict) else StoredReport()
