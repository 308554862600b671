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

from teams.models import TEAM_NAME_LENGTH, Team
from teams.selectors import RosterLine
from tournaments.models import DEFAULT_GAME, Club, Player, game_choices

__all__ = [
    "CaptainsForm",
    "LineUpForm",
    "OrderForm",
    "PlayerAddForm",
    "TeamCreateForm",
    "TeamEntryForm",
    "TeamRenameForm",
    "TeamRulesForm",
]


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


# --- a team stage: its rules, its teams, a line-up ---------------------------------------

CHAIN_PLACES = 5


class TeamRulesForm(forms.Form):
    """The team rules (``teams.competitions.competition_rules_set``): boards, match points
    and the tiebreaks after match points, one select per place in the chain."""

    boards = forms.IntegerField(label=gettext_lazy("Boards per team match"), min_value=1)
    win_points = forms.IntegerField(label=gettext_lazy("Match points for a win"), min_value=0)
    draw_points = forms.IntegerField(label=gettext_lazy("Match points for a draw"), min_value=0)
    loss_points = forms.IntegerField(label=gettext_lazy("Match points for a loss"), min_value=0)

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for place in range(1, CHAIN_PLACES + 1):
            self.fields[f"tiebreak_{place}"] = forms.ChoiceField(
                label=_("Tiebreak %(place)d") % {"place": place},
                choices=[("", "—"), *choices],
                required=False,
            )

    @staticmethod
    def initial_of(competition: Any) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "boards": competition.boards,
            "win_points": competition.win_points,
            "draw_points": competition.draw_points,
            "loss_points": competition.loss_points,
        }
        for place, key in enumerate(competition.chain, start=1):
            initial[f"tiebreak_{place}"] = key
        return initial

    def chain(self) -> list[str]:
        """The chosen tiebreaks in order, the empty places left out (the service refuses
        one chosen twice)."""
        return [
            self.cleaned_data[f"tiebreak_{place}"]
            for place in range(1, CHAIN_PLACES + 1)
            if self.cleaned_data.get(f"tiebreak_{place}")
        ]


class _TeamChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Team) -> str:
        return f"{obj.name} ({obj.club.name}, {obj.season.name})"


class TeamEntryForm(forms.Form):
    """A team to enter, chosen among ``teams`` (``teams.stage_pages.enterable_teams``)."""

    def __init__(self, *args: Any, teams: QuerySet[Team], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"] = _TeamChoiceField(label=_("Team"), queryset=teams)


class LineUpForm(forms.Form):
    """A team's line-up: one select per board, a player of the roster or nobody."""

    def __init__(
        self,
        *args: Any,
        boards: int,
        roster: list[RosterLine],
        chosen: list[Player | None],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("nobody"))] + [
            (
                str(line.player.pk),
                _("%(name)s (reserve)") % {"name": line.player.name}
                if line.reserve
                else line.player.name,
            )
            for line in roster
        ]
        self.players = {line.player.pk: line.player for line in roster}
        for board in range(1, boards + 1):
            given = chosen[board - 1] if board <= len(chosen) else None
            self.fields[f"board_{board}"] = forms.ChoiceField(
                label=_("Board %(board)d") % {"board": board},
                choices=choices,
                required=False,
                initial=str(given.pk) if given is not None else "",
            )
        self.boards = boards

    def line_up(self) -> list[Player | None]:
        picked = [self.cleaned_data.get(f"board_{b}") or "" for b in range(1, self.boards + 1)]
        return [self.players[int(p)] if p else None for p in picked]


class RoundScheduleForm(forms.Form):
    """A round's day and its line-ups' deadline (``teams.schedule``), either left empty."""

    date = forms.DateField(
        label=_("Day played"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    deadline = forms.DateTimeField(
        label=_("Line-ups by"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
