"""Game-record pages: upload, the record and its verification, and the viewer.

- ``record_upload``: the players of a match and the tournament's referees (organisers
  included) paste a record or choose a file; ``matches.records.game_record_submit``
  stores it and enqueues the engine's verification. Anonymous users are sent to sign
  in; anyone else who may see the match gets a 403 page (a private tournament's match
  stays a 404 for strangers, as everywhere).
- ``record_detail`` and ``record_status``: the record's state; while the engine has not
  finished, the status box polls ``record_status`` (htmx) every two seconds and
  replaces itself, and the reply for a finished record carries no polling, so it
  stops. A rejected record shows the engine's error (kind, game, line, message) and
  the offending line of the submitted text with a few lines around it.
- ``record_viewer``: steps through one game of a verified record on a drawing of the
  board (``web.board``: how it is oriented is decided and documented there). Every
  turn's drawing is rendered here and embedded as JSON; ``web/static/web/viewer.js``
  swaps them in (buttons, arrow keys, Home/End). Without JavaScript the buttons are a
  plain GET form (``?turn=N``), so the page still works.

Who may read a record: ``matches.selectors.submission_get`` (the match's players and
the tournament's referees and organisers); to anyone else a record does not exist.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from core.errors import DomainError, PermissionDeniedError
from core.http import found
from core.permissions import can_read_records, is_match_player, is_referee, player_of
from games import frames_brade
from games.family import BoardDrawing
from games.frames_backgammon import (
    DOUBLE,
    DROP,
    TAKE,
    WIN,
    Action,
    BgFrame,
    BgReplayedGame,
    replay_mat_game,
)
from games.frames_backgammon import NotReplayableError as BgNotReplayableError
from games.seats import Side, seat_of
from matches import selectors as matches_sel
from matches.models import RECORD_DONE_STATES, GameRecordSubmission, Match, RecordState
from matches.records import game_record_submit, no_records_message, record_sides
from matches.standing import family_of
from matches.stored_report import StoredReport, stored_report
from web import board
from web.forms.records import RecordUploadForm
from web.games import game_name, word_for_outcome, word_for_qualifier
from web.picture import picture_layer
from web.turn_words import play_words, position_words, turn_words

# How often the status box asks for news while the engine works (seconds).
POLL_EVERY = 2
# Lines of the submitted text shown before and after the line the engine complains about.
CONTEXT_LINES = 3
# States whose record replays without error, so the viewer can show it.
VIEWABLE_STATES = (RecordState.VERIFIED, RecordState.ENTERED, RecordState.MISMATCH)


def _forbidden(request: HttpRequest, match: Match, message: str) -> HttpResponse:
    return render(
        request,
        "web/records/forbidden.html",
        {"match": match, "tournament": match.tournament, "message": message},
        status=403,
    )


# --- upload ----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def record_upload(request: HttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match: Match = found(matches_sel.match_get, pk=pk, by=request.user)
    if not (is_referee(request.user, match.tournament) or is_match_player(request.user, match)):
        return _forbidden(
            request,
            match,
            _(
                "Only the players of this match and the tournament's referees may submit "
                "its record."
            ),
        )
    family = family_of(match.tournament)
    if family.replay is None:
        return _forbidden(request, match, no_records_message(game_name(match.tournament.game)))
    formats = tuple(f.name for f in family.records)
    if request.method == "POST":
        form = RecordUploadForm(request.POST, request.FILES, formats=formats)
        if form.is_valid():
            try:
                sub = game_record_submit(
                    match=match, text=form.cleaned_data["record"], by=request.user
                )
            except PermissionDeniedError as err:
                return _forbidden(request, match, err.message)
            except DomainError as err:
                # Bytes the game's records cannot be: said on the file's field.
                form.add_error("file" if err.code == "encoding" else None, err.message)
            else:
                messages.success(
                    request, _("The record was received. The engine is checking it now.")
                )
                return redirect("web:record_detail", pk=sub.pk)
    else:
        form = RecordUploadForm(formats=formats)
    return render(
        request,
        "web/records/upload.html",
        {"match": match, "tournament": match.tournament, "form": form},
    )


# --- the record and its status ---------------------------------------------------------


@dataclass(frozen=True)
class ExcerptLine:
    number: int
    text: str
    is_error: bool


def _excerpt(text: str, line: int | None) -> list[ExcerptLine]:
    """The lines around ``line`` (1-based, as the engine counts: ``\\n`` ends a line)."""
    if not line or line < 1:
        return []
    lines = [raw.removesuffix("\r") for raw in text.split("\n")]
    if text.endswith("\n"):
        lines.pop()
    if not lines:
        return []
    line = min(line, len(lines))
    first = max(1, line - CONTEXT_LINES)
    last = min(len(lines), line + CONTEXT_LINES)
    return [ExcerptLine(n, lines[n - 1], n == line) for n in range(first, last + 1)]


def _error_kinds() -> dict[str, str]:
    return {
        "syntax": _("Syntax error"),
        "illegal": _("Illegal play"),
        "result_mismatch": _("The result does not match the play"),
        "incomplete": _("Incomplete game"),
        "match": _("Breaks a match rule"),
        "cube": _("Cube action"),
        "score_mismatch": _("The score line does not match the games"),
        "format": _("A format the site does not read"),
    }


def _dialect(report: StoredReport) -> str:
    """The program and file format a backgammon record was read as (``eXtreme Gammon
    (.mat)``), from the stored report; empty for bräde's records, which have one form."""
    program = report.get("program")
    form = report.get("format")
    if not isinstance(program, str) or not program:
        return f".{form}" if isinstance(form, str) and form and form != "mat" else ""
    return f"{program} (.{form})" if isinstance(form, str) and form else program


