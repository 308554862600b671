"""Reads of the digital scoresheet: the live state of a match's recorded game (the JSON a
page or a client app polls) and its stamp (what its ETag is made of: one query).

The state is kept in the cache as the JSON text sent (``state_json``), once per version:
a crowd polling a board is answered with those bytes as they are (``live_state_kept``),
neither decoded nor encoded again."""

from __future__ import annotations

import json
import logging
from typing import Any

from django.core.cache import cache

from core.errors import ValidationError
from games.live import LiveGame as LiveGameState
from games.live import live_game_for
from games.results import ResultValue
from matches.common import active_games
from matches.models import FINISHED_STATES, Match
from matches.standing import match_standing
from scoresheets.models import LiveGame, LiveStatus
from scoresheets.services import live_game_replay, setup_of, turn_json
from scoresheets.stamps import BoardStamp, board_stamp, board_stamp_cached, state_key

__all__ = [
    "live_board_small",
    "live_latest",
    "live_stamp",
    "live_stamp_cached",
    "live_state",
    "live_state_json",
    "live_state_kept",
    "match_decided",
    "state_json",
]

log = logging.getLogger(__name__)

# A state is kept under its live game's version: a new turn makes a new key.
STATE_SECONDS = 600


def live_latest(*, match: Match) -> LiveGame | None:
    """The match's game being recorded, else the last one recorded (None: never)."""
    live = LiveGame.objects.filter(match=match).order_by("-number").first()
    if live is not None:
        live.match = match
    return live


def live_stamp(*, pk: int) -> BoardStamp | None:
    """The stamp of match ``pk``'s live state in one query, or None when nothing of it
    was recorded: its version is the recording's own (``LiveGame.version``), so a turn
    changes the live board's ETag and nothing else's (``scoresheets.stamps``)."""
    return board_stamp(pk=pk)


def live_stamp_cached(*, pk: int) -> BoardStamp | None:
    """``live_stamp`` from the cache where a service kept it (only a 304 trusts it)."""
    return board_stamp_cached(pk=pk)


