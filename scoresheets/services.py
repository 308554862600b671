"""The digital scoresheet's services: start (or resume) recording a match's game, post a
turn with its sequence number, and — when the engine says the game is over — enter its
result through the same services as an uploaded record.

Who may record: the match's players and its tournament's referees and organisers
(``core.permissions.can_read_records``: the people who may submit its record), and a
player without an account through their private link (``link=``,
``tournaments.private_links``), for that player's own matches in the link's tournament.
Decided: a link records only where the players report (``results_by`` = ``players``), as
a link reports nothing elsewhere; its finished game is submitted and reported through
the records' and report services with the link (the audit rows name it), so the
opponent still confirms it. The link's turns are counted apart from its reports (the
rate is ``private_links``'), by the API that takes the turn.

A turn (``live_turn_post``) is checked and stored under the live game's row lock
(``select_for_update``): ``seq`` must be the last turn's + 1. Every change of a live
game's version writes the live board's stamp to the cache before it commits
(``scoresheets.stamps``: a crowd's polls are answered 304 from it). The same ``seq`` with the
same content again is answered with the state as it stands (idempotent: a phone that
did not hear the answer sends again; it is stored once). The same ``seq`` with other
content is ``live_conflict`` (a second device recorded that turn first) with the
current state; a ``seq`` beyond the next is ``live_gap`` with the ``expected`` one; an
action the engine refuses is ``illegal_play`` with the engine's message.

An illegal play the opponent accepts (backgammon: seed 002, "Ugyldige slag og ulovlige
ryk"): an illegal play that can be carried out on the board is refused as
``illegal_play`` with ``acceptable`` true (beside its code and message); the opponent
either has it corrected (the mover posts the play again, same ``seq``) or accepts it:
the same play posted again with ``accept_illegal`` is stored as played
(``LiveTurn.illegal``), written so in the record, and its record's report warns of it
on its line as the replay of an uploaded record does. ``accept_illegal`` is part of the
turn's content (a retry with it is answered 200; the same ``seq`` without it afterwards
is a conflict); on a legal play it changes nothing; with another action it is refused
(``accept_illegal_play_only``). A game whose rules have no such acceptance (bräde)
refuses the flag (``accept_illegal_unsupported``), before anything else is checked.
Decided: who accepts
is not checked beyond who may record — the acceptance is tapped on the device at the
table, as the opponent's take or drop is.

Offline (decided): a page keeps the next turn's legal plays only; offline, the first
turn is checked against them, later turns are recorded unchecked (steps constrained
only by the dice), queued with their sequence numbers and sent in order when the
network is back; the server checks each here, the first refused turn stops the queue
and the page lets the players correct it. Rolled dice need the network.

The end of a game (``_finish``): the record of the match's recorded games (an ordinary
record: bräde's text form, backgammon's ``.mat``) is stored verified already with
``matches.records.game_record_checked`` — verified once, by its turns, each checked by
the engine as it was played; its report (the one the family's replay would give) is made
from the games themselves (``LiveRecorder.checked_report``), so it is never queued and
replayed again, and the record is verified the moment its game is — and the engine's
outcome becomes the game's result:

- where referees enter results (``Tournament.results_by`` = ``referees``), or a
  referee recorded the game, it counts at once: ``matches.results.game_result_record``
  (which takes the match's lock and checks who may) with the record as its evidence (the
  game is verified); the match is scored,
  decided and advanced as for any entry, and the next game starts with the right
  starter (bräde R2/S5: the loser; backgammon: a new opening roll);
- where the players report (``players``), it is the recording player's report
  (``matches.reports.game_report_submit``) and waits for the opponent's confirmation;
  the report keeps the record as its evidence, so the confirmed game is verified by it
  like the games entered at once; the next game can be started once it is confirmed.

Decisions where the docs are silent:
- A match is recorded from its first game on: a game record numbers its games from 1,
  and a game that was entered by hand has no moves to write, so recording is refused
  (``live_not_from_start``) when an earlier game of the match was not recorded live.
- One recording per match at a time; a device that starts while one runs resumes it.
- Backgammon: the player on roll resigns (conceding 1, 2 or 3 times the cube); bräde:
  the side to move, before rolling (R14).
"""

