"""A new option is its spec, its column and the formats that read it: an option registered
in a test, and a format reading it, show on the creation form and in the API's input
fields, and are checked and normalised, with no other code changed.

Storage is the tournament's own columns, so a tournament cannot be *stored* with an option
that has none (``tests/tournaments/test_option_columns.py`` asks for its column); this
shows everything before the row: the form and its page, the API's input serializers, the
placing of the answer's keys, and ``format_values``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client
from rest_framework import serializers

from core.errors import ValidationError
from formats import registry as format_registry
from formats.format import FormatSpec, Stage
from formats.option import OptionKind, OptionSpec
from formats.options import Options, option_keys
from formats.options import register as option_register
from formats.options import unregister as option_unregister
from tests.factories import OrganiserFactory
from tournaments.api import TournamentDetailApi, TournamentListApi
from tournaments.api_options import with_options
from tournaments.format_options import format_values
from tournaments.serializers import TournamentOut
from web.forms.organiser import TournamentForm

BOARDS = OptionSpec(
    key="board_count",
    kind=OptionKind.NUMBER,
    default=1,
    minimum=1,
    maximum=9,
    label="Boards",
    help="How many boards each match is played on.",
    description="how many boards each match is played on",
)
TEAMS = FormatSpec(
    key="team_knockout",
    name="team knockout",
    description="Team knockout (a match on several boards)",
    stage=Stage.KNOCKOUT,
    options=frozenset({"board_count", "third_place_match"}),
)


@pytest.fixture
def boards() -> Iterator[None]:
    option_register(BOARDS)
    format_registry.register(TEAMS)
    yield
    format_registry.unregister(TEAMS.key)
    option_unregister(BOARDS.key)


def form(**data: str) -> TournamentForm:
    return TournamentForm(
        {
            "name": "Lagcupen",
            "start_date": "2026-12-05",
            "rules": "talisman",
            "scale": "ww",
            "resignation_policy": "capped",
            **data,
        }
    )


@pytest.mark.django_db
def test_the_creation_form_offers_the_new_option(boards: None) -> None:
    filled = form(format="team_knockout", board_count="3")
    assert filled.is_valid(), filled.errors
    assert filled.options()["board_count"] == 3
    left_out = form(format="team_knockout")
    assert left_out.is_valid() and left_out.options()["board_count"] == 1
    assert [f.name for f in filled.format_option_fields()][-5:] == [
        "tiebreak_1",
        "tiebreak_2",
        "tiebreak_3",
        "tiebreak_4",
        "board_count",
    ]
    client = Client()
    client.force_login(OrganiserFactory.create())
    client.cookies["django_language"] = "en"
    page = client.get("/tournaments/new/").content.decode()
    # shown with the format, only when the format that reads it is chosen
    assert re.search(
        r'<div class="field" data-formats="team_knockout">\s*<label for="id_board_count">Boards'
        r"</label>\s*<span class=\"help\"[^>]*>How many boards each match is played on.</span>",
        page,
    )
    assert 'data-formats="knockout team_knockout"' in page  # the match for third place


def test_the_api_takes_the_new_option_with_its_bounds(boards: None) -> None:
    # (the format's choice is the formats' seam's, read when the API is loaded)
    create = TournamentListApi.TournamentListInput(
        data={"name": "Lagcupen", "start_date": "2026-12-05"}
    )
    assert create.is_valid(), create.errors
    assert create.validated_data["board_count"] == 1
    field = create.fields["board_count"]
    assert isinstance(field, serializers.IntegerField)
    assert (field.min_value, field.max_value, field.help_text) == (1, 9, BOARDS.description)
    change = TournamentDetailApi.TournamentDetailInput(data={"board_count": 10}, partial=True)
    assert not change.is_valid() and "board_count" in change.errors
    kept = TournamentDetailApi.TournamentDetailInput(data={"name": "Lagcupen"}, partial=True)
    assert kept.is_valid() and "board_count" not in kept.validated_data
    # the answer shows it after ``format``, with the other options
    names = with_options(TournamentOut.Meta.fields)
    seed = names.index("draw_seed")
    assert names.index("format") < seed
    assert names[seed - 2 : seed + 1] == ("tiebreaks", "board_count", "draw_seed")


def test_the_new_option_is_checked_and_normalised(boards: None) -> None:
    values = format_values("brade", "ww", format="team_knockout", options={"board_count": 4})
    assert values["board_count"] == 4
    knockout = format_values("brade", "ww", format="knockout", options={"board_count": 4})
    assert knockout["board_count"] == 1  # the knockout does not read it
    with pytest.raises(ValidationError) as refused:
        format_values("brade", "ww", format="team_knockout", options={"board_count": 12})
    assert (refused.value.message, refused.value.code) == (
        "Boards: at most 9, not 12.",
        "board_count",
    )
    assert Options().number("board_count") == 1
    assert option_keys()[-1] == "board_count"


def test_the_option_is_gone_once_unregistered() -> None:
    assert "board_count" not in option_keys()
    assert "board_count" not in TournamentForm().fields
