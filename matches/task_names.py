"""The names the matches app's Celery tasks are registered under (``matches.tasks``); the
record queue sends them by name (``core.registered_tasks``), and beat names the sweep
(``config.celery``)."""

from __future__ import annotations

__all__ = ["ANALYSE_MATCH", "REQUEUE_GAME_RECORDS", "VERIFY_GAME_RECORD"]

VERIFY_GAME_RECORD = "matches.verify_game_record"
REQUEUE_GAME_RECORDS = "matches.requeue_game_records"
ANALYSE_MATCH = "matches.analyse_match"