from __future__ import annotations

import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from core.permissions import (
    User,
    is_match_player,
    is_match_referee,
    signed_in,
)
from games.live import (
    LiveAction,
    LiveDone,
    LiveRecorder,
    LiveRefused,
    LiveSetup,
    LiveUnsupported,
    RecordHeader,
    live_game_for,
)
from games.live import LiveGame as LiveGameState
from games.seats import other, seat_of, side_of
from matches.common import active_games, lock_match, matches_touch, referee_require
from matches.models import FINISHED_STATES, Game, Match, MatchState, SiteNote
from matches.records import game_record_checked
from matches.reports import game_report_submit
from matches.results import game_result_record
from matches.standing import family_of, match_standing
from matches.walkovers import match_flag_fall, match_flag_overrule
from scoresheets.clock import (
    FLAG,
    MAX_USED_MS,
    clock_carried,
    clock_flagged,
    clock_new,
    clock_now,
    clock_press,
    clock_resume,
    clock_used,
    flag_check,
    runner_of,
)
from scoresheets.messages import refusal_text
from scoresheets.models import DiceMode, LiveGame, LiveStatus, LiveTurn
from scoresheets.stamps import board_stamp_forget, board_stamp_keep
from tournaments.models import PrivateLink, ResultsBy, Tournament
from tournaments.time_control import TimeControl

__all__ = [
    "Posted",
    "live_flag_overrule",
    "live_game_replay",
    "live_games_remove",
    "live_start",
    "live_turn_post",
    "recorder_of",
]

_random = secrets.SystemRandom()
# Who transcribed a record the scoresheet writes (a record's header, where its game has one).
TRANSCRIBER = "Bräde Arena scoresheet"


def _die() -> int:
    return _random.randint(1, 6)


def recorder_of(match: Match) -> LiveRecorder:
    """The live recording of the match's game; ``ValidationError`` (``no_live``) for a
    game without one (Kungabräde)."""
    family = family_of(match.tournament)
    try:
        return live_game_for(family.key)
    except LiveUnsupported:
        raise ValidationError(
            _(
                "%(game)s cannot be recorded move by move: the site has no engine that "
                "checks its moves. Enter the results instead."
            )
            % {"game": family.name},
            code="no_live",
        ) from None


def _require_recorder(by: User, match: Match, link: PrivateLink | None = None) -> None:
    if link is not None:
        if (
            link.revoked_at is not None
            or link.tournament_id != match.tournament_id
            or match.side_of(link.player) is None
        ):
            raise PermissionDeniedError(
                _("A private link records only its own player's matches."),
                code="not_a_recorder",
            )
        if match.tournament.results_by != ResultsBy.PLAYERS:
            raise PermissionDeniedError(
                _(
                    "In this tournament the referees enter the results; ask a referee to "
                    "record the game, or sign in."
                ),
                code="results_by_referees",
            )
        return
    # A referee scoped to another venue reads the records but does not record them.
    if not (is_match_referee(by, match) or is_match_player(by, match)):
        raise PermissionDeniedError(
            _("Only the players of this match and its tournament's referees may record it."),
            code="not_a_recorder",
        )


def _names(match: Match) -> tuple[str, str]:
    return (
        match.player1.name if match.player1 else "",
        match.player2.name if match.player2 else "",
    )


def _setup(match: Match, number: int, starter: int | None) -> LiveSetup:
    """What game ``number`` of the match starts with: the rule set and scale, the match
    score and (backgammon) whether it is the Crawford game."""
    tournament = match.tournament
    standing = match_standing(match, [g.result_value() for g in active_games(match)])
    return LiveSetup(
        number=number,
        starter=starter,
        rules=tournament.rules,
        addons=tuple(tournament.addons or ()),
        scale=tournament.scale,
        length=match.length,
        score=(int(standing.score[0]), int(standing.score[1])),
        crawford=bool(standing.next_is_crawford),
        names=_names(match),
        resignations=tournament.resignation_policy,
    )


