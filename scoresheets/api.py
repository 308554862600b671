"""REST API of the digital scoresheet: start (or resume) recording a match's game, post a
turn with its sequence number, read the live position (conditional: ETag, 304).

Thin like ``matches.api``: selectors read (404 for what the reader cannot see), the
services write and check who may (403), refuse what no longer fits (409) and what the
engine refuses (400 ``illegal_play``). Every error has the shared body
``{"error": {"code", "message", "fields"}}``; ``live_conflict`` carries the current state
in ``error.fields.state``, ``live_gap`` the ``expected`` sequence number.

A player without an account records through their private link opened in the same
browser (``scoresheets.recording_links``: the session the link set, as the ``/p/`` pages
use it): the views then let the anonymous request in, check its CSRF token as for a
signed-in session, count each start and turn against the link's recording allowance
(``tournaments.private_links``: 429 ``rate_limited`` past it) and hand the services the
link. Anyone else anonymous writing gets 401, as before."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse, HttpResponseBase
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.client_address import client_address
from core.bounds import DbIntegerField
from core.conditional import Stamp, api_conditional
from core.errors import NotFoundError
from core.kept_responses import response_keep
from matches import selectors as match_selectors
from matches.models import Match
from scoresheets import selectors, services
from scoresheets.clock import MAX_USED_MS
from scoresheets.models import DiceMode
from scoresheets.recording_links import recording_link
from scoresheets.stamps import BoardStamp, board_public_add, public_text
from tournaments.api_base import ApiView
from tournaments.models import PrivateLink
from tournaments.private_links import private_link_use

# What a recording reads of its match with it: a turn needs its rules and its round;
# the players' names are read when a game ends (its record's tags).
RECORDING_RELATED = ("tournament", "round")


class LiveStartIn(serializers.Serializer[Any]):
    dice = serializers.ChoiceField(
        DiceMode.choices,
        default=DiceMode.ENTERED,
        help_text="entered: the players throw real dice and enter them; rolled: the site rolls",
    )


class LiveTurnIn(serializers.Serializer[Any]):
    seq = DbIntegerField(min_value=1, help_text="the previous state's seq + 1")
    device = serializers.UUIDField(help_text="the recording device's own id")
    action = serializers.ChoiceField(
        ["start", "play", "double", "take", "drop", "resign", "roll", "flag"],
        help_text="what the state's phase asks for; flag: the running clock's time ran out "
        "(a clocked tournament: the match is lost)",
    )
    dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6),
        min_length=1,
        max_length=2,
        required=False,
        allow_null=True,
        help_text="play: the roll (one die where bräde's R13 allows); start: the tek or the "
        "opening roll, player 0's die first; omitted when the site rolls",
    )
    steps = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=25), min_length=2, max_length=2
        ),
        max_length=8,
        required=False,
        default=list,
        help_text="play: the steps in the order played, [] when nothing can be played",
    )
    starter = serializers.IntegerField(
        min_value=0,
        max_value=1,
        required=False,
        allow_null=True,
        help_text="start: who starts, where the players decide instead of the tek",
    )
    resign_value = serializers.IntegerField(
        min_value=1,
        max_value=3,
        required=False,
        allow_null=True,
        help_text="resign (backgammon): 1 single, 2 gammon, 3 backgammon (times the cube)",
    )
    single = serializers.BooleanField(
        required=False, default=False, help_text="roll (bräde, R13): the site rolls one die"
    )
    accept_illegal = serializers.BooleanField(
        required=False,
        default=False,
        help_text="play (backgammon): the opponent accepts the play as played if it is "
        "illegal (sent after a refusal whose error.acceptable is true); bräde refuses it, "
        "and so does any other action",
    )

    used = serializers.IntegerField(
        min_value=0,
        max_value=MAX_USED_MS,
        required=False,
        allow_null=True,
        help_text="a clocked tournament: how long the mover's clock ran for this turn, in ms "
        "by the device's monotonic time; left out, the server's arrival times count. "
        "Believed within a few seconds of the time between this turn's arrival and the "
        "arrival of the turn that started the clock, clamped to it beyond (unless queued)",
    )
    queued = serializers.BooleanField(
        required=False,
        default=False,
        help_text="a clocked tournament: the turn waited on the device before this post "
        "(confirmed offline, behind an unsent turn, or sent again after a failed post); its "
        "'used' is then not held to the time since the last arrival",
    )


class LiveTurnOut(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    side = serializers.IntegerField(allow_null=True)
    action = serializers.CharField()
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    steps = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    text = serializers.CharField()
    illegal = serializers.BooleanField(
        help_text="an illegal play the opponent accepted as played (backgammon)"
    )
    clock = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="both players' remaining time after the turn, ms (null: no clock)",
    )


class LiveStateOut(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    game_number = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="the last turn's sequence number")
    status = serializers.ChoiceField(["recording", "finished"])
    phase = serializers.ChoiceField(
        ["start", "roll", "move", "cube", "over"], help_text="what the next action is"
    )
    to_move = serializers.IntegerField(allow_null=True)
    starter = serializers.IntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.CharField(allow_blank=True))
    dice_mode = serializers.ChoiceField(DiceMode.choices)
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    legal = serializers.JSONField(
        allow_null=True,
        help_text='every roll\'s legal plays, keyed "hi-lo" (or one die): lists of steps',
    )
    board = serializers.JSONField(
        help_text="the board as drawn: points (player 0's numbering), bar, off, last dice, cube"
    )
    cube = serializers.JSONField(allow_null=True)
    score = serializers.ListField(child=serializers.IntegerField())
    length = serializers.IntegerField()
    outcome = serializers.JSONField(allow_null=True)
    decided = serializers.BooleanField(
        help_text="no further game of the match can be recorded: the match is decided, or "
        "this game's report decides it once the opponent confirms it"
    )
    previous = serializers.JSONField(allow_null=True)
    entered = serializers.JSONField()
    rules = serializers.JSONField()
    turns = LiveTurnOut(many=True)
    clock = serializers.JSONField(
        allow_null=True,
        help_text="the match's clock (null: no time control): bank and delay (ms), "
        "remaining [player 0, player 1] when the running clock started, running (0/1/null), "
        "since (server ms since the epoch), seq, flag (whose flag fell, else null)",
    )
    version = serializers.CharField()


STATE_EXAMPLE = OpenApiExample(
    "A bräde game after two turns",
    value={
        "match": 7,
        "game_number": 1,
        "seq": 3,
        "status": "recording",
        "phase": "roll",
        "to_move": 0,
        "starter": 0,
        "players": ["Anna Ek", "Bo Lind"],
        "dice_mode": "entered",
        "dice": [3, 1],
        "legal": {"6-6": [[[1, 7], [1, 7], [7, 13], [7, 13]]], "2-1": [[[1, 3], [1, 2]]]},
        "board": {"layout": "brade", "points": [{"side": 0, "point": 1, "count": 13}]},
        "cube": None,
        "score": [0, 0],
        "length": 3,
        "outcome": None,
        "decided": False,
        "previous": None,
        "entered": {"game": None, "report": None, "submission": None},
        "rules": {
            "game": "brade",
            "accept_illegal": False,
            "single_die": "forbidden",
            "can_resign": True,
        },
        "turns": [
            {
                "seq": 1,
                "side": None,
                "action": "start",
                "dice": [2, 5],
                "steps": [],
                "text": "Tek: 2-5",
                "illegal": False,
            },
            {
                "seq": 2,
                "side": 0,
                "action": "play",
                "dice": [6, 4],
                "steps": [[1, 7], [1, 5]],
                "text": "W 6-4: 1/7 1/5",
                "illegal": False,
            },
            {
                "seq": 3,
                "side": 1,
                "action": "play",
                "dice": [3, 1],
                "steps": [[1, 4], [4, 5]],
                "text": "B 3-1: 1/4 4/5",
                "illegal": False,
            },
        ],
        "version": "12.4",
    },
    response_only=True,
)


def _state(live: Any) -> dict[str, Any]:
    """The live state as built (``LiveStateOut`` describes it in the schema; the state is
    built in that shape, so it is sent as it is: a turn's answer is never held up by a
    serializer walking every turn of the game)."""
    return selectors.live_state(live)


def _sent(request: Request, body: bytes, code: int = status.HTTP_200_OK) -> HttpResponseBase:
    """The state's JSON as kept (``selectors.live_state_json``): sent as it is where JSON
    is asked for, decoded for another renderer (the browsable API)."""
    if getattr(request.accepted_renderer, "format", None) == "json":
        return HttpResponse(body, status=code, content_type="application/json")
    return Response(json.loads(body), status=code)


RATE_LIMITED = OpenApiResponse(
    description="Through a private link: too many starts and turns in a short time "
    "(code 'rate_limited'); wait a few minutes."
)


def _recorder(request: Request, pk: int, action: str) -> tuple[Match, PrivateLink | None]:
    """The match to record and the private link it is recorded through (None: the user
    records as themselves). A write through a link is checked for its CSRF token and
    counted (``action``: ``record`` or ``turn``)."""
    found = recording_link(request._request, pk=pk, by=request.user)
    if found is None:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        return match_selectors.match_get(pk=pk, by=request.user, related=RECORDING_RELATED), None
    match, link = found
    SessionAuthentication().enforce_csrf(request)
    private_link_use(link=link, action=action, address=client_address(request._request))
    return match, link


class MatchLiveApi(ApiView):
    # Anonymous writes are refused in the views unless they come through a private link.
    permission_classes: tuple[type[BasePermission], ...] = (AllowAny,)

    @extend_schema(
        responses={200: LiveStateOut, 304: OpenApiResponse(description="Not modified.")},
        examples=[STATE_EXAMPLE],
    )
    @api_conditional("api-live", selectors.live_stamp, selectors.live_stamp_cached)
    def get(self, request: Request, pk: int, *, stamp: Stamp | None = None) -> HttpResponseBase:
        """The live state of the match's game being recorded (or the last one recorded).

        Public wherever the match is visible. 404 when nothing of the match was recorded.
        Answers ``If-None-Match`` with 304 while nothing changed (``ETag``: the
        recording's own version, kept in the cache, so a crowd polling costs no query).
        """
        # a board everyone may see, at the version just read: its answer is kept for the
        # crowd (``core.kept_responses``), and the state built for it is sent as it is
        public = stamp if isinstance(stamp, BoardStamp) and stamp.seen_by_everyone else None
        if public is not None:
            board_public_add(public, pk=pk)
            kept = selectors.live_state_kept(public)
            if kept is not None:
                return response_keep(_sent(request, kept), version=public_text(public))
        try:
            match = match_selectors.match_get(pk=pk, by=request.user)
        except NotFoundError:  # a private tournament: visible through a player's link
            found = recording_link(request._request, pk=pk, by=request.user)
            if found is None:
                raise
            match = found[0]
        live = selectors.live_latest(match=match)
        if live is None:
            raise NotFoundError(_("Nothing of this match is being recorded."), code="not_recording")
        response = _sent(request, selectors.live_state_json(live))
        if public is not None and (live.pk, live.version) == (public.live_id, public.version):
            # built at the version its stamp names (a turn since makes the next one)
            response_keep(response, version=public_text(public))
        return response

    @extend_schema(
        request=LiveStartIn,
        responses={
            200: LiveStateOut,
            201: LiveStateOut,
            409: OpenApiResponse(
                description="The match is decided (code 'match_decided'), the last game "
                "waits for the opponent's confirmation ('report_pending'), or earlier games "
                "were not recorded live ('live_not_from_start')."
            ),
            429: RATE_LIMITED,
        },
        examples=[STATE_EXAMPLE],
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        """Start recording the match's next game (201), or resume the one being recorded
        (200).

        The match's players and its tournament's referees and organisers (403 otherwise),
        or a player's private link opened in this browser, for that player's matches where
        the players report (429 past the link's recording allowance).
        ``dice``: ``entered`` (real dice, entered) or ``rolled`` (the site rolls).
        """
        match, link = _recorder(request, pk, "record")
        data = LiveStartIn(data=request.data)
        data.is_valid(raise_exception=True)
        live, created = services.live_start(
            match=match,
            by=None if link else request.user,
            dice_mode=data.validated_data["dice"],
            link=link,
        )
        live.match = match
        body = selectors.live_state_json(live)
        return _sent(request, body, status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class MatchLiveTurnsApi(ApiView):
    permission_classes: tuple[type[BasePermission], ...] = (AllowAny,)  # as MatchLiveApi's

    @extend_schema(
        request=LiveTurnIn,
        responses={
            200: LiveStateOut,
            201: LiveStateOut,
            400: OpenApiResponse(
                description="'illegal_play': the engine refuses the action (the message "
                "says why; error.acceptable is true for a backgammon play that is illegal "
                "but can stand as played if the opponent accepts it); "
                "'accept_illegal_unsupported': accept_illegal in a game whose rules refuse "
                "every illegal play (bräde); 'accept_illegal_play_only': accept_illegal "
                "with an action other than a play; 'invalid': the body is not a turn."
            ),
            409: OpenApiResponse(
                description="'live_conflict': this seq was recorded with other content "
                "(error.fields.state is the current state); 'live_gap': a seq beyond the "
                "next (error.fields.expected); 'live_finished': the game is over."
            ),
            429: RATE_LIMITED,
        },
        examples=[
            OpenApiExample(
                "A play",
                value={
                    "seq": 4,
                    "device": "1b4e28ba-2fa1-11d2-883f-0016d3cca427",
                    "action": "play",
                    "dice": [5, 3],
                    "steps": [[7, 12], [5, 8]],
                },
                request_only=True,
            ),
            OpenApiExample(
                "An illegal backgammon play accepted as played",
                description="Sent after the same play was refused with 'illegal_play' and "
                "error.acceptable, once the opponent accepts it: it stands as played.",
                value={
                    "seq": 4,
                    "device": "1b4e28ba-2fa1-11d2-883f-0016d3cca427",
                    "action": "play",
                    "dice": [5, 2],
                    "steps": [[13, 8], [13, 10]],
                    "accept_illegal": True,
                },
                request_only=True,
            ),
            STATE_EXAMPLE,
        ],
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        """Record one turn of the game being recorded: 201 with the new state.

        ``seq`` is the previous state's ``seq`` + 1. The same ``seq`` with the same
        content again is answered 200 with the state (stored once). An action the engine
        refuses is 400 ``illegal_play`` with the engine's message (the rule it breaks).
        Backgammon: an illegal play that can be carried out on the board is refused with
        ``error.acceptable`` true; the opponent may have it corrected (the play is
        posted again) or accept it: the same play with ``accept_illegal`` true is stored
        as played (``illegal`` in its turn) and the game's record reports it as a
        warning. Bräde refuses ``accept_illegal`` (400 ``accept_illegal_unsupported``).
        The end of the game enters its result as a verified record: counted at once where
        referees enter results, a report for the opponent to confirm where players do.
        """
        match, link = _recorder(request, pk, "turn")
        data = LiveTurnIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        content = services.posted_content(
            action=v["action"],
            dice=v.get("dice"),
            steps=v.get("steps") or [],
            starter=v.get("starter"),
            resign_value=v.get("resign_value"),
            single=v.get("single", False),
            accept_illegal=v.get("accept_illegal", False),
        )
        # the device's clock is not the turn's content: a resent turn is the same turn

        def state_of(live: Any) -> dict[str, Any]:
            live.match = match
            return _state(live)

        posted = services.live_turn_post(
            match=match,
            by=None if link else request.user,
            seq=v["seq"],
            device=v["device"],
            content=content,
            state_of=state_of,
            link=link,
            used_ms=v.get("used"),
            queued=v.get("queued", False),
        )
        live = posted.live
        # the match as the turn left it (a game's end scores it)
        live.match = (
            Match.objects.select_related("tournament").get(pk=pk) if posted.ended else match
        )
        body = selectors.live_state_json(live, posted.game, posted.turns if posted.game else None)
        code = status.HTTP_201_CREATED if posted.created else status.HTTP_200_OK
        return _sent(request, body, code)


class LiveFlagOverruleIn(serializers.Serializer[Any]):
    note = serializers.CharField(max_length=500, help_text="why: kept in the audit log")
    seconds = DbIntegerField(
        min_value=1, max_value=24 * 60 * 60, help_text="the flagged player's time to go on with"
    )


class MatchLiveFlagOverruleApi(ApiView):
    @extend_schema(
        request=LiveFlagOverruleIn,
        responses={
            200: LiveStateOut,
            409: OpenApiResponse(
                description="'not_a_flag_fall': the match was not decided by a flag fall; "
                "'downstream_started': the match its winner went on to has started."
            ),
        },
    )
    def post(self, request: Request, pk: int) -> HttpResponseBase:
        """A referee overrules a flag fall with a note: the walkover it entered is taken
        back and the game goes on, the flagged player's clock running with ``seconds``.

        The tournament's referees and organisers (403 otherwise); ``note`` is required."""
        match = match_selectors.match_get(pk=pk, by=request.user, related=RECORDING_RELATED)
        data = LiveFlagOverruleIn(data=request.data)
        data.is_valid(raise_exception=True)
        live = services.live_flag_overrule(
            match=match,
            by=request.user,
            note=data.validated_data["note"],
            seconds=data.validated_data["seconds"],
        )
        live.match = Match.objects.select_related("tournament").get(pk=pk)
        return _sent(request, selectors.live_state_json(live))
