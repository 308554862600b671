"""Examples in the API docs (``/api/docs/``) for a Swiss's half-point byes: a player asks
to sit out round 3 for half a point, and the organiser grants each player one bye up to
round 4. tests/api/test_swiss_byes_api.py checks each against its operation's schema."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

__all__ = ["HALF_BYE_EXAMPLES", "HALF_BYE_RULES_EXAMPLES"]

_ASKED = {"id": 7, "entry": 31, "player": {"id": 12, "name": "Anna Berg"}, "round": 3}

HALF_BYE_EXAMPLES = [
    OpenApiExample(
        "Sit out round 3",
        description="Anna's entry (31) asks for half a point in round 3.",
        value={"entry": 31, "round": 3},
        request_only=True,
    ),
    OpenApiExample(
        "The half-point bye asked for",
        value=_ASKED,
        response_only=True,
        status_codes=["201"],
    ),
]

HALF_BYE_RULES_EXAMPLES = [
    OpenApiExample(
        "One half-point bye each, up to round 4",
        value={"allowed": 1, "until": 4},
        request_only=True,
    ),
    OpenApiExample(
        "The rules, with the byes asked for so far",
        value={"allowed": 1, "until": 4, "asked": [_ASKED]},
        response_only=True,
        status_codes=["200"],
    ),
]