def setup_of(live: LiveGame) -> LiveSetup:
    data = dict(live.setup)
    data["addons"] = tuple(data.get("addons", ()))
    data["score"] = tuple(data.get("score", (0, 0)))
    data["names"] = tuple(data.get("names", ("", "")))
    return LiveSetup(**data)


def _done_of(turn: LiveTurn) -> LiveDone:
    return LiveDone(
        side=turn.side,
        action=turn.action,
        dice=None if turn.dice is None else tuple(turn.dice),
        steps=tuple((int(a), int(b)) for a, b in turn.steps),
        text=turn.text,
        starter=turn.starter,
        resign_value=turn.resign_value,
        illegal=turn.illegal,
    )


def live_game_replay(
    live: LiveGame, turns: list[LiveTurn] | None = None
) -> tuple[LiveRecorder, LiveGameState]:
    """The game as its stored turns leave it (the turns were each checked when posted; a
    flag fall is the clock's, not the game's: ``scoresheets.clock``)."""
    recorder = live_game_for(live.match.tournament.game)
    game = recorder.new_game(setup_of(live))
    for turn in turns if turns is not None else list(live.turns.all()):
        if turn.action != FLAG:
            game.redo(_done_of(turn))
            game.clock_note(turn.clock)  # for the record's [%clk]
    return recorder, game


def turn_json(turn: LiveTurn) -> dict[str, Any]:
    """A stored turn as the live state lists it."""
    return {
        "seq": turn.seq,
        "side": turn.side,
        "action": turn.action,
        "dice": turn.dice,
        "steps": turn.steps,
        "text": turn.text,
        "illegal": turn.illegal,
        # both players' remaining ms after the turn, as PGN's [%clk] (None: no clock)
        "clock": turn.clock,
    }


@dataclass
class Posted:
    """What a posted turn did (``live_turn_post``): the live game now, whether the turn
    was stored now, and — when the turn was stored in a game still being shown — that
    game as the turn left it and its turns as the state lists them."""

    live: LiveGame
    created: bool
    game: LiveGameState | None = None
    turns: list[dict[str, Any]] = field(default_factory=list)
    ended: bool = False


# A game being recorded, kept replayed in this process between its turns (the next turn
# then costs no replay). Keyed by the live game, its start and its last ``seq``; taken
# out while a turn is being applied and put back only once that turn is committed, so a
# turn rolled back leaves nothing behind. A miss (another process, a restart) replays.
_REPLAYS: OrderedDict[tuple[int, str, int], Any] = OrderedDict()
_REPLAYS_KEPT = 256
_REPLAYS_LOCK = threading.Lock()


def _replay_key(live: LiveGame, seq: int) -> tuple[int, str, int]:
    return (live.pk, live.started_at.isoformat(), seq)


def replays_take(
    live: LiveGame,
) -> tuple[LiveRecorder, LiveGameState, list[dict[str, Any]]] | None:
    with _REPLAYS_LOCK:
        found: Any = _REPLAYS.pop(_replay_key(live, live.seq), None)
    return found  # type: ignore[no-any-return]


def replays_keep(
    live: LiveGame,
    recorder: LiveRecorder,
    game: LiveGameState,
    shown: list[dict[str, Any]],
    *,
    now: bool = False,
) -> None:
    """Keep the game for the turn after ``live.seq``: once the turn is committed, or
    ``now`` (a game the transaction did not change)."""
    key = _replay_key(live, live.seq)

    def keep() -> None:
        with _REPLAYS_LOCK:
            _REPLAYS[key] = (recorder, game, shown)
            while len(_REPLAYS) > _REPLAYS_KEPT:
                _REPLAYS.popitem(last=False)

    if now:
        keep()
    else:
        transaction.on_commit(keep)


# --- games removed -----------------------------------------------------------------------