def _status_context(sub: GameRecordSubmission) -> dict[str, Any]:
    report = stored_report(sub)
    error = report.get("error") if isinstance(report.get("error"), dict) else None
    rejected = sub.state == RecordState.INVALID
    excerpt: list[ExcerptLine] = []
    if rejected and error is not None and isinstance(error.get("line"), int):
        excerpt = _excerpt(sub.text, error["line"])
    names = record_names(sub.match, sub.text)
    return {
        "sub": sub,
        "dialect": _dialect(report),
        "done": sub.state in RECORD_DONE_STATES,
        "poll_every": POLL_EVERY,
        "rejected": rejected,
        "error": error if rejected else None,
        "error_kind": _error_kinds().get(str(error.get("kind")), "") if error else "",
        "excerpt": excerpt,
        "viewable": sub.state in VIEWABLE_STATES,
        "games": [
            {"number": _game_number(g), "summary": _game_summary(g, names)}
            for g in report.get("games") or []
            if isinstance(g, dict) and isinstance(_game_number(g), int)
        ],
        # Illegal moves that stand as played (backgammon, seed 002): game, line, message.
        "warnings": [
            w
            for w in report.get("warnings") or []
            if isinstance(w, dict) and isinstance(w.get("line"), int)
        ],
    }


def _game_number(game: dict[str, Any]) -> Any:
    """A game's number in a stored report (bräde's ``number``, a ``.mat`` replay's ``game``)."""
    return game.get("number", game.get("game"))