def state_json(state: dict[str, Any]) -> bytes:
    """The state as the API sends it: compact UTF-8 JSON, as Django REST framework's
    renderer writes it (no NaN; U+2028 and U+2029 escaped for scripts)."""
    text = json.dumps(state, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").encode()


def _kept(key: str) -> bytes | None:
    try:
        found = cache.get(key)
    except Exception:
        log.warning("cache unavailable; building the live state", exc_info=True)
        return None
    return found if isinstance(found, bytes) else None


def live_state_kept(stamp: BoardStamp) -> bytes | None:
    """The live state at the stamp's version as kept in the cache (its JSON), or None (not
    built yet, or the cache failing): a crowd following one board costs one build per
    turn."""
    return _kept(state_key(stamp.live_id, stamp.started_at, stamp.version))


def live_state(
    live: LiveGame,
    game: LiveGameState | None = None,
    turns: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The live state (``scoresheets/README.md``): ``live_state_json`` decoded."""
    decoded: dict[str, Any] = json.loads(live_state_json(live, game, turns))
    return decoded


# What a small board of a tournament's list shows (``_boards.html``, drawn by
# ``live-board.js`` from ``board`` alone): not the legal plays or the turns, which make a
# state ten times larger.
SMALL_BOARD_KEYS = ("players", "to_move", "game_number", "score", "board")


def live_board_small(live: LiveGame) -> dict[str, Any]:
    """The part of the live state a small board shows (``SMALL_BOARD_KEYS``), kept in the
    cache per version beside the whole state: a tournament page's list of boards, polled
    by every follower, decodes each state once per turn, not once per poll."""
    key = state_key(live.pk, live.started_at, live.version) + ":small"
    try:
        found = cache.get(key)
    except Exception:
        found = None
    if isinstance(found, dict):
        return found
    state = live_state(live)
    small = {name: state.get(name) for name in SMALL_BOARD_KEYS}
    try:
        cache.set(key, small, STATE_SECONDS)
    except Exception:
        log.warning("cache unavailable; not keeping the small board", exc_info=True)
    return small


def live_state_json(
    live: LiveGame,
    game: LiveGameState | None = None,
    turns: list[dict[str, Any]] | None = None,
) -> bytes:
    """The live state's JSON, built once per version and kept in the cache (a cache that
    fails is skipped, never an error). ``game`` and ``turns``: the game as a turn just
    left it (``services.Posted``), so it is not replayed again."""
    key = state_key(live.pk, live.started_at, live.version)
    if game is None or turns is None:  # a turn just made this version: nothing kept yet
        found = _kept(key)
        if found is not None:
            return found
    body = state_json(_build(live, game, turns))
    try:
        cache.set(key, body, STATE_SECONDS)
    except Exception:
        log.warning("cache unavailable; not keeping the live state", exc_info=True)
    return body


def match_decided(live: LiveGame) -> bool:
    """Whether no game of the match can be recorded after ``live``: the match is decided,
    or ``live`` is over and its report, waiting for the opponent, decides it once
    confirmed (a best-of-1's only game, a match's last game). A report that breaks the
    match rules decides nothing (the opponent or a referee settles it)."""
    match = live.match
    if match.state in FINISHED_STATES:
        return True
    waiting = live.report_id is not None and live.game_id is None
    if live.status != LiveStatus.FINISHED or not waiting or not live.outcome:
        return False
    results = [g.result_value() for g in active_games(match)]
    try:
        standing = match_standing(match, [*results, ResultValue(**live.outcome["result"])])
    except ValidationError:
        return False
    return standing.decided


def _build(
    live: LiveGame, game: LiveGameState | None, turns: list[dict[str, Any]] | None
) -> dict[str, Any]:
    match = live.match
    if game is None or turns is None:
        # the turns up to the live game's own seq: a turn committed since its row was
        # read belongs to the next version, not to this one
        stored = list(live.turns.filter(seq__lte=live.seq))
        _, game = live_game_replay(live, stored)
        turns = [turn_json(t) for t in stored]
    view = game.view()
    setup = setup_of(live)
    previous = None
    if live.number > 1:
        before = (
            LiveGame.objects.filter(match=match, number=live.number - 1)
            .values("number", "outcome")
            .first()
        )
        if before is not None and before["outcome"]:
            shown = dict(before["outcome"])
            shown.pop("result", None)
            previous = {"game_number": before["number"], "outcome": shown}
    outcome = view.outcome.to_dict() if view.outcome is not None else None
    phase = view.phase
    flag = live.clock.get("flag") if live.clock else None
    if flag is not None:  # the flag fell: the game stopped there (scoresheets.clock)
        phase, outcome = "over", live.outcome
    return {
        "match": match.pk,
        "game_number": live.number,
        "seq": live.seq,
        "status": live.status,
        "phase": phase,
        "to_move": None if flag is not None else view.to_move,
        "starter": game.starter,
        "players": list(setup.names),
        "dice_mode": live.dice_mode,
        "dice": None if not view.dice else list(view.dice),
        "legal": view.legal,
        "board": view.board,
        "cube": view.cube,
        "score": [match.points1, match.points2],
        "length": match.length,
        "outcome": outcome,
        "decided": match_decided(live),
        "previous": previous,
        "entered": {
            "game": live.game.number if live.game_id and live.game else None,
            "report": live.report_id,
            "submission": live.submission_id,
        },
        # ``accept_illegal``: the opponent may accept an illegal play as played
        "rules": {
            "game": match.tournament.game,
            "accept_illegal": live_game_for(match.tournament.game).accepts_illegal,
            **view.extra,
        },
        "turns": turns,
        # the match's clock (``scoresheets.clock``; None: no time control): remaining ms
        # when the running clock started, whose runs and since when (server ms)
        "clock": live.clock,
        "version": f"{live.pk}.{live.version}",
    }