def live_games_remove(*, match_id: int) -> None:
    """The match's games were removed (a reset: ``matches.match_changes.games_removed``):
    their recordings go too, the one being recorded among them, so the match is
    recorded again from game 1 (decided: removed, not kept aside; each finished game's
    record stays a submitted record of the match, and the reset's audit row keeps the
    games). The sequence numbers start again, so a phone still sending the old game's
    later turns is told of a gap (``live_gap``), not taken for the new game."""
    LiveGame.objects.filter(match_id=match_id).delete()


# --- the tournament's visibility changed ---------------------------------------------------


def live_boards_forget(*, tournament: Tournament) -> None:
    """``tournament`` became private or public (``tournaments.tournament_changes``' port,
    inside the change's transaction): its boards' cached stamps and public validators go
    at once, so no poll is answered from the cache for a board that may not be everyone's
    now (``scoresheets.stamps``), and again once the change commits (a turn or a read
    racing with it may have put one back)."""
    matches = list(
        LiveGame.objects.filter(match__tournament_id=tournament.pk)
        .values_list("match_id", flat=True)
        .distinct()
    )

    def forget() -> None:
        for match_id in matches:
            board_stamp_forget(match_id=match_id)

    forget()
    transaction.on_commit(forget)


# --- the match changed ---------------------------------------------------------------------


def live_board_follow(*, match_id: int) -> None:
    """Match ``match_id`` is changing (``matches.match_changes``' watcher port, inside the
    change's transaction): once the change commits, its live board moves on a version
    (``live_board_refresh``). Decided: a change of the match that is not a turn — the
    opponent confirming the last game's report, a referee's correction, a reset — changes
    what the board shows (the score, the game entered) or removes it, so the followers'
    ETag must change with it. It runs after the commit, in a transaction of its own, so
    it never takes the live game's lock inside a change that holds the tournament's and
    the match's (the turn's order is the other way round)."""
    transaction.on_commit(lambda: live_board_refresh(match_id=match_id))


def live_board_refresh(*, match_id: int) -> None:
    """The live board of match ``match_id`` after a change of the match: its latest live
    game's version is bumped and its stamp kept under the row's lock (so a turn posted
    meanwhile writes its newer stamp after this one); with nothing recorded any more (a
    reset removed it), the cached stamp goes, so no follower is told "not modified". A
    live game whose report was confirmed is linked to the game the confirmation entered."""
    with transaction.atomic():
        live = (
            LiveGame.objects.select_for_update(of=("self",))
            .filter(match_id=match_id)
            .order_by("-number")
            .select_related("match__tournament", "match__round")
            .first()
        )
        if live is None:
            board_stamp_forget(match_id=match_id)
            return
        live.version += 1
        changed = ["version", "updated_at"]
        if live.game_id is None and live.report_id is not None:
            # the report it made was confirmed: the game it entered is the board's game
            entered = Game.objects.filter(
                match_id=match_id, number=live.number, voided_at__isnull=True
            ).first()
            if entered is not None:
                live.game = entered
                changed.append("game")
        live.save(update_fields=changed)
        board_stamp_keep(live=live, match=live.match)


# --- start --------------------------------------------------------------------------------


