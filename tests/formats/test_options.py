"""formats.options: each option declared once, with its kind, default and bounds; a
tournament's values of them (``Options``) follow the registry, a plug-in's option too."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from formats import formats
from formats.option import OptionKind, OptionSpec
from formats.options import (
    Options,
    UnknownOptionError,
    option_for,
    option_keys,
    option_specs,
    register,
    unknown_options,
    unregister,
)


def spec(**fields: object) -> OptionSpec:
    values: dict[str, object] = {
        "key": "board_count",
        "kind": OptionKind.NUMBER,
        "default": 1,
        "label": "Boards",
        "help": "How many boards.",
        "description": "how many boards",
        "minimum": 1,
        "maximum": 9,
    }
    return OptionSpec(**(values | fields))  # type: ignore[arg-type]


@pytest.fixture
def board_count() -> Iterator[OptionSpec]:
    """A throwaway option, registered for one test."""
    option = register(spec())
    yield option
    unregister(option.key)


def test_every_option_a_format_reads_is_declared() -> None:
    for fmt in formats():
        assert fmt.options <= set(option_keys()), fmt.key
    # and every declared option is read by some format
    assert set(option_keys()) == set().union(*(fmt.options for fmt in formats()))


def test_the_registry_keeps_the_declared_order() -> None:
    assert option_keys() == (
        "third_place_match",
        "double_round",
        "progressive_consolation",
        "consolation_third_place",
        "grand_final_reset",
        "groups",
        "group_advance",
        "swiss_rounds",
        "tiebreaks",
    )
    assert [s.key for s in option_specs() if s.older_than_formats] == ["third_place_match"]


def test_a_number_checks_its_bounds() -> None:
    groups = option_for("groups")
    assert (groups.minimum, groups.maximum) == (1, 16)
    assert groups.problem(1) is None and groups.problem(16) is None
    assert groups.problem(0) == "too_small"
    assert groups.problem(17) == "too_large"
    with pytest.raises(TypeError, match="whole number"):
        groups.problem(None)
    with pytest.raises(TypeError, match="whole number"):
        groups.problem(True)
    rounds = option_for("swiss_rounds")
    assert rounds.problem(None) is None and rounds.problem(100) == "too_large"
    assert option_for("double_round").problem(None) is None


def test_a_spec_is_refused_unless_its_parts_fit_its_kind() -> None:
    with pytest.raises(ValueError, match="only a number, has bounds"):
        spec(kind=OptionKind.FLAG, default=False)
    with pytest.raises(ValueError, match="only a number, has bounds"):
        spec(minimum=None)
    with pytest.raises(ValueError, match="cannot default to 0"):
        spec(default=0)
    with pytest.raises(ValueError, match="cannot default to None"):
        spec(default=None)
    with pytest.raises(ValueError, match="only one, has choices"):
        spec(kind=OptionKind.TIEBREAKS, default=(), minimum=None, maximum=None)
    with pytest.raises(ValueError, match="cannot default to 1"):
        spec(kind=OptionKind.FLAG, default=1, minimum=None, maximum=None)


def test_the_registry_refuses_a_taken_key_and_names_the_known() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register(spec(key="groups"))
    with pytest.raises(UnknownOptionError, match="known options: third_place_match"):
        option_for("boards")
    assert unknown_options(["groups", "boards", "aa"]) == ["aa", "boards"]


def test_options_are_every_option_at_its_default_unless_given() -> None:
    options = Options(grand_final_reset=False, tiebreaks=["wins"])  # type: ignore[arg-type]
    assert dict(options) == {
        "third_place_match": False,
        "double_round": False,
        "progressive_consolation": False,
        "consolation_third_place": False,
        "grand_final_reset": False,
        "groups": 1,
        "group_advance": 0,
        "swiss_rounds": None,
        "tiebreaks": ("wins",),
    }
    assert options.flag("grand_final_reset") is False
    assert options.number("groups") == 1 and options.number("swiss_rounds") is None
    assert options.chain("tiebreaks") == ("wins",)
    assert repr(options) == "Options(grand_final_reset=False, tiebreaks=('wins',))"
    with pytest.raises(TypeError, match="is a flag"):
        options.number("grand_final_reset")
    with pytest.raises(TypeError, match="no such tournament options: boards"):
        Options(boards=2)


def test_a_registered_option_is_read_like_the_others(board_count: OptionSpec) -> None:
    class Shaped:
        board_count = 4

    assert option_keys()[-1] == "board_count"
    assert Options().number("board_count") == 1
    assert Options.of(Shaped()).number("board_count") == 4
