"""The tournament options at the API's edge, built from their registry
(``formats.options``): their fields in the input serializers (creating a tournament,
changing one), their place and words in its objects, and their values in its examples.

Each option's field follows its kind: a flag is a boolean, a number an integer within the
option's bounds (the schema's minimum and maximum), an optional number the same or null,
the tiebreak chain a list of the choosable tiebreaks or null (the format's usual chain).
Creating, a left-out option takes its default (the chain: null); changing, it is kept.
The schema's description is the option's ``description``.

Decision: an option older than the formats (``OptionSpec.older_than_formats``: the match
for third place) keeps its place after ``is_public``, before ``results_by`` and ``format``;
every other option follows ``format``, in the registry's order. So the tournament's
objects keep the order of their keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar, assert_never

from rest_framework import serializers

from core.bounds import DbIntegerField
from formats.option import OptionKind, OptionSpec
from formats.options import option_specs
from tournaments.format_options import stored_value

__all__ = ["option_defaults", "option_input_fields", "with_option_fields", "with_options"]

T = TypeVar("T")

# The fields the options are placed around (module decision).
BEFORE_OLDER = "results_by"
AFTER_NEWER = "format"


def option_input_fields(*, change: bool) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    """Every option's input field, by key, in the registry's order; ``change``: for a
    change of a tournament (every field optional, none with a default)."""
    return {spec.key: _input_field(spec, change=change) for spec in option_specs()}


def _input_field(spec: OptionSpec, *, change: bool) -> serializers.Field[Any, Any, Any, Any]:
    nullable = spec.kind in (OptionKind.OPTIONAL_NUMBER, OptionKind.TIEBREAKS)
    given: dict[str, Any] = {"help_text": spec.description}
    if nullable:
        given |= {"allow_null": True, "required": False}
    if change:
        given["required"] = False
    else:
        given["default"] = None if nullable else spec.default
    match spec.kind:
        case OptionKind.FLAG:
            return serializers.BooleanField(**given)
        case OptionKind.NUMBER | OptionKind.OPTIONAL_NUMBER:
            return DbIntegerField(min_value=spec.minimum, max_value=spec.maximum, **given)
        case OptionKind.TIEBREAKS:
            return serializers.ListField(child=serializers.ChoiceField(spec.choices), **given)
        case _:
            assert_never(spec.kind)


def with_options(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` (a tournament's field names around the options) with every option's key
    in its place (module decision)."""
    return tuple(with_option_fields(dict.fromkeys(names), dict.fromkeys(_keys())))


def with_option_fields(fields: Mapping[str, T], options: Mapping[str, T]) -> dict[str, T]:
    """``fields`` with ``options`` (by option key) in their places (module decision)."""
    if BEFORE_OLDER not in fields or AFTER_NEWER not in fields:
        raise ValueError(f"the options are placed around {BEFORE_OLDER} and {AFTER_NEWER}")
    older = {spec.key for spec in option_specs() if spec.older_than_formats}
    placed: dict[str, T] = {}
    for name, field in fields.items():
        if name == BEFORE_OLDER:
            placed |= {key: value for key, value in options.items() if key in older}
        placed[name] = field
        if name == AFTER_NEWER:
            placed |= {key: value for key, value in options.items() if key not in older}
    return placed


def option_defaults() -> dict[str, Any]:
    """Every option at its default, as a tournament's object shows it (a tournament of a
    format that reads none of them: the API docs' examples)."""
    return {spec.key: stored_value(spec, spec.default) for spec in option_specs()}


def _keys() -> list[str]:
    return [spec.key for spec in option_specs()]