def live_start(
    *,
    match: Match,
    by: User,
    dice_mode: str = DiceMode.ENTERED,
    link: PrivateLink | None = None,
) -> tuple[LiveGame, bool]:
    """Start recording the match's next game, or resume the one being recorded.

    Returns the live game and whether it was created. ``PermissionDeniedError`` for
    someone who may not record it; ``ValidationError`` for a game without live recording
    or a match whose players are not known; ``ConflictError`` for a decided match
    (``match_decided``), a game waiting for the opponent's confirmation
    (``report_pending``) or a match whose earlier games were not recorded live
    (``live_not_from_start``). ``link``: a player records through their private link
    (``by`` is then None; module doc)."""
    _require_recorder(by, match, link)
    recorder_of(match)
    if dice_mode not in DiceMode.values:
        raise ValidationError(_("dice is 'entered' or 'rolled'."), code="invalid")
    with transaction.atomic():
        running = LiveGame.objects.filter(match=match, status=LiveStatus.RECORDING).first()
        if running is not None:
            return running, False
        locked = lock_match(match)
        running = LiveGame.objects.filter(match=locked, status=LiveStatus.RECORDING).first()
        if running is not None:
            return running, False
        if locked.state == MatchState.WAITING:
            raise ValidationError(
                _("The players of this match are not known yet."), code="players_unknown"
            )
        if locked.state in FINISHED_STATES:
            raise ConflictError(
                _("The match is decided; no more games are played."), code="match_decided"
            )
        games = active_games(locked)
        number = len(games) + 1
        done = LiveGame.objects.filter(match=locked, status=LiveStatus.FINISHED)
        pending = done.filter(number=number).select_related("report").first()
        if pending is not None and (pending.report is None or not pending.report.is_open):
            # its report was withdrawn (or closed by a referee): the game is played and
            # recorded again
            pending.delete()
            pending = None
        if pending is not None:
            raise ConflictError(
                _(
                    "Game %(n)s was recorded and waits for the opponent's confirmation; the "
                    "next game starts once it is confirmed."
                )
                % {"n": number},
                code="report_pending",
            )
        recorded = set(done.values_list("number", flat=True))
        if any(g.number not in recorded for g in games):
            raise ConflictError(
                _(
                    "Games of this match were entered without being recorded move by move; "
                    "a match is recorded from its first game on (its record numbers the games "
                    "from 1)."
                ),
                code="live_not_from_start",
            )
        live = _create(locked, number, dice_mode, by, games)
        board_stamp_keep(live=live, match=match)
        # The match shows as being played (the big screen, its row) from now on.
        matches_touch(match_ids=[locked.pk])
    return live, True


def _create(match: Match, number: int, dice_mode: str, by: User, games: list[Any]) -> LiveGame:
    starter: int | None = None
    if family_of(match.tournament).loser_starts and games:
        starter = other(seat_of(games[-1].winner))  # R2, S5
    last = LiveGame.objects.filter(match=match).aggregate(seq=Max("seq"), version=Max("version"))
    # the match's clock: set at its first recorded game, carried from game to game
    before = LiveGame.objects.filter(match=match).order_by("-number").first()
    clock = (
        clock_new(TimeControl.of(match.tournament), match.length)
        if before is None
        else clock_carried(before.clock)
    )
    setup = _setup(match, number, starter)
    data = asdict(setup)
    data["addons"] = list(setup.addons)
    data["score"] = list(setup.score)
    data["names"] = list(setup.names)
    return LiveGame.objects.create(
        match=match,
        number=number,
        dice_mode=dice_mode,
        setup=data,
        seq=last["seq"] or 0,
        version=(last["version"] or 0) + 1,
        started_by=signed_in(by),
        clock=clock,
    )


# --- turns --------------------------------------------------------------------------------


def posted_content(
    *,
    action: str,
    dice: list[int] | None = None,
    steps: list[list[int]] | None = None,
    starter: int | None = None,
    resign_value: int | None = None,
    single: bool = False,
    accept_illegal: bool = False,
) -> dict[str, Any]:
    """A turn's content as compared for idempotency (the device is not part of it).
    ``accept_illegal`` is there only when set, so a turn stored before the flag existed
    compares as it did."""
    content: dict[str, Any] = {
        "action": action,
        "dice": None if dice is None else [int(d) for d in dice],
        "steps": [[int(a), int(b)] for a, b in (steps or [])],
        "starter": starter,
        "resign_value": resign_value,
        "single": bool(single),
    }
    if accept_illegal:
        content["accept_illegal"] = True
    return content


