"""The tournament options on the creation form, built from their registry
(``formats.options``): each option's fields, their names, and the option's value from
the cleaned form.

A flag is a checkbox; a number, optional or not, an integer box (bounded only by what the
database stores: the service checks the option's bounds, and its words show at the
field); the tiebreak chain :data:`TIEBREAK_PLACES` choices, ``tiebreak_1`` …, each a
tiebreak or nothing. The label and help are the option's, translated here; the chain's
places are labelled by number and its help shows at the first.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, assert_never

from django import forms
from django.utils.translation import gettext_lazy

from core.bounds import DbIntegerFormField
from formats.option import OptionKind, OptionSpec
from matches.stage_text import tiebreak_name

__all__ = ["TIEBREAK_PLACES", "option_field_names", "option_form_fields", "option_value"]

# How many tiebreaks the form offers.
TIEBREAK_PLACES = 4
TIEBREAK_LABELS = (
    gettext_lazy("Tiebreak 1"),
    gettext_lazy("Tiebreak 2"),
    gettext_lazy("Tiebreak 3"),
    gettext_lazy("Tiebreak 4"),
)
assert len(TIEBREAK_LABELS) == TIEBREAK_PLACES


def option_field_names(spec: OptionSpec) -> tuple[str, ...]:
    """The names of the option's fields (its key; the tiebreak chain's places)."""
    if spec.kind == OptionKind.TIEBREAKS:
        return tuple(f"tiebreak_{place}" for place in range(1, TIEBREAK_PLACES + 1))
    return (spec.key,)


def option_form_fields(spec: OptionSpec) -> dict[str, forms.Field]:
    """The option's fields by name (module docstring)."""
    label, help_text = gettext_lazy(spec.label), gettext_lazy(spec.help)
    match spec.kind:
        case OptionKind.FLAG:
            return {
                spec.key: forms.BooleanField(
                    label=label, required=False, initial=spec.default, help_text=help_text
                )
            }
        case OptionKind.NUMBER | OptionKind.OPTIONAL_NUMBER:
            # left out: the option's default (an optional number: decided later)
            return {spec.key: DbIntegerFormField(label=label, required=False, help_text=help_text)}
        case OptionKind.TIEBREAKS:
            return {
                name: forms.ChoiceField(
                    label=place_label,
                    choices=partial(_tiebreak_choices, spec.choices),
                    required=False,
                    help_text=help_text if place == 0 else "",
                )
                for place, (name, place_label) in enumerate(
                    zip(option_field_names(spec), TIEBREAK_LABELS, strict=True)
                )
            }
        case _:
            assert_never(spec.kind)


def option_value(spec: OptionSpec, cleaned: Mapping[str, Any]) -> Any:
    """The option's value from the form's ``cleaned_data``, for the service."""
    match spec.kind:
        case OptionKind.FLAG:
            return bool(cleaned.get(spec.key))
        case OptionKind.NUMBER:
            value = cleaned.get(spec.key)
            return spec.default if value is None else value
        case OptionKind.OPTIONAL_NUMBER:
            return cleaned.get(spec.key)
        case OptionKind.TIEBREAKS:
            chosen = [cleaned.get(name) or "" for name in option_field_names(spec)]
            return [key for key in chosen if key] or None
        case _:
            assert_never(spec.kind)


def _tiebreak_choices(keys: tuple[str, ...]) -> list[tuple[str, str]]:
    """Nothing, or one of the chain's tiebreaks by name, in the reader's language."""
    return [("", "—"), *((key, tiebreak_name(key)) for key in keys)]
