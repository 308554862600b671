"""The teams pages' forms: they read what was typed; the rules are the services'
(``teams.team_services``, ``teams.rosters``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from teams.models import TEAM_NAME_LENGTH
from teams.selectors import RosterLine
from tournaments.models import DEFAULT_GAME, Club, Player, game_choices

__all__ = ["CaptainsForm", "OrderForm", "PlayerAddForm", "TeamCreateForm", "TeamRenameForm"]


class TeamRenameForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Team name"), max_length=TEAM_NAME_LENGTH)


class TeamCreateForm(TeamRenameForm):
    club = forms.ModelChoiceField(
        label=gettext_lazy("Club"),
        queryset=Club.objects.order_by("name"),
        help_text=gettext_lazy("The team plays the club's own players."),
    )
    game = forms.ChoiceField(
        label=pgettext_lazy("the game played", "Game"),
        choices=game_choices,
        initial=DEFAULT_GAME,
        help_text=gettext_lazy("Its ratings order the boards."),
    )


class CaptainsForm(forms.Form):
    usernames = forms.CharField(
        label=gettext_lazy("Captains"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy(
            "User names, separated by commas or spaces. The captains keep the team's roster. "
            "Leave empty for none."
        ),
    )

    def clean_usernames(self) -> list[Any]:
        names = list(
            dict.fromkeys(n for n in re.split(r"[\s,;]+", self.cleaned_data["usernames"]) if n)
        )
        users = {u.get_username(): u for u in get_user_model().objects.filter(username__in=names)}
        unknown = [n for n in names if n not in users]
        if unknown:
            raise forms.ValidationError(
                ngettext(
                    "No user is called %(names)s. Check the spelling; a captain needs an "
                    "account first.",
                    "No users are called %(names)s. Check the spelling; a captain needs an "
                    "account first.",
                    len(unknown),
                )
                % {"names": ", ".join(f"“{n}”" for n in unknown)}
            )
        return [users[n] for n in names]


class PlayerAddForm(forms.Form):
    player = forms.ModelChoiceField(label=gettext_lazy("Player"), queryset=Player.objects.none())
    reserve = forms.BooleanField(label=gettext_lazy("As a reserve"), required=False)

    def __init__(self, data: Any = None, *, players: QuerySet[Player]) -> None:
        super().__init__(data)
        field = self.fields["player"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = players


@dataclass(frozen=True)
class OrderRow:
    line: RosterLine
    board: forms.BoundField
    reserve: forms.BoundField
    up: bool
    down: bool


class OrderForm(forms.Form):
    """The numbered order: one board number and one reserve box per player on the roster
    (``board_<id>``, ``reserve_<id>``). ``order()`` is the players by the numbers typed,
    which must differ; whether that order is a roster's is the service's to say."""

    def __init__(self, data: Any = None, *, lines: list[RosterLine]) -> None:
        super().__init__(data)
        self.lines = lines
        for line in lines:
            pk = line.player.pk
            self.fields[f"board_{pk}"] = forms.IntegerField(
                label=_("Board of %(player)s") % {"player": line.player.name},
                min_value=1,
                max_value=999,
                initial=line.board,
            )
            self.fields[f"reserve_{pk}"] = forms.BooleanField(
                label=_("%(player)s is a reserve") % {"player": line.player.name},
                required=False,
                initial=line.reserve,
            )

    def rows(self) -> list[OrderRow]:
        """Each line with its two fields and whether it may move up or down (within the
        regular boards or within the reserves: ``teams.rosters`` T6, which decides)."""
        lines = self.lines
        return [
            OrderRow(
                line=line,
                board=self[f"board_{line.player.pk}"],
                reserve=self[f"reserve_{line.player.pk}"],
                up=i > 0 and lines[i - 1].reserve == line.reserve,
                down=i + 1 < len(lines) and lines[i + 1].reserve == line.reserve,
            )
            for i, line in enumerate(lines)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        numbers = [data.get(f"board_{line.player.pk}") for line in self.lines]
        if None not in numbers and len(set(numbers)) != len(numbers):
            raise forms.ValidationError(_("Give each player a board number of their own."))
        return data

    def order(self) -> list[int]:
        return sorted(
            (line.player.pk for line in self.lines),
            key=lambda pk: self.cleaned_data[f"board_{pk}"],
        )

    def reserves(self) -> list[int]:
        return [ln.player.pk for ln in self.lines if self.cleaned_data[f"reserve_{ln.player.pk}"]]
