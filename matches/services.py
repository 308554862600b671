"""The match services, one module per concept; this module re-exports their public names
so that ``from matches.services import game_result_enter`` keeps working.

- ``matches.results``: a game entered (``game_result_enter``) or corrected
  (``game_result_correct``), a match reset (``match_reset``);
- ``matches.walkovers``: walkovers and withdrawals after the draw (S6);
- ``matches.match_creation``: a drawn stage's matches (``matches_create``);
  ``matches.progression``: winners advancing, the tournament's end;
- ``matches.records``: game records submitted and verified, and the verdict applied;
  ``matches.record_queue``: their broker messages, leases and retries;
- ``matches.reports``: players report their own results;
- ``matches.common``: what they share (the match's lock, the audit trail, snapshots);
  ``matches.standing``: a match's score from its games.

New code imports the module that holds the service.
"""

from __future__ import annotations

from matches.common import game_to_dict, match_snapshot
from matches.match_creation import matches_create
from matches.record_queue import (
    RECORD_MAX_ATTEMPTS,
    game_record_enqueue,
    game_record_release,
    game_records_requeue,
)
from matches.records import (
    RECORD_CONTROL_CHARACTERS,
    RECORD_MAX_BYTES,
    game_record_submit,
    game_record_verify,
    match_flag_clear,
    record_sides,
)
from matches.results import game_result_correct, game_result_enter, match_reset
from matches.walkovers import match_walkover, match_withdrawal_apply

__all__ = [
    "RECORD_CONTROL_CHARACTERS",
    "RECORD_MAX_ATTEMPTS",
    "RECORD_MAX_BYTES",
    "game_record_enqueue",
    "game_record_release",
    "game_record_submit",
    "game_record_verify",
    "game_records_requeue",
    "game_result_correct",
    "game_result_enter",
    "game_to_dict",
    "match_flag_clear",
    "match_reset",
    "match_snapshot",
    "match_walkover",
    "match_withdrawal_apply",
    "matches_create",
    "record_sides",
]