def live_turn_post(
    *,
    match: Match,
    by: User,
    seq: int,
    device: uuid.UUID | str,
    content: Mapping[str, Any],
    state_of: Any,
    link: PrivateLink | None = None,
    used_ms: int | None = None,
    queued: bool = False,
) -> Posted:
    """Check and store one turn of the game being recorded (module doc). ``content`` is
    :func:`posted_content`; ``state_of(live)`` builds the live state sent with a conflict.
    ``used_ms``: how long the mover's clock ran for this turn by the device's monotonic
    time (``scoresheets.clock``, which checks it against the arrival times; None: the
    server's arrival times count); ``queued``: the device says the turn waited on it
    before it was sent (offline). A ``flag`` action is the clock's flag fall (``_flag``).
    Returns the live game (after the turn: the next game when this one ended and the
    next starts at once), whether the turn was stored now (False: sent again) and the
    game as the turn left it (to build the state without replaying it again). ``link``:
    a player records through their private link (``by`` is then None; module doc)."""
    _require_recorder(by, match, link)
    if content.get("accept_illegal") and not recorder_of(match).accepts_illegal:
        raise ValidationError(
            _(
                "%(game)s has no illegal move that stands: its rules refuse every illegal "
                "play. Play the turn again."
            )
            % {"game": family_of(match.tournament).name},
            code="accept_illegal_unsupported",
        )
    if content.get("accept_illegal") and content.get("action") != "play":
        raise ValidationError(
            _("Only a play can be accepted as played."), code="accept_illegal_play_only"
        )
    with transaction.atomic():
        live = (
            # the live game's row only: its match and tournament are the ones read
            # before, not locked (a turn of one table never waits for another's; the end
            # of a game locks them in the writers' order, ``lock_match``)
            LiveGame.objects.select_for_update().filter(match=match).order_by("-number").first()
        )
        if live is None:
            raise NotFoundError(_("Nothing of this match is being recorded."), code="not_recording")
        live.match = match
        if seq <= live.seq:
            earlier = LiveTurn.objects.filter(match=match, seq=seq).first()
            if earlier is not None and earlier.posted == dict(content):
                return Posted(live, False)
            raise ConflictError(
                _(
                    "Turn %(seq)s was recorded already, differently (another device?); the "
                    "game stands as shown."
                )
                % {"seq": seq},
                code="live_conflict",
                fields={"state": state_of(live)},
            )
        if live.status != LiveStatus.RECORDING:
            raise ConflictError(
                _("The game is over; start the next game first."),
                code="live_finished",
                fields={"state": state_of(live)},
            )
        if seq > live.seq + 1:
            raise ConflictError(
                _("Turn %(expected)s comes next; turn %(seq)s cannot be recorded before it.")
                % {"expected": live.seq + 1, "seq": seq},
                code="live_gap",
                fields={"expected": live.seq + 1},
            )
        if content["action"] == FLAG:
            return _flag(live, match, seq, content, device, by, link, used_ms, queued)
        kept = replays_take(live)
        if kept is None:
            turns = list(live.turns.all())
            recorder, game = live_game_replay(live, turns)
            shown = [turn_json(t) for t in turns]
        else:
            recorder, game, shown = kept
        action = LiveAction(
            action=content["action"],
            dice=None if content.get("dice") is None else tuple(content["dice"]),
            steps=tuple((a, b) for a, b in content.get("steps") or ()),
            starter=content.get("starter"),
            resign_value=content.get("resign_value"),
            single=bool(content.get("single")),
            accept_illegal=bool(content.get("accept_illegal")),
        )
        roller = _die if live.dice_mode == DiceMode.ROLLED else None
        try:
            done = game.apply(action, roller)
        except LiveRefused as refused:
            # a refused action leaves the game as it was: it is kept for the next try
            replays_keep(live, recorder, game, shown, now=True)
            extra = {"acceptable": True} if refused.acceptable else {}
            raise ValidationError(refusal_text(refused), code="illegal_play", **extra) from None
        clock, used = live.clock, None
        if clock is not None:
            # a turn after the mover's bank was spent is refused (``flag_fell``): nothing
            # is stored, the game the turn changed is dropped (the next turn replays)
            clock, used = clock_press(
                clock,
                runner=runner_of(game.phase, game.to_move),
                used_ms=used_ms,
                now_ms=clock_now(),
                seq=seq,
                queued=queued,
            )
            game.clock_note(clock["remaining"])  # for the record's [%clk]
        try:
            with transaction.atomic():
                turn = LiveTurn.objects.create(
                    live_game=live,
                    match=match,
                    seq=seq,
                    side=done.side,
                    action=done.action,
                    dice=None if done.dice is None else list(done.dice),
                    steps=[list(s) for s in done.steps],
                    starter=done.starter,
                    resign_value=done.resign_value,
                    illegal=done.illegal,
                    text=done.text[:200],
                    clock=None if clock is None else list(clock["remaining"]),
                    used_ms=used,
                    reported_ms=_reported(used_ms, used),
                    queued=queued,
                    posted=dict(content),
                    device=device,
                    by=signed_in(by),
                )
        except IntegrityError:  # only where the row lock does not serialise (SQLite)
            raise ConflictError(
                _("Turn %(seq)s was recorded by another device at the same moment.") % {"seq": seq},
                code="live_conflict",
                fields={"state": state_of(live)},
            ) from None
        live.seq = seq
        live.version += 1
        live.clock = clock
        shown = [*shown, turn_json(turn)]
        if game.outcome is not None:
            following = _finish(live, game, recorder, by, link)
            live.save()
            board_stamp_keep(live=following or live, match=match)
            if following is not None:
                return Posted(following, True, None, [], ended=True)
            return Posted(live, True, game, shown, ended=True)
        live.save(update_fields=["seq", "version", "clock", "updated_at"])
        board_stamp_keep(live=live, match=match)
        replays_keep(live, recorder, game, shown)
    return Posted(live, True, game, shown)