@require_GET
def record_detail(request: HttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    sub: GameRecordSubmission = found(matches_sel.submission_get, pk=pk, by=request.user)
    context = _status_context(sub)
    context.update(
        match=sub.match,
        tournament=sub.match.tournament,
        # User names to the tournament's staff only (``person``).
        names_in_full=is_referee(request.user, sub.match.tournament),
    )
    return render(request, "web/records/detail.html", context)


@require_GET
def record_status(request: HttpRequest, pk: int) -> HttpResponse:
    """The status box alone: what the record page swaps in while the engine works."""
    sub: GameRecordSubmission = found(matches_sel.submission_get, pk=pk, by=request.user)
    return render(request, "web/records/_status.html", _status_context(sub))


# --- the viewer ------------------------------------------------------------------------


def _record_sides_swapped(match: Match, tags: dict[str, str]) -> bool:
    """True when the record's White is the match's player2 (by the White/Black tags).

    The same reading as the verification (``matches.records.record_sides``); tags that
    name other players (a record that did not verify) count as not swapped.
    """
    sides = record_sides(match, tags)
    return sides is not None and sides[Side.WHITE] is Side.BLACK


def _default_view(request: HttpRequest, match: Match, swapped: bool) -> Side:
    """The side the viewing user played in the record (Black for the match's player2,
    unless the record names the players the other way round); White for everyone else."""
    player = player_of(request.user)
    if player is None or player.pk not in (match.player1_id, match.player2_id):
        return Side.WHITE
    side = match.side_of(player) or Side.WHITE
    return side.other if swapped else side


def _int_param(request: HttpRequest, name: str) -> int | None:
    raw = request.GET.get(name, "")
    try:
        return int(raw)
    except ValueError:
        return None


def _side_word(side: Side) -> str:
    return _("White") if side is Side.WHITE else _("Black")


def _how(outcome: str, pattern: str | None, munk: bool) -> str:
    """``vackert spel (trappspel) with munk``: as the match page writes it (game words)."""
    word = word_for_outcome(outcome)
    if pattern:
        word += f" ({word_for_qualifier(pattern)})"
    if munk:
        word += " " + _("with munk")
    return word


def _outcome_text(game: frames_brade.ReplayedGame, names: dict[Side, str]) -> str:
    """``Maria Holm wins by hemspel``: the winner by name, as backgammon's pages say it."""
    outcome = game.outcome
    if outcome is None:
        return ""
    how = _how(outcome.kind.value, outcome.pattern.value if outcome.pattern else None, outcome.munk)
    return _("%(side)s wins by %(how)s") % {"side": names[outcome.winner], "how": how}


TAG_LINE = re.compile(r'^\[(White|Black) "([^"]*)"\]', re.MULTILINE)


def record_names(match: Match, text: str) -> dict[Side, str]:
    """The record's White and Black by name: the record's tags, else the match's players
    on those sides (``record_sides``), else the colour."""
    tags = {key: value.strip() for key, value in TAG_LINE.findall(text)}
    sides = record_sides(match, tags)
    names: dict[Side, str] = {}
    for side in (Side.WHITE, Side.BLACK):
        player = match.player_for(sides[side]) if sides is not None else None
        names[side] = tags.get(side.word) or (player.name if player else "") or _side_word(side)
    return names


def _game_summary(game: dict[str, Any], names: dict[Side, str] | None = None) -> str:
    """``Black wins by jan · 43 turns``, from a game of the stored report; a ``.mat``
    replay's game: ``Anna wins by gammon, cube 2: 4 points (Crawford game)``."""
    if "how" in game:
        return _mat_summary(game)
    count = game.get("turns")
    count = count if isinstance(count, int) else 0
    turns = ngettext("%(n)s turn", "%(n)s turns", count) % {"n": count}
    if game.get("winner") not in ("W", "B"):
        return turns
    how = _how(str(game.get("outcome")), game.get("pattern"), bool(game.get("munk")))
    winner = Side(game["winner"])
    who = names[winner] if names else _side_word(winner)
    won = _("%(side)s wins by %(how)s") % {"side": who, "how": how}
    return f"{won} · {turns}"


def _mat_summary(game: dict[str, Any]) -> str:
    raw = game.get("points")
    points = raw if isinstance(raw, int) else 0
    how = word_for_outcome(str(game.get("how")))
    cube = game.get("cube") if isinstance(game.get("cube"), int) else 1
    text = _("%(player)s wins by %(how)s, cube %(cube)s") % {
        "player": game.get("winner") or "?",
        "how": how,
        "cube": cube,
    }
    text += ": " + ngettext("%(n)s point", "%(n)s points", points) % {"n": points}
    if game.get("crawford"):
        text += " (" + _("Crawford game") + ")"
    return text


def _opening_text(game: frames_brade.ReplayedGame, names: dict[Side, str]) -> str:
    record = game.record
    side = names[game.starter]
    if record.tek is not None:
        return _("Tek %(white)d-%(black)d: %(side)s starts") % {
            "white": record.tek[0],
            "black": record.tek[1],
            "side": side,
        }
    if record.position is not None:
        return _("A set-up position; %(side)s to move") % {"side": side}
    if record.starter is not None:
        return _("%(side)s starts") % {"side": side}
    return _("%(side)s starts (the loser of the previous game)") % {"side": side}


def _position_summary(frame: frames_brade.Frame, names: dict[Side, str]) -> str:
    position = frame.position
    parts = [
        _("%(side)s: %(off)d borne off, %(bar)d on the bar")
        % {"side": names[side], "off": position.borne_off(side), "bar": position.bar(side)}
        for side in (Side.WHITE, Side.BLACK)
    ]
    return "; ".join(parts)


def _frames_data(
    game: frames_brade.ReplayedGame, view: Side, names: dict[Side, str], drawing: BoardDrawing[Any]
) -> list[dict[str, str]]:
    """For every frame: its drawn layer (the family's picture), caption, accessible label
    and position text."""
    seat = seat_of(view)
    total = game.turns
    opening = _opening_text(game, names)
    result = _outcome_text(game, names)
    data = []
    for frame in game.frames:
        if frame.turn is None:  # the opening: the frame before the first turn line
            caption = _("Start of game %(game)d: %(opening)s") % {
                "game": game.number,
                "opening": opening,
            }
            move = opening
        else:
            move = turn_words(frame.turn, names)
            caption = _("Turn %(n)d of %(total)d: %(move)s") % {
                "n": frame.index,
                "total": total,
                "move": move,
            }
        if frame.index == total and result:
            caption = f"{caption}. {result}"
        data.append(
            {
                "svg": picture_layer(drawing.picture(frame.state, view=seat)),
                "caption": caption,
                "label": f"{caption}. {_position_summary(frame, names)}.",
                "move": move,
                "position": position_words(frame.position, names),
            }
        )
    return data


def _not_viewable(request: HttpRequest, sub: GameRecordSubmission, message: str) -> HttpResponse:
    return render(
        request,
        "web/records/not_viewable.html",
        {"sub": sub, "match": sub.match, "tournament": sub.match.tournament, "message": message},
        status=404,
    )


@require_GET
def record_viewer(request: HttpRequest, pk: int) -> HttpResponse:
    """A verified record's games, turn by turn: for everyone who sees the tournament
    (``matches.selectors.submission_watch_get``)."""
    sub: GameRecordSubmission = found(matches_sel.submission_watch_get, pk=pk, by=request.user)
    match = sub.match
    if sub.state not in VIEWABLE_STATES:
        return _not_viewable(
            request,
            sub,
            _("Only a verified record can be stepped through; this one is %(state)s.")
            % {"state": sub.get_state_display()},
        )
    number = _int_param(request, "game") or 1
    family = family_of(match.tournament)
    drawing = family.board
    if drawing is None or not family.records or family.records[0].name not in VIEWERS:
        return _not_viewable(request, sub, _("This game has no board to show."))
    return VIEWERS[family.records[0].name](request, sub, number, drawing)


def _brade_viewer(
    request: HttpRequest, sub: GameRecordSubmission, number: int, drawing: BoardDrawing[Any]
) -> HttpResponse:
    """A bräde game of a verified text or JSON record, turn by turn."""
    match = sub.match
    try:
        game = frames_brade.replay_game(sub.text, number)
    except frames_brade.NotReplayableError:
        return _not_viewable(
            request, sub, _("The record has no game %(game)d to show.") % {"game": number}
        )
    swapped = _record_sides_swapped(match, game.tags)
    raw_view = request.GET.get("view", "").upper()
    view = Side(raw_view) if raw_view in ("W", "B") else _default_view(request, match, swapped)
    names = {
        side: game.tags.get(side.word) or str(match.player_for(side.other if swapped else side))
        for side in (Side.WHITE, Side.BLACK)
    }
    frames = _frames_data(game, view, names, drawing)
    turn = min(max(_int_param(request, "turn") or 0, 0), len(frames) - 1)
    game_options = _status_context(sub)["games"] or [
        {"number": n, "summary": ""} for n in range(1, game.games_in_record + 1)
    ]
    return render(
        request,
        "web/records/viewer.html",
        {
            "sub": sub,
            "match": match,
            "tournament": match.tournament,
            # The record's own page (its text, the verdict) is for players and staff.
            "can_read": can_read_records(request.user, match),
            "game": game,
            "game_options": game_options,
            "view": view.value,
            "view_word": _side_word(view),
            "other_view": view.other.value,
            "other_view_word": _side_word(view.other),
            "toggle_url": "?" + urlencode({"game": game.number, "view": view.other.value}),
            "names": {"W": names[Side.WHITE], "B": names[Side.BLACK]},
            "result": _outcome_text(game, names),
            "frames": frames,
            "turn": turn,
            "frame": frames[turn],
            "last": len(frames) - 1,
            "moves": [{"index": i, "move": f["move"]} for i, f in enumerate(frames)][1:],
            # Safe: board.py writes numbers and classes only, and escapes the label.
            "board_svg": mark_safe(
                board.board_svg(layer=frames[turn]["svg"], label=frames[turn]["label"])
            ),
        },
    )


# --- the viewer of a game drawn through its family's board picture (backgammon) ----------


def mat_action_words(action: Action) -> str:
    """A ``.mat`` action in the reader's language: a roll as written (dice and moves),
    a double, a take, a drop or the win in words, not the file's ``Doubles => 2``."""
    if action.kind == DOUBLE:
        return _("doubles to %(n)s") % {"n": action.value}
    if action.kind == TAKE:
        return _("takes")
    if action.kind == DROP:
        return _("drops")
    if action.kind == WIN:
        if action.match:
            return ngettext(
                "wins the match with %(n)s point",
                "wins the match with %(n)s points",
                action.value or 0,
            ) % {"n": action.value}
        return ngettext("wins %(n)s point", "wins %(n)s points", action.value or 0) % {
            "n": action.value
        }
    return play_words(action.text())


def _mat_caption(game: BgReplayedGame, frame: BgFrame) -> tuple[str, str]:
    """(caption, move) of a ``.mat`` frame."""
    names = game.players
    action = frame.action
    if action is None:
        opening = _("%(one)s and %(two)s, a %(n)s-point match") % {
            "one": names[0],
            "two": names[1],
            "n": game.length,
        }
        caption = _("Start of game %(game)d: %(opening)s") % {
            "game": game.number,
            "opening": opening,
        }
        return caption, opening
    move = f"{names[action.player]}: {mat_action_words(action)}"
    caption = _("Turn %(n)d of %(total)d: %(move)s") % {
        "n": frame.index,
        "total": game.turns,
        "move": move,
    }
    return caption, move


def _mat_frames(
    game: BgReplayedGame, view: int, drawing: BoardDrawing[Any]
) -> list[dict[str, str]]:
    data = []
    for frame in game.frames:
        caption, move = _mat_caption(game, frame)
        picture = drawing.picture(frame.state, view=view)
        cube = frame.state.cube
        value = cube.value if cube is not None else 1
        summary = "; ".join(
            _("%(side)s: %(off)d borne off, %(bar)d on the bar")
            % {"side": game.players[side], "off": picture.off[side], "bar": picture.bar[side]}
            for side in (0, 1)
        )
        cube_text = _("cube %(n)s") % {"n": value}
        data.append(
            {
                "svg": picture_layer(picture),
                "caption": caption,
                "label": f"{caption}. {summary}; {cube_text}.",
                "move": move,
                "position": cube_text,
            }
        )
    return data


def _mat_viewer(
    request: HttpRequest, sub: GameRecordSubmission, number: int, drawing: BoardDrawing[Any]
) -> HttpResponse:
    """A backgammon game of a verified ``.mat`` record, action by action, with the cube."""
    match = sub.match
    try:
        game = replay_mat_game(sub.text, number)
    except BgNotReplayableError:
        return _not_viewable(
            request, sub, _("The record has no game %(game)d to show.") % {"game": number}
        )
    swapped = _record_sides_swapped(match, {"White": game.players[0], "Black": game.players[1]})
    raw_view = request.GET.get("view", "").upper()
    view = Side(raw_view) if raw_view in ("W", "B") else _default_view(request, match, swapped)
    frames = _mat_frames(game, seat_of(view), drawing)
    turn = min(max(_int_param(request, "turn") or 0, 0), len(frames) - 1)
    game_options = _status_context(sub)["games"] or [
        {"number": n, "summary": ""} for n in range(1, game.games_in_record + 1)
    ]
    last = game.frames[-1].action
    won = last is not None and last.kind == WIN
    result = (
        ngettext("%(player)s wins %(n)s point", "%(player)s wins %(n)s points", last.value or 0)
        % {"player": game.players[last.player], "n": last.value or 0}
        if won and last is not None
        else ""
    )
    return render(
        request,
        "web/records/viewer.html",
        {
            "sub": sub,
            "match": match,
            "tournament": match.tournament,
            # The record's own page (its text, the verdict) is for players and staff.
            "can_read": can_read_records(request.user, match),
            "game": game,
            "game_options": game_options,
            "view": view.value,
            "view_word": game.players[seat_of(view)],
            "other_view": view.other.value,
            "other_view_word": game.players[seat_of(view.other)],
            "toggle_url": "?" + urlencode({"game": game.number, "view": view.other.value}),
            "names": {"W": game.players[0], "B": game.players[1]},
            "result": result,
            "frames": frames,
            "turn": turn,
            "frame": frames[turn],
            "last": len(frames) - 1,
            "moves": [{"index": i, "move": f["move"]} for i, f in enumerate(frames)][1:],
            "board_svg": mark_safe(
                board.board_svg(layer=frames[turn]["svg"], label=frames[turn]["label"])
            ),
        },
    )


# By the record format of the match's game (its family's first, the form its records are
# verified in: ``matches.records.RECORD_FORMS``): how a verified record is replayed frame
# by frame; every viewer draws the family's board picture (``family.board``).
VIEWERS: dict[str, Callable[..., HttpResponse]] = {"text": _brade_viewer, "mat": _mat_viewer}
