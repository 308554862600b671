"""The options are stored in the tournament's own columns (queries filter on them): every
registered option (``formats.options``) has a column of its kind with its default, and
every column that is no option is named here as a detail of the tournament. So a new
option is its spec, its column and the formats that read it; a column added without a
spec, or a spec without a column, fails here."""

from __future__ import annotations

from django.db import connection, models

from formats.option import OptionKind
from formats.options import option_specs
from tournaments.format_options import stored_value
from tournaments.models import Tournament

# The tournament's columns that are not options of its format.
DETAILS = {
    "id",
    "name",
    "start_date",
    "end_date",
    "venue",
    "game",
    "rules",
    "addons",
    "scale",
    "resignation_policy",
    "status",
    "is_public",
    "results_by",
    "format",
    "half_point_byes",  # set while a Swiss runs (matches.swiss_byes)
    "half_point_byes_until",
    "tiebreak_lots",
    "draw_seed",
    "clock_per_point",  # the time control: any format's (tournaments.time_control)
    "clock_delay",
    "created_at",
    "version",
    "changed_at",
    "whole_version",
}
INTEGERS = (models.IntegerField, models.SmallIntegerField, models.PositiveSmallIntegerField)


def _columns() -> dict[str, models.Field[object, object]]:
    return {
        field.name: field
        for field in Tournament._meta.get_fields()
        if isinstance(field, models.Field) and field.concrete and not field.many_to_many
    }


def test_every_column_is_an_option_or_a_detail() -> None:
    options = {spec.key for spec in option_specs()}
    assert not options & DETAILS
    assert set(_columns()) == options | DETAILS


def test_every_option_has_a_column_of_its_kind_and_default() -> None:
    columns = _columns()
    for spec in option_specs():
        column = columns[spec.key]
        assert column.get_default() == stored_value(spec, spec.default), spec.key
        match spec.kind:
            case OptionKind.FLAG:
                assert isinstance(column, models.BooleanField) and not column.null, spec.key
            case OptionKind.NUMBER | OptionKind.OPTIONAL_NUMBER:
                assert isinstance(column, INTEGERS), spec.key
                assert column.null == (spec.kind == OptionKind.OPTIONAL_NUMBER), spec.key
                # the bounds fit what the column stores
                assert spec.minimum is not None and spec.maximum is not None
                low, high = connection.ops.integer_field_range(column.get_internal_type())
                # a database without a range (None) stores any integer
                low = spec.minimum if low is None else low
                high = spec.maximum if high is None else high
                assert low <= spec.minimum and spec.maximum <= high, spec.key
            case OptionKind.TIEBREAKS:
                assert isinstance(column, models.JSONField) and not column.null, spec.key