def _reported(used_ms: int | None, used: int | None) -> int | None:
    """The device's figure, kept where the clock charged another (``scoresheets.clock``)."""
    if used_ms is None or used is None or int(used_ms) == used:
        return None
    return min(max(0, int(used_ms)), MAX_USED_MS)


def _flag(
    live: LiveGame,
    match: Match,
    seq: int,
    content: Mapping[str, Any],
    device: uuid.UUID | str,
    by: User,
    link: PrivateLink | None,
    used_ms: int | None,
    queued: bool,
) -> Posted:
    """The running clock's flag fell (``scoresheets.clock``): stored as a turn of its own
    (the engine never sees it), the game stopped, and the match's result entered as the
    rules give it (``match_flag_fall``: the match is lost). Under the live game's lock."""
    now = clock_now()
    side = flag_check(live.clock, used_ms=used_ms, now_ms=now, queued=queued)
    assert live.clock is not None
    used = clock_used(live.clock, used_ms=used_ms, now_ms=now, queued=queued)
    clock = clock_flagged(live.clock, side)
    LiveTurn.objects.create(
        live_game=live,
        match=match,
        seq=seq,
        side=side,
        action=FLAG,
        text=f"{'WB'[side]}: {FLAG}",
        clock=list(clock["remaining"]),
        used_ms=min(used, 2**31 - 1),
        reported_ms=_reported(used_ms, used),
        queued=queued,
        posted=dict(content),
        device=device,
        by=signed_in(by),
    )
    live.seq = seq
    live.version += 1
    live.clock = clock
    live.status = LiveStatus.FINISHED
    live.outcome = {"winner": other(side), "words": "", "points": 0, "flag": side}
    live.save()
    loser = match.player1 if side == 0 else match.player2
    assert loser is not None
    match_flag_fall(
        match=match, loser=loser, by=by, link_player=link.player if link is not None else None
    )
    board_stamp_keep(live=live, match=match)
    return Posted(live, True, ended=True)


