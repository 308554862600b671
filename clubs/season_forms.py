"""Forms of the season pages: a new season, its name and dates, its points
rules, an event added.

Points per placing are typed as one line, ``1: 10, 2: 6, 3: 4`` (``=`` also separates a
place from its points; commas, semicolons or new lines separate the places), which is
what a club's secretary copies from the club's rules; stored as ``{"1": 10, …}``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import EventKind, Season
from core.bounds import DbIntegerFormField, db_int_in_range
from tournaments.models import Club, Tournament

if TYPE_CHECKING:  # the stubs are a dev dependency
    from django_stubs_ext import StrOrPromise

_PLACE_RE = re.compile(r"^\s*(\d+)\s*[:=]\s*(\d+)\s*$")
_SEPARATORS = re.compile(r"[,;\n]")


def placings_text(table: dict[str, int]) -> str:
    """``{"1": 10, "2": 6}`` as ``1: 10, 2: 6`` (by place)."""
    return ", ".join(f"{place}: {table[place]}" for place in sorted(table, key=int))


def placings_parse(text: str) -> dict[str, int]:
    """The text of a placings field as the stored table; ``ValidationError`` naming the
    part that is not ``place: points``, or a place given twice."""
    table: dict[str, int] = {}
    for part in _SEPARATORS.split(text):
        if not part.strip():
            continue
        found = _PLACE_RE.match(part)
        if (
            found is None
            or int(found.group(1)) < 1
            or not db_int_in_range(int(found.group(1)))
            or not db_int_in_range(int(found.group(2)))
        ):
            raise forms.ValidationError(
                _("“%(part)s” is not a place and its points, such as “1: 10”.")
                % {"part": part.strip()}
            )
        place = str(int(found.group(1)))
        if place in table:
            raise forms.ValidationError(_("Place %(place)s is given twice.") % {"place": place})
        table[place] = int(found.group(2))
    return table


class PlacingsField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault(
            "help_text", gettext_lazy("For example “1: 10, 2: 6, 3: 4”; empty: no points.")
        )
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        return placings_text(value) if isinstance(value, dict) else value

    def to_python(self, value: Any) -> dict[str, int]:  # type: ignore[override]
        return placings_parse(str(value or ""))


def _points(label: StrOrPromise) -> forms.IntegerField:
    return DbIntegerFormField(label=label, min_value=0, initial=0)


class SeasonForm(forms.Form):
    """The season pages' forms: labels without a colon, as the organiser's forms have
    them (the label sits above its field)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class SeasonRulesForm(SeasonForm):
    """The points rules, one set per kind of event (``Season`` fields of the same names)."""

    tournament_taking_part = _points(gettext_lazy("Tournaments: points for taking part"))
    tournament_match_won = _points(gettext_lazy("Tournaments: points per match won"))
    tournament_placings = PlacingsField(label=gettext_lazy("Tournaments: points per placing"))
    club_night_taking_part = _points(gettext_lazy("Club nights: points for taking part"))
    club_night_match_won = _points(gettext_lazy("Club nights: points per match won"))
    club_night_placings = PlacingsField(label=gettext_lazy("Club nights: points per placing"))

    @classmethod
    def for_season(cls, season: Season, data: Any = None) -> SeasonRulesForm:
        initial = {name: getattr(season, name) for name in cls.base_fields}
        return cls(data, initial=initial)

    def points(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in SeasonRulesForm.base_fields}


class SeasonCreateForm(SeasonRulesForm):
    # A club must be chosen; the list opens on a prompt, not Django's "---------".
    club = forms.ModelChoiceField(
        label=gettext_lazy("Club"),
        queryset=Club.objects.all(),
        empty_label=gettext_lazy("Choose the club"),
    )
    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    start_date = forms.DateField(
        label=gettext_lazy("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label=gettext_lazy("Last day"), widget=forms.DateInput(attrs={"type": "date"})
    )

    field_order = ("club", "name", "start_date", "end_date")


class SeasonDetailsForm(SeasonForm):
    """The season's name and dates, on its edit page (``season_services.season_details_set``
    checks them)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    start_date = forms.DateField(
        label=gettext_lazy("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label=gettext_lazy("Last day"), widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "details")  # the rules form shares the page
        super().__init__(*args, **kwargs)

    @classmethod
    def for_season(cls, season: Season, data: Any = None) -> SeasonDetailsForm:
        initial = {
            "name": season.name,
            "start_date": season.start_date.isoformat(),
            "end_date": season.end_date.isoformat(),
        }
        return cls(data, initial=initial)


class SeasonEventForm(SeasonForm):
    tournament = forms.ModelChoiceField(
        label=gettext_lazy("Tournament"),
        queryset=Tournament.objects.none(),
        empty_label=gettext_lazy("Choose the tournament"),
    )
    kind = forms.ChoiceField(
        label=gettext_lazy("Counts as"),
        choices=(
            (EventKind.TOURNAMENT, gettext_lazy("tournament")),
            (EventKind.CLUB_NIGHT, gettext_lazy("club night")),
        ),
        initial=EventKind.TOURNAMENT,
    )

    def __init__(self, *args: Any, tournaments: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = tournaments
