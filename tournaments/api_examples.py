"""Examples in the API docs (``/api/docs/``) for the operations a club uses most: get a
token, list the tournaments, read the bracket, enter a game and correct one with
``If-Match``. The values are what the site answers for a small club evening (three
players, a semi-final and a final), so a volunteer sees the real shape of each answer;
tests/api/test_schema_docs.py checks each against its operation's schema.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

from tournaments.api_options import option_defaults, with_option_fields

TOKEN = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"

TOKEN_EXAMPLES = [
    OpenApiExample(
        "Sign in with user name and password",
        value={"username": "arrangor", "password": "ditt lösenord"},
        request_only=True,
    ),
    OpenApiExample(
        "A new token",
        description="Send it on every request: ``Authorization: Token " + TOKEN + "``.",
        value={"token": TOKEN, "username": "arrangor", "created": True},
        response_only=True,
        status_codes=["201"],
    ),
    OpenApiExample(
        "The token you already had",
        value={"token": TOKEN, "username": "arrangor", "created": False},
        response_only=True,
        status_codes=["200"],
    ),
]

TOURNAMENT_LIST_EXAMPLES = [
    OpenApiExample(
        "A club evening's knockout",
        description="One tournament of the page (``limit`` and ``offset`` choose the page).",
        value=with_option_fields(
            {
                "id": 12,
                "name": "Klubbkväll november",
                "start_date": "2026-11-25",
                "end_date": "2026-11-25",
                "venue": "Klubblokalen",
                "game": "brade",
                "rules": "talisman",
                "addons": [],
                "scale": "ww",
                "resignation_policy": "capped",
                "status": "running",
                "is_public": True,
                "results_by": "referees",
                "format": "knockout",
                "draw_seed": 7,
            },
            option_defaults(),  # a knockout without a match for third place
        ),
        response_only=True,
        status_codes=["200"],
    ),
]


def _match(
    id: int, slot: int, players: tuple[Any, Any], length: int, state: str, **extra: Any
) -> dict[str, Any]:
    match = {
        "id": id,
        "slot": slot,
        "is_third_place": False,
        "table": None if state == "bye" else slot + 1,
        "venue": None,
        "player1": players[0],
        "player2": players[1],
        "length": length,
        "state": state,
        "winner": None,
        "points": [0, 0],
        "tiebreak": [0, 0],
        "decided_after_game": None,
        "walkover": False,
        "flagged": False,
        "code": "",
        "winner_to": None,
        "winner_to_upper": True,
        "loser_to": None,
        "loser_to_upper": True,
        "loser_first_match_only": False,
        "if_needed": False,
    }
    match.update(extra)
    return match


_ANNA = {"id": 31, "name": "Anna Berg"}
_BERTIL = {"id": 32, "name": "Bertil Ek"}
_CECILIA = {"id": 33, "name": "Cecilia Ström"}
_DAVID = {"id": 34, "name": "David Lind"}


def _round(id: int, number: int, name: str, length: int, kind: str) -> dict[str, Any]:
    return {
        "id": id,
        "number": number,
        "name": name,
        "match_length": length,
        "length_unit": "games",
        "kind": kind,
        "published": True,
    }


BRACKET_EXAMPLES = [
    OpenApiExample(
        "Three players: a bye, a semi-final played, the final ready",
        value={
            "tournament": 12,
            "rounds": [
                {
                    "round": {
                        "id": 40,
                        "number": 1,
                        "name": "Semifinal",
                        "match_length": 1,
                        "length_unit": "games",
                        "kind": "knockout",
                        "published": True,
                    },
                    "title": "Semifinal",
                    "matches": [
                        _match(101, 0, (_CECILIA, None), 1, "bye", winner=33),
                        _match(
                            102,
                            1,
                            (_ANNA, _BERTIL),
                            1,
                            "decided",
                            winner=31,
                            points=[2, 0],
                            tiebreak=[1, 0],
                            decided_after_game=1,
                        ),
                    ],
                },
                {
                    "round": {
                        "id": 41,
                        "number": 2,
                        "name": "Final",
                        "match_length": 3,
                        "length_unit": "games",
                        "kind": "knockout",
                        "published": True,
                    },
                    "title": "Final",
                    "matches": [_match(103, 0, (_CECILIA, _ANNA), 3, "ready")],
                },
            ],
            "third_place": None,
            "main_title": "",
            "sections": [],
        },
        response_only=True,
        status_codes=["200"],
    ),
    OpenApiExample(
        "A consolation: every bracket in the same shape",
        description="The main bracket's ``rounds`` and each section's ``rounds`` are "
        "lists of ``{round, title, matches}``; a section's round has ``null`` where the "
        "byes removed a match.",
        value={
            "tournament": 14,
            "rounds": [
                {
                    "round": _round(50, 1, "Semifinal", 3, "knockout"),
                    "title": "Semifinal",
                    "matches": [
                        _match(
                            201,
                            0,
                            (_ANNA, _DAVID),
                            3,
                            "decided",
                            winner=31,
                            points=[2, 1],
                            tiebreak=[3, 1],
                            decided_after_game=3,
                            code="M1.1",
                            winner_to=203,
                            loser_to=204,
                        ),
                        _match(
                            202,
                            1,
                            (_BERTIL, _CECILIA),
                            3,
                            "ready",
                            code="M1.2",
                            winner_to=203,
                            winner_to_upper=False,
                            loser_to=204,
                            loser_to_upper=False,
                        ),
                    ],
                },
                {
                    "round": _round(51, 2, "Final", 5, "knockout"),
                    "title": "Final",
                    "matches": [_match(203, 0, (_ANNA, None), 5, "waiting", code="M2.1")],
                },
            ],
            "third_place": None,
            "main_title": "Main bracket",
            "sections": [
                {
                    "key": "consolation",
                    "title": "Consolation bracket",
                    "rounds": [
                        {
                            "round": _round(52, 3, "Consolation bracket, final", 3, "consolation"),
                            "title": "Final",
                            "matches": [_match(204, 0, (_DAVID, None), 3, "waiting", code="C1.1")],
                        }
                    ],
                    "winner": None,
                }
            ],
        },
        response_only=True,
        status_codes=["200"],
    ),
]

_GAME = {
    "number": 1,
    "starter": "B",
    "winner": "W",
    "winner_player": 33,
    "outcome": "jan",
    "pattern": "",
    "munk": False,
    "cube": 1,
    "conceded": "",
    "game_type": "",
    "source": "referee",
    "verified": False,
    "version": 1,
    "etag": '"game-54-v1"',
}

GAME_ENTER_EXAMPLES = [
    OpenApiExample(
        "White wins the first game by a jan",
        description="Game 1 names who started it (``starter``: W or B).",
        value={"number": 1, "winner": "W", "outcome": "jan", "starter": "B"},
        request_only=True,
    ),
    OpenApiExample(
        "The game as entered",
        description="Keep ``etag`` to correct this game later.",
        value=_GAME,
        response_only=True,
        status_codes=["201"],
    ),
]

IF_MATCH_EXAMPLE = OpenApiExample(
    "The game's etag", value='"game-54-v1"', description="from its GET or the game lists"
)

GAME_CORRECT_EXAMPLES = [
    OpenApiExample(
        "It was a hemspel, not a jan",
        description="Names the version it corrects (the game's ``version``), so a "
        "correction someone else made meanwhile is not overwritten. Instead of "
        '``version``, send the header ``If-Match: "game-54-v1"`` (the game\'s ``etag``).',
        value={"winner": "W", "outcome": "hemspel", "version": 1},
        request_only=True,
    ),
    OpenApiExample(
        "The corrected game: version 2",
        value={**_GAME, "outcome": "hemspel", "version": 2, "etag": '"game-54-v2"'},
        response_only=True,
        status_codes=["200"],
    ),
]