def live_flag_overrule(*, match: Match, by: User, note: str, seconds: int) -> LiveGame:
    """A referee overrules the flag fall of ``match`` with a note (``scoresheets.clock``):
    the walkover it entered is taken back (``match_flag_overrule``, the note in the
    audit), and the game goes on where it stopped, the flagged player's clock running
    with ``seconds`` left. ``ConflictError`` (``not_a_flag_fall``) where the match's
    recording did not end in a flag fall. Who may is asked first (the match's referees),
    so nobody else learns how the match ended from the refusal."""
    referee_require(by, match)
    if seconds <= 0:
        raise ValidationError(
            _("Give the player whose flag fell some time to go on with (seconds)."),
            code="seconds",
        )
    with transaction.atomic():
        live = LiveGame.objects.select_for_update().filter(match=match).order_by("-number").first()
        clock = None if live is None else live.clock
        flagged = None if clock is None else clock.get("flag")
        if live is None or clock is None or flagged is None:
            raise ConflictError(
                _("This match was not decided by a flag fall."), code="not_a_flag_fall"
            )
        match_flag_overrule(match=match, by=by, note=note)
        live.match = match
        live.clock = clock_resume(
            clock, side=int(flagged), seconds=seconds, now_ms=clock_now(), seq=live.seq
        )
        live.status = LiveStatus.RECORDING
        live.outcome = None
        live.version += 1
        live.save()
        board_stamp_keep(live=live, match=match)
    return live


def _match_games(live: LiveGame, game: LiveGameState) -> list[LiveGameState]:
    """The match's recorded games up to this one (from game 1), each as its live game."""
    match = live.match
    earlier = list(
        LiveGame.objects.filter(match=match, status=LiveStatus.FINISHED, number__lt=live.number)
        .order_by("number")
        .prefetch_related("turns")
    )
    games = []
    for old in earlier:
        old.match = match
        _, replayed = live_game_replay(old, list(old.turns.all()))
        games.append(replayed)
    games.append(game)
    return games


def _record_tags(live: LiveGame, recorder: LiveRecorder) -> dict[str, str]:
    """The headers of the match's record, from what the site knows of the match."""
    match = live.match
    tournament = match.tournament
    header = RecordHeader(
        event=tournament.name,
        round=str(match.round.name) if match.round_id else "",
        names=_names(match),
        length=match.length,
        rules=tournament.rules,
        addons=tuple(tournament.addons or ()),
        scale=tournament.scale,
        resignations=tournament.resignation_policy,
        transcriber=TRANSCRIBER,
    )
    return recorder.record_tags(header)


def _finish(
    live: LiveGame,
    game: LiveGameState,
    recorder: LiveRecorder,
    by: User,
    link: PrivateLink | None = None,
) -> LiveGame | None:
    """The game is over: its record submitted, its result entered or reported (module
    doc). Returns the next game when it starts at once."""
    outcome = game.outcome
    assert outcome is not None
    match = live.match
    games = _match_games(live, game)
    tags = _record_tags(live, recorder)
    text = recorder.record_text(setup_of(live), [g.record_game() for g in games], tags)
    result = outcome.result
    starter_index = game.starter if live.number == 1 else None
    starter = side_of(starter_index) if starter_index is not None else None
    tournament = match.tournament
    at_once = tournament.results_by == ResultsBy.REFEREES or is_match_referee(by, match)
    # Verified once, by its turns: every one was checked as it was played.
    submission = game_record_checked(
        match=match,
        text=text,
        report=recorder.checked_report(games, tags),
        entered=at_once,
        by=by,
        link=link,
    )
    live.status = LiveStatus.FINISHED
    live.submission = submission
    live.outcome = {**outcome.to_dict(), "result": asdict(result)}
    if not at_once:
        live.report = game_report_submit(
            match=match,
            number=live.number,
            result=result,
            by=by,
            starter=starter,
            site_note=SiteNote.RECORDED_LIVE,
            link=link,
        )
        # its evidence: confirmed, the game is verified by this record like the others
        live.report.submission = submission
        live.report.save(update_fields=["submission"])
        return None
    live.game = game_result_record(
        match=match,
        number=live.number,
        result=result,
        starter=starter,
        by=by,
        submission=submission,
    )
    locked = live.game.match
    locked.refresh_from_db()
    if locked.state in FINISHED_STATES:
        return None
    live.save()  # finished before the next game's row (one recording per match)
    following = _create(locked, live.number + 1, live.dice_mode, by, active_games(locked))
    following.seq = live.seq
    following.version = live.version + 1
    following.save(update_fields=["seq", "version"])
    return following
