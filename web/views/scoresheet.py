"""The digital scoresheet's pages: recording a game at the table, and following the boards.

- ``match_record`` (``/matches/N/record/``): the board a phone or tablet beside the real
  board shows while the players tap their turns in. The page is a shell: the script
  (``web/static/web/scoresheet.js``, its behaviour and the offline decision are written
  there) talks to the live API (``/api/matches/N/live/``, the ``scoresheets`` app), which
  checks every action with the game's engine. Who may record: the match's players and the
  tournament's referees and organisers (``core.permissions.can_read_records``, the same
  people the API lets post), and a player without an account whose private link was
  opened in this browser (``scoresheets.recording_links``; the ``/p/`` page offers
  "Record" for the match being played); anyone else who may see the match gets a 403
  page, a stranger to a private tournament a 404, anonymous readers the sign-in page. A
  game the site has no engine for (Kungabräde) is refused with the family's reason.
- ``tournament_live`` (``/tournaments/N/live/``, "Pågående partier"): every board being
  recorded in the tournament, small, each a link to its match's page, where the big one
  follows the game. The tournament page shows the same list as a section, fetched every
  few seconds (htmx); a poll with nothing new is answered 304 (the ETag is the live
  games' versions, the language and the release).

Words for the scripts are translated here and passed through the template as JSON.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.conditional import RELEASE
from core.errors import DomainError
from core.http import found
from core.permissions import can_read_records, is_match_player, is_match_referee
from core.reasons import ReasonCode
from games.live import LiveUnsupported, live_game_for
from matches import selectors as matches_sel
from matches.models import Match, MatchState
from matches.site_words import reason_text
from matches.standing import family_of
from scoresheets import selectors as sheets_sel
from scoresheets.models import LiveGame, LiveStatus
from scoresheets.polling import FOLLOW_EVERY
from scoresheets.recording_links import recording_link
from scoresheets.services import live_flag_overrule
from tournaments import selectors as tournaments_sel
from tournaments.private_links import private_link_token
from tournaments.time_control import TimeControl
from web.forms.referee import FlagOverruleForm
from web.turn_words import script_words

LIVE_BOARD_EVERY = FOLLOW_EVERY  # seconds between a follower's polls (scoresheets.polling)


def live_api(pk: int) -> str:
    """The live API of match ``pk`` (the contract's path; the ``scoresheets`` app serves it)."""
    return f"/api/matches/{pk}/live/"


def follow_words() -> dict[str, Any]:
    """What a follower of a live board writes (live-board.js)."""
    return {
        "board": _("The board as it stands"),
        "to_move": _("%(name)s to play"),
        "last": _("last turn: %(text)s"),
        "won": _("%(name)s won: %(how)s"),
        "flag_fell": _("%(name)s's time ran out: the match is lost."),
        "turn": script_words(),
    }


def record_words() -> dict[str, Any]:
    """Everything the recording page's script writes (scoresheet.js)."""
    return {
        **follow_words(),
        "not_started": _("Nothing is being recorded in this match yet."),
        "game_meta": _("Game %(n)s · %(a)s–%(b)s"),
        "crawford": _("Crawford"),
        "start_entered": _("Start recording (dice thrown at the table)"),
        "start_rolled": _("Start recording (the site rolls the dice)"),
        "start_offline": _("Starting a game needs the network."),
        "who_starts": _("Who starts?"),
        "tek_die": _("Die for %(name)s"),
        "tek_tie": _("The dice are equal: throw again."),
        "or_decide": _("Or, when the players have decided who starts:"),
        "starts": _("%(name)s starts"),
        "dice_for": _("Dice for %(name)s"),
        "move_for": _("%(name)s plays %(dice)s"),
        "dice_label": _("Tap the two dice thrown"),
        "tap_dice": _("Tap the two dice thrown (a double: the same die twice)."),
        "first_die": _("First die: %(n)s. Tap the second."),
        "die": _("Die %(n)s"),
        "one_die": _("One die (the one-die rule)"),
        "dice_not_allowed": _(
            "This roll is not allowed now (the one-die rule): undo and enter the dice again."
        ),
        "roll": _("Roll the dice"),
        "rolled_offline": _("The site's dice need the network."),
        "tap_hint": _("Tap a checker, then where it goes — or a point only one checker can reach."),
        "unchecked_hint": _(
            "Offline: this turn is recorded unchecked and checked when the network is back."
        ),
        "why_dice_first": _("First the dice, then the checkers."),
        "why_cannot_move": _("That checker cannot be moved with %(dice)s."),
        "why_no_reach": _("No checker can go there with %(dice)s."),
        "why_no_move": _("No checker can move with %(dice)s."),
        "why_bar_first": _("The checker on the bar must be entered first."),
        "why_several": _("More than one checker can go there: tap the one to move first."),
        "why_all_played": _("The whole roll is played: confirm the turn, or undo."),
        # one die in a sentence ("… moved with a 3"); two dice are written 5-3
        "die_one": _("a %(n)s"),
        "confirm": _("Confirm the turn"),
        "play_forced": _("Play %(move)s"),
        "no_move": _("no move possible"),
        "undo": _("Undo"),
        "double": _("%(name)s doubles to %(value)s"),
        "answer_double": _("%(name)s: take or drop the double?"),
        "take": _("%(name)s takes"),
        "drop": _("%(name)s drops"),
        "resign": _("Resign"),
        "resign_confirm": _("Does %(name)s resign the game?"),
        "resign_yes": _("Yes, %(name)s resigns"),
        "resign_single": _("A single game"),
        "resign_gammon": _("A gammon"),
        "resign_backgammon": _("A backgammon"),
        "cancel": _("Cancel"),
        "roll_start": _("Roll for who starts"),
        "roll_one": _("Roll one die (the one-die rule)"),
        "over_pending": _("The game is over; the last turns are still being sent."),
        "next_game": _("Record the next game"),
        "awaiting_confirmation": _(
            "The result waits for the opponent's confirmation; then the next game can start."
        ),
        "match_over": _("The result has been entered."),
        "match_decided": _("The match is decided; no more games are played."),
        "decides_when_confirmed": _(
            "The result waits for the opponent's confirmation; confirmed, it decides the "
            "match (no more games are played)."
        ),
        "viewer": _("Step through the game"),
        "previous": _("Game %(n)s: %(name)s won (%(how)s)."),
        "fix_first": _("A turn was refused: correct it first."),
        "refused": _("The server refused the turn %(text)s:"),
        "later_dropped": _("Turns recorded after it: %(n)s; they are dropped when you correct it."),
        "correct": _("Correct this turn"),
        # an illegal move the opponent may accept as played (backgammon)
        "as_played": _("Played otherwise? Enter the move as it was played"),
        "legal_only": _("Back to the legal moves"),
        "free_hint": _("Enter the move as it was played: tap a checker, then where it went."),
        "why_free_first": _("Tap the checker that was moved first, then where it went."),
        "why_free_held": _(
            "No checker can stand there: two or more of the opponent's checkers hold the point."
        ),
        "illegal_heading": _("An illegal move: the opponent decides"),
        "illegal_refused": _("Illegal move %(text)s:"),
        "illegal_ask": _(
            "%(name)s: accept the move as played, or have it corrected? Accepted, it stands; "
            "corrected, the whole roll is played again."
        ),
        "accept_illegal": _("Accept it as played"),
        "have_corrected": _("Have it corrected"),
        "accepted_illegal": _("illegal, accepted as played"),
        "conflict": _(
            "Another device recorded this game at the same time. The board shows the game as "
            "the server has it."
        ),
        "conflict_dropped": _("Not stored from this device: %(turns)s"),
        "offline": _("Offline. Turns are kept on this device."),
        "offline_waiting": _("Offline: %(n)s turn(s) kept on this device, sent when back."),
        "sending": _("Sending %(n)s turn(s)…"),
        "saved": _("Every turn is saved."),
        "stopped": _("Sending stopped at the refused turn (%(n)s waiting)."),
        "not_checked": _("not yet checked"),
        "not_sent": _("not yet sent"),
        "actions": {
            "start": _("%(name)s starts"),
            "double": _("%(name)s doubles"),
            "take": _("%(name)s takes"),
            "drop": _("%(name)s drops"),
            "resign": _("%(name)s resigns"),
            "roll": _("%(name)s rolls"),
            "flag": _("%(name)s's time ran out"),
        },
    }


def clock_text(tournament: Any) -> str:
    """The tournament's time control in words ("" without a clock)."""
    control = TimeControl.of(tournament)
    return control.text() if control is not None else ""


def live_board(match: Match) -> dict[str, Any] | None:
    """The match page's live board (hidden until a game is being recorded), for a match
    that may still be played and a game the site can record; None otherwise."""
    if match.state not in (MatchState.READY, MatchState.PLAYING):
        return None
    if not recordable(match.tournament.game):
        return None
    return {"words": follow_words(), "every": LIVE_BOARD_EVERY}


def _forbidden(request: HttpRequest, match: Match, message: str) -> HttpResponse:
    context = {"match": match, "tournament": match.tournament, "message": message}
    return render(request, "web/records/forbidden.html", context, status=403)


def can_record(user: Any, match: Match) -> bool:
    """Whether ``user`` may record ``match``'s games here (the API checks it again)."""
    if match.state not in (MatchState.READY, MatchState.PLAYING):
        return False
    return recordable(match.tournament.game) and (
        is_match_referee(user, match) or is_match_player(user, match)
    )


def match_record(request: HttpRequest, pk: int) -> HttpResponse:
    through_link = recording_link(request, pk=pk, by=request.user)
    if through_link is None and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match: Match = (
        through_link[0]
        if through_link is not None
        else found(matches_sel.match_get, pk=pk, by=request.user)
    )
    if through_link is None and not can_read_records(request.user, match):
        return _forbidden(
            request,
            match,
            _(
                "Only the players of this match and the tournament's referees and organisers "
                "may record its games."
            ),
        )
    if not recordable(match.tournament.game):
        return _forbidden(
            request,
            match,
            _(
                "This game cannot be recorded move by move: the site has no engine that "
                "checks its moves. Enter the results instead."
            ),
        )
    family = family_of(match.tournament)
    latest = sheets_sel.live_latest(match=match)
    context = {
        # the game as it stands, so the page shows it at once (the script then polls)
        "state": sheets_sel.live_state(latest) if latest is not None else None,
        "match": match,
        "tournament": match.tournament,
        "words": record_words(),
        "api": live_api(match.pk),
        "turns": live_api(match.pk) + "turns/",
        "csrf": get_token(request),
        # bräde's game 1 (R2): the tek, or the players' own decision; backgammon's
        # opening roll is played, so its dice are always entered.
        "decide": family.loser_starts,
        "clock_text": clock_text(match.tournament),
        "open": match.state in (MatchState.READY, MatchState.PLAYING),
        # through a private link: back to the player's own page
        "private_home": (
            reverse("web:private_home", args=[private_link_token(through_link[1])])
            if through_link is not None
            else None
        ),
    }
    return render(request, "web/scoresheet/record.html", context)


def _recording(tournament: Any) -> list[LiveGame]:
    """The tournament's games being recorded now, by table and match (one query)."""
    return list(
        LiveGame.objects.filter(match__tournament=tournament, status=LiveStatus.RECORDING)
        .select_related("match", "match__tournament", "match__player1", "match__player2")
        .order_by("match__table", "match_id")
    )


def _board(live: LiveGame) -> dict[str, Any]:
    state = sheets_sel.live_board_small(live)
    names = state.get("players") or ["", ""]
    to_move = state.get("to_move")
    caption = follow_words()["to_move"] % {"name": names[to_move]} if to_move in (0, 1) else ""
    return {"match": live.match, "state": state, "caption": caption}


def recordable(game: str) -> bool:
    """Whether games of ``game`` can be recorded move by move (not Kungabräde's)."""
    try:
        live_game_for(game)
    except LiveUnsupported:
        return False
    return True


@require_GET
def tournament_live(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Pågående partier": the boards being recorded (the whole page; ``?part=list`` its list,
    which the page fetches every few seconds; ``?part=section`` the tournament page's
    section, with its heading, empty when nothing is being recorded)."""
    tournament = found(tournaments_sel.tournament_get, pk=pk, by=request.user)
    recording = _recording(tournament)
    stamp = "|".join(f"{live.pk}.{live.version}" for live in recording)
    key = f"{stamp}|{get_language()}|{RELEASE}|{request.user.pk or 0}"
    tag = f'"live-{hashlib.sha256(key.encode()).hexdigest()[:32]}"'
    if request.headers.get("If-None-Match") == tag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        boards = [_board(live) for live in recording]
        part = request.GET.get("part")
        template = "web/scoresheet/_boards.html" if part else "web/scoresheet/tournament_live.html"
        context = {
            "tournament": tournament,
            "boards": boards,
            # the tournament page's section has its own heading; the page has its h1
            "heading": part == "section",
            "words": follow_words(),
            "every": LIVE_BOARD_EVERY + 2,
        }
        response = render(request, template, context)
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie"
    return response


def flag_fall_reason(match: Match) -> str:
    """The words for a walkover the clock gave (``matches.site_words``: "the opponent's
    time ran out (flag fall)"), "" for any other match."""
    walkover = matches_sel.match_walkover_reason(match=match)
    if walkover is None or walkover.get("reason_code") != ReasonCode.FLAG_FALL:
        return ""
    return reason_text(walkover)


@login_required
@require_POST
def match_flag_overrule(request: HttpRequest, pk: int) -> HttpResponse:
    """A referee overrules the flag fall that decided match ``pk``, from the match page's
    form (``live_flag_overrule``: the walkover taken back, the note in the audit log, the
    game going on with the flagged player's clock given the seconds)."""
    match: Match = found(matches_sel.match_get, pk=pk, by=request.user)
    if not is_match_referee(request.user, match):
        raise PermissionDenied(_("Only the match's referees may overrule a flag fall."))
    form = FlagOverruleForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(str(e) for e in errors))
        return redirect("web:match_detail", pk=match.pk)
    try:
        live_flag_overrule(
            match=match,
            by=request.user,
            note=form.cleaned_data["note"],
            seconds=form.cleaned_data["seconds"],
        )
    except DomainError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("The flag fall is overruled: the game goes on."))
    return redirect("web:match_detail", pk=match.pk)
